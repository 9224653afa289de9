/* options.h — the command line. */
#ifndef TF_OPTIONS_H
#define TF_OPTIONS_H

/* --format */
typedef enum { FMT_TEXT = 0, FMT_CSV, FMT_JSON, FMT_NPY, FMT_COUNT } out_format;

#endif
