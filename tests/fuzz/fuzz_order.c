/* fuzz_order.c — the "who does it" file parser (order_task_parse) on arbitrary text, and the
 * order model trained briefly on whatever it accepts.
 *
 * Input: one byte for the seed, then the file's bytes. Properties:
 *  - a refusal has a status that matches its problem, a line inside the text (0 for the whole
 *    file), a column inside the line's limit, a message, and leaves the task empty;
 *  - an accepted task has 2 .. 32 tokens a sentence, one doer inside it, ids inside the
 *    vocabulary (never [UNK]), words that are valid UTF-8 without separators, controls or marks,
 *    both splits non-empty, no sentence in both, pairs in the same split holding the same tokens
 *    with another doer, and its line numbers rising;
 *  - parsing twice gives the same task; writing it (order_task_write) and parsing the output
 *    gives the same sentences per split;
 *  - a small task trains for a few steps on every scheme without a crash, with finite losses,
 *    and its example's attention rows sum to 1. */
#include <math.h>
#include <stdbool.h>

#include "fuzz_check.h"
#include "order_train.h"

static void check_refusal(tf_status st, const order_parse_error *e, const order_task *t,
                          size_t lines)
{
    FUZZ_CHECK(e->problem > ORDER_OK && e->problem < ORDER_PROBLEM_COUNT, "problem %d", e->problem);
    tf_status want;
    switch (e->problem) {
    case ORDER_BAD_UTF8:
        want = TF_ERR_UTF8;
        break;
    case ORDER_BAD_LINE_LONG:
        want = TF_ERR_TOO_LONG;
        break;
    case ORDER_BAD_TOKENS:
    case ORDER_BAD_TOO_MANY:
    case ORDER_BAD_VOCAB:
        want = TF_ERR_TOO_MANY;
        break;
    case ORDER_BAD_FILE_BIG:
        want = TF_ERR_TOO_BIG;
        break;
    case ORDER_BAD_EMPTY:
        want = TF_ERR_EMPTY;
        break;
    default:
        want = TF_ERR_FORMAT;
    }
    FUZZ_CHECK(st == want || st == TF_ERR_NOMEM, "status %d for problem %d", st, e->problem);
    bool whole = e->problem == ORDER_BAD_EMPTY || e->problem == ORDER_BAD_NO_TRAIN ||
                 e->problem == ORDER_BAD_NO_TEST || e->problem == ORDER_BAD_FILE_BIG;
    FUZZ_CHECK(whole ? e->line == 0 : (e->line >= 1 && e->line <= lines), "line %zu of %zu",
               e->line, lines);
    FUZZ_CHECK(e->column <= ORDER_MAX_LINE + 1, "column %zu", e->column);
    bool other = e->problem == ORDER_BAD_CONFLICT || e->problem == ORDER_BAD_IN_BOTH;
    FUZZ_CHECK(other ? (e->other_line >= 1 && e->other_line < e->line) : e->other_line == 0,
               "other line %zu (line %zu)", e->other_line, e->line);
    FUZZ_CHECK(strlen(order_problem_str(e->problem)) > 10, "no message");
    FUZZ_CHECK(t->tok == NULL && t->word == NULL && t->n_sent == 0, "task not emptied");
}

static bool same_multiset(const order_task *t, uint32_t a, uint32_t b)
{
    uint32_t n = order_task_len(t, a);
    if (n != order_task_len(t, b))
        return false;
    /* counts of each token of a, taken away by b */
    int count[ORDER_MAX_TOKENS] = {0};
    const uint32_t *x = order_task_tokens(t, a), *y = order_task_tokens(t, b);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++)
            if (x[j] == x[i]) {
                count[j]++;
                break;
            }
    for (uint32_t i = 0; i < n; i++) {
        bool found = false;
        for (uint32_t j = 0; j < n && !found; j++)
            if (x[j] == y[i] && count[j] > 0)
                count[j]--, found = true;
        if (!found)
            return false;
    }
    return true;
}

static void check_word(const char *w)
{
    size_t n = strlen(w);
    FUZZ_CHECK(n >= 1 && n <= ORDER_MAX_WORD, "word of %zu bytes", n);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t k = utf8_decode(w + i, n - i, &cp);
        FUZZ_CHECK(k > 0, "invalid UTF-8 in a word");
        FUZZ_CHECK(cp != ' ' && cp != '\t' && cp != 0x3000 && cp != 0xA0 && cp != '*' &&
                       cp != 0xFF0A && cp >= 0x20 && cp != 0x7F && !(cp >= 0x80 && cp < 0xA0),
                   "U+%04X in a word", cp);
        i += k;
    }
}

static void check_task(const order_task *t, size_t lines)
{
    FUZZ_CHECK(t->n_sent >= 2 && t->n_split[0] >= 1 && t->n_split[1] >= 1 &&
                   t->n_split[0] + t->n_split[1] == t->n_sent,
               "%u sentences, %u + %u", t->n_sent, t->n_split[0], t->n_split[1]);
    FUZZ_CHECK(t->V >= 2 && t->V <= ORDER_MAX_VOCAB && strcmp(t->word[0], "[UNK]") == 0,
               "vocabulary of %u", t->V);
    for (uint32_t i = 1; i < t->V; i++)
        check_word(t->word[i]);
    FUZZ_CHECK(t->example < t->n_sent && t->split[t->example] == ORDER_TEST, "example %u",
               t->example);
    for (uint32_t s = 0; s < t->n_sent; s++) {
        uint32_t L = order_task_len(t, s);
        FUZZ_CHECK(L >= 2 && L <= ORDER_MAX_TOKENS && (int)L <= t->max_len, "length %u", L);
        FUZZ_CHECK(t->doer[s] < L, "doer %u of %u", t->doer[s], L);
        FUZZ_CHECK(t->split[s] <= ORDER_TEST && t->shape[s] == ORDER_USER, "split, shape");
        FUZZ_CHECK(t->line[s] >= 1 && t->line[s] <= lines &&
                       (s == 0 || t->line[s] > t->line[s - 1]),
                   "line %u", t->line[s]);
        for (uint32_t p = 0; p < L; p++)
            FUZZ_CHECK(order_task_tokens(t, s)[p] >= 1 && order_task_tokens(t, s)[p] < t->V,
                       "id %u", order_task_tokens(t, s)[p]);
        int32_t q = t->pair[s];
        if (q >= 0) {
            FUZZ_CHECK((uint32_t)q < t->n_sent && t->split[q] == t->split[s], "pair %d", q);
            FUZZ_CHECK(same_multiset(t, s, (uint32_t)q), "pair %d: other tokens", q);
            FUZZ_CHECK(order_task_tokens(t, s)[t->doer[s]] !=
                           order_task_tokens(t, (uint32_t)q)[t->doer[q]],
                       "pair %d: the same doer", q);
        }
        /* no sentence in both splits (quadratic: small inputs only) */
        for (uint32_t r = 0; r < s && t->n_sent <= 512; r++)
            if (t->split[r] != t->split[s] && order_task_len(t, r) == L)
                FUZZ_CHECK(memcmp(order_task_tokens(t, r), order_task_tokens(t, s),
                                  L * sizeof(uint32_t)) != 0,
                           "lines %u and %u in both splits", t->line[r], t->line[s]);
    }
}

static void same_sentences(const order_task *a, const order_task *b)
{
    FUZZ_CHECK(a->n_sent == b->n_sent && a->n_tok == b->n_tok, "sizes differ");
    for (int sp = ORDER_TRAIN; sp <= ORDER_TEST; sp++) {
        uint32_t i = 0, j = 0;
        for (;;) {
            while (i < a->n_sent && a->split[i] != sp)
                i++;
            while (j < b->n_sent && b->split[j] != sp)
                j++;
            if (i == a->n_sent || j == b->n_sent)
                break;
            uint32_t L = order_task_len(a, i);
            FUZZ_CHECK(L == order_task_len(b, j) && a->doer[i] == b->doer[j], "sentence %u", i);
            for (uint32_t p = 0; p < L; p++)
                FUZZ_CHECK(strcmp(a->word[order_task_tokens(a, i)[p]],
                                  b->word[order_task_tokens(b, j)[p]]) == 0,
                           "word %u of sentence %u", p, i);
            i++, j++;
        }
        FUZZ_CHECK(i == a->n_sent && j == b->n_sent, "split %d differs", sp);
    }
}

static void train_briefly(const order_task *t, uint64_t seed)
{
    order_train_cfg c;
    order_train_defaults(&c);
    c.model.heads = 1 + (int)(seed & 1);
    c.model.d_model = 4 * c.model.heads;
    c.model.seed = seed;
    c.epochs = 1;
    c.batch = 4;
    static const tf_scheme all[] = {SCHEME_NONE, SCHEME_SINUSOIDAL, SCHEME_LEARNED,
                                    SCHEME_ROPE, SCHEME_ALIBI,      SCHEME_T5};
    order_trainer *tr;
    const char *why;
    tf_status st = order_trainer_new(&tr, t, &c, all, 6, &why);
    if (st == TF_ERR_NOMEM)
        return;
    FUZZ_CHECK(st == TF_OK, "trainer refused: %s", why ? why : "?");
    for (int i = 0; i < 6 && order_trainer_step(tr, 1); i++)
        ;
    for (size_t k = 0; k < 6; k++) {
        size_t n;
        const order_point *pt = order_trainer_curve(tr, k, &n);
        for (size_t i = 0; i < n; i++)
            FUZZ_CHECK(isfinite(pt[i].loss) && pt[i].train_acc >= 0 && pt[i].train_acc <= 1,
                       "point %zu of scheme %zu", i, k);
        order_view v;
        const uint32_t *tok = order_task_tokens(t, t->example);
        int L = (int)order_task_len(t, t->example);
        FUZZ_CHECK(order_trainer_inspect(tr, k, tok, L, &v) == TF_OK, "inspect");
        for (int p = 0; p < L; p++) {
            double row = 0.0;
            for (int j = 0; j < L; j++)
                row += v.attn[0][p][j];
            FUZZ_CHECK(fabs(row - 1.0) < 1e-9 && isfinite(v.score[p]), "row %d", p);
        }
    }
    order_trainer_free(tr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint64_t seed = data[0];
    const char *text = (const char *)data + 1;
    size_t len = size - 1, lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    order_task t, u;
    order_parse_error e;
    tf_status st = order_task_parse(&t, text, len, seed, &e);
    if (st == TF_ERR_NOMEM)
        return 0;
    if (st != TF_OK) {
        check_refusal(st, &e, &t, lines);
        return 0;
    }
    check_task(&t, lines);
    /* the same text parses to the same task */
    FUZZ_CHECK(order_task_parse(&u, text, len, seed, &e) == TF_OK, "second parse");
    FUZZ_CHECK(memcmp(t.split, u.split, t.n_sent) == 0 && memcmp(t.pair, u.pair, t.n_sent * 4) == 0,
               "second parse differs");
    order_task_free(&u);
    /* written and read back: the same sentences per split */
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    FUZZ_CHECK(f && order_task_write(&t, f) == TF_OK, "write");
    fclose(f);
    st = order_task_parse(&u, out, out_len, seed, &e);
    FUZZ_CHECK(st == TF_OK, "the written task does not parse: problem %d at line %zu", e.problem,
               e.line);
    same_sentences(&t, &u);
    order_task_free(&u);
    free(out);
    if (t.n_sent <= 64)
        train_briefly(&t, seed);
    order_task_free(&t);
    return 0;
}
