/* fuzz_learnfiles.c — the word-vector file reader and the corpus reader on arbitrary bytes, and
 * what the printed word lists show of what they read.
 *
 * The first byte chooses the reader: a word2vec text file, a binary file, either (detected), a
 * corpus cut by spaces, or a corpus cut into characters. Properties: no crash and no sanitizer
 * report; every word read, shown with emit_safe_text (as --print neighbors, pca and --train's
 * summary show words), is valid UTF-8 without a C0 or C1 control, DEL, or a bidirectional or
 * line-separator format character, so no file can send an escape sequence to a terminal. */
#include "core/emit.h"
#include "corpus.h"
#include "fuzz_check.h"
#include "vectors.h"
#include "word2vec.h"

static void check_shown(const char *word)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return;
    emit_safe_text(m, word, strlen(word));
    fclose(m);
    FUZZ_CHECK(utf8_validate(buf, len, NULL) == TF_OK, "shown word is not UTF-8");
    for (size_t i = 0; i < len;) {
        uint32_t cp = 0;
        size_t n = utf8_decode(buf + i, len - i, &cp);
        FUZZ_CHECK(n > 0, "undecodable byte at %zu", i);
        int control = cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0) || cp == 0x200E ||
                      cp == 0x200F || (cp >= 0x2028 && cp <= 0x202E) ||
                      (cp >= 0x2066 && cp <= 0x2069);
        FUZZ_CHECK(!control, "U+%04X reaches the terminal", (unsigned)cp);
        i += n;
    }
    free(buf);
}

static void vectors_case(const uint8_t *data, size_t size, vectors_format fmt)
{
    if (size == 0)
        return;
    FILE *fp = fmemopen((void *)data, size, "rb");
    if (!fp)
        return;
    tf_vectors v;
    vectors_diag d;
    if (vectors_read_fp(fp, fmt, 64, &v, &d) == TF_OK) {
        for (uint32_t i = 0; i < v.n; i++)
            check_shown(v.words[i]);
        vectors_free(&v);
    }
    fclose(fp);
}

static void corpus_case(const uint8_t *data, size_t size, corpus_split split)
{
    w2v_corpus *c;
    if (w2v_corpus_new(&c) != TF_OK)
        return;
    corpus_info info;
    w2v_params p;
    w2v_params_defaults(&p);
    p.dim = 2;
    p.min_count = 1;
    if (corpus_load(c, NULL, (const char *)data, size, split, TOKENIZER_CHAR, &info) == TF_OK &&
        w2v_corpus_finish(c, 1) == TF_OK) {
        w2v_model m;
        if (w2v_model_init(&m, c, &p) == TF_OK) {
            tf_vectors v;
            w2v_vectors_view(&m, &v);
            for (uint32_t i = 0; i < v.n; i++)
                check_shown(v.words[i]);
            w2v_model_free(&m);
        }
    }
    w2v_corpus_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20))
        return 0;
    switch (data[0] % 5) {
    case 0: vectors_case(data + 1, size - 1, VECTORS_TEXT); break;
    case 1: vectors_case(data + 1, size - 1, VECTORS_BINARY); break;
    case 2: vectors_case(data + 1, size - 1, VECTORS_AUTO); break;
    case 3: corpus_case(data + 1, size - 1, CORPUS_SPACES); break;
    default: corpus_case(data + 1, size - 1, CORPUS_TOKENIZER); break;
    }
    return 0;
}
