/* fuzz_assets.c — the dictionary and BPE rank-table loaders on damaged files.
 *
 * Input: one byte choosing the file (even: tfviz-dict.bin, odd: tfviz-cl100k.bin), then its
 * contents, written to a private folder that is then opened as the data directory. Properties:
 * opening either succeeds or answers TF_ERR_FORMAT / TF_ERR_UNAVAILABLE / TF_ERR_IO /
 * TF_ERR_NOMEM, never a crash or a read outside the file (ASan, and the file is mapped so a read
 * past its end faults); a file that opens can tokenise a sentence with tokens inside it. */
#include <errno.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "tokenizer.h"
#include "vocab.h"

static char dir[64];
static char path[128];

static void cleanup(void)
{
    unlink(path);
    rmdir(dir);
}

static const char sample[] = "我爱学习自然语言处理。Hello world 123 ＡＢＣ 😀 ok";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%.40s/tfviz-assets-XXXXXX", tmp && *tmp ? tmp : "/tmp");
        FUZZ_CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
        atexit(cleanup);
    }
    int bpe = data[0] & 1;
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", dir, bpe ? "tfviz-cl100k.bin" : "tfviz-dict.bin");
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write %s", path);
    FUZZ_CHECK(fwrite(data + 1, 1, size - 1, f) == size - 1 && fclose(f) == 0, "short write");

    tf_vocab *v = NULL;
    tf_status st = bpe ? vocab_open_bpe(dir, "cl100k", &v) : vocab_open_dict(dir, 1000, &v);
    if (st != TF_OK) {
        FUZZ_CHECK(st == TF_ERR_FORMAT || st == TF_ERR_UNAVAILABLE || st == TF_ERR_IO ||
                       st == TF_ERR_NOMEM,
                   "open: status %d", st);
        FUZZ_CHECK(v == NULL, "a vocabulary returned with an error");
        return 0;
    }
    tokenizer_kind kind = bpe ? TOKENIZER_CL100K : TOKENIZER_WORD;
    tf_tokens t;
    st = tokenizer_split(v, kind, sample, sizeof sample - 1, &t, NULL);
    if (st == TF_OK) {
        for (size_t i = 0; i < t.n; i++) {
            FUZZ_CHECK(t.items[i].start < t.items[i].end && t.items[i].end <= sizeof sample - 1,
                       "token %zu at [%u, %u)", i, t.items[i].start, t.items[i].end);
            char buf[64];
            vocab_token(v, t.items[i].id, buf, sizeof buf); /* reads the table: must not crash */
        }
        tokens_free(&t);
    } else {
        FUZZ_CHECK(st == TF_ERR_TOO_MANY || st == TF_ERR_EMPTY || st == TF_ERR_NOMEM ||
                       st == TF_ERR_FORMAT,
                   "split: status %d", st);
    }
    vocab_free(v);
    return 0;
}
