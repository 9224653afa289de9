/* cli.h — command-line options and the one entry point. */
#ifndef TF_CLI_H
#define TF_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "core/options.h"
#include "vectors.h"
#include "word2vec.h"


typedef struct {
    tf_config cfg;
    const char *print_what; /* --print WHAT, NULL for none */
    out_format format;
    const char *output;     /* -o FILE, NULL for stdout */
    char *text;             /* the sentence (owned) */
    size_t text_len;
    bool no_color;
    bool vocab_size_set;    /* --vocab-size was given */
    bool tokenizer_set;     /* --tokenizer was given (else word, or char without a dictionary) */
    bool offset_set;        /* --offset was given (else 1, or 0 for a single position) */
    const char *lang;       /* "zh" or "en" */
    bool lesson;            /* --lesson: the guided lesson instead of the explorer */
    bool big;               /* --big: the lesson's projector presentation */
    /* learned embeddings */
    bool train;             /* --train */
    const char *corpus;     /* --corpus FILE, NULL: the built-in corpus */
    w2v_params w2v;         /* --epochs, --window, ...; dim from -d */
    bool d_given;           /* -d was on the command line */
    const char *vectors_path; /* --vectors FILE */
    long vectors_limit;     /* --vectors-limit N, 0: all rows */
    tf_vectors vectors;     /* loaded from vectors_path (owned) */
    const char *word;       /* --word W */
    long top;               /* --top K neighbours, or words on the PCA map */
    bool top_given;

    /* --export FILE: a figure. Zero / NULL means the figure's own default. */
    const char *export_path; /* --export FILE, NULL for none */
    const char *figure;      /* --figure NAME, NULL: pe */
    double dpi;              /* --dpi, PNG only (0: 300) */
    double fig_width;        /* --width in points (0: one column, 3.5 in) */
    double fig_height;       /* --height in points (0: the figure's own proportions) */
    const char *colormap;    /* --colormap NAME (NULL: diverging for signed data, else viridis) */
    double font_size;        /* --font-size in points (0: 8) */
    const char *title;       /* --title TEXT (NULL: the figure's own) */
    bool no_title;           /* --no-title */
} tf_cli;

/* Parse argv, run the chosen mode, return the process exit status:
 * 0 success, 1 an I/O failure, 2 bad input or usage. */
int cli_run(int argc, char **argv);

/* Parse options only (no text, no run) into *cli from its defaults. Returns 0 to go on, 1 when
 * help or the version was printed, -1 after reporting a bad option on stderr. Used by cli_run's
 * callers that need the options alone, and by the option fuzz target. */
int cli_parse(int argc, char **argv, tf_cli *cli);

#endif
