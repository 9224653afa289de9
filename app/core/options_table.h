/* options_table.h — the option table: one row per option. Included by options.c only.
 *
 * A row is the option's long name, short name and value name (NULL: a switch), its group, its
 * type with the field of tf_options it fills (FLAG, STRING, INTEGER with a range, REAL, CHOICE
 * from a list, ...; CALLBACK for the rare rest), where it applies (run_mode bits: an option
 * given elsewhere is refused), its --help text, its man page text (roff), its completions and
 * its zsh description. A NULL help (or man) text means the entry above describes this option
 * too; its left column (help_syn) then names them all. {placeholders} are filled in when
 * printed: the limits ({min_d}, {max_n}, ...) and the front-ends' lists ({print}, {figure}, and
 * as roff {print_roff}, {figure_roff}; {animation} and {animation_roff}, the figures that move).
 *
 * A new option: a field in tf_options (options.h) and a row here; meson compile -C build
 * options-docs then writes the man page's section and the completions again. */

typedef enum {
    G_OUTPUT,
    G_FIGURES,
    G_MODEL,
    G_SCHEMES,
    G_LEARNED,
    G_ORDER,
    G_CLASSROOM,
    G_DISPLAY,
    G_HELP,
    G_COUNT
} opt_group;

static const struct {
    const char *help; /* the --help heading, NULL: none */
    const char *man;  /* the man page's .SS, NULL: none (the entries stay under the one above) */
} groups[G_COUNT] = {
    [G_OUTPUT] = {"Output:", "Output"},
    [G_FIGURES] = {"Figures / 论文插图:", "Figures"},
    [G_MODEL] = {"Model:", "Model"},
    [G_SCHEMES] = {"Position schemes (位置方案):", "Position schemes"},
    [G_LEARNED] = {"Learned embeddings (词向量):", "Learned embeddings"},
    [G_ORDER] = {"Word order, trained (训练语序):", "Word order, trained"},
    [G_CLASSROOM] = {"Classroom:", "Classroom"},
    [G_DISPLAY] = {"Display:", "Display"},
    [G_HELP] = {NULL, NULL},
};

/* Where the options apply (run_mode, options.h), the sets many share. */
#define M_FIGURE (MODE_EXPORT | MODE_SHOW)
/* the modes that analyse a sentence: the model's and the schemes' options */
#define M_SENTENCE (MODE_EXPLORER | MODE_LESSON | MODE_PRINT | M_FIGURE)
/* word2vec's training: --train, the learned --print topics, the figures that train */
#define M_VECTORS (MODE_TRAIN | MODE_PRINT | M_FIGURE)
/* the trained order model: --train-order, --print order-training, its figure, view 10 */
#define M_ORDER_MODEL (MODE_ORDER | MODE_PRINT | M_FIGURE | MODE_EXPLORER | MODE_LESSON)
#define M_ALL ((1u << MODE_COUNT) - 1)
/* the training settings (--epochs, --threads): word2vec's and the order model's, so every mode */
#define M_TRAINING M_ALL

/* What a row does with its value: the type says how it is read, checked and stored. */
typedef enum {
    OPT_FLAG,     /* a switch: true into a bool */
    OPT_STRING,   /* the value as it is, into a const char * */
    OPT_INT,      /* a whole number from lo to hi, into an int or a long */
    OPT_INT_REAL, /* the same, into a double */
    OPT_EVEN,     /* the same, and even */
    OPT_U64,      /* a non-negative whole number below 2^64, into a uint64_t */
    OPT_REAL,     /* a finite number from lo to hi, into a double */
    OPT_ABOVE,    /* the same, greater than lo */
    OPT_BELOW,    /* the same, less than hi */
    OPT_CHOICE,   /* one of choices: its index, into an enum, an int or a bool */
    OPT_NAME,     /* one of choices: the name, into a const char * */
    OPT_CALLBACK, /* set(o, value): the rare rest */
} opt_type;

typedef struct {
    const char *name;
    char short_name;
    const char *arg;
    opt_group group;
    opt_type type;
    size_t field, size;              /* where in tf_options, and its size */
    double lo, hi;                   /* the range of a number */
    const char *const *choices;      /* OPT_CHOICE, OPT_NAME: the names, NULL at the end */
    const char *hint;                /* said after a number out of range, NULL: nothing */
    int (*set)(tf_options *o, const char *value); /* OPT_CALLBACK */
    unsigned modes;                  /* where it applies: run_mode bits */
    const char *help;
    const char *help_syn;
    const char *man;
    const char *values; /* completions: words, "@file" (or "@file GLOB"), "@print" or "@figure";
                         * NULL: none */
    const char *zsh;    /* "[description]" and ":message:" for a value */
} tf_option;

/* A row's type, field and range (git's OPT_BOOL, OPT_STRING, OPT_INTEGER, OPT_CALLBACK). */
#define TYPED(t, f, lo, hi, choices, hint)                                                        \
    t, offsetof(tf_options, f), sizeof(((tf_options *)0)->f), lo, hi, choices, hint, NULL
#define FLAG(f) TYPED(OPT_FLAG, f, 0, 0, NULL, NULL)
#define STRING(f) TYPED(OPT_STRING, f, 0, 0, NULL, NULL)
#define INTEGER(f, lo, hi) TYPED(OPT_INT, f, lo, hi, NULL, NULL)
#define WHOLE_REAL(f, lo, hi) TYPED(OPT_INT_REAL, f, lo, hi, NULL, NULL)
#define EVEN(f, lo, hi, hint) TYPED(OPT_EVEN, f, lo, hi, NULL, hint)
#define WHOLE64(f) TYPED(OPT_U64, f, 0, 0, NULL, NULL)
#define REAL(f, lo, hi) TYPED(OPT_REAL, f, lo, hi, NULL, NULL)
#define REAL_HINT(f, lo, hi, hint) TYPED(OPT_REAL, f, lo, hi, NULL, hint)
#define ABOVE(f, lo, hi, hint) TYPED(OPT_ABOVE, f, lo, hi, NULL, hint)
#define BELOW(f, lo, hi, hint) TYPED(OPT_BELOW, f, lo, hi, NULL, hint)
#define CHOICE(f, list) TYPED(OPT_CHOICE, f, 0, 0, list, NULL)
#define NAME(f, list) TYPED(OPT_NAME, f, 0, 0, list, NULL)
#define CALLBACK(fn) OPT_CALLBACK, 0, 0, 0, 0, NULL, NULL, fn

/* The lists of the choices, in their enums' order (tests/test_options.c checks them against the
 * model's names). */
static const char *const formats[] = {"text", "csv", "json", "npy", NULL};
static const char *const rope_styles[] = {"interleaved", "half", NULL};
static const char *const tokenizers[] = {"char", "word", "cl100k", "o200k", NULL};
static const char *const scalings[] = {"none", "linear", "ntk", "dynamic", "yarn", "llama3", NULL};
static const char *const pe_layouts[] = {"interleaved", "split", NULL};
static const char *const order_bs[] = {"aligned", "own", NULL};
static const char *const langs[] = {"zh", "en", NULL};
static const char *const venues[] = {"acl", "neurips", "icml", "iclr", "ieee", "a4", NULL};
static const char *const colormaps[] = {"viridis", "cividis", "rdbu", "puor", "gray", NULL};

static const tf_option options[] = {
    /* ---- Output ---- */
    {"print", 0, "WHAT", G_OUTPUT, STRING(print_what), MODE_PRINT,
     "write numbers instead of the interactive view; WHAT is one of\n{print}", NULL,
     "Write numbers instead of the interactive view. WHAT is one of\n{print_roff}\n"
     ".B order\nputs both word orders through one random, untrained attention head with "
     "LayerNorm and\nthe word vectors scaled by sqrt(d_model): per mode the attention matrices, "
     "each token's\noutput difference and its share of max|Z|;\n"
     ".B similarity\nis the cosine matrix of the sentence's rows of W_E,\n.B neighbors\n"
     "the words nearest to\n.BR \\-\\-word ,\n.B pca\na 2\\-D map of the most frequent words,\n"
     ".B training\nthe loss and similarities step by step. Without\n.B \\-\\-vectors\n"
     "the last three train on the built\\-in corpus first;\n.B order\\-training\n"
     "trains one attention layer on \\(lqwho does it\\(rq once per position scheme (as\n"
     ".BR \\-\\-train\\-order )\nand gives its curves: epoch, scheme, loss, train_acc, "
     "test_acc, test_loss, pair_same.",
     "@print", "[write numbers instead of the interactive view]:what:"},
    {"format", 0, "F", G_OUTPUT, CHOICE(format, formats), MODE_PRINT,
     "text (default), csv, json or npy (NumPy, matrices only)", NULL,
     ".B text\n(the default),\n.BR csv ,\n.B json\nor\n.B npy\n"
     "(NumPy arrays; matrices only, and only to a file).",
     "text csv json npy", "[output format]:format:"},
    {"output", 'o', "FILE", G_OUTPUT, STRING(output), MODE_PRINT | MODE_TRAIN | MODE_ORDER,
     "write to FILE (replaced atomically) instead of standard output", NULL,
     "Write to FILE instead of standard output. The file is replaced atomically: on an error "
     "the old\nfile is left as it was and no partial file is written.",
     "@file", "[write to FILE]:file:"},
    /* ---- Figures ---- */
    {"export", 0, "FILE", G_FIGURES, STRING(export_path), MODE_EXPORT,
     "draw a figure to FILE; .png, .svg or .pdf (from the extension);\nan animation to FILE.gif "
     "or to DIR/ as numbered PNG frames", NULL,
     "Draw a figure to FILE instead of starting the explorer; the format comes from the "
     "extension:\n.BR .png ,\n.B .svg\nor\n.BR .pdf .\nAn animated figure goes to\n"
     ".I FILE.gif\nor, as numbered PNG frames (frame_0001.png, ...), to a folder named\n"
     ".I DIR/\n(a trailing slash, or a folder that exists). Every file is written atomically; "
     "frames left by a\nlonger earlier animation are removed once all new frames are written.",
     "@file *.(png|svg|pdf|gif)", "[draw a figure to FILE (.png .svg .pdf .gif) or DIR/]:file:"},
    {"figure", 0, "NAME", G_FIGURES, STRING(figure), MODE_EXPORT,
     "{figure} (default pe);\nthe animations {animation} go to .gif or DIR/", NULL,
     "Which figure:\n{figure_roff}\nembedding\\-map is the 2\\-D map of the 60 commonest words "
     "of the vectors from\n.B \\-\\-vectors\nor training; the default is pe. These move "
     "and go to a .gif file or a folder of\nframes:\n{animation_roff}\nA still figure cannot "
     "be written as .gif nor an animation as .png, .svg or .pdf;\norder\\-training is both: the "
     "whole run as a still figure, the curves growing epoch by\nepoch as an animation. The "
     "gallery docs/gallery.md shows each one.",
     "@figure", "[which figure]:figure:"},
    {"dpi", 0, "N", G_FIGURES, WHOLE_REAL(fig.dpi, 30, 2400), MODE_EXPORT,
     "PNG resolution, 30..2400 (default 300)", NULL,
     "PNG resolution, 30 to 2400 (default 300).", NULL, "[PNG resolution]:dpi:"},
    {"width", 0, "L", G_FIGURES, CALLBACK(set_width), MODE_EXPORT,
     "page size with a unit: 3.5in, 8.9cm, 89mm, 252pt (a bare\nnumber is inches); "
     "one-column = 3.5in (default width),\ntwo-column = 7.16in, half = 3.5in (one of two side "
     "by side);\nthe height defaults to the figure's shape",
     "--width L, --height L",
     "The page size with a unit: 3.5in, 8.9cm, 89mm, 252pt (a bare number is inches);\n"
     ".B one\\-column\nis 3.5in (the default width),\n.B two\\-column\n7.16in and\n"
     ".B half\nhalf the text width less the gap between two subfigures side by side, 3.5in\n"
     "(with\n.BR \\-\\-venue ,\nthat venue's). The height defaults to the figure's own shape.",
     "one-column two-column half", "[page width]:width:"},
    {"height", 0, "L", G_FIGURES, CALLBACK(set_height), MODE_EXPORT,
     NULL, NULL, NULL, "one-column two-column half",
     "[page height]:height:"},
    {"venue", 0, "NAME", G_FIGURES, NAME(venue, venues), MODE_EXPORT,
     "acl, neurips, icml, iclr, ieee or a4: the venue's column width\n(default width), text "
     "width (--width two-column) and half;\nneurips, iclr and a4 are one column: one-column is "
     "there half;\nno title or notes (the caption says them; --title brings the\ntitle back)",
     NULL,
     "The venue whose widths the figure takes:\n.BR acl ,\n.BR neurips ,\n.BR icml ,\n"
     ".BR iclr ,\n.B ieee\nor\n.BR a4 .\nThe default width becomes the venue's column width,"
     "\n.B \\-\\-width two\\-column\nits text width and\n.B \\-\\-width half\n"
     "half its text width less the gap between two subfigures side by side. NeurIPS, ICLR and "
     "A4 set their text in one column: the default and two\\-column are the text width (5.5 "
     "in for NeurIPS and ICLR) and one\\-column, one of two figures side by side as a column "
     "is one of two in a two\\-column paper, is half (2.625 in).\nThe figure comes without its "
     "title and its notes (the paper's caption says them), its\npanels named and lettered (a), "
     "(b), ...;\n.B \\-\\-title\nbrings a title back.",
     "acl neurips icml iclr ieee a4", "[the venue's page widths]:venue:"},
    {"font", 0, "FAMILY", G_FIGURES, CALLBACK(set_font), M_FIGURE,
     "label font families, pango's list (e.g. 'Noto Serif CJK SC');\ndefault sans: Noto Sans "
     "CJK SC, DejaVu Sans for English", NULL,
     "The label fonts, a comma\\-separated list of installed families (fc\\-list : family "
     "shows them); the default is sans: Noto Sans CJK SC, or DejaVu Sans for English labels.",
     NULL, "[label font families]:font:"},
    {"serif", 0, NULL, G_FIGURES, FLAG(fig.serif), M_FIGURE,
     "serif labels matching Times text: TeX Gyre Termes, Noto Serif\nCJK SC for Chinese", NULL,
     "Serif labels that match Times or Computer Modern text: TeX Gyre Termes, with Noto Serif "
     "CJK SC\nfor Chinese.",
     NULL, "[serif labels (TeX Gyre Termes, Noto Serif CJK)]"},
    {"colormap", 0, "M", G_FIGURES, NAME(fig.colormap, colormaps), M_FIGURE,
     "viridis, cividis, rdbu, puor or gray (default: rdbu centred on 0\nfor signed values, "
     "viridis otherwise)", NULL,
     ".BR viridis ,\n.BR cividis ,\n.BR rdbu ,\n.B puor\nor\n.B gray\n(default: rdbu centred "
     "on 0 for signed values, viridis otherwise).",
     "viridis cividis rdbu puor gray", "[colour map]:colormap:"},
    {"vmin", 0, "V", G_FIGURES, REAL(fig.vmin, -DBL_MAX, DBL_MAX), M_FIGURE,
     "the lowest and highest value of the colour scale of the figure's own\nquantity (default: "
     "the data's range, centred on 0 for signed values)", "--vmin V, --vmax V",
     "The colour limits of the heatmaps that show the figure's own quantity (pe-file: the "
     "table, not its\ndot products; default: the data's range, or its 1st to 99th percentile "
     "when a few extremes\nwould squash the rest, centred on 0 for signed values); values "
     "beyond them take the end\ncolours, and the colour bar marks a cut end with a triangle.",
     NULL, "[lowest value of the colour scale]:value:"},
    {"vmax", 0, "V", G_FIGURES, REAL(fig.vmax, -DBL_MAX, DBL_MAX), M_FIGURE,
     NULL, NULL, NULL, NULL,
     "[highest value of the colour scale]:value:"},
    {"font-size", 0, "PT", G_FIGURES, REAL(fig.font_size, 4, 36), M_FIGURE,
     "label size in points, 4..36 (default 8)", NULL,
     "Label size in points, 4 to 36 (default 8). Labels that do not fit the page's width and a "
     "height of\n9 in (or\n.BR \\-\\-height )\nare drawn smaller, down to 6 pt, and a note "
     "says so.", NULL, "[label size in points]:points:"},
    {"title", 0, "TEXT", G_FIGURES, CALLBACK(set_title), M_FIGURE,
     "replace the figure's title; --no-title drops it (the panels keep\ntheir subtitles and the "
     "notes stay; multi-panel figures are\nlettered (a), (b), ...)",
     NULL, "Replace the figure's title.",
     NULL, "[the figure title]:title:"},
    {"no-title", 0, NULL, G_FIGURES, FLAG(fig.no_title), M_FIGURE,
     NULL, NULL,
     "Draw the figure without its title, for a paper whose caption says it. The panels keep "
     "their subtitles (what a panel shows, such as what the arrows of \\fBrope\\fR (b) are) and "
     "the notes under \\fBorder\\fR and \\fBorder\\-training\\fR stay; the panels of a "
     "multi\\-panel figure are lettered (a), (b), ... as with \\fB\\-\\-panel\\-labels\\fR.",
     NULL, "[no figure title]"},
    {"panel-labels", 0, NULL, G_FIGURES, FLAG(fig.panel_labels), M_FIGURE,
     "letter the panels of multi-panel figures (a), (b), ...", NULL,
     "Letter the panels of multi\\-panel figures (a), (b), ... for a caption to refer to.", NULL,
     "[letter the panels (a), (b), ...]"},
    {"fps", 0, "X", G_FIGURES,
     REAL_HINT(fig.fps, ANIM_MIN_FPS, ANIM_MAX_FPS, "GIF viewers slow anything faster down"),
     MODE_EXPORT,
     "an animation's speed, {min_fps}..{max_fps} frames per second, and\nits length, "
     "1..{max_frames} frames (default: the animation's own)",
     "--fps X, --frames N",
     "An animation's speed in frames per second, {min_fps} to {max_fps}, and its length in "
     "frames, 1 to\n{max_frames}. The defaults are the animation's own; the frames always span "
     "the same motion, so\nmore frames make it smoother, not longer in content.",
     NULL, "[frames per second of an animation]:fps:"},
    {"frames", 0, "N", G_FIGURES, INTEGER(fig.frames, 1, ANIM_MAX_FRAMES), MODE_EXPORT,
     NULL, NULL, NULL, NULL,
     "[frames of an animation]:frames:"},
    {"show", 0, "FIGURE", G_FIGURES, STRING(show), MODE_SHOW,
     "draw a still FIGURE inside the terminal and exit (kitty, sixel,\niTerm2, or block "
     "symbols; TFVIZ_GRAPHICS=MODE forces one)", NULL,
     "Draw one still figure inside the terminal, as wide as the window, and exit: kitty's, "
     "sixel or\niTerm2's pictures where the terminal shows them, block symbols where "
     "TFVIZ_GRAPHICS=symbols\nasks for them (any colour terminal, tmux included). "
     "TFVIZ_GRAPHICS=kitty|sixel|iterm|symbols\nforces a mode, also when standard output is "
     "not a terminal. FIGURE is one of the names of\n.BR \\-\\-figure .",
     "@figure", "[draw a figure inside the terminal]:figure:"},
    {"lang", 0, "zh|en", G_FIGURES, NAME(lang, langs), M_ALL,
     "Chinese (default) or English: figure labels, the explorer and\nthe lesson (where l "
     "switches)", NULL,
     "Chinese (the default) or English: figure labels, the interactive view and the lesson;\n"
     ".B l\nswitches while running. Without a UTF\\-8 locale the view is English and ASCII.",
     "zh en", "[language]:language:"},
    {"order-b", 0, "aligned|own", G_FIGURES, CHOICE(fig.order_own, order_bs), M_FIGURE,
     "the order figure's sentence B: aligned (default: its rows and\ncolumns in A's word "
     "order, so without positions it is A's\npicture) or own (in B's own word order)", NULL,
     "How the order figure draws sentence B:\n.B aligned\n(the default: its attention's rows "
     "and columns put back into A's word order, so without positions A and B are the same "
     "picture cell for cell) or\n.B own\n(in B's own word order).",
     "aligned own", "[order figure's B]:order:"},
    {"pe-layout", 0, "L", G_OUTPUT, CHOICE(fig.pe_split, pe_layouts), M_FIGURE | MODE_PRINT,
     "interleaved (default: sin, cos, sin, ... as in the paper) or\nsplit (the sin half, then "
     "the cos half, as in tensor2tensor and the\nTensorFlow tutorial) for --print pe and the pe "
     "figure", NULL,
     "The column order of PE for\n.B \\-\\-print pe\nand the pe figure:\n.B interleaved\n"
     "(the default: sin, cos, sin, ... as in the paper) or\n.B split\n(the sin half, then the "
     "cos half, as in tensor2tensor and the TensorFlow tutorial).",
     "interleaved split", "[PE column order]:layout:"},
    /* ---- Model ---- */
    {"d-model", 'd', "N", G_MODEL, EVEN(cfg.d_model, TF_MIN_DMODEL, TF_MAX_DMODEL, "try -d 512"),
     M_SENTENCE | MODE_TRAIN | MODE_ORDER,
     "model width, an even number {min_d}..{max_d} (default {def_d})", NULL,
     "The model width d_model, an even number from {min_d} to {max_d} (default {def_d}).",
     NULL, "[model width (even)]:d_model:"},
    {"positions", 'n', "N", G_MODEL, INTEGER(cfg.n_positions, 1, TF_MAX_POSITIONS), M_SENTENCE,
     "positions in PE tables and checks, 1..{max_n} (default {def_n})", NULL,
     "Positions in PE tables and checks, 1 to {max_n} (default {def_n}).", NULL,
     "[positions in PE tables]:positions:"},
    {"base", 0, "B", G_MODEL,
     ABOVE(cfg.base, 1, DBL_MAX, "10000 is the original, 500000 is Llama 3's"),
     M_SENTENCE,
     "frequency base of PE and RoPE, > 1 (default 10000; Llama 3: 500000)", NULL,
     "The frequency base of PE and RoPE, a number greater than 1 (default 10000; Llama 3 "
     "uses\n500000).",
     NULL, "[frequency base of PE and RoPE]:base:"},
    {"index-base", 0, "0|1", G_MODEL, INTEGER(cfg.index_base, 0, 1), M_SENTENCE,
     "count positions from 0 (the formula, default) or 1 (the article's\nprose, where 学习 is "
     "word 3)", NULL,
     "Count positions from 0 (the formula; the default) or from 1 (as prose does, where 学习 "
     "is the\nthird word).",
     "0 1", "[count positions from 0 or 1]:index base:"},
    {"seed", 0, "S", G_MODEL, WHOLE64(cfg.seed), M_SENTENCE | MODE_TRAIN | MODE_ORDER,
     "seed of the random W_E, W_Q, W_K, W_V and of trained vectors'\nstart (default {seed})",
     NULL,
     "The seed of the random matrices W_E, W_Q, W_K and W_V and of the word vectors' random "
     "start when\nthey are trained (default {seed}). The same seed gives the same numbers on "
     "every machine.",
     NULL, "[seed of the random matrices]:seed:"},
    {"tokenizer", 0, "T", G_MODEL, CHOICE(cfg.tokenizer, tokenizers), M_SENTENCE | MODE_TRAIN,
     "word (default): dictionary words (jieba's dictionary, the most\nprobable segmentation); "
     "char: one token per character;\ncl100k or o200k: OpenAI byte-level BPE (GPT-4, "
     "GPT-4o)\n分词方式：word 词典分词（默认）、char 单字、cl100k/o200k 字节级 BPE", NULL,
     ".B word\n(the default): dictionary words, segmented along the most probable route "
     "through jieba's\ndictionary;\n.BR char :\none token per character;\n.B cl100k\nor\n"
     ".BR o200k :\nOpenAI's byte\\-level BPE vocabularies (GPT\\-4, GPT\\-4o).",
     "word char cl100k o200k", "[tokenizer]:tokenizer:"},
    {"no-hmm", 0, NULL, G_MODEL, FLAG(cfg.no_hmm), M_SENTENCE | MODE_TRAIN | MODE_ORDER,
     "word: without jieba's HMM, so a name outside the dictionary\nfalls apart into characters "
     "(小明 -> 小 明), as jieba.cut(text,\nHMM=False); by default the HMM joins it (小明), as "
     "jieba.cut(text)\n分词不用 jieba 的 HMM：词典外的人名会拆成单字", NULL,
     "For word: cut without jieba's hidden Markov model, as jieba.cut(text, HMM=False), so a "
     "name\noutside the dictionary falls apart into characters (小明 becomes 小 明). By default "
     "the model\njoins runs of single characters into words as jieba.cut(text) does (小明, "
     "李华).",
     NULL, "[word mode without jieba's HMM]"},
    {"vocab-size", 0, "V", G_MODEL, INTEGER(cfg.vocab_size, TF_MIN_VOCAB, TF_MAX_VOCAB),
     M_SENTENCE | MODE_TRAIN | MODE_ORDER,
     "word and char: 4 special tokens, the most frequent dictionary\nwords (id = 4 + frequency "
     "rank), then the base characters not\namong them (ASCII, CJK punctuation and ideographs, "
     "full-width\nforms) when V >= 21395, else V - 4 words only; {min_v}..{max_v}\n(default "
     "{def_v})", NULL,
     "For word and char: 4 special tokens, then the most frequent dictionary words (id = 4 "
     "+\nfrequency rank), then the base characters not among them (ASCII, CJK punctuation and\n"
     "ideographs, full\\-width forms) when V >= 21395; smaller V keeps V \\- 4 words only.\n"
     "{min_v} to {max_v} (default {def_v}). Not allowed with the BPE tokenizers, whose size is "
     "fixed.",
     NULL, "[vocabulary size]:V:"},
    {"scale-embedding", 0, NULL, G_MODEL, FLAG(cfg.scale_embedding), M_SENTENCE,
     "multiply X_emb by sqrt(d_model) before adding PE (original paper)", NULL,
     "Multiply X_emb by sqrt(d_model) before adding PE, as the original Transformer does.", NULL,
     "[multiply X_emb by sqrt(d_model)]"},
    {"rope-style", 0, "S", G_MODEL, CHOICE(cfg.rope, rope_styles), M_SENTENCE,
     "interleaved (LLaMA reference code, GPT-J; default) or half\n(rotate_half: GPT-NeoX, "
     "Hugging Face)", NULL,
     ".B interleaved\n(pairs (0,1), (2,3), ...: the LLaMA reference code and GPT\\-J; the "
     "default) or\n.B half\n(pairs (i, i + d/2): rotate_half in GPT\\-NeoX and Hugging Face).",
     "interleaved half", "[RoPE pairing]:style:"},
    {"offset", 0, "K", G_MODEL, INTEGER(cfg.offset, 0, TF_MAX_POSITIONS - 1), M_SENTENCE,
     "k of the relative map PE(pos+k) = M_k PE(pos) (default 1)", NULL,
     "The k of the relative map PE(pos + k) = M_k PE(pos) (default 1); must be below the number "
     "of\npositions.",
     NULL, "[k of the relative map M_k]:k:"},
    {"compare", 0, "TEXT", G_MODEL, STRING(cfg.compare), M_SENTENCE,
     "the same tokens in another order (default: the words reversed,\neach word keeping its "
     "tokens in order)", NULL,
     "The same tokens in another order for the order experiment (default: the words of the "
     "sentence\nreversed, each word keeping its tokens in order, so 我爱学习 becomes "
     "学习爱我). In the\nexplorer,\n.B c\nin view 6 types it.",
     NULL, "[the same tokens in another order]:text:"},
    /* ---- Position schemes ---- */
    {"scheme", 0, "LIST", G_SCHEMES, CALLBACK(set_scheme), M_SENTENCE | MODE_ORDER,
     "schemes, separated by commas: none, sinusoidal, learned, rope,\nalibi, t5; with --print "
     "order (and view 6, the order figure)\nthe experiment runs each through the same head; "
     "--print\nschemes, bias and pe, view 9 and the schemes figure show them", NULL,
     "The position schemes to use or compare, separated by commas:\n.B none\n(no positions),\n"
     ".B sinusoidal\n(the article's PE, added),\n.B learned\n(a position table, added),\n"
     ".B rope\n(q and k rotated),\n.B alibi\n(a bias \\-m|i\\-j| on the scores) or\n.B t5\n"
     "(a bias per relative\\-position bucket). One option for every place that chooses how "
     "positions\nreach attention: with\n.B \\-\\-print order\n(view 6 and the order figure) "
     "the order experiment runs each listed scheme through\nthe same head instead of its three "
     "modes;\n.BR \"\\-\\-print schemes\" ,\n.BR \"\\-\\-print bias\" ,\n"
     ".BR \"\\-\\-print pe\" ,\nthe explorer's view 9 (the first two, side by side; its keys s and "
     "S change them)\nand the schemes figure show the listed schemes; the pe\\-file figure "
     "draws the learned table.\nOther topics and figures show the article's sinusoidal PE and "
     "refuse\n.BR \\-\\-scheme .",
     "none sinusoidal learned rope alibi t5", "[position schemes]:schemes:"},
    {"mask", 0, "M", G_SCHEMES, CALLBACK(set_mask), M_SENTENCE,
     "causal (a decoder: keys after the query hidden) or symmetric\n(every key seen; default); "
     "T5's buckets follow it", NULL,
     ".B causal\n(a decoder: keys after the query are hidden, score \\-inf) or\n.B symmetric\n"
     "(every key is seen: an encoder and the article's order experiment; the default). T5's "
     "buckets\nfollow it: bidirectional when symmetric, unidirectional when causal.",
     "causal symmetric", "[attention mask]:mask:"},
    {"heads", 0, "H", G_SCHEMES, INTEGER(heads, 1, TF_MAX_HEADS), M_SENTENCE | MODE_ORDER,
     "ALiBi's and T5's heads, 1..256 (default 8); --head N the one\ndrawn and used by the "
     "order experiment (default 1); with\n--train-order the trained model's heads, 1..4 "
     "(default 2)",
     "--heads H, --head N",
     "The attention heads of ALiBi's slopes and of T5's untrained bias table, 1 to 256 "
     "(default 8).\nWith\n.B \\-\\-train\\-order\n(and\n.BR \"\\-\\-print order\\-training\" ,\n"
     "the order\\-training figure and view 10): the heads of the trained model, 1 to 4 "
     "(default 2); d_model\nmust be a multiple of 2H.",
     NULL, "[ALiBi and T5 heads]:heads:"},
    {"head", 0, "N", G_SCHEMES, INTEGER(head, 1, TF_MAX_HEADS), M_SENTENCE,
     NULL, NULL,
     "The head whose bias the curves draw and the order experiment uses, from 1 (default 1: "
     "ALiBi's\nsteepest slope).",
     NULL, "[the head drawn]:head:"},
    {"num-buckets", 0, "N", G_SCHEMES, INTEGER(positions.buckets.num_buckets, 2, TF_MAX_T5_BUCKETS),
     M_SENTENCE,
     "T5's relative-position buckets (32) and max distance (128)",
     "--num-buckets N --max-distance N",
     "T5's relative\\-position buckets (default 32).", NULL, "[T5 buckets]:buckets:"},
    {"max-distance", 0, "N", G_SCHEMES,
     INTEGER(positions.buckets.max_distance, 1, TF_MAX_T5_DISTANCE),
     M_SENTENCE, NULL, NULL,
     "T5's max distance (default 128): every distance from it on shares the last bucket.", NULL,
     "[T5 max distance]:distance:"},
    {"pe-file", 0, "FILE", G_SCHEMES, STRING(pe_file), M_SENTENCE,
     "a learned position table from a .npy or .safetensors file (GPT-2's\nwpe.weight, BERT's "
     "position_embeddings.weight); --pe-tensor\nNAME picks a tensor; d_model follows it "
     "unless -d is given",
     "--pe-file FILE, --pe-tensor NAME",
     "A learned position table from a NumPy\n.B .npy\n(float16, float32 or float64, C order) "
     "or a\n.B .safetensors\nfile (F16, BF16, F32, F64): GPT\\-2's\n.BR wpe.weight ,\nBERT's\n"
     ".BR position_embeddings.weight .\nThe learned scheme uses it instead of an untrained "
     "table; d_model follows it unless\n.B \\-d\nis given.",
     "@file *.(npy|safetensors)", "[learned position table (.npy .safetensors)]:file:"},
    {"pe-tensor", 0, "NAME", G_SCHEMES, STRING(pe_tensor), M_SENTENCE,
     NULL, NULL,
     "The tensor of a\n.B .safetensors\nfile to read (default: the one named like a position "
     "table, or the only 2\\-D one).",
     NULL, "[tensor name in the .safetensors file]:name:"},
    {"t5-file", 0, "FILE", G_SCHEMES, STRING(t5_file), M_SENTENCE,
     "T5's bias table (buckets x heads) from a file; --t5-tensor NAME", NULL,
     "T5's relative attention bias (num_buckets x heads: the\n"
     ".B relative_attention_bias.weight\nof t5\\-small's first block) from a\n"
     ".B .npy\nor\n.B .safetensors\nfile instead of an untrained one;\n.B \\-\\-t5\\-tensor\n"
     "names the tensor.",
     "@file *.(npy|safetensors)", "[T5 bias table (.npy .safetensors)]:file:"},
    {"t5-tensor", 0, "NAME", G_SCHEMES, STRING(t5_tensor), M_SENTENCE,
     NULL, NULL, NULL, NULL,
     "[tensor name of the T5 table]:name:"},
    {"original-context", 0, "L", G_SCHEMES, INTEGER(positions.trained, 1, TF_MAX_POSITIONS),
     M_SENTENCE,
     "the trained length: RoPE scalings' original context and the\nuntrained learned table's "
     "rows (default: GPT-2's 1024 rows,\nLlama 2's 4096, Llama 3.1's 8192 for llama3)", NULL,
     "The context length the model was trained on: a RoPE scaling's original context and the "
     "rows of\nthe untrained learned table (default: each scheme's own model, GPT\\-2's 1024 "
     "rows, Llama 2's 4096,\nLlama 3.1's 8192 with llama3). Curves mark it with a vertical "
     "line.",
     NULL, "[trained context length]:L:"},
    {"scaling", 0, "S", G_SCHEMES, CHOICE(scaling, scalings), M_SENTENCE,
     "RoPE past its trained length: linear, ntk, dynamic, yarn or llama3\n(default none); "
     "--factor F the extension (4; llama3 8)", "--scaling S, --factor F",
     "RoPE's frequencies for a longer context than it was trained on:\n.B linear\n(position "
     "interpolation),\n.B ntk\n(NTK\\-aware base),\n.B dynamic\n(dynamic NTK),\n.B yarn\nor\n"
     ".B llama3\n(Llama 3.1). Default none: plain RoPE. The base is the method's own (10000; "
     "500000 for\nllama3) unless\n.B \\-\\-base\nis given.",
     "none linear ntk dynamic yarn llama3", "[RoPE scaling]:scaling:"},
    {"factor", 0, "F", G_SCHEMES, REAL(factor, 1, 1e9), M_SENTENCE,
     NULL, NULL,
     "How many times the context is extended, at least 1 (default 4; 8 for llama3).", NULL,
     "[context extension factor]:factor:"},
    {"beta-fast", 0, "B", G_SCHEMES, ABOVE(beta_fast, 0, 1e9, NULL), M_SENTENCE,
     "YaRN: the ramp's ends (32, 1), --mscale M --mscale-all-dim M\n(DeepSeek), "
     "--attention-factor A, --no-truncate",
     "--beta-fast B --beta-slow B",
     "YaRN: the pairs that turn more than beta_fast times in the original context keep their "
     "frequency,\nthose that turn less than beta_slow times are interpolated (32 and 1).", NULL,
     "[YaRN beta_fast]:beta:"},
    {"beta-slow", 0, "B", G_SCHEMES, ABOVE(beta_slow, 0, 1e9, NULL), M_SENTENCE,
     NULL, NULL, NULL, NULL,
     "[YaRN beta_slow]:beta:"},
    {"mscale", 0, "M", G_SCHEMES, ABOVE(mscale, 0, 1e9, NULL), M_SENTENCE,
     NULL, NULL,
     "YaRN's attention factor from DeepSeek's mscale and mscale_all_dim, or given as it is; by "
     "default\n0.1 ln(factor) + 1.",
     NULL, "[YaRN mscale]:mscale:"},
    {"mscale-all-dim", 0, "M", G_SCHEMES, ABOVE(mscale_all_dim, 0, 1e9, NULL), M_SENTENCE,
     NULL, NULL, NULL, NULL,
     "[YaRN mscale_all_dim]:mscale:"},
    {"attention-factor", 0, "A", G_SCHEMES, ABOVE(attention_factor, 0, 1e9, NULL), M_SENTENCE,
     NULL, NULL, NULL, NULL,
     "[YaRN attention factor]:factor:"},
    {"no-truncate", 0, NULL, G_SCHEMES, FLAG(no_truncate), M_SENTENCE,
     NULL, NULL,
     "YaRN: no floor and ceiling of the correction range.", NULL,
     "[YaRN without truncation]"},
    {"low-freq-factor", 0, "X", G_SCHEMES, ABOVE(low_freq_factor, 0, 1e9, NULL), M_SENTENCE,
     "llama3: the wavelength bands (1, 4); --seq-len N dynamic's text\nlength (default factor "
     "x original context)",
     "--low-freq-factor X --high-freq-factor X --seq-len N",
     "Llama 3.1: pairs of wavelength above L/low_freq_factor are divided by the factor, "
     "below\nL/high_freq_factor kept, blended between (1 and 4).",
     NULL, "[Llama 3 low_freq_factor]:factor:"},
    {"high-freq-factor", 0, "X", G_SCHEMES, ABOVE(high_freq_factor, 0, 1e9, NULL), M_SENTENCE,
     NULL, NULL, NULL, NULL,
     "[Llama 3 high_freq_factor]:factor:"},
    {"seq-len", 0, "N", G_SCHEMES, INTEGER(seq_len, 1, 1000000000), M_SENTENCE,
     NULL, NULL,
     "Dynamic NTK: the length of the text read (default: factor times the original context).",
     NULL, "[dynamic NTK sequence length]:N:"},
    /* ---- Learned embeddings ---- */
    {"train", 0, NULL, G_LEARNED, FLAG(train), MODE_TRAIN,
     "learn word vectors by skip-gram with negative sampling and print\nhow similar words moved "
     "together; -o FILE writes them (.bin:\nword2vec binary, otherwise text .vec); -d sets "
     "their size (50)", NULL,
     "Learn word vectors by skip\\-gram with negative sampling and print how similar words "
     "moved\ntogether. With\n.BI \\-o \" FILE\"\nthe vectors are written: word2vec binary for a\n"
     ".B .bin\nname, otherwise word2vec text (.vec).\n.B \\-d\nsets their size (default 50 when "
     "training).",
     NULL, "[learn word vectors (skip-gram)]"},
    {"corpus", 0, "FILE", G_LEARNED, STRING(corpus), M_VECTORS,
     "train on a UTF-8 text, one sentence a line (default: built-in)", NULL,
     "Train on a UTF\\-8 text, one sentence a line (default: the built\\-in corpus).", "@file",
     "[training text, one sentence a line]:file:"},
    {"epochs", 0, "N", G_LEARNED, INTEGER(order_epochs, 1, 10000), M_TRAINING,
     "training settings (5, 5, 5, 2, 0.001, 1; threads > 1 is faster\nbut not reproducible)",
     "--epochs N --window N --negative N --min-count N --sample X --threads N",
     "Passes over the corpus (5), context words on each side (5), negative samples per pair "
     "(5),\nthe fewest occurrences a word needs (2). With\n.BR \\-\\-train\\-order :\n"
     "the order model's epochs, 1 to 1000 (default: at least 750 steps and 10 epochs).",
     NULL, "[passes over the corpus]:N:"},
    {"window", 0, "N", G_LEARNED, INTEGER(w2v.window, 1, 100), M_VECTORS,
     NULL, NULL, NULL, NULL,
     "[context words on each side]:N:"},
    {"negative", 0, "N", G_LEARNED, INTEGER(w2v.negative, 1, 100), M_VECTORS,
     NULL, NULL, NULL, NULL,
     "[negative samples]:N:"},
    {"min-count", 0, "N", G_LEARNED, INTEGER(w2v.min_count, 1, 1000000000), M_VECTORS,
     NULL, NULL, NULL, NULL,
     "[fewest occurrences of a word]:N:"},
    {"sample", 0, "X", G_LEARNED, BELOW(w2v.sample, 0, 1, "word2vec uses 0.001"), M_VECTORS,
     NULL, NULL,
     "Down\\-sampling threshold of frequent words (0.001).", NULL,
     "[down-sampling threshold]:X:"},
    {"threads", 0, "N", G_LEARNED, INTEGER(w2v.threads, 1, 64), M_TRAINING,
     NULL, NULL,
     "Training threads (1); more than one is faster but not reproducible. The order model\n"
     "(\\fB\\-\\-train\\-order\\fR) trains one scheme per thread (default: one per "
     "core) and gives the same bits\nwith any number.",
     NULL, "[training threads]:N:"},
    {"vectors", 0, "FILE", G_LEARNED, STRING(vectors_path), M_SENTENCE,
     "use word2vec/fastText/gensim vectors (text or binary) as the rows\nof W_E for the tokens "
     "they spell; d_model follows the file", NULL,
     "Use word2vec, fastText or gensim vectors (text or binary) as the rows of W_E for the "
     "tokens\nthey spell; d_model follows the file.",
     "@file", "[word2vec/fastText/gensim vectors as W_E]:file:"},
    {"vectors-limit", 0, "N", G_LEARNED, INTEGER(vectors_limit, 1, VECTORS_MAX_ROWS), M_SENTENCE,
     "read only the first N rows of a large vector file", NULL,
     "Read only the first N rows of a large vector file.", NULL,
     "[read only the first N rows]:N:"},
    {"word", 0, "W", G_LEARNED, STRING(word), MODE_PRINT,
     "with --print neighbors: the K (10) words nearest to W;\nwith --print pca: map the K (500) "
     "most frequent words\n(--print training: loss and similarities step by step)",
     "--word W --top K",
     "With\n.BR \"\\-\\-print neighbors\" :\nthe word whose neighbours are listed.", NULL,
     "[the word for --print neighbors]:word:"},
    {"top", 0, "K", G_LEARNED, INTEGER(top, 1, 10000), MODE_PRINT,
     NULL, NULL,
     "With\n.BR \"\\-\\-print neighbors\" :\nhow many neighbours (10); with\n"
     ".BR \"\\-\\-print pca\" :\nhow many of the most frequent words are mapped (500).",
     NULL, "[how many neighbours or mapped words]:K:"},
    /* ---- Word order, trained ---- */
    {"train-order", 0, NULL, G_ORDER, FLAG(train_order), MODE_ORDER,
     "train one attention layer on \"who does it\" once per position\nscheme (--scheme, "
     "default none,sinusoidal,learned,rope) and print\nloss and held-out accuracy per epoch "
     "and a final table; a\nSENTENCE of three words, doer verb object (猫追老鼠), joins the\n"
     "task as its held-out pair; -o FILE writes the task's sentences\n"
     "训练语序：有无位置信息的对比",
     NULL,
     "Train one attention layer on the \\(lqwho does it\\(rq task (the position of the doer "
     "of a\nsentence; docs/math.md part 5) once per position scheme of\n.B \\-\\-scheme\n"
     "(default none,sinusoidal,learned,rope; alibi and t5 too), from the same weights on the "
     "same\nbatches, and print per scheme the training loss and the held\\-out accuracy per "
     "epoch, then a\nfinal table with the share of pairs whose two orders got the same "
     "answer. Without positions\nthat share is 100% and the accuracy at most 50%. A sentence "
     "given (the default is\n我爱学习) whose words read doer verb object (猫追老鼠, 小明喜欢小红, "
     "dog bites man) joins\nthe generated task: its nouns act in the training sentences, its "
     "verb is among the verbs, and\nit and its other order are the first held\\-out pair, "
     "with the doer each scheme names for\nboth; a sentence of another shape is said in one "
     "line and 我 爱 学习 is watched.\n"
     ".BR \\-\\-seed ,\n.BR \\-d ,\n.BR \\-\\-heads ,\n.B \\-\\-epochs\nand\n"
     ".B \\-\\-threads\nset the run;\n.BI \\-o \" FILE\"\nwrites the task's sentences "
     "in the format of\n.BR \\-\\-order\\-task .\nThe estimated work is checked "
     "before training starts.",
     NULL, "[train the order model once per position scheme]"},
    {"order-task", 0, "FILE", G_ORDER, STRING(order_task), M_ORDER_MODEL,
     "your own labelled sentences instead of the generated task: one\na line, tokens "
     "separated by spaces, the doer marked *, as in\n*猫 追 狗; lines after @test are held out",
     NULL,
     "Train on your own sentences instead of the generated task (with\n"
     ".BR \\-\\-train\\-order ,\n.BR \"\\-\\-print order\\-training\" ,\n"
     ".B \"\\-\\-figure order\\-training\"\nand the explorer's order training view): UTF\\-8 "
     "text, one sentence a line, tokens separated by\nspaces, the doer marked with a leading "
     "*, as in *猫 追 狗; lines after @test are held out\n(@train switches back), else a seeded "
     "fifth of the sentences is. A bad line is refused with\nits line and column.",
     "@file", "[your own labelled sentences]:file:"},
    {"order-pairs", 0, "N[,M]", G_ORDER, CALLBACK(set_order_pairs), M_ORDER_MODEL,
     "training (and held-out) pairs of the generated task, 1..20000\n(default 600,250)", NULL,
     "Training pairs N (and held\\-out pairs M) of the generated task, 1 to 20000 each "
     "(default\n600,250); the article's two pairs are always held out besides.",
     NULL, "[pairs of the generated task]:pairs:"},
    /* ---- Classroom ---- */
    {"lesson", 0, NULL, G_CLASSROOM, FLAG(lesson), MODE_LESSON,
     "a guided lesson in 12 steps through TEXT (Space/PgDn/Enter\nnext, PgUp/Backspace back, l "
     "Chinese/English, q quit) 12 步引导课程;\nwith --export DECK.pdf or DIR/: the steps as 16:9 "
     "slides 课件", NULL,
     "A guided lesson of 12 steps through TEXT: characters are not numbers; the vocabulary and "
     "the\nid; one\\-hot; onehot \\(mu W_E picks one row; the row is learned; attention has no "
     "sense of\norder; trained, it learns order only with positions; the PE formula worked out for one cell; frequencies and the clock; "
     "uniqueness and the\nrelative rotation M_k; X_input = X_emb + PE enters Q, K, V; RoPE. "
     "Each step has a short text\nin Chinese and English, the live view for that step and a "
     "\\(lqtry this\\(rq line.\nNeeds a terminal, unless\n.BI \\-\\-export \" DECK.pdf\"\nor\n"
     ".I DIR/\nis given: then the same steps are written as a deck of 16:9 slides (13.33 x 7.5 in "
     "pages,\nor numbered 1920x1080 PNGs in the folder), for the same sentence and options.",
     NULL, "[the guided lesson]"},
    {"big", 0, NULL, G_CLASSROOM, FLAG(big), MODE_LESSON,
     "with --lesson: for projectors; each step's point alone in a bold band,\nlarger heatmaps and "
     "plots, fewer numbers", NULL,
     "With\n.BR \\-\\-lesson :\nthe projector presentation. Each step shows its point, one short "
     "sentence, centred in a\nreversed bold band instead of its text, so the picture below gets "
     "the rows: heatmaps and plots\ngrow, and the views leave out their tables of numbers (the "
     "values of W_E's row, the per-token\ndifferences, the PE table beside PE.PE^T). The 80x24 "
     "layout works. Not with\n.BR \\-\\-export :\nthe slides are made for a projector "
     "already.",
     NULL, "[large text for projectors (with --lesson)]"},
    {"extended", 0, NULL, G_CLASSROOM, FLAG(extended), MODE_LESSON,
     "with --lesson: one step more after RoPE, beyond the article:\nthe position schemes real "
     "models use", NULL,
     "With\n.BR \\-\\-lesson :\nsteps beyond the article: after RoPE, the position schemes real "
     "models use (learned tables,\nALiBi, T5, RoPE scalings) and what they do past the trained "
     "length.",
     NULL, "[the lesson's extra steps (with --lesson)]"},
    /* ---- Display ---- */
    {"no-color", 0, NULL, G_DISPLAY, FLAG(no_color), MODE_EXPLORER | MODE_LESSON,
     "no colours (as does the NO_COLOR environment variable)", NULL,
     "No colours; so does a non\\-empty NO_COLOR environment variable.", NULL, "[no colours]"},
    /* ---- Help ---- */
    {"help", 'h', NULL, G_HELP, CALLBACK(set_help), M_ALL,
     "this help", NULL, "Print the options and exit.",
     NULL, "[print the options]"},
    {"version", 'V', NULL, G_HELP, CALLBACK(set_version), M_ALL,
     "the version", NULL,
     "Print the version and exit.", NULL, "[print the version]"},
};
#define N_OPTIONS (sizeof options / sizeof options[0])
