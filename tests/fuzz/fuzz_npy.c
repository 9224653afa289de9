/* fuzz_npy.c — the .npy reader (npy.h, tensorfile.h) on arbitrary bytes.
 *
 * Input: the file. Properties (fuzz_tensor.h) plus: a file that reads has a header that parses
 * to the same 2-D shape, and its values survive a round trip through a float64 .npy written
 * here (so the header's shape, dtype and byte order were all understood). */
#include "fuzz_tensor.h"
#include "npy.h"

/* A C-order float64 .npy of t, written by npy_write_header. */
static uint8_t *write_f8(const tf_tensor *t, size_t *len)
{
    size_t bytes = t->rows * t->cols * sizeof *t->data;
    uint8_t *b = malloc(NPY_HEADER_CAP + bytes);
    FUZZ_CHECK(b != NULL, "out of memory");
    size_t head = npy_write_header(b, NPY_HEADER_CAP, "<f8", t->rows, t->cols);
    FUZZ_CHECK(head > 0 && head % 64 == 0, "header of %zu bytes", head);
    memcpy(b + head, t->data, bytes);
    *len = head + bytes;
    return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tf_tensor t;
    if (fuzz_tensor_read(data, size, TENSORFILE_NPY, ".npy", NULL, NULL, &t) != TF_OK)
        return 0;
    npy_header h;
    tensor_diag dg;
    FUZZ_CHECK(npy_parse_header(data, size, size, &h, &dg) == TF_OK, "%s", dg.msg);
    FUZZ_CHECK(h.ndim == 2 && h.shape[0] == t.rows && h.shape[1] == t.cols && h.dtype == t.dtype &&
                   h.data_offset + h.data_bytes == size,
               "header and table disagree");
    size_t len;
    uint8_t *again = write_f8(&t, &len);
    tf_tensor u;
    FUZZ_CHECK(tensorfile_read_mem(again, len, TENSORFILE_NPY, NULL, NULL, NULL, &u, &dg) == TF_OK,
               "the round trip does not read: %s", dg.msg);
    FUZZ_CHECK(u.rows == t.rows && u.cols == t.cols &&
                   memcmp(u.data, t.data, t.rows * t.cols * sizeof *t.data) == 0,
               "the round trip changed the values");
    tensor_free(&u);
    free(again);
    tensor_free(&t);
    return 0;
}
