/* order_task.h — "who does it": a task whose answer depends on word order only.
 *
 * Each example is a sentence with two nouns, a doer (the subject) and the one the action is
 * done to, and the answer is the position of the doer:
 *
 *   猫 追 狗            doer 猫 (position 0)        狗 追 猫            doer 狗 (position 0)
 *   今天 狗 被 猫 追 了  doer 猫 (position 3)        今天 猫 被 狗 追 了  doer 狗 (position 3)
 *
 * Every sentence comes with its pair: the same tokens with the two nouns swapped, whose doer is
 * the other noun. The two orders of a pair hold the same multiset of tokens, so a model that
 * sees a bag of words (attention without positions) must score each token the same in both and
 * name the same token as the doer in both: right in at most one of them. That is why the
 * position-free model sits at or below chance on pairs, exactly (docs/math.md).
 *
 * Two sources of sentences:
 *  - order_task_generate: a seeded generator over Chinese word lists written for this project
 *    (56 nouns, 74 verbs, time words, adverbs, places), three sentence shapes
 *      SVO   [time] S [adverb] [在 place] V [了] O      (the doer precedes the verb)
 *      把    [time] S [adverb] 把 O V [了]              (the doer precedes 把)
 *      被    [time] O [adverb] 被 S V [了]              (the doer follows 被)
 *    so neither "the first noun" nor any fixed position is the answer. A training split and a
 *    held-out split; no sentence occurs twice anywhere, and both orders of a pair are in the same
 *    split. The held-out split always contains the article's 我 爱 学习 / 学习 爱 我 and
 *    猫 追 狗 / 狗 追 猫 (never trained on). A class's own sentence of the shape doer verb
 *    object (order_class_check: 猫 追 老鼠, 小明 喜欢 小红) joins the task: its two nouns join
 *    the nouns, its verb the verbs without 把 and 了, and it and its other order are the first
 *    held-out pair (the example), never trained on.
 *  - order_task_parse / order_task_load: a user's file (format below).
 *
 * The file format (UTF-8 text, one sentence a line):
 *   - tokens are separated by spaces or tabs (or the ideographic space U+3000);
 *   - exactly one token is marked as the doer with a leading '*' (or the full-width '＊'):
 *         *猫 追 狗
 *         狗 被 *猫 追 了
 *   - blank lines and lines starting with '#' are ignored; a '\r' before the newline and a
 *     UTF-8 byte-order mark at the start are accepted;
 *   - a line "@train" or "@test" puts the sentences after it in that split. Without any such
 *     line the split is made here: sentences holding the same tokens (in any order) form a
 *     group, and a seeded fifth of the groups (at least one) is held out; so a held-out
 *     sentence never occurs in training, and both orders of a pair stay together.
 * Bad lines are reported with their line number and what is wrong (order_parse_error). */
#ifndef TF_ORDER_TASK_H
#define TF_ORDER_TASK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "status.h"

#define ORDER_MAX_TOKENS    32     /* tokens in one sentence (positions the models cover) */
#define ORDER_MAX_SENTENCES 100000 /* sentences of one file */
#define ORDER_MAX_LINE      1024   /* bytes of one line of a file */
#define ORDER_MAX_WORD      64     /* bytes of one token */
#define ORDER_MAX_VOCAB     8192   /* different tokens of one file, [UNK] included */
#define ORDER_MAX_FILE      (16 * 1024 * 1024) /* bytes of one file */
#define ORDER_MAX_PAIRS     20000              /* pairs of one generated split */

typedef enum { ORDER_TRAIN = 0, ORDER_TEST = 1 } order_split;

/* How a sentence is built: the generator's three shapes, or a user's line. */
typedef enum { ORDER_SVO = 0, ORDER_BA, ORDER_BEI, ORDER_USER, ORDER_SHAPE_COUNT } order_shape;

/* "svo", "ba", "bei", "file". */
const char *order_shape_name(order_shape s);

typedef struct {
    uint32_t n_sent;     /* sentences, both splits */
    uint32_t n_tok;      /* tokens of all sentences */
    uint32_t V;          /* vocabulary size; id 0 is ORDER_UNK */
    int max_len;         /* tokens of the longest sentence */
    uint32_t n_split[2]; /* sentences in ORDER_TRAIN and ORDER_TEST */
    uint32_t *off;       /* (n_sent + 1) sentence s is tok[off[s] .. off[s+1]) */
    uint32_t *tok;       /* (n_tok) token ids */
    uint8_t *doer;       /* (n_sent) position of the doer in its sentence */
    uint8_t *split;      /* (n_sent) ORDER_TRAIN or ORDER_TEST */
    uint8_t *shape;      /* (n_sent) order_shape */
    int32_t *pair;       /* (n_sent) a sentence of the same split with the same tokens and another
                          * doer token (the other order), -1 when there is none */
    uint32_t *line;      /* (n_sent) 1-based line in the file; 0 for generated sentences */
    char **word;         /* (V) NUL-terminated spellings; word[0] = "[UNK]" */
    uint32_t example;    /* a held-out sentence to watch: 我 爱 学习 when generated */
} order_task;

#define ORDER_UNK 0u

/* ---------------------------------------------------------------------------------------------
 * The generator */

typedef struct {
    uint64_t seed;
    uint32_t train_pairs; /* pairs (two sentences each) in the training split */
    uint32_t test_pairs;  /* pairs in the held-out split, beyond the two article pairs */
    const char *class_words[3]; /* the class's sentence: doer, verb, object (NUL-terminated,
                                 * order_class_check OK), or NULLs for none */
} order_gen_cfg;

#define ORDER_DEFAULT_TRAIN_PAIRS 600
#define ORDER_DEFAULT_TEST_PAIRS  250

void order_gen_defaults(order_gen_cfg *c);
/* TF_ERR_RANGE when a count is 0 or above ORDER_MAX_PAIRS. */
tf_status order_task_generate(order_task *t, const order_gen_cfg *c);

/* Whether the words of a class's sentence w[0..n) (w[i] of len[i] bytes) have the shape doer
 * verb object the generator can join: ORDER_CLASS_OK, or why not. verb says what the caller's
 * dictionary knows of the middle word: 1 a verb, 0 no verb (or no word of it), -1 nothing (an
 * English word, a dictionary without parts of speech); a verb of the generator's lists is a
 * verb whatever it says. */
typedef enum {
    ORDER_CLASS_OK = 0,
    ORDER_CLASS_NOT_THREE, /* not three words */
    ORDER_CLASS_SIGN,      /* a word holds something other than letters (punctuation, digits) */
    ORDER_CLASS_LONG,      /* a word longer than ORDER_MAX_WORD bytes */
    ORDER_CLASS_SAME,      /* the doer and the object are the same word */
    ORDER_CLASS_ROLES,     /* the middle word is one of the task's nouns, or a noun is one of its
                            * verbs or of 在 把 被 了: not doer verb object */
    ORDER_CLASS_NO_VERB,   /* the middle word is no verb (verb 0) */
} order_class_problem;
order_class_problem order_class_check(const char *const *w, const size_t *len, size_t n,
                                      int verb);

/* The generator's word lists, for the documentation and the tests. */
typedef enum { ORDER_WORDS_NOUN = 0, ORDER_WORDS_VERB, ORDER_WORDS_CLASS_COUNT } order_word_class;
const char *const *order_words(order_word_class c, size_t *n);

/* ---------------------------------------------------------------------------------------------
 * A user's file */

typedef enum {
    ORDER_OK = 0,
    ORDER_BAD_UTF8,       /* the line is not valid UTF-8 (column: the first bad byte) */
    ORDER_BAD_CONTROL,    /* a control character (column) */
    ORDER_BAD_LINE_LONG,  /* more than ORDER_MAX_LINE bytes */
    ORDER_BAD_WORD_LONG,  /* a token of more than ORDER_MAX_WORD bytes (column) */
    ORDER_BAD_TOKENS,     /* more than ORDER_MAX_TOKENS tokens */
    ORDER_BAD_ONE_TOKEN,  /* a single token: nothing to choose between */
    ORDER_BAD_NO_MARK,    /* no token is marked with '*' */
    ORDER_BAD_TWO_MARKS,  /* more than one token is marked (column: the second) */
    ORDER_BAD_EMPTY_MARK, /* a '*' with no token after it (column) */
    ORDER_BAD_STRAY_MARK, /* a '*' inside a token (column) */
    ORDER_BAD_DIRECTIVE,  /* a line starting with '@' other than @train and @test */
    ORDER_BAD_CONFLICT,   /* the same sentence with another doer (other_line) */
    ORDER_BAD_IN_BOTH,    /* a held-out sentence also in training (other_line) */
    ORDER_BAD_TOO_MANY,   /* more than ORDER_MAX_SENTENCES sentences */
    ORDER_BAD_VOCAB,      /* more than ORDER_MAX_VOCAB different tokens */
    ORDER_BAD_FILE_BIG,   /* the file is larger than ORDER_MAX_FILE */
    ORDER_BAD_EMPTY,      /* the file holds no sentence */
    ORDER_BAD_NO_TRAIN,   /* no sentence to train on */
    ORDER_BAD_NO_TEST,    /* nothing can be held out (one group of tokens, or @test empty) */
    ORDER_BAD_READ,       /* the file cannot be read (errno is kept) */
    ORDER_PROBLEM_COUNT
} order_problem;

typedef struct {
    order_problem problem;
    size_t line;       /* 1-based line, 0 when the problem is the whole file's */
    size_t column;     /* 1-based byte column in that line, 0 when none applies */
    size_t other_line; /* the earlier line of a conflict or of a sentence in both splits */
} order_parse_error;

/* One English sentence saying what is wrong and what to do (the caller adds the file name and
 * the line); never NULL. */
const char *order_problem_str(order_problem p);

/* Parse text[0..len). On a bad line or file returns its status (TF_ERR_UTF8, TF_ERR_TOO_LONG,
 * TF_ERR_TOO_MANY, TF_ERR_TOO_BIG, TF_ERR_EMPTY or TF_ERR_FORMAT; TF_ERR_NOMEM) with *err
 * saying which line and why, and leaves *t empty. seed chooses the held-out groups when the text
 * has no @train/@test lines. */
tf_status order_task_parse(order_task *t, const char *text, size_t len, uint64_t seed,
                           order_parse_error *err);
/* The same from a file; TF_ERR_IO (ORDER_BAD_READ) when it cannot be read. */
tf_status order_task_load(order_task *t, const char *path, uint64_t seed, order_parse_error *err);

void order_task_free(order_task *t);

/* Write the task in the file format: a comment line, "@train" and its sentences, "@test" and
 * its sentences, each in the task's order. Parsing the output gives the same sentences, doers
 * and splits. TF_ERR_IO when writing fails. */
tf_status order_task_write(const order_task *t, FILE *fp);

/* ---------------------------------------------------------------------------------------------
 * Reading a task */

static inline uint32_t order_task_len(const order_task *t, uint32_t s)
{
    return t->off[s + 1] - t->off[s];
}
static inline const uint32_t *order_task_tokens(const order_task *t, uint32_t s)
{
    return t->tok + t->off[s];
}
/* Id of a word, ORDER_UNK when the task has never seen it. */
uint32_t order_task_lookup(const order_task *t, const char *word, size_t len);

#endif
