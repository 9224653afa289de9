/* session.c — the corpus, the model on it, the watched pairs and vector files. */
#include "learn/learn.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/strings.h"

extern const unsigned char tf_corpus_zh[], tf_corpus_en[];
extern const size_t tf_corpus_zh_len, tf_corpus_en_len;

#define MAX_CORPUS_BYTES (1ull << 31) /* 2 GiB of text */

const char *learn_builtin_corpus(bool english, size_t *len)
{
    *len = english ? tf_corpus_en_len : tf_corpus_zh_len;
    return (const char *)(english ? tf_corpus_en : tf_corpus_zh);
}

bool learn_english(bool lang_en, const char *sentence, size_t len)
{
    return lang_en && !(sentence && corpus_has_cjk(sentence, len));
}

/* ---------------------------------------------------------------------------------------------
 * The corpus */

static int read_file(const char *path, char **buf, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        err_say("cannot open the corpus %s: %s; give a UTF-8 text file with --corpus.", path,
                  strerror(errno));
        return 2;
    }
    size_t cap = 1 << 20, n = 0;
    char *b = malloc(cap);
    for (;;) {
        if (!b) {
            fclose(fp);
            err_say("out of memory reading the corpus %s.", path);
            return 2;
        }
        size_t was = n;
        n += fread(b + n, 1, cap - n, fp);
        const char *nul = memchr(b + was, '\0', n - was);
        if (nul) { /* not text (/dev/zero, a binary file): said at once, not after 2 GiB */
            err_say("the corpus %s holds a NUL byte at offset %zu, so it is not a text file; "
                    "give a UTF-8 text file with --corpus.", path, (size_t)(nul - b));
            free(b);
            fclose(fp);
            return 2;
        }
        if (n < cap)
            break;
        if (cap >= MAX_CORPUS_BYTES) {
            free(b);
            fclose(fp);
            err_say("the corpus %s is larger than 2 GiB; train on a part of it.", path);
            return 2;
        }
        char *nb = realloc(b, cap * 2);
        if (!nb)
            free(b);
        b = nb;
        cap *= 2;
    }
    int err = ferror(fp) ? errno : 0;
    fclose(fp);
    if (err) {
        free(b);
        err_say("cannot read the corpus %s: %s; give a UTF-8 text file with --corpus.", path,
                  strerror(err));
        return 2;
    }
    *buf = b;
    *len = n;
    return 0;
}

/* Read `path` (NULL: the built-in corpus), cut it into words (`split`: CORPUS_AUTO uses spaces
 * when the text is already segmented, tokenizer `kind` otherwise) and finish it with min_count.
 * 0, or the exit status after saying what was wrong. */
static int cut_corpus(const char *path, bool english, const tf_config *cfg, corpus_split split,
                      tokenizer_kind kind, int min_count, w2v_corpus **out, corpus_info *info,
                      tf_status *why)
{
    char *owned = NULL;
    const char *text;
    size_t len;
    const char *name = path ? path : "the built-in corpus";
    if (path) {
        int rc = read_file(path, &owned, &len);
        if (rc) {
            *why = TF_ERR_IO;
            return rc;
        }
        text = owned;
    } else {
        text = learn_builtin_corpus(english, &len);
    }
    /* the tokenizer's vocabulary, only when the text is not already cut by spaces */
    tf_vocab *v = NULL;
    if (split == CORPUS_TOKENIZER || (split == CORPUS_AUTO && corpus_detect(text, len) ==
                                                                   CORPUS_TOKENIZER)) {
        tf_config vc = *cfg;
        vc.tokenizer = kind;
        tf_status vs = analysis_vocab(&vc, &v);
        if (vs != TF_OK && kind != TOKENIZER_WORD) {
            err_say("the %s tokenizer's data is %s in %s; use --tokenizer word or char.",
                      tokenizer_name(kind), vs == TF_ERR_FORMAT ? "damaged" : "missing",
                      cfg->data_dir ? cfg->data_dir : "(none)");
            free(owned);
            *why = vs;
            return 2;
        }
        if (vs != TF_OK)
            v = NULL; /* word mode without its dictionary: corpus_load falls back to characters */
    }
    w2v_corpus *c;
    tf_status st = w2v_corpus_new(&c);
    if (st == TF_OK)
        st = corpus_load(c, v, text, len, split, kind, info);
    free(owned);
    vocab_free(v);
    if (st == TF_OK && info->fell_back) {
        char note[600];
        txt_gloss_fmt(note, sizeof note, T_G_CUT_CHARS, cfg->data_dir ? cfg->data_dir : "(none)");
        err_say("%s", note);
    }
    if (st == TF_OK)
        st = w2v_corpus_finish(c, min_count);
    if (st != TF_OK) {
        if (st == TF_ERR_UTF8) /* info is zeroed by corpus_load before anything can fail */
            /* NOLINTNEXTLINE(clang-analyzer-core.CallAndMessage) */
            err_say("%s is not valid UTF-8 (line %zu, byte offset %zu); save it as UTF-8.", name,
                      info->bad_line, info->bad_offset);
        else if (st == TF_ERR_EMPTY)
            err_say("%s has no word seen at least %d times (--min-count); give more text or "
                      "lower --min-count.",
                      name, min_count);
        else
            err_say("cannot read %s: %s.", name, tf_status_str(st));
        w2v_corpus_free(c);
        *why = st;
        return 2;
    }
    *out = c;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * The words followed: the watched pairs and the probes */

/* The words of the two built-in corpora, kind for kind (assets/make_corpus.py and
 * make_corpus_en.py). */
static const learn_words words_zh = {
    .pairs = {{"爱", "喜欢"}, {"猫", "狗"}, {"北京", "上海"}, {"苹果", "香蕉"}, {"学习", "读书"},
              {"爱", "北京"}},
    .probes = {"爱", "猫", "北京", "老师", "苹果", "学习"},
};
static const learn_words words_en = {
    .english = true,
    .pairs = {{"love", "like"}, {"cat", "dog"}, {"London", "Paris"}, {"apple", "banana"},
              {"learning", "reading"}, {"love", "London"}},
    .probes = {"love", "cat", "London", "teacher", "apple", "learning"},
};

static bool has_pair(const w2v_model *m, const learn_words *w, int i)
{
    for (int k = 0; k < 2; k++)
        if (w2v_lookup(m, w->pairs[i][k], strlen(w->pairs[i][k])) < 0)
            return false;
    return true;
}

/* The words of the language asked for, unless the corpus (a --corpus file) holds the other's
 * first pair and not its own. */
static const learn_words *pick_words(const w2v_model *m, bool english)
{
    const learn_words *want = english ? &words_en : &words_zh;
    const learn_words *other = english ? &words_zh : &words_en;
    return !has_pair(m, want, 0) && has_pair(m, other, 0) ? other : want;
}

const char *learn_pair(const learn_session *L, int i, int k)
{
    return L->words->pairs[i][k];
}

bool learn_pair_ids(const learn_session *L, int i, int32_t ids[2])
{
    for (int k = 0; k < 2; k++)
        ids[k] = w2v_lookup(&L->m, learn_pair(L, i, k), strlen(learn_pair(L, i, k)));
    return ids[0] >= 0 && ids[1] >= 0;
}

/* ---------------------------------------------------------------------------------------------
 * The session */

int learn_open(learn_session *L, const learn_request *r)
{
    memset(L, 0, sizeof *L);
    const char *why;
    if ((L->failed = w2v_params_check(&r->params, &why)) != TF_OK) {
        err_say("%s; see tfviz --help.", why);
        return 2;
    }
    /* --tokenizer T cuts the corpus with T even when it is segmented (char vectors for
     * char-mode sentences); without it, spaces when present, else word mode (characters when
     * unavailable) */
    corpus_split split = r->tokenizer_set ? CORPUS_TOKENIZER : CORPUS_AUTO;
    tokenizer_kind kind = r->tokenizer_set ? r->cfg->tokenizer : TOKENIZER_WORD;
    int rc = cut_corpus(r->corpus_path, r->english, r->cfg, split, kind, r->params.min_count, &L->corpus,
                        &L->info, &L->failed);
    if (rc)
        return rc;
    tf_status st = w2v_model_init(&L->m, L->corpus, &r->params);
    if (st != TF_OK) {
        L->failed = st;
        err_say("cannot set up training: %s.", tf_status_str(st));
        w2v_corpus_free(L->corpus);
        L->corpus = NULL;
        return 2;
    }
    L->source = r->corpus_path ? r->corpus_path : "vectors trained on the built-in corpus";
    L->words = pick_words(&L->m, r->english);
    return 0;
}

double learn_work(const learn_session *L, const w2v_params *p)
{
    double tokens = (double)w2v_corpus_tokens(L->corpus);
    double sentences = (double)w2v_corpus_sentences(L->corpus);
    double per_sentence = sentences > 0 ? tokens / sentences : tokens;
    double context = fmin((double)p->window + 1, fmax(per_sentence, 1));
    return (double)p->epochs * tokens *
           (150 + 0.45 * context * ((double)p->negative + 1) * (double)p->dim);
}

void learn_close(learn_session *L)
{
    if (L->corpus) {
        w2v_model_free(&L->m);
        w2v_corpus_free(L->corpus);
    }
    L->corpus = NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Vector files */

int learn_read_vectors(const char *path, long limit, tf_vectors *v)
{
    vectors_diag d;
    tf_status st = vectors_read(path, VECTORS_AUTO, (uint32_t)limit,
                                v, &d);
    if (st == TF_OK)
        return 0;
    if (st == TF_ERR_IO) {
        err_say("cannot read %s: %s; give a word2vec .vec or .bin file with --vectors.",
                  path, strerror(errno));
        return d.what ? 1 : 2;
    }
    if (st == TF_ERR_NOMEM) {
        err_say("out of memory loading %s; read fewer rows with --vectors-limit N.",
                  path);
        return 2;
    }
    if (strstr(d.what, "4 GiB"))
        err_say("%s: %s; read its first rows only with --vectors-limit N (for example 200000).",
                  path, d.what);
    else if (d.format == VECTORS_BINARY)
        err_say("%s, byte %llu: %s; this is not a valid word2vec binary file.", path,
                  (unsigned long long)d.offset, d.what);
    else
        err_say("%s, line %lu: %s; this is not a valid word2vec text file (\"N dim\" then "
                  "\"word v1 ... vdim\" per line).",
                  path, d.line, d.what);
    return 2;
}
