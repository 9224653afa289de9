/* test_term_detect.c — the choice of picture protocol from a terminal's replies (as bytes, with
 * replies split, reordered, mixed with keystrokes and cut short), and the cases decided before
 * any query: forced modes, no terminal, multiplexers. term_image_test.py drives the whole
 * detection through a pseudo-terminal; term_detect_drain reads late replies away on one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "term_detect.h"

static term_detect_result decide(const char *const *env, const char *bytes, int cw, int ch)
{
    term_detect_result r;
    memset(&r, 0, sizeof r);
    term_graphics_decide(env, bytes, (int)strlen(bytes), cw, ch, &r);
    return r;
}

static const char *const no_env[] = {NULL};

static void test_kitty(void **state)
{
    (void)state;
    term_detect_result r = decide(no_env, "\033_Gi=31;OK\033\\\033[6;18;9t\033[?62;c", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_KITTY);
    assert_true(r.kitty && r.answered && !r.sixel);
    assert_int_equal(r.caps.cell_w, 9);
    assert_int_equal(r.caps.cell_h, 18);
    /* kitty knows the protocol but refuses this format: not taken */
    r = decide(no_env, "\033_Gi=31;ENOTSUPPORTED:no\033\\\033[?62;c", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    assert_false(r.kitty);
    /* another image's reply is not ours */
    r = decide(no_env, "\033_Gi=5;OK\033\\\033[?62;c", 0, 0);
    assert_false(r.kitty);
    /* OK without the DA1 reply that closes the answers: none (the reply came too late) */
    r = decide(no_env, "\033_Gi=31;OK\033\\", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    assert_false(r.answered);
}

static void test_sixel(void **state)
{
    (void)state;
    const char *xterm = "\033P>|XTerm(379)\033\\\033[6;20;10t\033[?63;1;2;4;6;9;15;22c";
    term_detect_result r = decide(no_env, xterm, 0, 0);
    assert_int_equal(r.caps.mode, TIMG_SIXEL);
    assert_true(r.sixel);
    assert_string_equal(r.version, "XTerm(379)");
    assert_int_equal(r.caps.cell_w, 10);
    assert_int_equal(r.caps.cell_h, 20);
    assert_int_equal(r.reason, TDET_ANSWERED);
    /* the window's pixel size (TIOCGWINSZ) wins over the reply */
    r = decide(no_env, xterm, 8, 16);
    assert_int_equal(r.caps.cell_w, 8);
    /* sixel without a cell size: a picture could spill over the rows below */
    r = decide(no_env, "\033[?63;1;2;4c", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    assert_true(r.sixel);
    assert_int_equal(r.reason, TDET_NO_CELL_SIZE);
    /* 4 as part of another number is not sixel: 14, 42 */
    r = decide(no_env, "\033[6;20;10t\033[?64;14;42c", 0, 0);
    assert_false(r.sixel);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    assert_int_equal(r.reason, TDET_NO_PICTURES);
    /* absurd cell sizes are ignored */
    r = decide(no_env, "\033[6;0;10t\033[?62;4c", 0, 0);
    assert_int_equal(r.caps.cell_h, 0);
    r = decide(no_env, "\033[6;99999;10t\033[?62;4c", 0, 0);
    assert_int_equal(r.caps.cell_h, 0);
}

static void test_iterm(void **state)
{
    (void)state;
    term_detect_result r = decide(no_env, "\033P>|iTerm2 3.5.0\033\\\033[?62;4c", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_ITERM);
    const char *const env[] = {"TERM_PROGRAM=iTerm.app", NULL};
    r = decide(env, "\033[?62;c", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_ITERM);
    const char *const env2[] = {"LC_TERMINAL=iTerm2", NULL};
    r = decide(env2, "\033[?62;c", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_ITERM);
    /* the environment alone, with no answer (over ssh, in a multiplexer): none */
    r = decide(env, "", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    /* a name that merely resembles */
    const char *const env3[] = {"TERM_PROGRAM=iTerm.apple", "TERM_PROGRAMX=iTerm.app", NULL};
    r = decide(env3, "\033[?62;c", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_NONE);
}

static void test_noise(void **state)
{
    (void)state;
    /* keystrokes typed before the replies, and a control character in the version */
    term_detect_result r =
        decide(no_env, "ab\033[A\033P>|x\001y\033\\q\033[?62;4c\033[6;18;9t", 0, 0);
    assert_true(r.answered && r.sixel);
    assert_string_equal(r.version, "xy");
    assert_int_equal(r.caps.cell_w, 9);
    /* a reply cut in the middle */
    r = decide(no_env, "\033[?62;4", 0, 0);
    assert_false(r.answered);
    r = decide(no_env, "\033_Gi=31;O", 0, 0);
    assert_false(r.kitty);
    /* nothing at all */
    r = decide(no_env, "", 0, 0);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    assert_non_null(r.why);
    assert_int_equal(r.reason, TDET_SILENT);
    /* a long version is cut, not overflowed */
    char big[400] = "\033P>|";
    memset(big + 4, 'v', 300);
    strcpy(big + 304, "\033\\\033[?1;2c");
    r = decide(no_env, big, 0, 0);
    assert_int_equal(strlen(r.version), sizeof r.version - 1);
    /* forced: the replies fill in the cell size, the mode stays */
    memset(&r, 0, sizeof r);
    r.forced = true;
    r.caps.mode = TIMG_SIXEL;
    const char *reply = "\033[6;14;7t\033[?1;2c";
    term_graphics_decide(no_env, reply, (int)strlen(reply), 0, 0, &r);
    assert_int_equal(r.caps.mode, TIMG_SIXEL);
    assert_int_equal(r.caps.cell_w, 7);
}

/* Decided before any query: nothing is written to a descriptor that is no terminal. */
static void test_before_asking(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    term_detect_result r;
    const char *const plain[] = {"TERM=xterm-kitty", "KITTY_WINDOW_ID=1", NULL};
    assert_int_equal(term_graphics_detect(plain, fds[0], fds[1], 50, &r), TF_OK);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    assert_false(r.asked);
    assert_string_equal(r.why, "not a terminal");
    assert_int_equal(r.reason, TDET_NOT_TTY);

    const char *const forced[] = {"TFVIZ_GRAPHICS=kitty", NULL};
    assert_int_equal(term_graphics_detect(forced, fds[0], fds[1], 50, &r), TF_OK);
    assert_int_equal(r.caps.mode, TIMG_KITTY);
    assert_true(r.forced);
    assert_false(r.asked);
    assert_int_equal(r.reason, TDET_FORCED);

    const char *const sym[] = {"TFVIZ_GRAPHICS=symbols", "COLORTERM=24bit", NULL};
    assert_int_equal(term_graphics_detect(sym, -1, -1, 50, &r), TF_OK);
    assert_int_equal(r.caps.mode, TIMG_SYMBOLS);
    assert_true(r.caps.truecolor);

    const char *const bad[] = {"TFVIZ_GRAPHICS=png", NULL};
    assert_int_equal(term_graphics_detect(bad, fds[0], fds[1], 50, &r), TF_ERR_RANGE);
    assert_int_equal(r.caps.mode, TIMG_NONE);
    assert_non_null(strstr(r.why, "kitty, sixel, iterm, symbols or none"));
    assert_int_equal(r.reason, TDET_BAD_FORCE);

    /* an empty TFVIZ_GRAPHICS is as if unset */
    const char *const empty[] = {"TFVIZ_GRAPHICS=", NULL};
    assert_int_equal(term_graphics_detect(empty, fds[0], fds[1], 50, &r), TF_OK);
    assert_false(r.forced);
    /* nothing was written to the pipe */
    close(fds[1]);
    char c;
    assert_int_equal(read(fds[0], &c, 1), 0);
    close(fds[0]);
}

/* Late replies are read away up to the device attributes' reply and no further; the modes stay. */
static void test_drain(void **state)
{
    (void)state;
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    assert_true(m >= 0);
    assert_int_equal(grantpt(m), 0);
    assert_int_equal(unlockpt(m), 0);
    int s = open(ptsname(m), O_RDWR | O_NOCTTY);
    assert_true(s >= 0);
    struct termios before, after;
    assert_int_equal(tcgetattr(s, &before), 0);
    const char late[] = "\033[?62;4;22c";
    assert_int_equal(write(m, late, sizeof late - 1), (ssize_t)(sizeof late - 1));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    term_detect_drain(s, 2000);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    assert_true(ms < 1000); /* it stopped at the reply's end, not at the timeout */
    struct pollfd p = {.fd = s, .events = POLLIN};
    assert_int_equal(poll(&p, 1, 50), 0); /* nothing left for the program to read */
    assert_int_equal(tcgetattr(s, &after), 0);
    assert_int_equal(after.c_lflag, before.c_lflag);
    /* no reply at all: it waits the time it was given, no longer */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    term_detect_drain(s, 120);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    assert_true(ms >= 100 && ms < 1000);
    /* not a terminal: nothing happens */
    term_detect_drain(-1, 100);
    close(s);
    close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kitty),         cmocka_unit_test(test_sixel),
        cmocka_unit_test(test_iterm),         cmocka_unit_test(test_noise),
        cmocka_unit_test(test_before_asking), cmocka_unit_test(test_drain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
