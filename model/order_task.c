/* order_task.c — the "who does it" sentences: a seeded generator and a user's labelled file. */
#include "order_task.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "utf8.h"

/* ---------------------------------------------------------------------------------------------
 * Word lists (written for this project). The people, animals, times and places extend the
 * classes of assets/make_corpus.py. Any noun may act on any other: the words give no hint of
 * who the doer is, only the order does. */

static const char *const nouns[] = {
    "我",   "你",   "他",   "她",     "我们", "他们", "妈妈", "爸爸", "老师", "学生",
    "朋友", "哥哥", "姐姐", "弟弟",   "妹妹", "同学", "爷爷", "奶奶", "小明", "小红",
    "医生", "警察", "司机", "邻居",   "校长", "孩子", "记者", "厨师", "农民", "护士",
    "叔叔", "阿姨", "同事", "客人",   "猫",   "狗",   "兔子", "小鸟", "老虎", "狮子",
    "猴子", "熊猫", "大象", "老鼠",   "马",   "牛",   "羊",   "鸭子", "狐狸", "狼",
    "熊",   "学习", "音乐", "机器人", "电脑", "汽车",
};

/* Verbs that take an object but no 把 and no 了 here (feelings, habits, states). */
static const char *const verbs_plain[] = {
    "爱",   "喜欢", "想念", "相信", "尊重", "理解", "关心", "羡慕", "怕",   "认识", "支持", "看",
    "等",   "问",   "教",   "找",   "帮助", "照顾", "保护", "邀请", "拜访", "感谢", "鼓励", "陪",
    "跟踪", "模仿", "观察", "提醒", "安慰", "吸引", "打扰", "寻找", "听",   "想",
};
/* Events: 了 and the passive 被 fit them. */
static const char *const verbs_event[] = {
    "追", "咬", "抓", "推",   "拉", "抱", "踢", "骂", "夸",   "批评", "表扬", "欺负",
    "救", "撞", "吓", "发现", "喂", "打", "亲", "拍", "通知", "采访", "训练",
};
/* Verbs with a result: 把, 被 and 了 all fit them. */
static const char *const verbs_result[] = {
    "吓跑", "推倒", "叫醒", "撞倒", "打哭", "抱走", "送走", "接走", "拉走",
    "赶走", "带走", "抓住", "追上", "打败", "感动", "逗笑", "找到",
};
static const char *const times[] = {
    "今天", "昨天", "早上", "晚上", "刚才", "上午", "下午", "周末", "那天",
};
/* Habits: no 了 after them. */
static const char *const adverbs_habit[] = {"经常", "总是", "常常", "一直"};
static const char *const adverbs_event[] = {"突然", "又", "也", "偷偷", "已经"};
static const char *const places[] = {
    "家里", "学校", "公园", "花园", "教室", "图书馆", "门口", "院子里", "操场上", "街上",
};
static const char *const function_words[] = {"在", "把", "被", "了"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const char *const *order_words(order_word_class c, size_t *n)
{
    /* every verb of the three lists, in one table for the caller */
    static const char *all_verbs[COUNT(verbs_plain) + COUNT(verbs_event) + COUNT(verbs_result)];
    if (c == ORDER_WORDS_NOUN) {
        *n = COUNT(nouns);
        return nouns;
    }
    if (c == ORDER_WORDS_VERB) {
        size_t k = 0;
        for (size_t i = 0; i < COUNT(verbs_plain); i++)
            all_verbs[k++] = verbs_plain[i];
        for (size_t i = 0; i < COUNT(verbs_event); i++)
            all_verbs[k++] = verbs_event[i];
        for (size_t i = 0; i < COUNT(verbs_result); i++)
            all_verbs[k++] = verbs_result[i];
        *n = k;
        return all_verbs;
    }
    *n = 0;
    return NULL;
}

const char *order_shape_name(order_shape s)
{
    static const char *const names[ORDER_SHAPE_COUNT] = {"svo", "ba", "bei", "file"};
    return (unsigned)s < ORDER_SHAPE_COUNT ? names[s] : "?";
}

/* A letter of a word: a Han character, an ASCII letter or a letter of Latin-1 and Latin
 * Extended-A/B (not x and the division sign). */
static bool is_letter(uint32_t cp)
{
    return (cp >= 'A' && cp <= 'Z') || (cp >= 'a' && cp <= 'z') ||
           (cp >= 0xC0 && cp <= 0x24F && cp != 0xD7 && cp != 0xF7) ||
           (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) ||
           (cp >= 0x20000 && cp <= 0x3134F);
}

static bool in_list(const char *const *list, size_t n, const char *w, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len && memcmp(list[i], w, len) == 0)
            return true;
    return false;
}

order_class_problem order_class_check(const char *const *w, const size_t *len, size_t n,
                                      int verb)
{
    if (n != 3)
        return ORDER_CLASS_NOT_THREE;
    for (size_t i = 0; i < 3; i++) {
        if (len[i] == 0 || len[i] > ORDER_MAX_WORD)
            return len[i] ? ORDER_CLASS_LONG : ORDER_CLASS_SIGN;
        for (size_t k = 0, m; k < len[i]; k += m) {
            uint32_t cp = 0;
            m = utf8_decode(w[i] + k, len[i] - k, &cp);
            if (!m || !is_letter(cp))
                return ORDER_CLASS_SIGN;
        }
    }
    if (len[0] == len[2] && memcmp(w[0], w[2], len[0]) == 0)
        return ORDER_CLASS_SAME;
    size_t nv;
    const char *const *verbs = order_words(ORDER_WORDS_VERB, &nv);
    if (in_list(nouns, COUNT(nouns), w[1], len[1]))
        return ORDER_CLASS_ROLES;
    for (size_t i = 0; i < 3; i += 2)
        if (in_list(verbs, nv, w[i], len[i]) ||
            in_list(function_words, COUNT(function_words), w[i], len[i]))
            return ORDER_CLASS_ROLES;
    if (verb == 0 && !in_list(verbs, nv, w[1], len[1]))
        return ORDER_CLASS_NO_VERB;
    return ORDER_CLASS_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Open-addressing sets of 32-bit indices, keyed by a hash the caller computes and compared by a
 * callback: the vocabulary (spellings), the sentences (token sequences) and the groups (token
 * multisets) all use one. */

typedef struct {
    uint32_t *slot; /* (cap) index + 1, 0 empty */
    uint64_t *hash; /* (cap) */
    uint32_t cap, n;
} idx_set;

static tf_status set_init(idx_set *s, uint32_t cap_pow2)
{
    s->cap = cap_pow2;
    s->n = 0;
    s->slot = calloc(cap_pow2, sizeof *s->slot);
    s->hash = calloc(cap_pow2, sizeof *s->hash);
    return s->slot && s->hash ? TF_OK : TF_ERR_NOMEM;
}

static void set_free(idx_set *s)
{
    free(s->slot);
    free(s->hash);
    memset(s, 0, sizeof *s);
}

typedef bool (*set_eq)(const void *ctx, uint32_t idx);

/* The index stored under (h, eq), or UINT32_MAX; *at receives the slot to insert into. */
static uint32_t set_find(const idx_set *s, uint64_t h, set_eq eq, const void *ctx, uint32_t *at)
{
    uint32_t mask = s->cap - 1, i = (uint32_t)h & mask;
    while (s->slot[i]) {
        if (s->hash[i] == h && eq(ctx, s->slot[i] - 1))
            return s->slot[i] - 1;
        i = (i + 1) & mask;
    }
    *at = i;
    return UINT32_MAX;
}

/* Insert idx at the slot set_find gave; grows the table at half load (rehashing by the stored
 * hashes, so no callback is needed). */
static tf_status set_insert(idx_set *s, uint32_t at, uint64_t h, uint32_t idx)
{
    s->slot[at] = idx + 1;
    s->hash[at] = h;
    if (++s->n * 2 <= s->cap)
        return TF_OK;
    idx_set g;
    if (set_init(&g, s->cap * 2) != TF_OK) {
        set_free(&g);
        return TF_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < s->cap; i++) {
        if (!s->slot[i])
            continue;
        uint32_t j = (uint32_t)s->hash[i] & (g.cap - 1);
        while (g.slot[j])
            j = (j + 1) & (g.cap - 1);
        g.slot[j] = s->slot[i];
        g.hash[j] = s->hash[i];
    }
    g.n = s->n;
    set_free(s);
    *s = g;
    return TF_OK;
}

static uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return rng_mix(h);
}

/* ---------------------------------------------------------------------------------------------
 * Building a task: growing arrays, the vocabulary, the set of sentences */

typedef struct {
    order_task *t;
    uint32_t cap_sent, cap_tok, cap_vocab;
    char *arena; /* spellings, NUL-terminated, one after another */
    size_t arena_len, arena_cap;
    size_t *word_at; /* (cap_vocab) offsets into arena, turned into t->word at the end */
    idx_set vocab;   /* spellings -> id */
    idx_set sents;   /* token sequences -> sentence */
    /* the word being looked up */
    const char *key;
    size_t key_len;
    /* the sentence being looked up */
    const uint32_t *seq;
    uint32_t seq_len;
} builder;

static bool word_eq(const void *ctx, uint32_t id)
{
    const builder *b = ctx;
    const char *w = b->arena + b->word_at[id];
    return strlen(w) == b->key_len && memcmp(w, b->key, b->key_len) == 0;
}

static bool seq_eq(const void *ctx, uint32_t s)
{
    const builder *b = ctx;
    return order_task_len(b->t, s) == b->seq_len &&
           memcmp(order_task_tokens(b->t, s), b->seq, b->seq_len * sizeof *b->seq) == 0;
}

static tf_status builder_init(builder *b, order_task *t)
{
    memset(b, 0, sizeof *b);
    memset(t, 0, sizeof *t);
    b->t = t;
    b->cap_sent = 256;
    b->cap_tok = 2048;
    b->cap_vocab = 256;
    t->off = calloc(b->cap_sent + 1, sizeof *t->off);
    t->doer = malloc(b->cap_sent);
    t->split = malloc(b->cap_sent);
    t->shape = malloc(b->cap_sent);
    t->line = malloc(b->cap_sent * sizeof *t->line);
    t->tok = malloc(b->cap_tok * sizeof *t->tok);
    b->word_at = malloc(b->cap_vocab * sizeof *b->word_at);
    b->arena_cap = 4096;
    b->arena = malloc(b->arena_cap);
    if (!t->off || !t->doer || !t->split || !t->shape || !t->line || !t->tok || !b->word_at ||
        !b->arena || set_init(&b->vocab, 512) != TF_OK || set_init(&b->sents, 1024) != TF_OK)
        return TF_ERR_NOMEM;
    t->off[0] = 0;
    return TF_OK;
}

/* Everything the builder owns that the task does not keep. */
static void builder_drop(builder *b)
{
    set_free(&b->vocab);
    set_free(&b->sents);
    free(b->word_at);
    free(b->arena);
    b->word_at = NULL;
    b->arena = NULL;
}

/* realloc, keeping p (and clearing *ok) when it fails. */
static void *grow(void *p, size_t n, size_t size, bool *ok)
{
    void *q = realloc(p, n * size);
    if (q)
        return q;
    *ok = false;
    return p;
}

/* The id of word w[0..len), added when new; TF_ERR_TOO_MANY past ORDER_MAX_VOCAB. */
static tf_status intern(builder *b, const char *w, size_t len, uint32_t *id)
{
    order_task *t = b->t;
    uint64_t h = hash_bytes(w, len);
    uint32_t at = 0;
    b->key = w;
    b->key_len = len;
    uint32_t found = set_find(&b->vocab, h, word_eq, b, &at);
    if (found != UINT32_MAX) {
        *id = found;
        return TF_OK;
    }
    if (t->V >= ORDER_MAX_VOCAB)
        return TF_ERR_TOO_MANY;
    bool ok = true;
    if (t->V == b->cap_vocab) {
        b->cap_vocab *= 2;
        b->word_at = grow(b->word_at, b->cap_vocab, sizeof *b->word_at, &ok);
    }
    while (b->arena_len + len + 1 > b->arena_cap) {
        b->arena_cap *= 2;
        b->arena = grow(b->arena, b->arena_cap, 1, &ok);
    }
    if (!ok)
        return TF_ERR_NOMEM;
    b->word_at[t->V] = b->arena_len;
    memcpy(b->arena + b->arena_len, w, len);
    b->arena[b->arena_len + len] = '\0';
    b->arena_len += len + 1;
    *id = t->V++;
    return set_insert(&b->vocab, at, h, *id);
}

static tf_status intern_str(builder *b, const char *w, uint32_t *id)
{
    return intern(b, w, strlen(w), id);
}

/* The earlier sentence with exactly these tokens, or UINT32_MAX; *h and *at for set_insert. */
static uint32_t find_sentence(builder *b, const uint32_t *tok, uint32_t n, uint64_t *h,
                              uint32_t *at)
{
    *h = hash_bytes(tok, n * sizeof *tok);
    b->seq = tok;
    b->seq_len = n;
    return set_find(&b->sents, *h, seq_eq, b, at);
}

/* Append a sentence (no duplicate check). */
static tf_status add_sentence(builder *b, const uint32_t *tok, uint32_t n, int doer,
                              order_split split, order_shape shape, uint32_t line)
{
    order_task *t = b->t;
    bool ok = true;
    if (t->n_sent == b->cap_sent) {
        b->cap_sent *= 2;
        t->off = grow(t->off, b->cap_sent + 1, sizeof *t->off, &ok);
        t->doer = grow(t->doer, b->cap_sent, 1, &ok);
        t->split = grow(t->split, b->cap_sent, 1, &ok);
        t->shape = grow(t->shape, b->cap_sent, 1, &ok);
        t->line = grow(t->line, b->cap_sent, sizeof *t->line, &ok);
    }
    while (t->n_tok + n > b->cap_tok) {
        b->cap_tok *= 2;
        t->tok = grow(t->tok, b->cap_tok, sizeof *t->tok, &ok);
    }
    if (!ok)
        return TF_ERR_NOMEM;
    memcpy(t->tok + t->n_tok, tok, n * sizeof *tok);
    t->n_tok += n;
    uint32_t s = t->n_sent++;
    t->off[s + 1] = t->n_tok;
    t->doer[s] = (uint8_t)doer;
    t->split[s] = (uint8_t)split;
    t->shape[s] = (uint8_t)shape;
    t->line[s] = line;
    return TF_OK;
}

/* Counts, the longest sentence, the spellings as pointers and the pair table. */
static tf_status builder_finish(builder *b)
{
    order_task *t = b->t;
    char **word = malloc((t->V ? t->V : 1) * sizeof *word);
    t->pair = malloc((t->n_sent ? t->n_sent : 1) * sizeof *t->pair);
    if (!word || !t->pair) {
        free(word);
        return TF_ERR_NOMEM;
    }
    t->word = word;
    /* the arena becomes the task's: word[0] points at its start (order_task_free frees it) */
    t->word[0] = b->arena;
    for (uint32_t i = 0; i < t->V; i++)
        t->word[i] = b->arena + b->word_at[i];
    b->arena = NULL;
    t->n_split[0] = t->n_split[1] = 0;
    t->max_len = 0;
    for (uint32_t s = 0; s < t->n_sent; s++) {
        t->n_split[t->split[s]]++;
        if ((int)order_task_len(t, s) > t->max_len)
            t->max_len = (int)order_task_len(t, s);
        t->pair[s] = -1;
    }
    return TF_OK;
}

void order_task_free(order_task *t)
{
    if (!t)
        return;
    free(t->off);
    free(t->tok);
    free(t->doer);
    free(t->split);
    free(t->shape);
    free(t->pair);
    free(t->line);
    if (t->word)
        free(t->word[0]);
    free(t->word);
    memset(t, 0, sizeof *t);
}

tf_status order_task_write(const order_task *t, FILE *fp)
{
    fprintf(fp, "# who does it: %u training and %u held-out sentences, the doer marked with *\n",
            t->n_split[ORDER_TRAIN], t->n_split[ORDER_TEST]);
    for (int split = ORDER_TRAIN; split <= ORDER_TEST; split++) {
        fputs(split == ORDER_TRAIN ? "@train\n" : "@test\n", fp);
        for (uint32_t s = 0; s < t->n_sent; s++) {
            if (t->split[s] != split)
                continue;
            for (uint32_t p = 0; p < order_task_len(t, s); p++)
                fprintf(fp, "%s%s%s", p ? " " : "", p == t->doer[s] ? "*" : "",
                        t->word[order_task_tokens(t, s)[p]]);
            fputc('\n', fp);
        }
    }
    return ferror(fp) ? TF_ERR_IO : TF_OK;
}

static tf_status fail_build(builder *b, tf_status st)
{
    builder_drop(b);
    order_task_free(b->t);
    return st;
}

uint32_t order_task_lookup(const order_task *t, const char *word, size_t len)
{
    /* The vocabulary is small (ORDER_MAX_VOCAB) and looked up once per typed word. */
    for (uint32_t i = 1; i < t->V; i++)
        if (strlen(t->word[i]) == len && memcmp(t->word[i], word, len) == 0)
            return i;
    return ORDER_UNK;
}

/* ---------------------------------------------------------------------------------------------
 * The generator */

void order_gen_defaults(order_gen_cfg *c)
{
    c->seed = 42;
    c->train_pairs = ORDER_DEFAULT_TRAIN_PAIRS;
    c->test_pairs = ORDER_DEFAULT_TEST_PAIRS;
    c->class_words[0] = c->class_words[1] = c->class_words[2] = NULL;
}

typedef struct {
    uint64_t state;
} gen_rng;

static uint64_t gen_next(gen_rng *r)
{
    return rng_mix(r->state += 0x9e3779b97f4a7c15ULL);
}

/* Uniform in 0 .. n-1 (multiply-shift; the bias is below 2^-32). */
static uint32_t gen_below(gen_rng *r, uint32_t n)
{
    return (uint32_t)(((gen_next(r) >> 32) * n) >> 32);
}

/* Percent chance. */
static bool gen_chance(gen_rng *r, uint32_t percent)
{
    return gen_below(r, 100) < percent;
}

/* The ids of the word lists, interned in a fixed order so ids do not depend on the seed. */
typedef struct {
    uint32_t noun[COUNT(nouns) + 2], n_noun;       /* the list, then the class's new nouns */
    uint32_t plain[COUNT(verbs_plain) + 1], n_plain; /* the list, then the class's new verb */
    uint32_t event[COUNT(verbs_event)], result[COUNT(verbs_result)];
    uint32_t time[COUNT(times)], habit[COUNT(adverbs_habit)], ev_adv[COUNT(adverbs_event)];
    uint32_t place[COUNT(places)];
    uint32_t zai, ba, bei, le;
} gen_ids;

static tf_status intern_list(builder *b, const char *const *w, size_t n, uint32_t *ids)
{
    for (size_t i = 0; i < n; i++) {
        tf_status st = intern_str(b, w[i], &ids[i]);
        if (st != TF_OK)
            return st;
    }
    return TF_OK;
}

static tf_status gen_vocab(builder *b, gen_ids *g)
{
    uint32_t unk, fw[COUNT(function_words)] = {0};
    const struct {
        const char *const *words;
        size_t n;
        uint32_t *ids;
    } lists[] = {
        {nouns, COUNT(nouns), g->noun},
        {verbs_plain, COUNT(verbs_plain), g->plain},
        {verbs_event, COUNT(verbs_event), g->event},
        {verbs_result, COUNT(verbs_result), g->result},
        {times, COUNT(times), g->time},
        {adverbs_habit, COUNT(adverbs_habit), g->habit},
        {adverbs_event, COUNT(adverbs_event), g->ev_adv},
        {places, COUNT(places), g->place},
        {function_words, COUNT(function_words), fw},
    };
    tf_status st = intern_str(b, "[UNK]", &unk);
    for (size_t i = 0; i < COUNT(lists) && st == TF_OK; i++)
        st = intern_list(b, lists[i].words, lists[i].n, lists[i].ids);
    g->zai = fw[0], g->ba = fw[1], g->bei = fw[2], g->le = fw[3];
    g->n_noun = COUNT(nouns);
    g->n_plain = COUNT(verbs_plain);
    return st;
}

static bool has_id(const uint32_t *ids, size_t n, uint32_t id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

/* One sentence and where its two nouns stand: the doer (subject) and the other. */
typedef struct {
    uint32_t tok[ORDER_MAX_TOKENS];
    uint32_t n;
    int subj, obj; /* positions */
    order_shape shape;
} gen_sentence;

static void put(gen_sentence *s, uint32_t id)
{
    s->tok[s->n++] = id;
}

/* Draw one sentence of a random shape:
 *   SVO  [time] S [adverb] [在 place] V [了] O
 *   把   [time] S [adverb] 把 O V [了]
 *   被   [time] O [adverb] 被 S V [了]
 * 了 never follows a habit adverb; 把 takes a verb with a result; 被 an event or a result. */
static void gen_draw(gen_rng *r, const gen_ids *g, gen_sentence *s)
{
    s->n = 0;
    uint32_t subj = g->noun[gen_below(r, g->n_noun)];
    uint32_t obj;
    do
        obj = g->noun[gen_below(r, g->n_noun)];
    while (obj == subj);
    uint32_t roll = gen_below(r, 4);
    s->shape = roll < 2 ? ORDER_SVO : roll == 2 ? ORDER_BA : ORDER_BEI;
    if (gen_chance(r, 40))
        put(s, g->time[gen_below(r, COUNT(times))]);
    bool habit = false;
    uint32_t adverb = UINT32_MAX;
    if (gen_chance(r, 40)) {
        habit = gen_chance(r, 50);
        adverb = habit ? g->habit[gen_below(r, COUNT(adverbs_habit))]
                       : g->ev_adv[gen_below(r, COUNT(adverbs_event))];
    }
    uint32_t verb;
    bool le;
    if (s->shape == ORDER_SVO) {
        uint32_t k = gen_below(r, g->n_plain + COUNT(verbs_event) + COUNT(verbs_result));
        bool plain = k < g->n_plain;
        verb = plain ? g->plain[k]
               : k < g->n_plain + COUNT(verbs_event)
                   ? g->event[k - g->n_plain]
                   : g->result[k - g->n_plain - COUNT(verbs_event)];
        le = !plain && !habit && gen_chance(r, 50);
        s->subj = (int)s->n;
        put(s, subj);
        if (adverb != UINT32_MAX)
            put(s, adverb);
        if (gen_chance(r, 25)) {
            put(s, g->zai);
            put(s, g->place[gen_below(r, COUNT(places))]);
        }
        put(s, verb);
        if (le)
            put(s, g->le);
        s->obj = (int)s->n;
        put(s, obj);
        return;
    }
    if (s->shape == ORDER_BA) {
        verb = g->result[gen_below(r, COUNT(verbs_result))];
    } else {
        uint32_t k = gen_below(r, COUNT(verbs_event) + COUNT(verbs_result));
        verb = k < COUNT(verbs_event) ? g->event[k] : g->result[k - COUNT(verbs_event)];
    }
    le = !habit;
    int first = (int)s->n;
    put(s, s->shape == ORDER_BA ? subj : obj);
    if (adverb != UINT32_MAX)
        put(s, adverb);
    put(s, s->shape == ORDER_BA ? g->ba : g->bei);
    int second = (int)s->n;
    put(s, s->shape == ORDER_BA ? obj : subj);
    put(s, verb);
    if (le)
        put(s, g->le);
    s->subj = s->shape == ORDER_BA ? first : second;
    s->obj = s->shape == ORDER_BA ? second : first;
}

/* Add a sentence and its other order (the two nouns swapped; the doer stays in the subject's
 * slot, so it is the other noun) unless either is already in the task. *added tells which. */
static tf_status gen_add_pair(builder *b, const gen_sentence *s, order_split split, bool *added)
{
    gen_sentence o = *s;
    o.tok[s->subj] = s->tok[s->obj];
    o.tok[s->obj] = s->tok[s->subj];
    uint64_t h1, h2;
    uint32_t at1 = 0, at2 = 0;
    *added = false;
    if (find_sentence(b, s->tok, s->n, &h1, &at1) != UINT32_MAX ||
        find_sentence(b, o.tok, o.n, &h2, &at2) != UINT32_MAX)
        return TF_OK;
    uint32_t first = b->t->n_sent;
    tf_status st = add_sentence(b, s->tok, s->n, s->subj, split, s->shape, 0);
    if (st == TF_OK)
        st = set_insert(&b->sents, at1, h1, first);
    if (st == TF_OK)
        st = add_sentence(b, o.tok, o.n, o.subj, split, o.shape, 0);
    if (st == TF_OK) {
        /* the table may have grown since: look the slot of the second sentence up again */
        (void)find_sentence(b, o.tok, o.n, &h2, &at2);
        st = set_insert(&b->sents, at2, h2, first + 1);
    }
    *added = st == TF_OK;
    return st;
}

/* The class's sentence (c->class_words, interned after every list so the lists' ids stay):
 * its nouns join the nouns and its verb the plain verbs when they are new to them; it and its
 * other order are held out. Nothing without one. */
static tf_status gen_class(builder *b, gen_ids *g, const order_gen_cfg *c)
{
    if (!c->class_words[0] || !c->class_words[1] || !c->class_words[2])
        return TF_OK;
    gen_sentence s = {.n = 0, .subj = 0, .obj = 2, .shape = ORDER_SVO};
    for (int i = 0; i < 3; i++) {
        uint32_t id;
        tf_status st = intern_str(b, c->class_words[i], &id);
        if (st != TF_OK)
            return st;
        put(&s, id);
        bool verb = i == 1;
        if (verb && !has_id(g->plain, g->n_plain, id) &&
            !has_id(g->event, COUNT(verbs_event), id) &&
            !has_id(g->result, COUNT(verbs_result), id))
            g->plain[g->n_plain++] = id;
        else if (!verb && !has_id(g->noun, g->n_noun, id))
            g->noun[g->n_noun++] = id;
    }
    bool added;
    return gen_add_pair(b, &s, ORDER_TEST, &added);
}

/* The article's own pairs, held out: 我 爱 学习 and 猫 追 狗. */
static tf_status gen_article(builder *b)
{
    static const char *const pairs[][3] = {{"我", "爱", "学习"}, {"猫", "追", "狗"}};
    for (size_t p = 0; p < COUNT(pairs); p++) {
        gen_sentence s = {.n = 0, .subj = 0, .obj = 2, .shape = ORDER_SVO};
        for (int i = 0; i < 3; i++) {
            uint32_t id;
            tf_status st = intern_str(b, pairs[p][i], &id);
            if (st != TF_OK)
                return st;
            put(&s, id);
        }
        bool added;
        tf_status st = gen_add_pair(b, &s, ORDER_TEST, &added);
        if (st != TF_OK)
            return st;
    }
    return TF_OK;
}

tf_status order_task_generate(order_task *t, const order_gen_cfg *c)
{
    if (c->train_pairs == 0 || c->test_pairs == 0 || c->train_pairs > ORDER_MAX_PAIRS ||
        c->test_pairs > ORDER_MAX_PAIRS) {
        memset(t, 0, sizeof *t);
        return TF_ERR_RANGE;
    }
    builder b;
    gen_ids g;
    tf_status st = builder_init(&b, t);
    if (st == TF_OK)
        st = gen_vocab(&b, &g);
    if (st == TF_OK)
        st = gen_class(&b, &g, c);
    if (st == TF_OK)
        st = gen_article(&b);
    gen_rng r = {rng_row_key(c->seed, RNG_STREAM_ORDER_TASK, 0)};
    for (int split = ORDER_TRAIN; split <= ORDER_TEST && st == TF_OK; split++) {
        uint32_t want = split == ORDER_TRAIN ? c->train_pairs : c->test_pairs, got = 0;
        /* the space of sentences is vast (millions of pairs); the bound only guards the loop */
        for (uint64_t tries = 0; got < want && st == TF_OK; tries++) {
            if (tries > 100ull * want + 1000) {
                st = TF_ERR_RANGE;
                break;
            }
            gen_sentence s;
            gen_draw(&r, &g, &s);
            bool added;
            st = gen_add_pair(&b, &s, (order_split)split, &added);
            got += added;
        }
    }
    if (st == TF_OK)
        st = builder_finish(&b);
    if (st != TF_OK)
        return fail_build(&b, st);
    builder_drop(&b);
    /* pairs are stored next to each other */
    for (uint32_t s = 0; s < t->n_sent; s++)
        t->pair[s] = (int32_t)(s ^ 1u);
    t->example = 0; /* the class's sentence, else 我 爱 学习 */
    return TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * A user's file */

const char *order_problem_str(order_problem p)
{
    static const char *const msg[ORDER_PROBLEM_COUNT] = {
        [ORDER_OK] = "no error",
        [ORDER_BAD_UTF8] = "the line is not valid UTF-8: save the file as UTF-8",
        [ORDER_BAD_CONTROL] = "the line holds a control character: keep only words, spaces and "
                              "tabs",
        [ORDER_BAD_LINE_LONG] = "the line is longer than 1024 bytes: split it into shorter "
                                "sentences",
        [ORDER_BAD_WORD_LONG] = "a token is longer than 64 bytes: separate the words with spaces",
        [ORDER_BAD_TOKENS] = "the sentence has more than 32 tokens: use shorter sentences",
        [ORDER_BAD_ONE_TOKEN] = "the sentence has a single token: give at least two, separated "
                                "by spaces, as in *猫 追 狗",
        [ORDER_BAD_NO_MARK] = "no token is marked as the doer: put * before it, as in *猫 追 狗",
        [ORDER_BAD_TWO_MARKS] = "more than one token is marked with *: mark only the doer",
        [ORDER_BAD_EMPTY_MARK] = "a * stands alone: write it directly before the doer, as in "
                                 "*猫 追 狗",
        [ORDER_BAD_STRAY_MARK] = "a * stands inside a token: the mark goes before the doer only; "
                                 "separate words with spaces",
        [ORDER_BAD_DIRECTIVE] = "unknown line starting with @: only @train and @test are known",
        [ORDER_BAD_CONFLICT] = "the same sentence was given another doer on an earlier line: keep "
                               "one of the two",
        [ORDER_BAD_IN_BOTH] = "a held-out (@test) sentence is also a training sentence: remove "
                              "one of the two",
        [ORDER_BAD_TOO_MANY] = "the file has more than 100000 sentences: use fewer",
        [ORDER_BAD_VOCAB] = "the file has more than 8191 different tokens: use fewer words",
        [ORDER_BAD_FILE_BIG] = "the file is larger than 16 MiB: use a smaller file",
        [ORDER_BAD_EMPTY] = "the file holds no sentence: write one sentence a line, the doer "
                            "marked with *, as in *猫 追 狗",
        [ORDER_BAD_NO_TRAIN] = "no sentence to train on: put training sentences before @test or "
                               "after @train",
        [ORDER_BAD_NO_TEST] = "nothing can be held out: give sentences with at least two "
                              "different sets of tokens, or held-out ones after @test",
        [ORDER_BAD_READ] = "the file cannot be read: check its name and permissions",
    };
    if ((unsigned)p >= ORDER_PROBLEM_COUNT)
        return "unknown problem";
    return msg[p];
}

static bool is_sep(uint32_t cp)
{
    return cp == ' ' || cp == '\t' || cp == 0x3000 || cp == 0xA0;
}

static bool is_control(uint32_t cp)
{
    return (cp < 0x20 && cp != '\t') || cp == 0x7F || (cp >= 0x80 && cp < 0xA0);
}

static bool is_mark(uint32_t cp)
{
    return cp == '*' || cp == 0xFF0A;
}

/* The state of one parse. */
typedef struct {
    builder b;
    order_parse_error *err;
    size_t lineno;
    int explicit_split; /* a @train or @test line was seen */
    order_split split;  /* where the next sentence goes */
} parser;

static tf_status bad(parser *p, order_problem why, size_t column, tf_status st)
{
    p->err->problem = why;
    p->err->line = p->lineno;
    p->err->column = column;
    return st;
}

/* A token's byte range in its line, mark included. */
typedef struct {
    size_t at, len;
} tok_range;

/* The ids of the n tokens of line s (interned), and which one carries the mark (*doer, -1:
 * none yet). */
static tf_status read_ids(parser *p, const char *s, const tok_range *tk, size_t n, uint32_t *ids,
                          int *doer)
{
    for (size_t t = 0; t < n; t++) {
        const char *w = s + tk[t].at;
        size_t wl = tk[t].len;
        uint32_t cp;
        size_t k = utf8_decode(w, wl, &cp);
        bool marked = is_mark(cp);
        if (marked) {
            if (wl == k)
                return bad(p, ORDER_BAD_EMPTY_MARK, tk[t].at + 1, TF_ERR_FORMAT);
            if (*doer >= 0)
                return bad(p, ORDER_BAD_TWO_MARKS, tk[t].at + 1, TF_ERR_FORMAT);
            *doer = (int)t;
            w += k;
            wl -= k;
        }
        for (size_t j = 0; j < wl; j += k) {
            k = utf8_decode(w + j, wl - j, &cp);
            if (is_mark(cp))
                return bad(p, ORDER_BAD_STRAY_MARK, (size_t)(w + j - s) + 1, TF_ERR_FORMAT);
        }
        if (wl > ORDER_MAX_WORD)
            return bad(p, ORDER_BAD_WORD_LONG, tk[t].at + 1, TF_ERR_FORMAT);
        tf_status st = intern(&p->b, w, wl, &ids[t]);
        if (st == TF_ERR_TOO_MANY)
            return bad(p, ORDER_BAD_VOCAB, tk[t].at + 1, TF_ERR_TOO_MANY);
        if (st != TF_OK)
            return st;
    }
    return TF_OK;
}

/* One line, without its newline (and '\r'). */
static tf_status parse_line(parser *p, const char *s, size_t len)
{
    if (len > ORDER_MAX_LINE)
        return bad(p, ORDER_BAD_LINE_LONG, 0, TF_ERR_TOO_LONG);
    size_t off;
    if (utf8_validate(s, len, &off) != TF_OK)
        return bad(p, ORDER_BAD_UTF8, off + 1, TF_ERR_UTF8);
    /* 1. code points: controls are refused, separators cut tokens */
    tok_range tk[ORDER_MAX_TOKENS + 1];
    size_t n = 0, i = 0;
    bool in_tok = false;
    while (i < len) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, len - i, &cp);
        if (is_control(cp))
            return bad(p, ORDER_BAD_CONTROL, i + 1, TF_ERR_FORMAT);
        if (is_sep(cp)) {
            in_tok = false;
        } else if (!in_tok) {
            if (n == ORDER_MAX_TOKENS)
                return bad(p, ORDER_BAD_TOKENS, i + 1, TF_ERR_TOO_MANY);
            in_tok = true;
            tk[n].at = i;
            tk[n++].len = 0;
        }
        if (in_tok)
            tk[n - 1].len += k;
        i += k;
    }
    if (n == 0 || s[tk[0].at] == '#')
        return TF_OK; /* blank or comment */
    /* 2. directives */
    if (s[tk[0].at] == '@') {
        bool train = tk[0].len == 6 && memcmp(s + tk[0].at, "@train", 6) == 0;
        bool test = tk[0].len == 5 && memcmp(s + tk[0].at, "@test", 5) == 0;
        if (n != 1 || (!train && !test))
            return bad(p, ORDER_BAD_DIRECTIVE, tk[0].at + 1, TF_ERR_FORMAT);
        p->explicit_split = 1;
        p->split = train ? ORDER_TRAIN : ORDER_TEST;
        return TF_OK;
    }
    /* 3. tokens: the mark, the ids */
    uint32_t ids[ORDER_MAX_TOKENS];
    int doer = -1;
    tf_status st = read_ids(p, s, tk, n, ids, &doer);
    if (st != TF_OK)
        return st;
    if (doer < 0)
        return bad(p, ORDER_BAD_NO_MARK, 0, TF_ERR_FORMAT);
    if (n == 1)
        return bad(p, ORDER_BAD_ONE_TOKEN, 0, TF_ERR_FORMAT);
    if (p->b.t->n_sent == ORDER_MAX_SENTENCES)
        return bad(p, ORDER_BAD_TOO_MANY, 0, TF_ERR_TOO_MANY);
    /* 4. the same sentence seen before: same doer and same split, or an error */
    uint64_t h;
    uint32_t at = 0;
    uint32_t prev = find_sentence(&p->b, ids, (uint32_t)n, &h, &at);
    if (prev != UINT32_MAX) {
        p->err->other_line = p->b.t->line[prev];
        if (p->b.t->doer[prev] != doer)
            return bad(p, ORDER_BAD_CONFLICT, 0, TF_ERR_FORMAT);
        if (p->b.t->split[prev] != p->split)
            return bad(p, ORDER_BAD_IN_BOTH, 0, TF_ERR_FORMAT);
        p->err->other_line = 0;
    }
    uint32_t s_new = p->b.t->n_sent;
    st = add_sentence(&p->b, ids, (uint32_t)n, doer, p->split, ORDER_USER, (uint32_t)p->lineno);
    if (st == TF_OK && prev == UINT32_MAX)
        st = set_insert(&p->b.sents, at, h, s_new);
    return st;
}

/* Sentences holding the same multiset of tokens get the same group; returns the group count. */
typedef struct {
    const order_task *t;
    const uint32_t *sorted; /* (n_tok) each sentence's tokens sorted */
    const uint32_t *key;
    uint32_t key_len;
    const uint32_t *rep; /* (groups) a sentence of each group */
} group_ctx;

static bool group_eq(const void *ctx, uint32_t g)
{
    const group_ctx *c = ctx;
    uint32_t s = c->rep[g];
    return order_task_len(c->t, s) == c->key_len &&
           memcmp(c->sorted + c->t->off[s], c->key, c->key_len * sizeof *c->key) == 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static tf_status make_groups(const order_task *t, uint32_t *group /* (n_sent) */,
                             uint32_t *n_groups)
{
    uint32_t *sorted = malloc((t->n_tok ? t->n_tok : 1) * sizeof *sorted);
    uint32_t *rep = malloc(t->n_sent * sizeof *rep);
    idx_set set = {0};
    tf_status st = sorted && rep ? set_init(&set, 1024) : TF_ERR_NOMEM;
    group_ctx c = {t, sorted, NULL, 0, rep};
    *n_groups = 0;
    for (uint32_t s = 0; s < t->n_sent && st == TF_OK; s++) {
        uint32_t *k = sorted + t->off[s];
        memcpy(k, order_task_tokens(t, s), order_task_len(t, s) * sizeof *k);
        qsort(k, order_task_len(t, s), sizeof *k, cmp_u32);
        c.key = k;
        c.key_len = order_task_len(t, s);
        uint64_t h = hash_bytes(k, c.key_len * sizeof *k);
        uint32_t at = 0, g = set_find(&set, h, group_eq, &c, &at);
        if (g == UINT32_MAX) {
            g = (*n_groups)++;
            rep[g] = s;
            st = set_insert(&set, at, h, g);
        }
        group[s] = g;
    }
    set_free(&set);
    free(sorted);
    free(rep);
    return st;
}

/* Without @train/@test: a seeded fifth of the groups (at least one) is held out. */
static tf_status auto_split(order_task *t, const uint32_t *group, uint32_t n_groups, uint64_t seed)
{
    uint32_t *perm = malloc(n_groups * sizeof *perm);
    uint8_t *held = calloc(n_groups, 1);
    if (!perm || !held) {
        free(perm);
        free(held);
        return TF_ERR_NOMEM;
    }
    for (uint32_t g = 0; g < n_groups; g++)
        perm[g] = g;
    gen_rng r = {rng_row_key(seed, RNG_STREAM_ORDER_TASK, 1)};
    for (uint32_t g = n_groups; g > 1; g--) { /* Fisher-Yates */
        uint32_t j = gen_below(&r, g);
        uint32_t x = perm[g - 1];
        perm[g - 1] = perm[j];
        perm[j] = x;
    }
    uint32_t n_test = (n_groups + 2) / 5; /* a fifth, rounded */
    for (uint32_t i = 0; i < (n_test ? n_test : 1); i++)
        held[perm[i]] = 1;
    for (uint32_t s = 0; s < t->n_sent; s++)
        t->split[s] = held[group[s]] ? ORDER_TEST : ORDER_TRAIN;
    free(perm);
    free(held);
    return TF_OK;
}

/* pair[s]: the first sentence of s's group and split whose doer is another token. */
static tf_status find_pairs(order_task *t, const uint32_t *group, uint32_t n_groups)
{
    /* per (group, split): the first sentence, and the first whose doer token differs from it */
    size_t n = 2 * (size_t)(n_groups ? n_groups : 1);
    uint32_t *first = malloc(n * sizeof *first);
    uint32_t *other = malloc(n * sizeof *other);
    if (!first || !other) {
        free(first);
        free(other);
        return TF_ERR_NOMEM;
    }
    for (size_t i = 0; i < 2 * (size_t)n_groups; i++)
        first[i] = other[i] = UINT32_MAX;
    for (uint32_t s = 0; s < t->n_sent; s++) {
        size_t k = 2 * (size_t)group[s] + t->split[s];
        uint32_t who = order_task_tokens(t, s)[t->doer[s]];
        if (first[k] == UINT32_MAX)
            first[k] = s;
        else if (other[k] == UINT32_MAX && order_task_tokens(t, first[k])[t->doer[first[k]]] != who)
            other[k] = s;
    }
    for (uint32_t s = 0; s < t->n_sent; s++) {
        size_t k = 2 * (size_t)group[s] + t->split[s];
        uint32_t f = first[k];
        uint32_t who = order_task_tokens(t, s)[t->doer[s]];
        uint32_t p = order_task_tokens(t, f)[t->doer[f]] != who ? f : other[k];
        t->pair[s] = p == UINT32_MAX ? -1 : (int32_t)p;
    }
    free(first);
    free(other);
    return TF_OK;
}

/* The example to watch: the first held-out sentence that has a pair, else the first one. */
static uint32_t pick_example(const order_task *t)
{
    uint32_t any = UINT32_MAX;
    for (uint32_t s = 0; s < t->n_sent; s++) {
        if (t->split[s] != ORDER_TEST)
            continue;
        if (t->pair[s] >= 0)
            return s;
        if (any == UINT32_MAX)
            any = s;
    }
    return any == UINT32_MAX ? 0 : any;
}

tf_status order_task_parse(order_task *t, const char *text, size_t len, uint64_t seed,
                           order_parse_error *err)
{
    order_parse_error dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    if (len > ORDER_MAX_FILE) {
        memset(t, 0, sizeof *t);
        err->problem = ORDER_BAD_FILE_BIG;
        return TF_ERR_TOO_BIG;
    }
    parser p = {.err = err, .lineno = 0, .explicit_split = 0, .split = ORDER_TRAIN};
    tf_status st = builder_init(&p.b, t);
    uint32_t unk;
    if (st == TF_OK)
        st = intern_str(&p.b, "[UNK]", &unk);
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3; /* byte-order mark */
    while (st == TF_OK && i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - text) : len;
        size_t l = e - i;
        if (l && text[i + l - 1] == '\r')
            l--;
        p.lineno++;
        st = parse_line(&p, text + i, l);
        i = e + 1;
    }
    if (st == TF_OK && t->n_sent == 0) {
        err->problem = ORDER_BAD_EMPTY;
        st = TF_ERR_EMPTY;
    }
    uint32_t *group = NULL, n_groups = 0;
    if (st == TF_OK) {
        group = malloc(t->n_sent * sizeof *group);
        st = group ? make_groups(t, group, &n_groups) : TF_ERR_NOMEM;
    }
    if (st == TF_OK && !p.explicit_split) {
        if (n_groups < 2) {
            err->problem = ORDER_BAD_NO_TEST;
            st = TF_ERR_FORMAT;
        } else {
            st = auto_split(t, group, n_groups, seed);
        }
    }
    if (st == TF_OK)
        st = builder_finish(&p.b);
    if (st == TF_OK && (t->n_split[ORDER_TRAIN] == 0 || t->n_split[ORDER_TEST] == 0)) {
        err->problem = t->n_split[ORDER_TRAIN] == 0 ? ORDER_BAD_NO_TRAIN : ORDER_BAD_NO_TEST;
        err->line = 0;
        st = TF_ERR_FORMAT;
    }
    if (st == TF_OK)
        st = find_pairs(t, group, n_groups);
    free(group);
    if (st != TF_OK) {
        if (st == TF_ERR_NOMEM)
            err->line = 0;
        return fail_build(&p.b, st);
    }
    builder_drop(&p.b);
    t->example = pick_example(t);
    return TF_OK;
}

tf_status order_task_load(order_task *t, const char *path, uint64_t seed, order_parse_error *err)
{
    order_parse_error dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f) {
        err->problem = ORDER_BAD_READ;
        return TF_ERR_IO;
    }
    /* read at most one byte past the limit, so a huge file (or an endless pipe) is refused
     * without being read whole */
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    tf_status st = buf ? TF_OK : TF_ERR_NOMEM;
    while (st == TF_OK) {
        if (n == cap) {
            if (cap > ORDER_MAX_FILE) {
                err->problem = ORDER_BAD_FILE_BIG;
                st = TF_ERR_TOO_BIG;
                break;
            }
            size_t nc = cap * 2 > (size_t)ORDER_MAX_FILE + 1 ? (size_t)ORDER_MAX_FILE + 1 : cap * 2;
            char *nb = realloc(buf, nc);
            if (!nb) {
                st = TF_ERR_NOMEM;
                break;
            }
            buf = nb, cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                int e = errno;
                err->problem = ORDER_BAD_READ;
                st = TF_ERR_IO;
                errno = e;
            }
            break;
        }
    }
    int e = errno;
    fclose(f);
    if (st == TF_OK)
        st = order_task_parse(t, buf, n, seed, err);
    free(buf);
    errno = e;
    return st;
}
