/* cli.c — parse the command line into a configuration, then run one mode. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colormap.h"
#include "core/datadir.h"
#include "core/err.h"
#include "core/outfile.h"
#include "figures/figures.h"
#include "figure.h"
#include "fileio.h"
#include "tf_limits.h"
#include "learn/learn.h"
#include "print/print.h"
#include "tf_config.h"
#include "tui/tui.h"
#include "utf8.h"

#define DEFAULT_TEXT "我爱学习"

/* The figure the command line asks for. */
static fig_request figure_request(const tf_cli *cli)
{
    return (fig_request){.name = cli->figure, .path = cli->export_path,
                         .zh = strcmp(cli->lang, "en") != 0, .dpi = cli->dpi,
                         .width = cli->fig_width, .height = cli->fig_height,
                         .colormap = cli->colormap, .font_size = cli->font_size,
                         .title = cli->title, .no_title = cli->no_title,
                         .vectors = cli->cfg.vectors, .vectors_named = cli->vectors_path != NULL};
}

/* "pe, rope, ..." for --help and messages. */
static const char *joined(const char *const *names, char *list, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; names[i] && o < cap; i++)
        o += (size_t)snprintf(list + o, cap - o, "%s%s", i ? ", " : "", names[i]);
    return list;
}

static const char *figure_list(void)
{
    static char list[256];
    return joined(figures_names(), list, sizeof list);
}

static const char *print_list(void)
{
    static char list[256];
    return joined(print_topics(), list, sizeof list);
}

/* What --print, --train and the learned topics learn from. */
static learn_request learn_req(const tf_cli *cli)
{
    return (learn_request){.corpus_path = cli->corpus, .cfg = &cli->cfg,
                           .tokenizer_set = cli->tokenizer_set, .params = cli->w2v};
}

/* The --print the command line asks for, on analysis a (NULL: a learned topic). */
static print_request print_req(const tf_cli *cli, tf_analysis *a)
{
    return (print_request){.what = cli->print_what, .format = cli->format,
                           .output = cli->output, .a = a, .learn = learn_req(cli),
                           .vectors_path = cli->vectors_path,
                           .vectors_limit = cli->vectors_limit, .word = cli->word,
                           .top = cli->top, .top_given = cli->top_given};
}

static void usage(FILE *fp)
{
    fprintf(fp,
        "Usage: tfviz [OPTIONS] [TEXT]\n"
        "Show how a Transformer turns TEXT (default: " DEFAULT_TEXT ") into the matrix its first\n"
        "layer reads: tokens, vocabulary ids, embedding rows, positional encoding, their sum,\n"
        "attention with and without positions, and RoPE.\n"
        "展示 Transformer 如何把一句话变成第一层读入的矩阵：分词、词表编号、词嵌入、位置编码、\n"
        "二者之和、有无位置信息的注意力，以及 RoPE。\n"
        "\n"
        "Output:\n"
        "  --print WHAT          write numbers instead of the interactive view; WHAT is one of\n"
        "                        %s\n"
        "  --format F            text (default), csv, json or npy (NumPy, matrices only)\n"
        "  -o, --output FILE     write to FILE (replaced atomically) instead of standard output\n"
        "\n"
        "Figures / 论文插图:\n"
        "  --export FILE         draw a figure to FILE; .png, .svg or .pdf (from the extension)\n"
        "  --figure NAME         %s (default pe)\n"
        "  --dpi N               PNG resolution, 30..2400 (default 300)\n"
        "  --width L, --height L page size with a unit: 3.5in, 8.9cm, 89mm, 252pt (a bare\n"
        "                        number is inches); one-column = 3.5in (default width),\n"
        "                        two-column = 7.16in; the height defaults to the figure's shape\n"
        "  --colormap M          viridis, cividis, rdbu, puor or gray (default: rdbu centred on 0\n"
        "                        for signed values, viridis otherwise)\n"
        "  --font-size PT        label size in points, 4..36 (default 8)\n"
        "  --title TEXT          replace the figure's title; --no-title drops it\n"
        "  --lang zh|en          Chinese (default) or English: figure labels, the explorer and\n"
        "                        the lesson (where l switches)\n"
        "\n"
        "Model:\n"
        "  -d, --d-model N       model width, an even number %d..%d (default %d)\n"
        "  -n, --positions N     positions in PE tables and checks, 1..%d (default %d)\n"
        "  --base B              frequency base of PE and RoPE, > 1 (default 10000; Llama 3: 500000)\n"
        "  --index-base 0|1      count positions from 0 (the formula, default) or 1 (the article's\n"
        "                        prose, where 学习 is word 3)\n"
        "  --seed S              seed of the random W_E, W_Q, W_K, W_V (default %u)\n"
        "  --tokenizer T         word (default): dictionary words (jieba's dictionary, the most\n"
        "                        probable segmentation); char: one token per character;\n"
        "                        cl100k or o200k: OpenAI byte-level BPE (GPT-4, GPT-4o)\n"
        "                        分词方式：word 词典分词（默认）、char 单字、cl100k/o200k 字节级 BPE\n"
        "  --vocab-size V        word and char: 4 special tokens, the most frequent dictionary\n"
        "                        words (id = 4 + frequency rank), then the base characters not\n"
        "                        among them (ASCII, CJK punctuation and ideographs, full-width\n"
        "                        forms) when V >= 21395, else V - 4 words only; %d..%d\n"
        "                        (default %d)\n"
        "  --scale-embedding     multiply X_emb by sqrt(d_model) before adding PE (original paper)\n"
        "  --rope-style S        interleaved (LLaMA reference code, GPT-J; default) or half\n"
        "                        (rotate_half: GPT-NeoX, Hugging Face)\n"
        "  --offset K            k of the relative map PE(pos+k) = M_k PE(pos) (default 1)\n"
        "  --compare TEXT        the same tokens in another order (default: the words reversed,\n"
        "                        each word keeping its tokens in order)\n"
        "\n"
        "Learned embeddings (词向量):\n"
        "  --train               learn word vectors by skip-gram with negative sampling and print\n"
        "                        how similar words moved together; -o FILE writes them (.bin:\n"
        "                        word2vec binary, otherwise text .vec); -d sets their size (50)\n"
        "  --corpus FILE         train on a UTF-8 text, one sentence a line (default: built-in)\n"
        "  --epochs N --window N --negative N --min-count N --sample X --threads N\n"
        "                        training settings (5, 5, 5, 2, 0.001, 1; threads > 1 is faster\n"
        "                        but not reproducible)\n"
        "  --vectors FILE        use word2vec/fastText/gensim vectors (text or binary) as the rows\n"
        "                        of W_E for the tokens they spell; d_model follows the file\n"
        "  --vectors-limit N     read only the first N rows of a large vector file\n"
        "  --word W --top K      with --print neighbors: the K (10) words nearest to W;\n"
        "                        with --print pca: map the K (500) most frequent words\n"
        "                        (--print training: loss and similarities step by step)\n"
        "\n"
        "Classroom:\n"
        "  --lesson              a guided lesson in 11 steps through TEXT (Space/Right next,\n"
        "                        Left back, l Chinese/English, q quit) 11 步引导课程\n"
        "  --big                 with --lesson: large bold text, short lines, for projectors\n"
        "\n"
        "Display:\n"
        "  --no-color            no colours (as does the NO_COLOR environment variable)\n"
        "\n"
        "  -h, --help            this help\n"
        "  -V, --version         the version\n"
        "\n"
        "Environment: TFVIZ_DATA_DIR  the directory of the dictionary and BPE tables\n"
        "                             (default: the build's assets/ or the installed copy)\n"
        "Limits (checked before anything large is allocated or run):\n"
        "  text up to %d bytes (standard input is read up to that) and %d tokens;\n"
        "  tokens x d_model up to %d; --print dot up to %d positions; --print relative\n"
        "  positions x d_model up to 400000000; a --print whose estimated work exceeds %.0f s of\n"
        "  one core is refused with what to lower. Figures: a heatmap up to 16777216 cells, the\n"
        "  dot figure up to 2048 positions, a PNG up to 45 million pixels. Memory stays under\n"
        "  about 200 MB in every mode.\n"
        "限制：文本至多 %d 字节、%d 个词元；词元数 × d_model 至多 %d；预计超过 %.0f 秒的计算会被拒绝。\n"
        "Exit status: 0 success, 1 a file could not be written, 2 bad input or options.\n",
        print_list(), figure_list(), TF_MIN_DMODEL, TF_MAX_DMODEL, TF_DEFAULT_DMODEL, TF_MAX_POSITIONS,
        TF_DEFAULT_POSITIONS, TF_DEFAULT_SEED, TF_MIN_VOCAB, TF_MAX_VOCAB, TF_DEFAULT_VOCAB,
        TF_MAX_TEXT_BYTES, TF_MAX_TOKENS, TF_MAX_TOKEN_VALUES, TF_MAX_DOT_POSITIONS,
        TF_MAX_WORK / 1e9, TF_MAX_TEXT_BYTES, TF_MAX_TOKENS, TF_MAX_TOKEN_VALUES,
        TF_MAX_WORK / 1e9);
}

/* ---------------------------------------------------------------------------------------------
 * Numbers: the whole argument must be a number, in range */

static int parse_long(const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0') {
        err_say("%s expects a whole number, not '%s'.", opt, s);
        return -1;
    }
    /* lo, hi = LONG_MIN, LONG_MAX: the caller checks its own range and words its own message,
     * so an overflowing number comes back clamped instead of refused here */
    int full = lo == LONG_MIN && hi == LONG_MAX;
    if ((errno == ERANGE && !full) || v < lo || v > hi) {
        err_say("%s must be from %ld to %ld (got %s).", opt, lo, hi, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_double(const char *opt, const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0') {
        err_say("%s expects a number, not '%s'.", opt, s);
        return -1;
    }
    if (errno == ERANGE) {
        err_say("%s is too large or too small for a double (got %s).", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

static int parse_u64(const char *opt, const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    /* strtoull skips leading space and accepts a minus sign (negating the value): refuse both */
    if (*s == '-' || *s == ' ' || (*s >= '\t' && *s <= '\r')) {
        err_say("%s expects a non-negative whole number, not '%s'.", opt, s);
        return -1;
    }
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE) {
        err_say("%s expects a non-negative whole number below 2^64, not '%s'.", opt, s);
        return -1;
    }
    *out = v;
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Options */

enum {
    OPT_PRINT = 256, OPT_FORMAT, OPT_BASE, OPT_INDEX_BASE, OPT_SEED, OPT_COMPARE, OPT_ROPE_STYLE,
    OPT_OFFSET, OPT_SCALE, OPT_VOCAB, OPT_TOKENIZER, OPT_NO_COLOR, OPT_LANG,
    OPT_LESSON, OPT_BIG,
    OPT_TRAIN, OPT_CORPUS, OPT_EPOCHS, OPT_WINDOW, OPT_NEGATIVE, OPT_MIN_COUNT, OPT_SAMPLE,
    OPT_THREADS, OPT_VECTORS, OPT_VECTORS_LIMIT, OPT_WORD, OPT_TOP,
    OPT_EXPORT, OPT_FIGURE, OPT_DPI, OPT_WIDTH, OPT_HEIGHT, OPT_COLORMAP, OPT_FONT_SIZE, OPT_TITLE,
    OPT_NO_TITLE
};

static const struct option long_opts[] = {
    {"print", required_argument, 0, OPT_PRINT},
    {"format", required_argument, 0, OPT_FORMAT},
    {"output", required_argument, 0, 'o'},
    {"d-model", required_argument, 0, 'd'},
    {"positions", required_argument, 0, 'n'},
    {"base", required_argument, 0, OPT_BASE},
    {"index-base", required_argument, 0, OPT_INDEX_BASE},
    {"seed", required_argument, 0, OPT_SEED},
    {"compare", required_argument, 0, OPT_COMPARE},
    {"rope-style", required_argument, 0, OPT_ROPE_STYLE},
    {"offset", required_argument, 0, OPT_OFFSET},
    {"scale-embedding", no_argument, 0, OPT_SCALE},
    {"vocab-size", required_argument, 0, OPT_VOCAB},
    {"tokenizer", required_argument, 0, OPT_TOKENIZER},
    {"no-color", no_argument, 0, OPT_NO_COLOR},
    {"lang", required_argument, 0, OPT_LANG},
    {"lesson", no_argument, 0, OPT_LESSON},
    {"big", no_argument, 0, OPT_BIG},
    {"train", no_argument, 0, OPT_TRAIN},
    {"corpus", required_argument, 0, OPT_CORPUS},
    {"epochs", required_argument, 0, OPT_EPOCHS},
    {"window", required_argument, 0, OPT_WINDOW},
    {"negative", required_argument, 0, OPT_NEGATIVE},
    {"min-count", required_argument, 0, OPT_MIN_COUNT},
    {"sample", required_argument, 0, OPT_SAMPLE},
    {"threads", required_argument, 0, OPT_THREADS},
    {"vectors", required_argument, 0, OPT_VECTORS},
    {"vectors-limit", required_argument, 0, OPT_VECTORS_LIMIT},
    {"word", required_argument, 0, OPT_WORD},
    {"top", required_argument, 0, OPT_TOP},
    {"export", required_argument, 0, OPT_EXPORT},
    {"figure", required_argument, 0, OPT_FIGURE},
    {"dpi", required_argument, 0, OPT_DPI},
    {"width", required_argument, 0, OPT_WIDTH},
    {"height", required_argument, 0, OPT_HEIGHT},
    {"colormap", required_argument, 0, OPT_COLORMAP},
    {"font-size", required_argument, 0, OPT_FONT_SIZE},
    {"title", required_argument, 0, OPT_TITLE},
    {"no-title", no_argument, 0, OPT_NO_TITLE},
    {"help", no_argument, 0, 'h'},
    {"version", no_argument, 0, 'V'},
    {0, 0, 0, 0},
};

static const char *const format_names[FMT_COUNT] = {"text", "csv", "json", "npy"};

/* Returns -1 on an error already reported, 1 when help or version was printed, 0 to go on. */
static int parse_options(int argc, char **argv, tf_cli *cli)
{
    long v;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hVd:n:o:", long_opts, NULL)) != -1) {
        tf_config *cfg = &cli->cfg;
        switch (c) {
        case 'h':
            usage(stdout);
            return 1;
        case 'V':
            printf("tfviz %s\n", TF_VERSION);
            return 1;
        case OPT_PRINT:
            cli->print_what = optarg;
            break;
        case OPT_FORMAT: {
            int f;
            for (f = 0; f < FMT_COUNT && strcmp(optarg, format_names[f]) != 0; f++)
                ;
            if (f == FMT_COUNT) {
                err_say("--format must be text, csv, json or npy (got '%s').", optarg);
                return -1;
            }
            cli->format = (out_format)f;
            break;
        }
        case 'o':
            cli->output = optarg;
            break;
        case 'd':
            if (parse_long("--d-model", optarg, LONG_MIN, LONG_MAX, &v))
                return -1;
            if (v < TF_MIN_DMODEL || v > TF_MAX_DMODEL || v % 2) {
                err_say("--d-model must be an even number from %d to %d (got %s); "
                          "try -d 512.", TF_MIN_DMODEL, TF_MAX_DMODEL, optarg);
                return -1;
            }
            cfg->d_model = (int)v;
            cli->w2v.dim = (int)v;
            cli->d_given = true;
            break;
        case 'n':
            if (parse_long("--positions", optarg, 1, TF_MAX_POSITIONS, &v))
                return -1;
            cfg->n_positions = v;
            break;
        case OPT_BASE:
            if (parse_double("--base", optarg, &cfg->base))
                return -1;
            if (!isfinite(cfg->base) || !(cfg->base > 1.0)) {
                err_say("--base must be a finite number greater than 1 (got %s); "
                          "10000 is the original, 500000 is Llama 3's.", optarg);
                return -1;
            }
            break;
        case OPT_INDEX_BASE:
            if (parse_long("--index-base", optarg, 0, 1, &v))
                return -1;
            cfg->index_base = (int)v;
            break;
        case OPT_SEED:
            if (parse_u64("--seed", optarg, &cfg->seed))
                return -1;
            break;
        case OPT_COMPARE:
            cfg->compare = optarg;
            cfg->compare_len = strlen(optarg);
            break;
        case OPT_ROPE_STYLE:
            cfg->rope = rope_style_parse(optarg);
            if (cfg->rope == ROPE_STYLE_COUNT) {
                err_say("--rope-style must be interleaved or half (got '%s').", optarg);
                return -1;
            }
            break;
        case OPT_OFFSET:
            if (parse_long("--offset", optarg, 0, TF_MAX_POSITIONS - 1, &v))
                return -1;
            cfg->offset = v;
            cli->offset_set = true;
            break;
        case OPT_SCALE:
            cfg->scale_embedding = true;
            break;
        case OPT_VOCAB:
            if (parse_long("--vocab-size", optarg, TF_MIN_VOCAB, TF_MAX_VOCAB, &v))
                return -1;
            cfg->vocab_size = (uint32_t)v;
            cli->vocab_size_set = true;
            break;
        case OPT_TOKENIZER:
            cfg->tokenizer = tokenizer_parse(optarg);
            cli->tokenizer_set = true;
            if (cfg->tokenizer == TOKENIZER_COUNT) {
                err_say("--tokenizer must be word, char, cl100k or o200k (got '%s').", optarg);
                return -1;
            }
            break;
        case OPT_NO_COLOR:
            cli->no_color = true;
            break;
        case OPT_LESSON:
            cli->lesson = true;
            break;
        case OPT_BIG:
            cli->big = true;
            break;
        case OPT_LANG:
            if (strcmp(optarg, "zh") != 0 && strcmp(optarg, "en") != 0) {
                err_say("--lang must be zh or en (got '%s').", optarg);
                return -1;
            }
            cli->lang = optarg;
            break;
        case OPT_TRAIN:
            cli->train = true;
            break;
        case OPT_CORPUS:
            cli->corpus = optarg;
            break;
        case OPT_EPOCHS:
            if (parse_long("--epochs", optarg, 1, 10000, &v))
                return -1;
            cli->w2v.epochs = (int)v;
            break;
        case OPT_WINDOW:
            if (parse_long("--window", optarg, 1, 100, &v))
                return -1;
            cli->w2v.window = (int)v;
            break;
        case OPT_NEGATIVE:
            if (parse_long("--negative", optarg, 1, 100, &v))
                return -1;
            cli->w2v.negative = (int)v;
            break;
        case OPT_MIN_COUNT:
            if (parse_long("--min-count", optarg, 1, 1000000000, &v))
                return -1;
            cli->w2v.min_count = (int)v;
            break;
        case OPT_SAMPLE:
            if (parse_double("--sample", optarg, &cli->w2v.sample))
                return -1;
            if (!(cli->w2v.sample >= 0 && cli->w2v.sample < 1)) {
                err_say("--sample must be from 0 (off) to below 1 (got %s); word2vec uses "
                          "0.001.", optarg);
                return -1;
            }
            break;
        case OPT_THREADS:
            if (parse_long("--threads", optarg, 1, 64, &v))
                return -1;
            cli->w2v.threads = (int)v;
            break;
        case OPT_VECTORS:
            cli->vectors_path = optarg;
            break;
        case OPT_VECTORS_LIMIT:
            if (parse_long("--vectors-limit", optarg, 1, VECTORS_MAX_ROWS, &v))
                return -1;
            cli->vectors_limit = v;
            break;
        case OPT_WORD:
            cli->word = optarg;
            break;
        case OPT_TOP:
            if (parse_long("--top", optarg, 1, 10000, &v))
                return -1;
            cli->top = v;
            cli->top_given = true;
            break;
        case OPT_EXPORT:
            cli->export_path = optarg;
            break;
        case OPT_FIGURE:
            cli->figure = optarg;
            break;
        case OPT_DPI:
            if (parse_long("--dpi", optarg, 30, 2400, &v))
                return -1;
            cli->dpi = (double)v;
            break;
        case OPT_WIDTH:
        case OPT_HEIGHT: {
            const char *name = c == OPT_WIDTH ? "--width" : "--height";
            double len = fig_parse_length(optarg);
            if (len < 0) {
                err_say("%s expects a length such as 3.5in, 8.9cm, 89mm or 252pt (or "
                          "one-column, two-column), not '%s'.", name, optarg);
                return -1;
            }
            *(c == OPT_WIDTH ? &cli->fig_width : &cli->fig_height) = len;
            break;
        }
        case OPT_COLORMAP:
            if (colormap_parse(optarg) == CMAP_COUNT) {
                err_say("--colormap must be viridis, cividis, rdbu, puor or gray (got '%s').",
                          optarg);
                return -1;
            }
            cli->colormap = optarg;
            break;
        case OPT_FONT_SIZE:
            if (parse_double("--font-size", optarg, &cli->font_size))
                return -1;
            if (!(cli->font_size >= 4 && cli->font_size <= 36)) {
                err_say("--font-size must be from 4 to 36 points (got %s).", optarg);
                return -1;
            }
            break;
        case OPT_TITLE:
            if (utf8_validate(optarg, strlen(optarg), NULL) != TF_OK) {
                err_say("--title is not valid UTF-8; save it as UTF-8 and try again.");
                return -1;
            }
            cli->title = optarg;
            break;
        case OPT_NO_TITLE:
            cli->no_title = true;
            break;
        case ':':
            err_say("%s needs a value; see tfviz --help.", argv[optind - 1]);
            return -1;
        default:
            if (optopt)
                err_say("unknown option '-%c'; see tfviz --help.", optopt);
            else
                err_say("unknown option '%s'; see tfviz --help.", argv[optind - 1]);
            return -1;
        }
    }
    return 0;
}

int cli_parse(int argc, char **argv, tf_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    config_defaults(&cli->cfg);
    cli->lang = "zh";
    optind = 0; /* glibc: 0 re-initialises getopt, so parsing can run more than once */
    return parse_options(argc, argv, cli);
}

/* TEXT is the remaining arguments joined by spaces, or standard input for "-". */
static int read_text(int argc, char **argv, tf_cli *cli)
{
    if (optind == argc) {
        cli->text = strdup(DEFAULT_TEXT);
        cli->text_len = strlen(DEFAULT_TEXT);
        return cli->text ? 0 : -1;
    }
    if (argc - optind == 1 && strcmp(argv[optind], "-") == 0) {
        size_t cap = TF_MAX_TEXT_BYTES + 1;
        cli->text = malloc(cap + 1);
        if (!cli->text)
            return -1;
        /* at most one byte past the limit is read: a larger input is refused, not consumed */
        cli->text_len = fread(cli->text, 1, cap, stdin);
        if (ferror(stdin)) {
            int e = errno;
            free(cli->text);
            cli->text = NULL;
            errno = e;
            return -2;
        }
        cli->text[cli->text_len] = '\0';
        while (cli->text_len && (cli->text[cli->text_len - 1] == '\n' ||
                                 cli->text[cli->text_len - 1] == '\r'))
            cli->text[--cli->text_len] = '\0';
        return 0;
    }
    size_t total = 0;
    for (int i = optind; i < argc; i++)
        total += strlen(argv[i]) + 1;
    cli->text = malloc(total + 1);
    if (!cli->text)
        return -1;
    cli->text_len = 0;
    for (int i = optind; i < argc; i++) {
        size_t l = strlen(argv[i]);
        if (i > optind)
            cli->text[cli->text_len++] = ' ';
        memcpy(cli->text + cli->text_len, argv[i], l);
        cli->text_len += l;
    }
    cli->text[cli->text_len] = '\0';
    return 0;
}

/* A missing or corrupt data file: which one, and how to get it. */
static void report_data_error(tf_status st, const tf_cli *cli)
{
    tokenizer_kind k = cli->cfg.tokenizer;
    const char *dir = cli->cfg.data_dir ? cli->cfg.data_dir : "(none)";
    int bpe = k == TOKENIZER_CL100K || k == TOKENIZER_O200K;
    char file[32];
    snprintf(file, sizeof file, "tfviz-%s.bin", bpe ? tokenizer_name(k) : "dict");
    if (bpe && !TF_HAVE_PCRE2)
        err_say("--tokenizer %s needs PCRE2, which this build lacks; install libpcre2-dev, "
                  "rebuild, or use --tokenizer word.", tokenizer_name(k));
    else if (st == TF_ERR_FORMAT)
        err_say("%s/%s is damaged; rebuild tfviz (meson compile) or reinstall it, or use "
                  "--tokenizer char.", dir, file);
    else if (bpe)
        err_say("the %s BPE table (%s) is not in %s; run scripts/bootstrap.sh, which fetches "
                  "tiktoken@1.0.22 with npm, then rebuild (or use --tokenizer word).",
                  tokenizer_name(k), file, dir);
    else
        err_say("the word dictionary (%s) is not in %s; install python3-jieba "
                  "(scripts/bootstrap.sh) and rebuild, or use --tokenizer char.", file, dir);
}

/* One sentence for a failed analysis, naming the input and what to do. */
static void report_analysis_error(tf_status st, const tf_diag *dg, const tf_cli *cli)
{
    const char *which = dg->where == DIAG_COMPARE ? "the --compare text" : "the text";
    switch (st) {
    case TF_ERR_UTF8:
        err_say("%s is not valid UTF-8 (bad byte at offset %zu); save it as UTF-8 and try again.",
                  which, dg->offset);
        break;
    case TF_ERR_EMPTY:
        err_say("%s is empty; give a sentence such as %s.", which, DEFAULT_TEXT);
        break;
    case TF_ERR_TOO_LONG:
        err_say("%s is longer than %d bytes; give a sentence or a paragraph, not a whole "
                  "document.", which, TF_MAX_TEXT_BYTES);
        break;
    case TF_ERR_TOO_MANY:
        err_say("%s has more than %d tokens; shorten it.", which, TF_MAX_TOKENS);
        break;
    case TF_ERR_TOO_BIG:
        err_say("%s has too many tokens for d_model %d: tokens x d_model must stay under %d "
                  "(memory); shorten it or lower -d.", which, cli->cfg.d_model, TF_MAX_TOKEN_VALUES);
        break;
    case TF_ERR_OFFSET:
        err_say("--offset must be below the number of positions (%ld); raise -n or lower "
                  "--offset.", cli->cfg.n_positions);
        break;
    case TF_ERR_PERMUTATION:
        err_say("the --compare text must have the same tokens as the sentence in another "
                  "order (for %s try %s).", DEFAULT_TEXT, "学习爱我");
        break;
    case TF_ERR_UNAVAILABLE:
    case TF_ERR_FORMAT:
        report_data_error(st, cli);
        break;
    default:
        err_say("%s.", tf_status_str(st));
    }
}

static void on_signal(int sig)
{
    fileio_signal_cleanup(); /* NOLINT(bugprone-signal-handler): only unlink(), which is safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static int run_export(tf_cli *cli, tf_analysis *a)
{
    fig_request req = figure_request(cli);
    return figures_export(&req, a);
}

static int run_print(tf_cli *cli, tf_analysis *a)
{
    tf_diag dg = {0};
    tf_status st = analysis_need(a, print_needs(cli->print_what), &dg);
    if (st != TF_OK) {
        report_analysis_error(st, &dg, cli);
        return 2;
    }
    if (cli->format == FMT_NPY && !cli->output && isatty(STDOUT_FILENO)) {
        err_say("--format npy is binary; write it to a file with -o FILE.npy.");
        return 2;
    }
    print_request req = print_req(cli, a);
    return print_run(&req);
}

/* --vectors FILE as the rows of W_E: d_model follows the file. Exit status, 0 to go on. */
static int use_vectors(tf_cli *cli)
{
    int rc = learn_read_vectors(cli->vectors_path, cli->vectors_limit, &cli->vectors);
    if (rc)
        return rc;
    if (cli->d_given && cli->cfg.d_model != cli->vectors.dim) {
        err_say("-d %d differs from the %d numbers per word in %s; leave -d out, d_model "
                  "follows the file.", cli->cfg.d_model, cli->vectors.dim, cli->vectors_path);
        return 2;
    }
    if (cli->vectors.dim % 2 || cli->vectors.dim < TF_MIN_DMODEL) {
        err_say("%s has %d numbers per word; tfviz needs an even d_model (positional "
                  "encoding pairs sin and cos), so this file cannot be W_E.",
                  cli->vectors_path, cli->vectors.dim);
        return 2;
    }
    cli->cfg.d_model = cli->vectors.dim;
    cli->cfg.vectors = &cli->vectors;
    return 0;
}

int cli_run(int argc, char **argv)
{
    tf_cli cli;
    memset(&cli, 0, sizeof cli);
    config_defaults(&cli.cfg);
    cli.cfg.tokenizer = TOKENIZER_WORD; /* the command line segments words by default */
    cli.lang = "zh";
    w2v_params_defaults(&cli.w2v);
    cli.top = 10;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    /* a closed pipe on stderr or stdout must not leave a temporary file; a SIGPIPE the caller
     * ignores stays ignored, and the write error is reported instead */
    struct sigaction pipe_was;
    if (sigaction(SIGPIPE, NULL, &pipe_was) == 0 && pipe_was.sa_handler != SIG_IGN)
        signal(SIGPIPE, on_signal);

    int r = parse_options(argc, argv, &cli);
    if (r)
        return r > 0 ? 0 : 2;
    if (cli.vocab_size_set && (cli.cfg.tokenizer == TOKENIZER_CL100K ||
                               cli.cfg.tokenizer == TOKENIZER_O200K)) {
        err_say("--vocab-size goes with --tokenizer word or char; the %s vocabulary has its "
                  "own fixed size.", tokenizer_name(cli.cfg.tokenizer));
        return 2;
    }
    if (cli.big && !cli.lesson) {
        err_say("--big is the lesson's projector mode; use it with --lesson "
                  "(tfviz --lesson --big).");
        return 2;
    }
    if (cli.lesson && (cli.print_what || cli.export_path || cli.train)) {
        err_say("--lesson is interactive and %s writes a file or numbers; choose one.",
                  cli.print_what ? "--print" : cli.train ? "--train" : "--export");
        return 2;
    }
    cli.cfg.data_dir = datadir_get();
    if (!cli.offset_set && cli.cfg.offset >= cli.cfg.n_positions)
        cli.cfg.offset = cli.cfg.n_positions - 1; /* -n 1: the default k = 1 has no room */
    if (cli.cfg.offset >= cli.cfg.n_positions) {
        err_say("--offset (%ld) must be below the number of positions (%ld); raise -n or "
                  "lower --offset.", cli.cfg.offset, cli.cfg.n_positions);
        return 2;
    }
    if (cli.train) {
        if (cli.print_what || cli.vectors_path) {
            err_say("--train learns vectors; use --print or --vectors in a separate run with "
                      "the file it writes (-o).");
            return 2;
        }
        learn_request lr = learn_req(&cli);
        return learn_train(&lr, cli.output);
    }
    if (print_learned(cli.print_what)) { /* no sentence: vectors from a file or the corpus */
        print_request pr = print_req(&cli, NULL);
        return print_run(&pr);
    }
    if (cli.export_path) {
        fig_request req = figure_request(&cli);
        const char *why = cli.print_what ? "--export and --print are separate modes; use one"
                          : cli.format != FMT_TEXT || cli.output
                              ? "--format and --output go with --print; --export takes the file name"
                              : figures_check(&req, &cli.cfg);
        if (why) {
            err_say("%s.", why);
            return 2;
        }
    } else if (cli.figure || cli.dpi > 0 || cli.fig_width > 0 || cli.fig_height > 0 ||
               cli.colormap || cli.font_size > 0 || cli.title || cli.no_title) {
        err_say("--figure, --dpi, --width, --height, --colormap, --font-size and --title go "
                  "with --export FILE; for example tfviz --export pe.pdf --figure pe.");
        return 2;
    } else if (cli.print_what) {
        print_request pr = print_req(&cli, NULL);
        const char *why = print_check(&pr, &cli.cfg);
        if (why) {
            err_say("%s ('%s'); --print takes one of: %s.", why, cli.print_what, print_list());
            return 2;
        }
    } else if (cli.format != FMT_TEXT || cli.output) {
        err_say("--format and --output go with --print WHAT; for example "
                  "tfviz --print pe --format csv -o pe.csv.");
        return 2;
    }
    r = read_text(argc, argv, &cli);
    if (r == -2) {
        err_say("cannot read the text from standard input: %s.", strerror(errno));
        return 1;
    }
    if (r != 0) {
        err_say("out of memory reading the text.");
        return 2;
    }
    if (cli.vectors_path && (r = use_vectors(&cli)) != 0) {
        free(cli.text);
        vectors_free(&cli.vectors);
        return r;
    }

    if (cli.export_path)
        fig_warm_fonts(); /* while the analysis runs */
    tf_analysis a;
    tf_diag dg = {0};
    tf_status st = analysis_run(&cli.cfg, cli.text, cli.text_len, &a, &dg);
    if ((st == TF_ERR_UNAVAILABLE || st == TF_ERR_FORMAT) && dg.where == DIAG_CONFIG &&
        !cli.tokenizer_set && cli.cfg.tokenizer == TOKENIZER_WORD) {
        /* the default mode without its dictionary: say so once, and show characters */
        err_say("note: the word dictionary (tfviz-dict.bin) is %s in %s, so tokens are "
                  "characters; install python3-jieba (scripts/bootstrap.sh) and rebuild for "
                  "word segmentation.", st == TF_ERR_FORMAT ? "damaged" : "missing",
                  cli.cfg.data_dir);
        cli.cfg.tokenizer = TOKENIZER_CHAR;
        st = analysis_run(&cli.cfg, cli.text, cli.text_len, &a, &dg);
    }
    int rc = 0;
    if (st != TF_OK) {
        report_analysis_error(st, &dg, &cli);
        rc = 2;
    } else if (cli.export_path) {
        rc = run_export(&cli, &a);
    } else if (cli.print_what && print_work(cli.print_what, cli.format, &a) > TF_MAX_WORK) {
        err_say("--print %s with these settings would take about %.0f s (the limit is %.0f s); "
                  "lower -n, -d or --vocab-size, or shorten the text.", cli.print_what,
                  print_work(cli.print_what, cli.format, &a) / 1e9, TF_MAX_WORK / 1e9);
        rc = 2;
    } else if (cli.print_what) {
        rc = run_print(&cli, &a);
    } else if (tui_wanted()) {
        tui_request tr = {.cfg = cli.cfg, .text = cli.text, .text_len = cli.text_len,
                          .zh = strcmp(cli.lang, "en") != 0, .lesson = cli.lesson,
                          .big = cli.big, .no_color = cli.no_color, .export = figures_export};
        rc = tui_run(&tr, &a);
        if (rc == TUI_NO_TERMINAL) { /* the terminal refused: the text report instead */
            print_report(&a, stdout);
            rc = 0;
        }
    } else if (cli.lesson) {
        err_say("--lesson needs an interactive terminal (a terminal window with TERM set); "
                  "run it there, or use --print for numbers.");
        rc = 2;
    } else {
        print_report(&a, stdout);
    }
    fig_release_fonts(); /* after the figures --export or the `e` key drew */
    analysis_free(&a);
    free(cli.text);
    vectors_free(&cli.vectors);
    return rc;
}
