/* asset.h — read-only data files the build generates (the dictionary, BPE rank tables),
 * mapped into memory so that opening one costs a system call, not a parse. */
#ifndef TF_ASSET_H
#define TF_ASSET_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

typedef struct {
    const unsigned char *data; /* (size) bytes, read-only */
    size_t size;
} tf_asset;

/* Map dir/name. A missing file gives TF_ERR_UNAVAILABLE, any other failure TF_ERR_IO. */
tf_status asset_map(const char *dir, const char *name, tf_asset *out);
void asset_unmap(tf_asset *a);

/* Little-endian integers at p (the files are written little-endian on every host). */
static inline uint32_t asset_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t asset_u64(const unsigned char *p)
{
    return (uint64_t)asset_u32(p) | (uint64_t)asset_u32(p + 4) << 32;
}

#endif
