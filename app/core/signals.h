/* signals.h — every signal whose default action ends tfviz leaves nothing behind: the temporary
 * file of an output being written is removed and the terminal is restored, then tfviz ends by
 * that signal (a shell shows 128 + its number).
 *
 * The signals are those POSIX and Linux give the "terminate" or "core" action: HUP INT QUIT ILL
 * TRAP ABRT BUS FPE USR1 SEGV USR2 PIPE ALRM TERM STKFLT XCPU VTALRM PROF IO PWR SYS and the
 * real-time signals. SIGKILL cannot be caught; SIGSTOP, SIGTSTP, SIGTTIN and SIGTTOU stop
 * rather than end (curses restores the terminal for those itself).
 *
 * - A signal the parent had set to be ignored (nohup, a service manager) stays ignored.
 * - SIGXFSZ (a write past the file size limit, ulimit -f) does not end tfviz: the write fails
 *   with EFBIG and the output's own error path says "file too large" and keeps the old file.
 * - A crash signal (SEGV, BUS, FPE, ILL, TRAP, ABRT, SYS) is passed on to the handler that was
 *   there before (a sanitizer's report) after the clean-up.
 * - While a front-end defers (the explorer's loop), the other signals are only recorded: the
 *   loop sees signals_pending(), ends and restores the terminal the normal way. A second signal
 *   while one is pending acts at once. */
#ifndef TF_SIGNALS_H
#define TF_SIGNALS_H

#include <stdbool.h>

/* Install the handlers (once, before anything is written). */
void signals_init(void);
/* fn (async-signal-safe: tcsetattr, write) restores the terminal before a signal ends tfviz;
 * NULL: nothing to restore. */
void signals_on_fatal(void (*fn)(void));
/* Defer the signals that ask tfviz to stop (true) or act on them at once (false). */
void signals_defer(bool on);
/* The deferred signal received (0: none). */
int signals_pending(void);

#endif
