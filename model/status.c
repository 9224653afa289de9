/* status.c — sentences for tf_status values. */
#include "status.h"

const char *tf_status_str(tf_status s)
{
    static const char *const msg[TF_STATUS_COUNT] = {
        [TF_OK] = "no error",
        [TF_ERR_NOMEM] = "out of memory",
        [TF_ERR_UTF8] = "the text is not valid UTF-8",
        [TF_ERR_EMPTY] = "the text is empty: give a sentence with at least one token",
        [TF_ERR_TOO_LONG] = "the text is too long",
        [TF_ERR_TOO_MANY] = "the text has too many tokens",
        [TF_ERR_DMODEL] = "d_model must be an even number in the allowed range",
        [TF_ERR_POSITIONS] = "the number of positions is out of range",
        [TF_ERR_BASE] = "the frequency base must be a finite number greater than 1",
        [TF_ERR_VOCAB] = "the vocabulary size is out of range",
        [TF_ERR_OFFSET] = "the offset must be between 0 and the number of positions minus 1",
        [TF_ERR_PERMUTATION] =
            "the compared text must contain the same tokens as the sentence, in another order",
        [TF_ERR_RANGE] = "a value is outside its valid range",
        [TF_ERR_IO] = "a file could not be read or written",
        [TF_ERR_FORMAT] = "a file is malformed",
        [TF_ERR_UNAVAILABLE] = "a data file this mode needs is not installed",
        [TF_ERR_TOO_BIG] = "the request needs more memory or time than tfviz allows",
        [TF_ERR_NOT_FOUND] = "the file does not hold the item asked for",
        [TF_ERR_UNSUPPORTED] =
            "not available here: this build of tfviz or this terminal cannot do it",
    };
    if ((unsigned)s >= TF_STATUS_COUNT)
        return "unknown error";
    return msg[s];
}
