/* options.h — the command line: one table of options (git's parse-options). Each option is one
 * typed row: its type reads, range-checks and stores the value into tf_options, it says where
 * the option applies (run_mode), and it writes its part of --help, of the man page's OPTIONS
 * section and of the bash and zsh completions, so an option is written once;
 * scripts/options_docs.py checks the generated files against the checked-in ones (meson compile
 * -C build options-docs regenerates them). The front-ends take the parsed options whole.
 *
 * The names of --print's topics and --figure's figures belong to their front-ends: main hands
 * them over with options_set_values before anything is parsed or printed. */
#ifndef TF_OPTIONS_H
#define TF_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"
#include "core/figreq.h"
#include "positions.h"
#include "rope_scaling.h"
#include "scheme.h"
#include "word2vec.h"

/* Where an option applies: the modes of a run (options_modes). An option given where it does not
 * apply is refused (options_check_modes): it would be ignored without a word. */
typedef enum {
    MODE_EXPLORER = 1 << 0, /* the explorer (or, without a terminal, its text report) */
    MODE_LESSON = 1 << 1,   /* --lesson */
    MODE_PRINT = 1 << 2,    /* --print */
    MODE_EXPORT = 1 << 3,   /* --export */
    MODE_SHOW = 1 << 4,     /* --show */
    MODE_TRAIN = 1 << 5,    /* --train */
    MODE_ORDER = 1 << 6,    /* --train-order */
    MODE_COUNT = 7
} run_mode;

#define OPTIONS_MAX 96 /* rows of the option table at most (tf_options.given) */

/* --format */
typedef enum { FMT_TEXT = 0, FMT_CSV, FMT_JSON, FMT_NPY, FMT_COUNT } out_format;
/* "text", "csv", "json" or "npy": the --format value of f ("?" outside them). */
const char *options_format_name(out_format f);

/* Everything the command line can say; options_defaults gives what is not said. */
typedef struct {
    tf_config cfg;            /* the model: -d, -n, --base, --tokenizer, ... */
    bool d_given;             /* -d was given */
    bool n_given;             /* -n was given */
    bool vocab_size_set;      /* --vocab-size was given */
    bool tokenizer_set;       /* --tokenizer was given (else word, or char without a dictionary) */
    bool offset_set;          /* --offset was given (else 1, or 0 for a single position) */
    /* --scheme: the position schemes to compare, in the order given (every place that chooses
     * how positions reach attention reads these); n_schemes 0: the mode's own default */
    tf_scheme schemes[SCHEME_COUNT];
    size_t n_schemes;
    /* the schemes' parameters: the mask, the heads, T5's buckets and the trained length are
     * parsed into positions; cli.c adds the tables read from files and the RoPE scaling made
     * from the numbers below (0: the method's own) */
    tf_positions positions;
    bool base_set;            /* --base was given (a RoPE scaling otherwise keeps its own) */
    rope_scaling_kind scaling; /* --scaling, ROPE_SCALING_NONE: none */
    double factor, beta_fast, beta_slow, mscale, mscale_all_dim, attention_factor;
    double low_freq_factor, high_freq_factor;
    long seq_len;
    bool no_truncate;
    const char *pe_file, *pe_tensor; /* --pe-file, --pe-tensor */
    const char *t5_file, *t5_tensor; /* --t5-file, --t5-tensor */
    /* --print */
    const char *print_what;   /* --print WHAT, NULL for none */
    out_format format;
    const char *output;       /* -o FILE, NULL for standard output */
    /* --export */
    const char *export_path;
    const char *figure;       /* --figure NAME, NULL: pe */
    /* the figure's look as the options set it (--dpi, --width, --height, --colormap, --font,
     * --serif, --font-size, --title, --no-title, --panel-labels, --pe-layout, --order-b, --vmin,
     * --vmax, --fps, --frames): the request --export and --show start from (cli.c adds the
     * figure, the file and what the other options imply) */
    fig_request fig;
    int fig_width_column;     /* --width one-column, two-column, half: the venue's
                               * (fig_width_preset), else 0 */
    const char *venue;        /* --venue NAME */
    /* --show FIGURE: the figure inside the terminal, NULL: none */
    const char *show;
    /* learned embeddings */
    bool train;
    const char *corpus;       /* --corpus FILE, NULL: the built-in corpus */
    w2v_params w2v;           /* --epochs, --window, ...; dim from -d */
    const char *vectors_path; /* --vectors FILE */
    long vectors_limit;       /* --vectors-limit N, 0: all rows */
    const char *word;         /* --word W */
    long top;                 /* --top K neighbours, or words on the PCA map */
    bool top_given;
    /* the trained order model: --train-order, --print order-training, the figure, view 10 */
    bool train_order;
    const char *order_task;   /* --order-task FILE, NULL: the generated task */
    long order_pairs[2];      /* --order-pairs N[,M]: training, held-out pairs; 0: default */
    int heads;                /* --heads H, 0: the mode's default */
    int head;                 /* --head N as given (from 1), 0: not given */
    int order_epochs;         /* --epochs as given, 0: not given (the order model's own choice) */
    bool threads_given;       /* --threads was given */
    /* the classroom and the display */
    bool lesson, big;
    bool extended;            /* --extended: the lesson's steps beyond the article */
    const char *lang;         /* "zh" or "en" */
    bool no_color;
    bool given[OPTIONS_MAX];  /* the table's rows given on the command line */
} tf_options;

/* The defaults, the same for every caller. */
void options_defaults(tf_options *o);

/* Parse argv's options into o (filled by options_defaults first); *first_arg is the index of
 * the first argument that is not an option (TEXT). Returns 0 to go on, 1 when --help or
 * --version was printed, -1 after saying what was wrong on stderr. */
int options_parse(int argc, char **argv, tf_options *o, int *first_arg);

/* The modes of the run o asks for: --print, --export, --show, --train, --train-order, --lesson,
 * or the explorer when none of them (run_mode bits; modes that do not go together are refused
 * by the caller). */
unsigned options_modes(const tf_options *o);
/* "--print", "the explorer", ...: the modes of `modes` joined (for messages). */
const char *options_mode_names(unsigned modes, char *buf, size_t cap);
/* 0 when every option given applies to one of `modes`; else -1 after saying, in one sentence,
 * the first that does not and where it applies. */
int options_check_modes(const tf_options *o, unsigned modes);

/* The values of the option `name` ("print", "figure") that only a front-end knows: names, NULL
 * at the end. They go into --help, the man page and the completions. */
void options_set_values(const char *name, const char *const *values);
/* "a, b, c" of those values (for messages). */
const char *options_values(const char *name);

/* The documentation the table writes. */
void options_help(FILE *fp);    /* --help */
void options_man(FILE *fp);     /* the man page's OPTIONS section, roff */
void options_bash(FILE *fp);    /* completions/tfviz.bash */
void options_zsh(FILE *fp);     /* completions/_tfviz */
/* Each option and where it applies: "--name[=] S BITS" a line (S its short name or '.'). */
void options_modes_list(FILE *fp);

#endif
