/* status.h — the one error type of the model library.
 *
 * model/ never prints and never exits: every fallible function returns a tf_status, and
 * tf_status_str() turns it into a sentence the application can show (in English; the
 * application adds context such as the option or the byte offset). */
#ifndef TF_STATUS_H
#define TF_STATUS_H

typedef enum {
    TF_OK = 0,
    TF_ERR_NOMEM,        /* an allocation failed */
    TF_ERR_UTF8,         /* the text is not valid UTF-8 */
    TF_ERR_EMPTY,        /* the text has no tokens */
    TF_ERR_TOO_LONG,     /* the text is longer than TF_MAX_TEXT_BYTES */
    TF_ERR_TOO_MANY,     /* more tokens than TF_MAX_TOKENS */
    TF_ERR_DMODEL,       /* d_model is odd, too small or too large */
    TF_ERR_POSITIONS,    /* the number of positions is out of range */
    TF_ERR_BASE,         /* a frequency base that is not a finite number > 1 */
    TF_ERR_VOCAB,        /* the vocabulary size is out of range */
    TF_ERR_OFFSET,       /* a relative offset that does not fit the positions */
    TF_ERR_PERMUTATION,  /* the compared sentence is not the same tokens in another order */
    TF_ERR_RANGE,        /* an index or argument outside its valid range */
    TF_ERR_IO,           /* reading or writing a file failed */
    TF_ERR_FORMAT,       /* a file's contents are malformed */
    TF_ERR_UNAVAILABLE,  /* a data file this mode needs is not installed */
    TF_ERR_TOO_BIG,      /* the request would need more memory or time than the limits allow */
    TF_ERR_NOT_FOUND,    /* a file does not hold the named item (a tensor of a .safetensors) */
    TF_ERR_UNSUPPORTED,  /* this build (a library left out) or this terminal cannot do it */
    TF_STATUS_COUNT
} tf_status;

/* A short English sentence for a status, never NULL. */
const char *tf_status_str(tf_status s);

#endif
