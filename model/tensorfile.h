/* tensorfile.h — a 2-D table of numbers read from a NumPy .npy or a .safetensors file.
 *
 * What a real model's position table looks like on disk:
 *   GPT-2        model.safetensors, tensor "wpe.weight", F32, shape (1024, 768)
 *   BERT base    model.safetensors, "bert.embeddings.position_embeddings.weight", (512, 768)
 *   T5 small     model.safetensors, "encoder.block.0.layer.0.SelfAttention.
 *                relative_attention_bias.weight", (32, 8): a bias per (bucket, head)
 *   NumPy        np.save("wpe.npy", table): one unnamed array
 * Both readers (npy.h, safetensors.h) check everything the file says against what it holds
 * before a byte of data is trusted, refuse shapes over the limits before allocating, and
 * convert every value to float64 (F16, BF16, F32 and F64 are exact in float64), refusing NaN
 * and infinity. The data of one tensor is read, never the rest of a multi-gigabyte checkpoint.
 *
 * Errors: TF_ERR_IO (cannot open or read; errno kept), TF_ERR_FORMAT (malformed or unsupported
 * content), TF_ERR_TOO_BIG (a shape over the limits), TF_ERR_NOT_FOUND (no tensor of that name),
 * TF_ERR_NOMEM. Every error but TF_ERR_NOMEM fills a tensor_diag with one sentence that says what
 * was wrong and, where it helps, what to do; tensor names in it are made terminal-safe. */
#ifndef TF_TENSORFILE_H
#define TF_TENSORFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* The element types tfviz converts. Names as safetensors writes them. */
typedef enum {
    TENSOR_F16 = 0,
    TENSOR_BF16,
    TENSOR_F32,
    TENSOR_F64,
    TENSOR_DTYPE_COUNT
} tensor_dtype;

const char *tensor_dtype_name(tensor_dtype t); /* "F16", "BF16", "F32", "F64"; NULL outside */
size_t tensor_dtype_size(tensor_dtype t);      /* 2, 2, 4, 8; 0 outside */

typedef enum { TENSORFILE_AUTO = 0, TENSORFILE_NPY, TENSORFILE_SAFETENSORS } tensorfile_kind;

/* What went wrong, for the user: one sentence (no path: the caller puts the file name in front),
 * and the byte offset in the file where it went wrong when there is one. */
typedef struct {
    char msg[640];
    bool has_offset;
    uint64_t offset;
} tensor_diag;

/* The most a file may ask for; 0 in a field means its default (TF_MAX_POSITIONS rows,
 * TF_MAX_DMODEL columns, TF_MAX_TABLE_VALUES values). */
typedef struct {
    uint64_t max_rows, max_cols, max_values;
} tensor_limits;

typedef struct {
    size_t rows, cols;
    double *data;         /* (rows, cols) row-major, finite */
    tensor_dtype dtype;   /* as stored in the file */
    tensorfile_kind kind; /* TENSORFILE_NPY or TENSORFILE_SAFETENSORS */
    char *name;           /* the tensor's name in a .safetensors, NULL for an .npy */
} tf_tensor;

/* Read one 2-D tensor of a file.
 *   name      the tensor to read from a .safetensors (NULL: choose, see below); must be NULL
 *             for an .npy, which holds one unnamed array;
 *   suffixes  NULL-terminated name endings that identify the wanted tensor when name is NULL
 *             (for a position table: "wpe.weight", "position_embeddings.weight", ...). Without a
 *             name the tensor is the only one ending in one of them, else the only 2-D tensor
 *             of the file; anything else is TF_ERR_NOT_FOUND with the candidates listed.
 * The format comes from the file's first bytes; the file name's extension only words the
 * message for a file that is neither. */
tf_status tensorfile_read(const char *path, const char *name, const char *const *suffixes,
                          const tensor_limits *lim, tf_tensor *out, tensor_diag *diag);
/* The same from a whole file held in memory (tests, fuzzing); kind as the extension would be. */
tf_status tensorfile_read_mem(const uint8_t *buf, size_t len, tensorfile_kind kind,
                              const char *name, const char *const *suffixes,
                              const tensor_limits *lim, tf_tensor *out, tensor_diag *diag);
void tensor_free(tf_tensor *t);

/* ---------------------------------------------------------------------------------------------
 * Shared by npy.c and safetensors.c */

/* Set the diagnostic (when diag is not NULL): a printf-style sentence, and the byte offset when
 * at is not TENSOR_NO_OFFSET. Returns st so a reader can `return tensor_fail(...)`. */
#define TENSOR_NO_OFFSET UINT64_MAX
tf_status tensor_fail(tensor_diag *diag, tf_status st, uint64_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copy s[0..len) into out (size cap, always NUL-terminated) with control characters, bidi
 * controls and invalid UTF-8 replaced by '?', cut to max_bytes with "..." — for names taken
 * from a file. Returns the length of out. */
size_t tensor_safe_name(char *out, size_t cap, const char *s, size_t len, size_t max_bytes);

/* Refuse a table whose values would overflow what is computed from them: TF_ERR_TOO_BIG, with
 * the sentence, when the largest |value| times sqrt(width) passes TF_MAX_TABLE_NORM (width: the
 * length of the vectors its values make, a row's cols for a position table, 1 for biases). */
tf_status tensor_check_scale(const tf_tensor *t, size_t width, tensor_diag *diag);

/* "(1024, 768)", "(5,)", "()" into buf. */
void tensor_shape_str(const uint64_t *shape, int ndim, char *buf, size_t cap);

/* The decimal digits at s[*i..n) into *v, *i moved past them; false when there is no digit or
 * the number does not fit in 64 bits. */
bool tensor_read_digits(const uint8_t *s, size_t n, size_t *i, uint64_t *v);

/* a * b, false on overflow of uint64_t. */
bool tensor_mul_ok(uint64_t a, uint64_t b, uint64_t *out);

/* Check a 2-D shape against the limits: TF_ERR_TOO_BIG (with the diagnostic) when over. */
tf_status tensor_check_limits(uint64_t rows, uint64_t cols, const tensor_limits *lim,
                              tensor_diag *diag);

/* Convert count values of type t at src (little-endian unless big_endian) into dst. Returns
 * count when all are finite, else the index of the first NaN or infinity. */
size_t tensor_decode(const uint8_t *src, size_t count, tensor_dtype t, bool big_endian,
                     double *dst);

#endif
