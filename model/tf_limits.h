/* limits.h — the sizes tfviz accepts, checked before anything large is allocated. */
#ifndef TF_TF_LIMITS_H
#define TF_TF_LIMITS_H

#define TF_MAX_TEXT_BYTES (64 * 1024)   /* a sentence, a paragraph: not a corpus */
#define TF_MAX_TOKENS 1024              /* tokens in one analysed text */
#define TF_MIN_DMODEL 2
#define TF_MAX_DMODEL 16384
#define TF_MAX_POSITIONS 1000000        /* rows of a streamed PE table */
#define TF_MAX_DOT_POSITIONS 4096       /* the n x n position dot-product matrix */
#define TF_MAX_TOKEN_VALUES 4194304   /* tokens x d_model: X_emb, PE, X_input stay under 80 MB */
#define TF_MAX_WORK 2e10                /* estimated work of one --print, in nanoseconds of one
                                         * core (about 20 s): see print_work() */
#define TF_MAX_HEADS 256                /* attention heads of an ALiBi or T5 bias (BLOOM: 112) */
#define TF_MAX_BIAS_VALUES 8388608      /* heads x n x n of a bias tensor: 64 MB of float64 */
#define TF_MAX_T5_BUCKETS 4096          /* relative-position buckets (T5: 32) */
#define TF_MAX_T5_DISTANCE 1000000000L  /* T5's max_distance (T5: 128) */
#define TF_MAX_TABLE_VALUES 8388608     /* rows x columns of a table read from a file (64 MB of
                                         * float64; GPT-2's wpe is 1024 x 768 = 786,432) */
#define TF_MAX_TABLE_NORM 1e18        /* |value| x sqrt(row width) of a table read from a file:
                                         * the dot product of two such rows (<= 1e36) stays
                                         * finite even in float32 (3.4e38), as do the sums and
                                         * squares computed from it; trained tables are near 1 */
#define TF_MAX_NPY_HEADER 65536         /* bytes of an .npy header dict (numpy's are ~128) */
#define TF_MAX_SAFETENSORS_HEADER 100000000 /* bytes of a .safetensors JSON header (its spec's
                                             * limit) */
#define TF_MAX_SAFETENSORS_ENTRIES 131072 /* tensors in one .safetensors header (a checkpoint
                                           * file holds hundreds to a few thousand): 176 bytes
                                           * each, 23 MB; 1.9 million tiny ones took 468 MB */
#define TF_MIN_VOCAB 16
#define TF_MAX_VOCAB 10000000

#define TF_DEFAULT_DMODEL 512           /* the original Transformer's d_model */
#define TF_DEFAULT_POSITIONS 64
#define TF_DEFAULT_VOCAB 100000         /* the article's V */
#define TF_DEFAULT_BASE 10000.0
#define TF_DEFAULT_SEED 42u

#endif
