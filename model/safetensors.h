/* safetensors.h — the header of a .safetensors file (Hugging Face's tensor format).
 *
 * Layout (https://github.com/huggingface/safetensors, "Format"):
 *   N       little-endian uint64: the size of the header
 *   HEADER  N bytes of UTF-8 JSON, an object, optionally padded with spaces:
 *             {"wpe.weight": {"dtype": "F32", "shape": [1024, 768],
 *                             "data_offsets": [0, 3145728]},
 *              "__metadata__": {"format": "pt"}}
 *   DATA    the byte buffer; data_offsets [BEGIN, END) are relative to its start
 * The format's own rules, all checked: the header is a JSON object whose keys are unique;
 * every tensor's END - BEGIN equals prod(shape) * the size of its dtype; the tensors cover the
 * buffer exactly, without overlap and without holes, in any order; the buffer ends the file.
 * Every tensor of the file is checked, whatever its dtype; only F16, BF16, F32 and F64 can then
 * be converted (tensorfile.h). */
#ifndef TF_SAFETENSORS_H
#define TF_SAFETENSORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "status.h"
#include "tensorfile.h"

#define SAFETENSORS_MAX_DIMS 16

typedef struct {
    const char *name; /* NUL-terminated valid UTF-8, decoded from the JSON string */
    size_t name_len;  /* bytes (a name may hold U+0000 through \u0000: compare with this) */
    char dtype[8];    /* as written: "F32", "BF16", "I64", ... */
    int known;        /* its tensor_dtype, or -1 for a type tfviz does not convert */
    int ndim;
    uint64_t shape[SAFETENSORS_MAX_DIMS];
    uint64_t begin, end; /* [begin, end) in the data buffer */
} safetensors_entry;

typedef struct {
    uint64_t header_bytes; /* N */
    uint64_t data_offset;  /* 8 + N: where the buffer starts in the file */
    uint64_t data_bytes;   /* the buffer's size */
    size_t n;
    safetensors_entry *items; /* (n) in the order of the header */
    char *names;              /* the names' storage */
} safetensors_header;

/* True when buf could be a .safetensors: a header length, then '{'. */
bool safetensors_is(const uint8_t *buf, size_t len);

/* Parse and check the header at buf[0..len) (at least 8 + N bytes of the file) for a file of
 * file_size bytes. TF_ERR_FORMAT (with the diagnostic) for anything the format forbids,
 * TF_ERR_NOMEM. On success free with safetensors_header_free. */
tf_status safetensors_parse_header(const uint8_t *buf, size_t len, uint64_t file_size,
                                   safetensors_header *h, tensor_diag *diag);
void safetensors_header_free(safetensors_header *h);

/* The index of the tensor called name (NUL-terminated), -1 when there is none. */
long safetensors_find(const safetensors_header *h, const char *name);

#endif
