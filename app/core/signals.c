/* signals.c — the clean-up before a signal ends tfviz (temporary file, terminal), in one place. */
#include "core/signals.h"

#include <signal.h>
#include <string.h>

#include "core/tempfile.h"

#define MAX_SIGNAL 65 /* above SIGRTMAX on Linux */

static struct sigaction before[MAX_SIGNAL]; /* what each handled signal did before */
static volatile sig_atomic_t deferring, pending;
static void (*volatile restore_fn)(void);

/* The signals that report a fault of this process rather than ask it to stop. */
static bool crash_signal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGTRAP ||
           sig == SIGABRT || sig == SIGSYS;
}

/* Everything that must not outlive tfviz: async-signal-safe calls only. */
static void clean_up(void)
{
    void (*fn)(void) = restore_fn;
    if (fn)
        fn();
    tempfile_signal_cleanup();
}

static void on_file_size(int sig)
{
    (void)sig; /* the write that passed the limit fails with EFBIG: the writer says so */
}

static void on_signal(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    if (deferring && !crash_signal(sig) && !pending) {
        pending = sig;
        return;
    }
    clean_up();
    /* end the way the signal would have ended tfviz: by the handler that was there before (a
     * sanitizer's, for a crash), else the default action */
    struct sigaction prev = before[sig];
    if (prev.sa_handler == SIG_IGN || !crash_signal(sig))
        prev.sa_handler = SIG_DFL, prev.sa_flags = 0;
    sigaction(sig, &prev, NULL);
    /* a fault raised by the processor happens again when the handler returns, now with the
     * previous handler; a signal sent by kill() or raise() is sent again */
    if (crash_signal(sig) && info && info->si_code > 0)
        return;
    sigset_t self;
    sigemptyset(&self);
    sigaddset(&self, sig);
    sigprocmask(SIG_UNBLOCK, &self, NULL);
    raise(sig);
}

void signals_init(void)
{
    static const int plain[] = {SIGHUP,  SIGINT,    SIGQUIT, SIGILL,  SIGTRAP,   SIGABRT,
                                SIGBUS,  SIGFPE,    SIGUSR1, SIGSEGV, SIGUSR2,   SIGPIPE,
                                SIGALRM, SIGTERM,   SIGXCPU, SIGVTALRM, SIGPROF, SIGIO,
                                SIGSYS,
#ifdef SIGSTKFLT
                                SIGSTKFLT,
#endif
#ifdef SIGPWR
                                SIGPWR,
#endif
    };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigfillset(&sa.sa_mask); /* one clean-up at a time */
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: a deferred signal wakes the explorer's wait */
    for (size_t i = 0; i < sizeof plain / sizeof plain[0] + (size_t)(SIGRTMAX - SIGRTMIN + 1);
         i++) {
        int sig = i < sizeof plain / sizeof plain[0]
                      ? plain[i]
                      : SIGRTMIN + (int)(i - sizeof plain / sizeof plain[0]);
        if (sig <= 0 || sig >= MAX_SIGNAL || sigaction(sig, NULL, &before[sig]) != 0)
            continue;
        if (before[sig].sa_handler == SIG_IGN)
            continue; /* ignored by whoever started tfviz (nohup): it stays ignored */
        sigaction(sig, &sa, NULL);
    }
    struct sigaction fsz;
    if (sigaction(SIGXFSZ, NULL, &fsz) == 0 && fsz.sa_handler != SIG_IGN) {
        memset(&fsz, 0, sizeof fsz);
        sigemptyset(&fsz.sa_mask);
        fsz.sa_handler = on_file_size;
        sigaction(SIGXFSZ, &fsz, NULL);
    }
}

void signals_on_fatal(void (*fn)(void)) { restore_fn = fn; }

void signals_defer(bool on)
{
    deferring = on;
    if (!on)
        pending = 0;
}

int signals_pending(void) { return pending; }
