/* npy.h — the NumPy .npy header (format versions 1.0, 2.0 and 3.0).
 *
 * Layout (numpy/lib/format.py, NEP 1):
 *   "\x93NUMPY"  major  minor  HEADER_LEN  HEADER  data
 *   HEADER_LEN   little-endian uint16 (1.0) or uint32 (2.0, 3.0)
 *   HEADER       a Python dict literal, latin-1 (1.0, 2.0) or UTF-8 (3.0), padded with spaces
 *                and ended by '\n':
 *                {'descr': '<f4', 'fortran_order': False, 'shape': (1024, 768), }
 *   data         prod(shape) items of descr, C order unless fortran_order
 *
 * Accepted: descr '<f2' '<f4' '<f8' and their big-endian '>' and native '=' forms; C order; any
 * shape (the caller wants 2-D). Refused with the reason: Fortran order, integer, complex,
 * string, structured and object ('O': pickled Python objects) arrays, a header that is not
 * exactly the three keys, data shorter or longer than the shape says. */
#ifndef TF_NPY_H
#define TF_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "tensorfile.h"

#define NPY_MAGIC     "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_MAX_DIMS  32 /* numpy's own limit (NPY_MAXDIMS) */

typedef struct {
    int major, minor;
    tensor_dtype dtype;
    bool big_endian;
    int ndim;
    uint64_t shape[NPY_MAX_DIMS];
    uint64_t numel;       /* prod(shape) */
    uint64_t data_offset; /* bytes before the data: preamble + header */
    uint64_t data_bytes;  /* numel * item size */
} npy_header;

/* Room for any header npy_write_header writes. */
#define NPY_HEADER_CAP 192

/* The version 1.0 preamble and header dict of a C-order (rows, cols) array of descr ('<f4',
 * '<f8') into out, padded with spaces to a multiple of 64 bytes as numpy writes it: the bytes
 * that come before the data. Returns its length, 0 when cap is too small. */
size_t npy_write_header(uint8_t *out, size_t cap, const char *descr, uint64_t rows, uint64_t cols);

/* True when buf starts with the .npy magic. */
bool npy_is(const uint8_t *buf, size_t len);

/* Parse the preamble and header at buf[0..len); len may be the whole file or its first bytes,
 * as long as the header is inside. file_size is the size of the whole file: the data must fill
 * it exactly. TF_ERR_FORMAT with the diagnostic when anything is wrong. */
tf_status npy_parse_header(const uint8_t *buf, size_t len, uint64_t file_size, npy_header *h,
                           tensor_diag *diag);

#endif
