/* live.c — what views 8 and 10 share as they train a model on idle frames: set up once on first
 * use, run, pause, start again. */
#include "tui/view.h"

bool tui_live_tried(tui_live *l)
{
    if (l->ready || l->failed)
        return true;
    l->failed = true; /* until tui_live_set_up: a failure is said once and not tried again */
    return false;
}

void tui_live_set_up(tui_live *l)
{
    *l = (tui_live){.ready = true, .running = true};
}

bool tui_live_toggle(tui_live *l, bool done)
{
    if (done)
        return false;
    l->running = !l->running;
    return true;
}

void tui_live_restart(tui_live *l, bool done)
{
    l->running = l->running || done; /* a finished run starts again; a paused one stays paused */
}
