/* fuzz_tensor.h — what the .npy and .safetensors fuzz targets share: read the input as a file in
 * memory and from disk, and check the properties every read must have.
 *
 * Properties: the status is one the reader documents (TF_OK, TF_ERR_FORMAT, TF_ERR_TOO_BIG,
 * TF_ERR_NOT_FOUND, TF_ERR_NOMEM); a failure leaves no tensor and a message that is one
 * non-empty, terminal-safe sentence; a success is a 2-D table inside the limits whose values are
 * all finite; reading the same bytes from a file gives the same status, message and values. */
#ifndef TF_FUZZ_TENSOR_H
#define TF_FUZZ_TENSOR_H

#include <errno.h>
#include <math.h>
#include <unistd.h>

#include "fuzz_check.h"
#include "tensorfile.h"

static char fuzz_tensor_dir[64];
static char fuzz_tensor_path[128];

static void fuzz_tensor_cleanup(void)
{
    unlink(fuzz_tensor_path);
    rmdir(fuzz_tensor_dir);
}

/* The input written to a private file with the given extension (".npy", ".safetensors"). */
static inline const char *fuzz_tensor_file(const uint8_t *data, size_t size, const char *ext)
{
    if (!fuzz_tensor_dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(fuzz_tensor_dir, sizeof fuzz_tensor_dir, "%.40s/tfviz-tensor-XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        FUZZ_CHECK(mkdtemp(fuzz_tensor_dir) != NULL, "mkdtemp: %s", strerror(errno));
        atexit(fuzz_tensor_cleanup);
    }
    unlink(fuzz_tensor_path);
    snprintf(fuzz_tensor_path, sizeof fuzz_tensor_path, "%s/t%s", fuzz_tensor_dir, ext);
    FILE *f = fopen(fuzz_tensor_path, "wb");
    FUZZ_CHECK(f != NULL, "cannot write %s", fuzz_tensor_path);
    FUZZ_CHECK(fwrite(data, 1, size, f) == size && fclose(f) == 0, "short write");
    return fuzz_tensor_path;
}

/* Check one read result against the properties; returns its status. */
static inline tf_status fuzz_tensor_check(tf_status st, const tf_tensor *t, const tensor_diag *dg,
                                          const tensor_limits *lim)
{
    if (st != TF_OK) {
        FUZZ_CHECK(st == TF_ERR_FORMAT || st == TF_ERR_TOO_BIG || st == TF_ERR_NOT_FOUND ||
                       st == TF_ERR_NOMEM,
                   "status %d", st);
        FUZZ_CHECK(t->data == NULL && t->name == NULL, "a tensor left behind an error");
        size_t n = strlen(dg->msg);
        FUZZ_CHECK(st == TF_ERR_NOMEM || n > 0, "an error without a message");
        FUZZ_CHECK(n + 1 < sizeof dg->msg || st == TF_ERR_NOT_FOUND, "a message cut: %s", dg->msg);
        FUZZ_CHECK(terminal_safe(dg->msg, n, 0), "an unsafe message: %s", dg->msg);
        return st;
    }
    FUZZ_CHECK(t->rows >= 1 && t->cols >= 1 && t->rows <= lim->max_rows &&
                   t->cols <= lim->max_cols && t->rows * t->cols <= lim->max_values,
               "shape (%zu, %zu) outside the limits", t->rows, t->cols);
    for (size_t i = 0; i < t->rows * t->cols; i++)
        FUZZ_CHECK(isfinite(t->data[i]), "value %zu is not finite", i);
    FUZZ_CHECK(t->kind == TENSORFILE_NPY || t->kind == TENSORFILE_SAFETENSORS, "kind %d", t->kind);
    FUZZ_CHECK((unsigned)t->dtype < TENSOR_DTYPE_COUNT, "dtype %d", t->dtype);
    return st;
}

/* Read the input from memory and from a file (with extension ext) and compare. */
static inline tf_status fuzz_tensor_read(const uint8_t *data, size_t size, tensorfile_kind kind,
                                         const char *ext, const char *name,
                                         const char *const *suffixes, tf_tensor *out)
{
    static const tensor_limits lim = {4096, 512, 65536};
    tensor_diag dm, df;
    tf_tensor tf;
    tf_status sm = tensorfile_read_mem(data, size, kind, name, suffixes, &lim, out, &dm);
    fuzz_tensor_check(sm, out, &dm, &lim);
    tf_status sf =
        tensorfile_read(fuzz_tensor_file(data, size, ext), name, suffixes, &lim, &tf, &df);
    fuzz_tensor_check(sf, &tf, &df, &lim);
    FUZZ_CHECK(sm == sf, "memory %d, file %d (%s | %s)", sm, sf, dm.msg, df.msg);
    if (sm != TF_OK)
        FUZZ_CHECK(strcmp(dm.msg, df.msg) == 0, "memory: %s | file: %s", dm.msg, df.msg);
    else
        FUZZ_CHECK(out->rows == tf.rows && out->cols == tf.cols &&
                       memcmp(out->data, tf.data, out->rows * out->cols * sizeof *tf.data) == 0,
                   "memory and file read different values");
    tensor_free(&tf);
    return sm;
}

#endif
