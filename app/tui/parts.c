/* parts.c — the costly parts of the analysis (ANALYSIS_*) as jobs of the worker (work.c).
 *
 * View 4 reads uniqueness and the all-positions M_k residual (O(n d) sines: about a second at
 * n = 10,000, d_model = 4096), view 6 the order experiment and view 7 the projections of RoPE
 * (d_model x d_model weights, a third of a second and more). Each part is one job, tagged with
 * the analysis generation: the job computes it into its own analysis of the same sentence and
 * configuration (made on the loop's thread, which costs milliseconds), or, for the relative
 * part, into its own numbers, cancelled between chunks of positions; the loop moves the result
 * into the analysis on screen when its generation is still the one shown. */
#include <math.h>
#include <stdlib.h>

#include "posenc.h"
#include "tui/view.h"

#define CHUNK 256 /* positions between two looks at the cancel flag */

typedef struct {
    unsigned part;     /* one ANALYSIS_* bit */
    tf_analysis a;     /* its own analysis: the inputs, and the part computed into it */
    tf_status st;
} parts_job;

/* One owner per part: a view that needs one part does not cancel another's result. */
static const char owners[3];

static const void *owner(unsigned part)
{
    return &owners[part == ANALYSIS_RELATIVE ? 0 : part == ANALYSIS_ROPE ? 1 : 2];
}

/* The parts that failed for analysis generation failed_gen (not asked again for it). */
static unsigned failed, failed_gen;

/* The relative part in chunks of positions: the residual's rows p, pos0 <= p < pos0 + n - k,
 * then the nearest pair. */
static bool relative(tf_analysis *a, const atomic_bool *cancel)
{
    const tf_config *c = &a->cfg;
    double worst = 0;
    long end = c->index_base + c->n_positions - c->offset;
    for (long p = c->index_base; p < end; p += CHUNK) {
        if (atomic_load(cancel))
            return false;
        long stop = p + CHUNK < end ? p + CHUNK : end;
        double r = posenc_relative_residual(p, stop - p + c->offset, c->d_model, c->base,
                                            c->offset);
        if (isnan(r))
            return false;
        worst = fmax(worst, r);
    }
    if (atomic_load(cancel))
        return false;
    a->max_residual = worst;
    a->min_distance = posenc_min_distance(c->index_base, c->n_positions, c->d_model, c->base,
                                          &a->min_pair[0], &a->min_pair[1]);
    a->done |= ANALYSIS_RELATIVE;
    return !atomic_load(cancel);
}

static bool run(void *ctx, const atomic_bool *cancel)
{
    parts_job *j = ctx;
    if (atomic_load(cancel))
        return false;
    if (j->part == ANALYSIS_RELATIVE)
        return relative(&j->a, cancel);
    tf_diag dg = {0};
    j->st = analysis_need(&j->a, j->part, &dg);
    return true; /* whole, failed or not: a failure is said once, not computed again */
}

static void release(void *ctx)
{
    parts_job *j = ctx;
    analysis_free(&j->a);
    free(j);
}

static const work_kind parts_kind = {run, release};

static uint64_t tag(const tui *t) { return t->generation; }

/* A finished job's part into the analysis on screen (or its failure into the message line). */
static void take(tui *t, unsigned part)
{
    parts_job *j = work_take(owner(part), tag(t));
    if (!j)
        return;
    if (j->st != TF_OK) {
        snprintf(t->msg, sizeof t->msg, "%s", txt_status(j->st));
        failed = failed_gen == t->generation ? failed | part : part;
        failed_gen = t->generation;
    } else {
        analysis_take_parts(t->a, &j->a, part);
    }
    release(j);
}

/* A job for part: its own analysis of the sentence under the configuration shown. */
static void submit(tui *t, unsigned part)
{
    parts_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->part = part;
    /* the relative part reads the configuration only: no analysis of the sentence for it */
    tf_status st = TF_OK;
    if (part == ANALYSIS_RELATIVE)
        j->a.cfg = t->a->cfg;
    else
        st = analysis_run(&t->cfg_shown, t->text, t->text_len, &j->a, NULL);
    if (st != TF_OK) { /* cannot happen for the analysis shown; say so rather than loop */
        free(j);
        snprintf(t->msg, sizeof t->msg, "%s", txt_status(st));
        failed |= part, failed_gen = t->generation;
        return;
    }
    work_submit(owner(part), tag(t), &parts_kind, j);
}

/* Roughly the multiply-adds (or sines) of a part: a job below QUICK_WORK is waited for, so its
 * numbers come with the key's own frame instead of a "computing" frame just before them. */
#define QUICK_WORK 5e7

static double cost(const tui *t, unsigned part)
{
    const tf_config *c = &t->a->cfg;
    double d = c->d_model, T = (double)t->a->tokens.n;
    if (part == ANALYSIS_RELATIVE)
        return 2.0 * (double)c->n_positions * d;
    return (part == ANALYSIS_ROPE ? 2 : 6) * (T + 1) * d * d; /* the projections */
}

bool parts_ensure(tui *t, unsigned needs, bool start)
{
    for (unsigned part = 1; part <= ANALYSIS_ORDER; part <<= 1) {
        if (!(needs & part) || (t->a->done & part))
            continue;
        take(t, part);
        if ((t->a->done & part) || !start || (failed_gen == t->generation && (failed & part)))
            continue;
        submit(t, part);
        if (cost(t, part) < QUICK_WORK) {
            work_wait(owner(part), tag(t), WORK_QUICK_MS);
            take(t, part);
        }
    }
    return (t->a->done & needs) == needs;
}

bool parts_pending(const tui *t, unsigned needs)
{
    for (unsigned part = 1; part <= ANALYSIS_ORDER; part <<= 1)
        if ((needs & part) && !(t->a->done & part) && work_pending(owner(part), tag(t)))
            return true;
    return false;
}

void work_say(const tui *t, WINDOW *w, int y, int x, int cols)
{
    term_attr(w, A_BOLD, 0);
    tui_fit(w, y, x, cols, T_WORKING, T_WORKING_S, t->a->cfg.d_model, t->a->cfg.n_positions);
    term_attr(w, A_NORMAL, 0);
}

void parts_working(const tui *t, unsigned needs, WINDOW *w, int y, int x, int cols)
{
    if (parts_pending(t, needs)) /* else it failed: the message line says why */
        work_say(t, w, y, x, cols);
}
