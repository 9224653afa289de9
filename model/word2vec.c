/* word2vec.c — skip-gram with negative sampling: corpus, vocabulary, training in steps. */
#include "word2vec.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "linalg.h"
#include "rng.h"
#include "tf_limits.h"

/* ---------------------------------------------------------------------------------------------
 * Hashing words: FNV-1a over the bytes, open addressing with linear probing */

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* ---------------------------------------------------------------------------------------------
 * Corpus */

struct w2v_corpus {
    /* every distinct word seen, in order of first appearance */
    char *text; /* (text_len) the words' bytes, each NUL-terminated */
    size_t text_len, text_cap;
    size_t *word_at; /* (n_words) offset of word i in text */
    uint64_t *count; /* (n_words) */
    uint32_t n_words, words_cap;
    uint32_t *slots; /* (slot_cap) word id + 1, 0 empty */
    uint32_t slot_cap;
    /* the sentences: tokens as word ids, sentence s is tok[sent[s] .. sent[s+1]) */
    int32_t *tok;
    uint64_t n_tok, tok_cap, raw_tok;
    uint64_t *sent; /* (n_sent + 1) */
    size_t n_sent, sent_cap;
    /* after finish: ranked vocabulary */
    bool finished;
    uint32_t V;
    uint32_t *rank_word; /* (V) word id of rank r */
};

tf_status w2v_corpus_new(w2v_corpus **out)
{
    w2v_corpus *c = calloc(1, sizeof *c);
    if (!c)
        return TF_ERR_NOMEM;
    c->slot_cap = 1024;
    c->slots = calloc(c->slot_cap, sizeof *c->slots);
    c->sent_cap = 256;
    c->sent = malloc(c->sent_cap * sizeof *c->sent);
    if (!c->slots || !c->sent) {
        w2v_corpus_free(c);
        return TF_ERR_NOMEM;
    }
    c->sent[0] = 0;
    *out = c;
    return TF_OK;
}

void w2v_corpus_free(w2v_corpus *c)
{
    if (!c)
        return;
    free(c->text);
    free(c->word_at);
    free(c->count);
    free(c->slots);
    free(c->tok);
    free(c->sent);
    free(c->rank_word);
    free(c);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}

static tf_status rehash(w2v_corpus *c)
{
    uint32_t cap = c->slot_cap * 2;
    uint32_t *s = calloc(cap, sizeof *s);
    if (!s)
        return TF_ERR_NOMEM;
    for (uint32_t w = 0; w < c->n_words; w++) {
        const char *t = c->text + c->word_at[w];
        uint32_t h = hash_bytes(t, strlen(t)) & (cap - 1);
        while (s[h])
            h = (h + 1) & (cap - 1);
        s[h] = w + 1;
    }
    free(c->slots);
    c->slots = s;
    c->slot_cap = cap;
    return TF_OK;
}

/* Id of the word, adding it when new; -1 when out of memory. */
static int32_t intern(w2v_corpus *c, const char *s, size_t len)
{
    uint32_t h = hash_bytes(s, len) & (c->slot_cap - 1);
    for (; c->slots[h]; h = (h + 1) & (c->slot_cap - 1)) {
        uint32_t w = c->slots[h] - 1;
        const char *t = c->text + c->word_at[w];
        if (strncmp(t, s, len) == 0 && t[len] == '\0')
            return (int32_t)w;
    }
    if (c->n_words >= TF_MAX_VOCAB)
        return -1;
    size_t wcap = c->words_cap;
    if (grow((void **)&c->word_at, &wcap, c->n_words + 1u, sizeof *c->word_at))
        return -1;
    wcap = c->words_cap;
    if (grow((void **)&c->count, &wcap, c->n_words + 1u, sizeof *c->count))
        return -1;
    c->words_cap = (uint32_t)wcap;
    if (grow((void **)&c->text, &c->text_cap, c->text_len + len + 1, 1))
        return -1;
    memcpy(c->text + c->text_len, s, len);
    c->text[c->text_len + len] = '\0';
    c->word_at[c->n_words] = c->text_len;
    c->count[c->n_words] = 0;
    c->text_len += len + 1;
    c->slots[h] = c->n_words + 1;
    int32_t id = (int32_t)c->n_words++;
    if (c->n_words * 2 > c->slot_cap && rehash(c) != TF_OK)
        return -1;
    return id;
}

tf_status w2v_corpus_add(w2v_corpus *c, const char *const *words, const size_t *lens, size_t n)
{
    if (c->finished)
        return TF_ERR_RANGE;
    if (n == 0)
        return TF_OK;
    size_t cap = (size_t)c->tok_cap;
    if (grow((void **)&c->tok, &cap, (size_t)c->n_tok + n, sizeof *c->tok))
        return TF_ERR_NOMEM;
    c->tok_cap = cap;
    if (grow((void **)&c->sent, &c->sent_cap, c->n_sent + 2, sizeof *c->sent))
        return TF_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        int32_t id = intern(c, words[i], lens[i]);
        if (id < 0)
            return TF_ERR_NOMEM;
        c->count[id]++;
        c->tok[c->n_tok++] = id;
    }
    c->raw_tok += n;
    c->sent[++c->n_sent] = c->n_tok;
    return TF_OK;
}

typedef struct {
    uint64_t count;
    uint32_t word;
} counted;

/* More frequent first; equal counts keep the order of first appearance. */
static int by_count(const void *pa, const void *pb)
{
    const counted *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return a->word < b->word ? -1 : a->word > b->word;
}

tf_status w2v_corpus_finish(w2v_corpus *c, int min_count)
{
    if (c->finished)
        return TF_ERR_RANGE;
    counted *byc = malloc(((size_t)c->n_words + 1) * sizeof *byc);
    uint32_t *order = malloc(((size_t)c->n_words + 1) * sizeof *order);
    int32_t *rank = malloc(((size_t)c->n_words + 1) * sizeof *rank);
    if (!byc || !order || !rank) {
        free(byc), free(order), free(rank);
        return TF_ERR_NOMEM;
    }
    uint32_t V = 0;
    for (uint32_t w = 0; w < c->n_words; w++)
        if (c->count[w] >= (uint64_t)(min_count > 0 ? min_count : 1))
            byc[V++] = (counted){c->count[w], w};
    if (V == 0) {
        free(byc), free(order), free(rank);
        return TF_ERR_EMPTY;
    }
    qsort(byc, V, sizeof *byc, by_count);
    for (uint32_t r = 0; r < V; r++)
        order[r] = byc[r].word;
    free(byc);
    for (uint32_t w = 0; w < c->n_words; w++)
        rank[w] = -1;
    for (uint32_t r = 0; r < V; r++)
        rank[order[r]] = (int32_t)r;
    /* rewrite the sentences in ranks, dropping rare words and sentences left empty */
    uint64_t o = 0, from = 0; /* from: the old start of sentence s (sent[] is rewritten) */
    size_t s_out = 0;
    for (size_t s = 0; s < c->n_sent; s++) {
        uint64_t start = o, to = c->sent[s + 1];
        for (uint64_t i = from; i < to; i++)
            if (rank[c->tok[i]] >= 0)
                c->tok[o++] = rank[c->tok[i]];
        from = to;
        if (o > start)
            c->sent[++s_out] = o;
    }
    c->n_sent = s_out;
    c->n_tok = o;
    c->V = V;
    c->rank_word = order;
    free(rank);
    c->finished = true;
    return TF_OK;
}

uint64_t w2v_corpus_tokens(const w2v_corpus *c)
{
    return c->n_tok;
}
uint64_t w2v_corpus_raw_tokens(const w2v_corpus *c)
{
    return c->raw_tok;
}
size_t w2v_corpus_sentences(const w2v_corpus *c)
{
    return c->n_sent;
}
uint32_t w2v_corpus_vocab(const w2v_corpus *c)
{
    return c->finished ? c->V : c->n_words;
}

/* ---------------------------------------------------------------------------------------------
 * Parameters */

void w2v_params_defaults(w2v_params *p)
{
    p->dim = 50;
    p->window = 5;
    p->negative = 5;
    p->min_count = 2;
    p->sample = 1e-3;
    p->alpha = 0.025;
    p->min_alpha = 0.0001;
    p->epochs = 5;
    p->threads = 1;
    p->seed = TF_DEFAULT_SEED;
}

tf_status w2v_params_check(const w2v_params *p, const char **why)
{
    const char *w = NULL;
    if (p->dim < 1 || p->dim > TF_MAX_DMODEL)
        w = "the vector size must be from 1 to 16384";
    else if (p->window < 1 || p->window > 100)
        w = "the window must be from 1 to 100";
    else if (p->negative < 1 || p->negative > 100)
        w = "the number of negatives must be from 1 to 100";
    else if (p->min_count < 1)
        w = "the minimum count must be at least 1";
    else if (!(p->sample >= 0 && p->sample < 1))
        w = "the subsampling threshold must be in [0, 1)";
    else if (!(p->alpha > 0 && p->alpha <= 1) || !(p->min_alpha >= 0 && p->min_alpha <= p->alpha))
        w = "the learning rate must be in (0, 1] and the final rate in [0, alpha]";
    else if (p->epochs < 1 || p->epochs > 10000)
        w = "the number of epochs must be from 1 to 10000";
    else if (p->threads < 1 || p->threads > 64)
        w = "the number of threads must be from 1 to 64";
    if (why)
        *why = w;
    return w ? TF_ERR_RANGE : TF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Model */

/* word2vec's linear congruential generator (the one java.util.Random uses): cheap, and the
 * state is one number a step can carry over. */
static inline uint64_t lcg(uint64_t *s)
{
    *s = *s * 25214903917ULL + 11;
    return *s;
}

#define TABLE_SIZE_MAX 10000000u

/* The word vectors everything reads: vec = in - the mean of the V rows of in (word2vec.h). */
static void center_vectors(w2v_model *m)
{
    size_t d = (size_t)m->dim;
    memset(m->mean, 0, d * sizeof *m->mean);
    for (size_t w = 0; w < m->V; w++)
        for (size_t j = 0; j < d; j++)
            m->mean[j] += m->in[w * d + j];
    for (size_t j = 0; j < d; j++)
        m->mean[j] /= m->V ? m->V : 1;
    for (size_t w = 0; w < m->V; w++)
        for (size_t j = 0; j < d; j++)
            m->vec[w * d + j] = m->in[w * d + j] - (float)m->mean[j];
}

static void init_vectors(w2v_model *m)
{
    size_t d = (size_t)m->dim;
    float scale = 0.5f / (float)m->dim;
    for (uint32_t w = 0; w < m->V; w++)
        rng_fill_uniform(rng_row_key(m->p.seed, RNG_STREAM_TRAIN, w), d, scale, m->in + w * d);
    memset(m->out, 0, (size_t)m->V * d * sizeof *m->out);
    m->epoch = 0;
    m->sentence = 0;
    m->words_done = 0;
    m->steps = 0;
    m->rng = rng_mix(m->p.seed ^ 0x5851f42d4c957f2dULL);
    center_vectors(m);
}

tf_status w2v_model_init(w2v_model *m, const w2v_corpus *c, const w2v_params *p)
{
    memset(m, 0, sizeof *m);
    if (!c->finished)
        return TF_ERR_RANGE;
    if (w2v_params_check(p, NULL) != TF_OK)
        return TF_ERR_RANGE;
    m->p = *p;
    m->V = c->V;
    m->dim = p->dim;
    m->corpus = c;
    size_t V = c->V, d = (size_t)p->dim;
    if (V > SIZE_MAX / d / sizeof(float) / 3)
        return TF_ERR_NOMEM;
    size_t text = 0;
    for (uint32_t r = 0; r < c->V; r++)
        text += strlen(c->text + c->word_at[c->rank_word[r]]) + 1;
    m->table_size = V * 100 > TABLE_SIZE_MAX ? TABLE_SIZE_MAX : (uint32_t)(V * 100);
    if (m->table_size < 1000)
        m->table_size = 1000;
    m->hash_cap = 16;
    while (m->hash_cap < 2 * V)
        m->hash_cap *= 2;
    m->words = malloc(V * sizeof *m->words + text);
    m->counts = malloc(V * sizeof *m->counts);
    m->in = malloc(V * d * sizeof *m->in);
    m->out = malloc(V * d * sizeof *m->out);
    m->vec = malloc(V * d * sizeof *m->vec);
    m->mean = malloc(d * sizeof *m->mean);
    m->table = malloc(m->table_size * sizeof *m->table);
    m->keep = malloc(V * sizeof *m->keep);
    m->index = calloc(m->hash_cap, sizeof *m->index);
    if (!m->words || !m->counts || !m->in || !m->out || !m->vec || !m->mean || !m->table || !m->keep || !m->index) {
        w2v_model_free(m);
        return TF_ERR_NOMEM;
    }
    /* words: the pointer table, then the bytes */
    char *at = (char *)(m->words + V);
    for (uint32_t r = 0; r < V; r++) {
        uint32_t w = c->rank_word[r];
        const char *s = c->text + c->word_at[w];
        size_t l = strlen(s);
        memcpy(at, s, l + 1);
        m->words[r] = at;
        at += l + 1;
        m->counts[r] = c->count[w];
        uint32_t h = hash_bytes(s, l) & (m->hash_cap - 1);
        while (m->index[h])
            h = (h + 1) & (m->hash_cap - 1);
        m->index[h] = r + 1;
    }
    /* negatives: word r fills a share count^0.75 / sum count^0.75 of the table */
    double total = 0;
    for (uint32_t r = 0; r < V; r++)
        total += pow((double)m->counts[r], 0.75);
    uint32_t r = 0;
    double cum = pow((double)m->counts[0], 0.75) / total;
    for (uint32_t i = 0; i < m->table_size; i++) {
        m->table[i] = (int32_t)r;
        if ((double)(i + 1) / m->table_size > cum && r + 1 < V)
            cum += pow((double)m->counts[++r], 0.75) / total;
    }
    /* subsampling: keep probability (sqrt(f / (s T)) + 1) (s T) / f, capped at 1 */
    double T = (double)c->n_tok;
    for (uint32_t w = 0; w < V; w++) {
        double f = (double)m->counts[w], keep = 1.0;
        if (p->sample > 0) {
            double st = p->sample * T;
            keep = (sqrt(f / st) + 1) * st / f;
        }
        m->keep[w] = keep >= 1.0 ? 1.0f : (float)keep;
    }
    init_vectors(m);
    return TF_OK;
}

void w2v_model_free(w2v_model *m)
{
    free(m->words);
    free(m->counts);
    free(m->in);
    free(m->out);
    free(m->vec);
    free(m->mean);
    free(m->table);
    free(m->keep);
    free(m->index);
    memset(m, 0, sizeof *m);
}

void w2v_model_reset(w2v_model *m)
{
    init_vectors(m);
}

int32_t w2v_lookup(const w2v_model *m, const char *word, size_t len)
{
    uint32_t h = hash_bytes(word, len) & (m->hash_cap - 1);
    for (; m->index[h]; h = (h + 1) & (m->hash_cap - 1)) {
        const char *t = m->words[m->index[h] - 1];
        if (strncmp(t, word, len) == 0 && t[len] == '\0')
            return (int32_t)(m->index[h] - 1);
    }
    return -1;
}

double w2v_cosine(const w2v_model *m, int32_t a, int32_t b)
{
    if (a < 0 || b < 0 || (uint32_t)a >= m->V || (uint32_t)b >= m->V)
        return 0;
    return la_cosine_f(m->vec + (size_t)a * m->dim, m->vec + (size_t)b * m->dim, (size_t)m->dim);
}

void w2v_cosine_spread(const w2v_model *m, uint32_t n, double *mean, double *sd)
{
    *mean = 0, *sd = 0;
    if (n > m->V)
        n = m->V;
    if (n < 2)
        return;
    double s = 0, s2 = 0, count = 0;
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = a + 1; b < n; b++) {
            double c = w2v_cosine(m, (int32_t)a, (int32_t)b);
            s += c, s2 += c * c, count++;
        }
    *mean = s / count;
    double var = s2 / count - *mean * *mean;
    *sd = var > 0 ? sqrt(var) : 0;
}

void w2v_vectors_view(const w2v_model *m, tf_vectors *v)
{
    memset(v, 0, sizeof *v);
    v->n = m->V;
    v->dim = m->dim;
    v->words = m->words;
    v->data = m->vec;
    v->owned = false;
}

/* ---------------------------------------------------------------------------------------------
 * One update */

/* s(x) and -log s(x) = log(1 + e^-x) from tables with linear interpolation on [-8, 8]
 * (as word2vec tabulates e^x, but interpolated: the error is below 3e-7 for s, 1e-6 for the
 * loss), so no exp or log is computed per pair. Outside, s is 0 or 1 (error < 3.4e-4) and
 * -log s(x) is max(-x, 0). */
#define SIG_MAX 8.0f
#define SIG_N 4096
static float sig_tab[SIG_N + 2], nls_tab[SIG_N + 2];
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static void init_tables(void)
{
    for (int i = 0; i <= SIG_N + 1; i++) {
        double x = -SIG_MAX + 2.0 * SIG_MAX * i / SIG_N;
        sig_tab[i] = (float)(1.0 / (1.0 + exp(-x)));
        nls_tab[i] = (float)(x > 0 ? log1p(exp(-x)) : -x + log1p(exp(x)));
    }
}

/* Interpolate table t at x in [-SIG_MAX, SIG_MAX). */
static inline float lookup(const float *t, float x)
{
    float pos = (x + SIG_MAX) * (SIG_N / (2 * SIG_MAX));
    int i = (int)pos;
    float frac = pos - (float)i;
    return t[i] + frac * (t[i + 1] - t[i]);
}

static inline float sigmoid_t(float x)
{
    if (x >= SIG_MAX)
        return 1.0f;
    if (x <= -SIG_MAX)
        return 0.0f;
    return lookup(sig_tab, x);
}

static inline float neg_log_sigmoid_t(float x)
{
    if (x >= SIG_MAX)
        return 0.0f;
    if (x <= -SIG_MAX)
        return -x;
    return lookup(nls_tab, x);
}

/* u . v with eight partial sums in a fixed order: the compiler can keep them in vector
 * registers, and the result does not depend on threads or timing. */
static inline float dot(const float *restrict u, const float *restrict v, int dim)
{
    float acc[8] = {0};
    int j = 0;
    for (; j + 8 <= dim; j += 8)
        for (int k = 0; k < 8; k++)
            acc[k] += u[j + k] * v[j + k];
    float f = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    for (; j < dim; j++)
        f += u[j] * v[j];
    return f;
}

/* y += a x, in blocks of eight that the compiler turns into vector instructions. */
static inline void axpy(float a, const float *restrict x, float *restrict y, int dim)
{
    int j = 0;
    for (; j + 8 <= dim; j += 8)
        for (int k = 0; k < 8; k++)
            y[j + k] += a * x[j + k];
    for (; j < dim; j++)
        y[j] += a * x[j];
}

double w2v_sgns_update(float *v_, float *out, const int32_t *targets, int n_targets, int dim,
                       float alpha, float *work_)
{
    float *restrict v = v_;
    float *restrict work = work_;
    double loss = 0;
    pthread_once(&tab_once, init_tables);
    memset(work, 0, (size_t)dim * sizeof *work);
    for (int i = 0; i < n_targets; i++) {
        float *restrict u = out + (size_t)targets[i] * dim;
        float f = dot(u, v, dim);
        float label = i == 0 ? 1.0f : 0.0f;
        /* d/df of log s(f) = 1 - s(f); of log s(-f) = -s(f): both are label - s(f) */
        float g = alpha * (label - sigmoid_t(f));
        loss += neg_log_sigmoid_t(i == 0 ? f : -f);
        axpy(g, u, work, dim);
        axpy(g, v, u, dim);
    }
    axpy(1.0f, work, v, dim);
    return loss;
}

/* ---------------------------------------------------------------------------------------------
 * Training over a range of sentences */

typedef struct {
    w2v_model *m;
    size_t s0, s1; /* sentences [s0, s1) */
    uint64_t rng;
    uint64_t words_before; /* words done before this range, for the learning rate */
    double loss;
    uint64_t pairs, words;
    tf_status st;
} job;

static float alpha_at(const w2v_model *m, uint64_t words_done)
{
    /* linear decay over all epochs, as word2vec and gensim */
    double total = (double)m->p.epochs * (double)m->corpus->n_tok;
    double a = m->p.alpha - (m->p.alpha - m->p.min_alpha) * ((double)words_done / total);
    return (float)(a < m->p.min_alpha ? m->p.min_alpha : a);
}

static void *run_job(void *arg)
{
    job *j = arg;
    w2v_model *m = j->m;
    const w2v_corpus *c = m->corpus;
    int dim = m->dim, K = m->p.negative, win = m->p.window;
    float *work = malloc((size_t)dim * sizeof *work);
    int32_t *sen = NULL;
    size_t sen_cap = 0;
    int32_t *targets = malloc((size_t)(K + 1) * sizeof *targets);
    if (!work || !targets) {
        j->st = TF_ERR_NOMEM;
        goto out;
    }
    for (size_t s = j->s0; s < j->s1; s++) {
        uint64_t a0 = c->sent[s], a1 = c->sent[s + 1];
        float alpha = alpha_at(m, j->words_before + j->words);
        j->words += a1 - a0;
        /* 1. subsample the sentence */
        if (grow((void **)&sen, &sen_cap, (size_t)(a1 - a0), sizeof *sen)) {
            j->st = TF_ERR_NOMEM;
            goto out;
        }
        size_t n = 0;
        for (uint64_t i = a0; i < a1; i++) {
            int32_t w = c->tok[i];
            if (m->keep[w] < 1.0f && m->keep[w] < (float)(lcg(&j->rng) & 0xFFFF) / 65536.0f)
                continue;
            /* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): grow() sized it above */
            sen[n++] = w;
        }
        /* 2. every (center, context) pair within a window shrunk at random to b in 1..win */
        for (size_t t = 0; t < n; t++) {
            int b = win - (int)(lcg(&j->rng) % (uint64_t)win);
            size_t lo = t >= (size_t)b ? t - (size_t)b : 0;
            size_t hi = t + (size_t)b < n - 1 ? t + (size_t)b : n - 1;
            for (size_t ci = lo; ci <= hi; ci++) {
                if (ci == t)
                    continue;
                /* 3. predict the center from the context word's input vector */
                targets[0] = sen[t];
                int nt = 1;
                for (int k = 0; k < K; k++) {
                    int32_t neg = m->table[(lcg(&j->rng) >> 16) % m->table_size];
                    if (neg == sen[t])
                        continue;
                    targets[nt++] = neg;
                }
                j->loss += w2v_sgns_update(m->in + (size_t)sen[ci] * dim, m->out, targets, nt, dim,
                                           alpha, work);
                j->pairs++;
            }
        }
    }
out:
    free(work);
    free(sen);
    free(targets);
    return NULL;
}

tf_status w2v_step(w2v_model *m, uint64_t max_words, w2v_progress *pr)
{
    const w2v_corpus *c = m->corpus;
    memset(pr, 0, sizeof *pr);
    double loss = 0;
    uint64_t pairs = 0;
    tf_status st = TF_OK;
    if (max_words == 0)
        max_words = 1;
    if (m->epoch < m->p.epochs) {
        /* the sentences of this step: whole sentences until max_words, within this epoch */
        size_t s1 = m->sentence;
        uint64_t words = 0;
        while (s1 < c->n_sent && words < max_words) {
            words += c->sent[s1 + 1] - c->sent[s1];
            s1++;
        }
        int T = m->p.threads;
        if ((size_t)T > s1 - m->sentence)
            T = (int)(s1 - m->sentence);
        if (T < 1)
            T = 1;
        job jobs[64];
        pthread_t tid[64];
        size_t per = (s1 - m->sentence) / (size_t)T;
        uint64_t before = m->words_done;
        for (int i = 0; i < T; i++) {
            size_t a = m->sentence + per * (size_t)i;
            size_t b = i == T - 1 ? s1 : a + per;
            jobs[i] = (job){.m = m, .s0 = a, .s1 = b, .words_before = before};
            for (size_t s = a; s < b; s++)
                before += c->sent[s + 1] - c->sent[s];
            /* thread 0 carries the model's generator; the others derive theirs per step */
            jobs[i].rng = i == 0 ? m->rng : rng_mix(m->rng + (uint64_t)i * 0x9E3779B97F4A7C15ULL);
        }
        int started = 0;
        for (int i = 1; i < T; i++) {
            if (pthread_create(&tid[i], NULL, run_job, &jobs[i]) != 0) {
                st = TF_ERR_NOMEM;
                break;
            }
            started = i;
        }
        if (st == TF_OK)
            run_job(&jobs[0]);
        for (int i = 1; i <= started; i++)
            pthread_join(tid[i], NULL);
        m->rng = jobs[0].rng;
        for (int i = 0; i < T; i++) {
            if (jobs[i].st != TF_OK)
                st = jobs[i].st;
            loss += jobs[i].loss;
            pairs += jobs[i].pairs;
            m->words_done += jobs[i].words;
        }
        m->sentence = s1;
        if (m->sentence >= c->n_sent) {
            m->sentence = 0;
            m->epoch++;
        }
        center_vectors(m);
    }
    m->steps++;
    pr->epoch = m->epoch;
    pr->words_done = m->words_done;
    pr->words_total = (uint64_t)m->p.epochs * c->n_tok;
    pr->steps = m->steps;
    pr->alpha = alpha_at(m, m->words_done);
    pr->loss = pairs ? loss / (double)pairs : 0;
    pr->pairs = pairs;
    pr->done = m->epoch >= m->p.epochs;
    return st;
}

tf_status w2v_train(w2v_model *m, uint64_t step_words, w2v_callback cb, void *user)
{
    w2v_progress pr;
    do {
        tf_status st = w2v_step(m, step_words, &pr);
        if (st != TF_OK)
            return st;
        if (cb && !cb(&pr, user))
            break;
    } while (!pr.done);
    return TF_OK;
}
