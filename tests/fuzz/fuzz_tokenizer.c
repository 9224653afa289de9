/* fuzz_tokenizer.c — UTF-8 decoding and every tokenizer mode on arbitrary bytes.
 *
 * Properties: a decoded sequence re-encodes to the same bytes; utf8_validate agrees with a
 * decode loop and names the first bad byte; tokens are ordered, non-empty, inside the text, on
 * character boundaries (except byte-level BPE pieces marked partial), with ids inside the
 * vocabulary. Every mode runs with the vocabulary it needs, read from $TFVIZ_DATA_DIR; a mode
 * whose data is not installed answers TF_ERR_UNAVAILABLE and nothing else. */
#include <stdlib.h>

#include "fuzz_check.h"
#include "tf_limits.h"
#include "tokenizer.h"
#include "vocab.h"

/* The vocabulary each mode runs with, opened once: one line per mode. A mode missing here runs
 * with the code-point vocabulary (and must then answer TF_ERR_UNAVAILABLE if it needs more). */
static tf_vocab *mode_vocab[TOKENIZER_COUNT];

static void open_vocabs(void)
{
    static int done;
    if (done++)
        return;
    const char *dir = getenv("TFVIZ_DATA_DIR");
    dir = dir ? dir : ".";
    vocab_open_dict(dir, 100000, &mode_vocab[TOKENIZER_WORD]);
    vocab_open_dict(dir, 100000, &mode_vocab[TOKENIZER_CHAR]);
    vocab_open_bpe(dir, "cl100k", &mode_vocab[TOKENIZER_CL100K]);
    vocab_open_bpe(dir, "o200k", &mode_vocab[TOKENIZER_O200K]);
}

static void check_tokens(const tf_vocab *v, tokenizer_kind kind, const char *s, size_t n,
                         int valid, size_t bad_at)
{
    tf_tokens t;
    size_t bad = (size_t)-1;
    tf_status st = tokenizer_split(v, kind, s, n, &t, &bad);
    if (st == TF_ERR_UNAVAILABLE)
        return;
    if (n > TF_MAX_TEXT_BYTES) {
        FUZZ_CHECK(st == TF_ERR_TOO_LONG, "status %d for %zu bytes", st, n);
        return;
    }
    if (!valid) {
        FUZZ_CHECK(st == TF_ERR_UTF8 && bad == bad_at, "status %d, bad %zu, want %zu", st, bad,
                   bad_at);
        return;
    }
    if (st != TF_OK) {
        FUZZ_CHECK(st == TF_ERR_EMPTY || st == TF_ERR_TOO_MANY, "status %d", st);
        FUZZ_CHECK(t.items == NULL && t.n == 0, "tokens left after an error");
        return;
    }
    FUZZ_CHECK(t.n >= 1 && t.n <= TF_MAX_TOKENS, "%zu tokens", t.n);
    uint32_t prev_end = 0;
    for (size_t i = 0; i < t.n; i++) {
        const tf_token *k = &t.items[i];
        FUZZ_CHECK(k->start < k->end && k->end <= n, "token %zu at [%u, %u) of %zu", i, k->start,
                   k->end, n);
        FUZZ_CHECK(k->start >= prev_end, "token %zu overlaps the one before", i);
        prev_end = k->end;
        FUZZ_CHECK(k->id >= 0 && (uint32_t)k->id < vocab_size(v), "id %d", k->id);
        int bpe = kind == TOKENIZER_CL100K || kind == TOKENIZER_O200K; /* rank 1 is a byte */
        FUZZ_CHECK(bpe || ((k->flags & TOKEN_UNK) != 0) == (k->id == VOCAB_UNK),
                   "flags %u for id %d", k->flags, k->id);
        if (!(k->flags & TOKEN_PARTIAL)) {
            FUZZ_CHECK(utf8_validate(s + k->start, k->end - k->start, NULL) == TF_OK,
                       "token %zu is not whole characters", i);
        }
    }
    tokens_free(&t);
    FUZZ_CHECK(t.items == NULL && t.n == 0, "tokens_free leaves a dangling list");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;

    /* 1. decoding: each code point round-trips; the first failure is the validator's offset */
    size_t i = 0, bad_at = size, count = 0;
    while (i < size) {
        uint32_t cp = 0xFFFFFFFF;
        size_t k = utf8_decode(s + i, size - i, &cp);
        if (k == 0) {
            bad_at = i;
            break;
        }
        char enc[4];
        size_t m = utf8_encode(cp, enc);
        FUZZ_CHECK(m == k && memcmp(enc, s + i, k) == 0, "U+%04X at %zu does not round-trip",
                   (unsigned)cp, i);
        FUZZ_CHECK(cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF), "U+%X accepted",
                   (unsigned)cp);
        i += k;
        count++;
    }
    int valid = bad_at == size;
    size_t off = (size_t)-1;
    tf_status st = utf8_validate(s, size, &off);
    FUZZ_CHECK(valid ? st == TF_OK : (st == TF_ERR_UTF8 && off == bad_at),
               "validate %d at %zu, decode loop stops at %zu", st, off, bad_at);
    if (valid)
        FUZZ_CHECK(utf8_count(s, size) == count, "count %zu, want %zu", utf8_count(s, size),
                   count);

    /* 2. every tokenizer, with a vocabulary whose size comes from the input */
    uint32_t vsize = TF_MIN_VOCAB + (size ? (uint32_t)data[0] * 397u : 0);
    tf_vocab *v;
    if (vocab_new_codepoint(vsize, &v) != TF_OK)
        return 0;
    open_vocabs();
    for (int kind = 0; kind < TOKENIZER_COUNT; kind++) {
        check_tokens(v, (tokenizer_kind)kind, s, size, valid, bad_at);
        if (mode_vocab[kind])
            check_tokens(mode_vocab[kind], (tokenizer_kind)kind, s, size, valid, bad_at);
    }
    vocab_free(v);
    return 0;
}
