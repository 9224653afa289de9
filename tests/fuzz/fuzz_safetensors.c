/* fuzz_safetensors.c — the .safetensors reader (safetensors.h, tensorfile.h) on arbitrary bytes.
 *
 * Input: the file. Properties (fuzz_tensor.h) for the read without a name (position-table
 * names preferred), plus: a header that parses has valid UTF-8 names, unique, each with its
 * [begin, end) inside the data and the tensors covering the data exactly; every tensor read by
 * its own name gives its own shape or says why not; a name that is not there is
 * TF_ERR_NOT_FOUND. */
#include <stdbool.h>

#include "fuzz_tensor.h"
#include "learned_pe.h"
#include "safetensors.h"

/* The header's own invariants, checked independently of the reader's checks. */
static void check_header(const safetensors_header *h, size_t size)
{
    FUZZ_CHECK(h->data_offset == 8 + h->header_bytes && h->data_offset + h->data_bytes == size,
               "the data section is misplaced");
    uint64_t total = 0;
    for (size_t t = 0; t < h->n; t++) {
        const safetensors_entry *e = &h->items[t];
        FUZZ_CHECK(utf8_validate(e->name, e->name_len, NULL) == TF_OK, "a name is not UTF-8");
        FUZZ_CHECK(e->name[e->name_len] == '\0', "a name is not terminated");
        FUZZ_CHECK(e->begin <= e->end && e->end <= h->data_bytes, "tensor %zu is outside", t);
        total += e->end - e->begin;
        for (size_t u = t + 1; u < h->n; u++) {
            const safetensors_entry *f = &h->items[u];
            FUZZ_CHECK(e->name_len != f->name_len || memcmp(e->name, f->name, e->name_len) != 0,
                       "two tensors share a name");
            FUZZ_CHECK(e->end <= f->begin || f->end <= e->begin || e->begin == e->end ||
                           f->begin == f->end,
                       "tensors %zu and %zu overlap", t, u);
        }
    }
    FUZZ_CHECK(total == h->data_bytes, "the tensors do not cover the data");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tf_tensor t;
    tf_status st = fuzz_tensor_read(data, size, TENSORFILE_SAFETENSORS, ".safetensors", NULL,
                                    learned_pe_tensor_suffixes, &t);
    if (st == TF_OK)
        tensor_free(&t);
    safetensors_header h;
    tensor_diag dg;
    if (safetensors_parse_header(data, size, size, &h, &dg) != TF_OK)
        return 0;
    check_header(&h, size);
    for (size_t k = 0; k < h.n && k < 16; k++) {
        const safetensors_entry *e = &h.items[k];
        if (strlen(e->name) != e->name_len)
            continue; /* a name with U+0000 cannot be asked for as a C string */
        st = tensorfile_read_mem(data, size, TENSORFILE_SAFETENSORS, e->name, NULL, NULL, &t, &dg);
        if (st == TF_OK) {
            FUZZ_CHECK(e->ndim == 2 && e->shape[0] == t.rows && e->shape[1] == t.cols &&
                           strcmp(t.name, e->name) == 0,
                       "tensor %zu read with another shape or name", k);
            tensor_free(&t);
        } else {
            FUZZ_CHECK(st == TF_ERR_FORMAT || st == TF_ERR_TOO_BIG || st == TF_ERR_NOMEM,
                       "tensor %zu by name: status %d", k, st);
        }
    }
    st = tensorfile_read_mem(data, size, TENSORFILE_SAFETENSORS, "\x01no such tensor", NULL, NULL,
                             &t, &dg);
    FUZZ_CHECK(st == TF_ERR_NOT_FOUND, "a missing name: status %d", st);
    safetensors_header_free(&h);
    return 0;
}
