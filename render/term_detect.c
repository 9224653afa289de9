/* term_detect.c — asking the terminal which pictures it shows (see term_detect.h for the
 * rules). The queries and their replies are plain VT escape sequences; no library involved. */
#include "term_detect.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

/* kitty's graphics query (a 1 x 1 RGB image, queried, not stored), XTVERSION, XTWINOPS 16 (the
 * cell size) and DA1 last: terminals answer in order, so DA1's reply means all replies are in. */
static const char queries[] = "\033_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\033\\"
                              "\033[>0q"
                              "\033[16t"
                              "\033[c";

static const char *env_get(const char *const *envp, const char *name)
{
    size_t n = strlen(name);
    for (const char *const *e = envp; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Reading the replies */

/* The payload of the first string control sequence that starts with intro (ESC _ G, ESC P >|)
 * and ends with ST (ESC \) or BEL, as [*start, *end); false when there is none complete. */
static bool find_string_seq(const char *b, int len, const char *intro, int *start, int *end)
{
    int il = (int)strlen(intro);
    for (int i = 0; i + il <= len; i++) {
        if (memcmp(b + i, intro, (size_t)il) != 0)
            continue;
        for (int j = i + il; j < len; j++) {
            if (b[j] == '\a' || (b[j] == '\033' && j + 1 < len && b[j + 1] == '\\')) {
                *start = i + il;
                *end = j;
                return true;
            }
        }
        return false;
    }
    return false;
}

/* A CSI reply "ESC [ <lead> p1;p2;... <final>" (lead "?" for DA1, "" for XTWINOPS): its
 * numbers (at most max, the rest ignored) and their count, -1 when there is no such reply. */
static int find_csi(const char *b, int len, const char *lead, char final, long *nums, int max)
{
    int ll = (int)strlen(lead);
    for (int i = 0; i + 2 + ll <= len; i++) {
        if (b[i] != '\033' || b[i + 1] != '[' || memcmp(b + i + 2, lead, (size_t)ll) != 0)
            continue;
        int j = i + 2 + ll, n = 0;
        long v = 0;
        bool digits = false;
        for (; j < len; j++) {
            char c = b[j];
            if (c >= '0' && c <= '9') {
                if (v < 100000000)
                    v = v * 10 + (c - '0');
                digits = true;
            } else if (c == ';' || c == final) {
                if (digits && n < max)
                    nums[n++] = v;
                v = 0;
                digits = false;
                if (c == final)
                    return n;
            } else {
                break; /* another sequence (DA1's lead '?' against XTWINOPS's digits) */
            }
        }
    }
    return -1;
}

static bool da1_complete(const char *b, int len)
{
    long nums[32];
    return find_csi(b, len, "?", 'c', nums, 32) >= 0;
}

void term_graphics_decide(const char *const *envp, const char *bytes, int len, int cell_w,
                          int cell_h, term_detect_result *r)
{
    /* 1. what the terminal said */
    long nums[32];
    int n = find_csi(bytes, len, "?", 'c', nums, 32);
    r->answered = n >= 0;
    for (int i = 0; i < n; i++)
        if (nums[i] == 4)
            r->sixel = true;
    int s, e;
    if (find_string_seq(bytes, len, "\033_G", &s, &e)) {
        /* "i=31;OK", or "i=31;ENOTSUPPORTED:..." from a terminal that knows the protocol but
         * not this format */
        const char *semi = memchr(bytes + s, ';', (size_t)(e - s));
        r->kitty = semi && e - (int)(semi + 1 - bytes) >= 2 && memcmp(semi + 1, "OK", 2) == 0 &&
                   semi - (bytes + s) >= 4 && memcmp(bytes + s, "i=31", 4) == 0;
    }
    if (find_string_seq(bytes, len, "\033P>|", &s, &e)) {
        int k = 0;
        for (int i = s; i < e && k + 1 < (int)sizeof r->version; i++)
            if ((unsigned char)bytes[i] >= 0x20 && bytes[i] != 0x7f)
                r->version[k++] = bytes[i];
        r->version[k] = '\0';
    }
    long px[3];
    if (cell_w <= 0 || cell_h <= 0) {
        /* XTWINOPS: ESC [ 6 ; height ; width t */
        if (find_csi(bytes, len, "", 't', px, 3) == 3 && px[0] == 6 && px[1] > 0 && px[2] > 0 &&
            px[1] < 1000 && px[2] < 1000) {
            cell_h = (int)px[1];
            cell_w = (int)px[2];
        } else {
            cell_w = cell_h = 0;
        }
    }
    r->caps.cell_w = cell_w;
    r->caps.cell_h = cell_h;
    if (r->forced)
        return;

    /* 2. the choice */
    const char *tp = env_get(envp, "TERM_PROGRAM"), *lc = env_get(envp, "LC_TERMINAL");
    bool iterm = strncasecmp(r->version, "iTerm2", 6) == 0 ||
                 (tp && strcmp(tp, "iTerm.app") == 0) || (lc && strcasecmp(lc, "iTerm2") == 0);
    r->caps.mode = TIMG_NONE;
    r->reason = TDET_ANSWERED;
    if (!r->answered) {
        r->why = "the terminal did not answer its device-attributes query in time";
        r->reason = TDET_SILENT;
    } else if (r->kitty) {
        r->caps.mode = TIMG_KITTY;
        r->why = "the terminal accepted kitty's graphics query";
    } else if (iterm) {
        r->caps.mode = TIMG_ITERM;
        r->why = "the terminal is iTerm2 (its version reply or TERM_PROGRAM/LC_TERMINAL)";
    } else if (r->sixel && cell_w > 0) {
        r->caps.mode = TIMG_SIXEL;
        r->why = "the terminal lists sixel graphics in its device attributes";
    } else if (r->sixel) {
        r->why = "the terminal has sixel graphics but did not tell its cell size in pixels";
        r->reason = TDET_NO_CELL_SIZE;
    } else {
        r->why = "the terminal answered but shows no pictures";
        r->reason = TDET_NO_PICTURES;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Asking */

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static bool write_all(int fd, const char *s, size_t n)
{
    while (n) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        s += w;
        n -= (size_t)w;
    }
    return true;
}

/* Write the queries to out_fd and collect what comes back on in_fd until DA1's reply or the
 * timeout. The caller has put in_fd in non-canonical mode. Returns the bytes read, -1 when the
 * queries could not be written. */
static int ask(int in_fd, int out_fd, int timeout_ms, char *buf, int cap)
{
    if (!write_all(out_fd, queries, sizeof queries - 1))
        return -1;
    int len = 0;
    long deadline = now_ms() + timeout_ms;
    while (len < cap && !da1_complete(buf, len)) {
        long left = deadline - now_ms();
        if (left <= 0)
            break;
        struct pollfd p = {.fd = in_fd, .events = POLLIN};
        int k = poll(&p, 1, (int)left);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0 || !(p.revents & POLLIN))
            break;
        ssize_t got = read(in_fd, buf + len, (size_t)(cap - len));
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got <= 0)
            break;
        len += (int)got;
    }
    return len;
}

/* ask with input unbuffered and unechoed; signals wait until the terminal is as it was. The
 * bytes read, -1 when the queries could not be written (errno says why), -2 when the terminal's
 * modes could not be read. */
static int ask_raw(int in_fd, int out_fd, int timeout_ms, char *buf, int cap)
{
    struct termios saved, raw;
    if (tcgetattr(in_fd, &saved) != 0)
        return -2;
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    sigaddset(&block, SIGTSTP);
    sigprocmask(SIG_BLOCK, &block, &old);
    tcsetattr(in_fd, TCSANOW, &raw);
    int len = ask(in_fd, out_fd, timeout_ms, buf, cap);
    int write_errno = errno;
    tcsetattr(in_fd, TCSANOW, &saved);
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = write_errno;
    return len < 0 ? -1 : len;
}

void term_detect_drain(int in_fd, int timeout_ms)
{
    struct termios saved, raw;
    if (tcgetattr(in_fd, &saved) != 0)
        return;
    raw = saved;
    raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    raw.c_cc[VMIN] = 0;
    raw.c_cc[VTIME] = 0;
    tcsetattr(in_fd, TCSANOW, &raw);
    long deadline = now_ms() + timeout_ms;
    bool esc = false, done = false;
    for (long left; !done && (left = deadline - now_ms()) > 0;) {
        struct pollfd p = {.fd = in_fd, .events = POLLIN};
        if (poll(&p, 1, (int)left) <= 0)
            break;
        char b[256];
        ssize_t n = read(in_fd, b, sizeof b);
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n && !done; i++) {
            esc |= b[i] == '\033';
            done = esc && b[i] == 'c'; /* the device attributes' reply: the last one */
        }
    }
    tcsetattr(in_fd, TCSANOW, &saved);
}

/* tmux and GNU screen answer the queries themselves and pass pictures through only when
 * configured to (and then in their own wrapping): no pictures there unless forced. */
static bool in_multiplexer(const char *const *envp)
{
    const char *term = env_get(envp, "TERM");
    return env_get(envp, "TMUX") || env_get(envp, "STY") ||
           (term && (strncmp(term, "screen", 6) == 0 || strncmp(term, "tmux", 4) == 0));
}

tf_status term_graphics_detect(const char *const *envp, int in_fd, int out_fd, int timeout_ms,
                               term_detect_result *r)
{
    memset(r, 0, sizeof *r);
    r->caps.mode = TIMG_NONE;
    const char *ct = env_get(envp, "COLORTERM");
    r->caps.truecolor = ct && (strcasecmp(ct, "truecolor") == 0 || strcasecmp(ct, "24bit") == 0);

    /* 1. forced */
    const char *force = env_get(envp, "TFVIZ_GRAPHICS");
    if (force && *force) {
        timg_mode m = timg_mode_parse(force);
        if (m == TIMG_MODE_COUNT) {
            r->why = "TFVIZ_GRAPHICS must be kitty, sixel, iterm, symbols or none";
            r->reason = TDET_BAD_FORCE;
            return TF_ERR_RANGE;
        }
        r->forced = true;
        r->caps.mode = m;
        r->why = "TFVIZ_GRAPHICS chose it";
        r->reason = TDET_FORCED;
        if (m == TIMG_NONE || m == TIMG_SYMBOLS)
            return TF_OK;
    }

    /* 2. places pictures cannot go */
    const char *term = env_get(envp, "TERM");
    if (in_fd < 0 || out_fd < 0 || !isatty(in_fd) || !isatty(out_fd)) {
        if (!r->forced) {
            r->why = "not a terminal";
            r->reason = TDET_NOT_TTY;
        }
        return TF_OK;
    }
    if (!r->forced && (!term || !*term || strcmp(term, "dumb") == 0)) {
        r->why = "TERM is unset or dumb";
        r->reason = TDET_DUMB;
        return TF_OK;
    }
    if (!r->forced && in_multiplexer(envp)) {
        r->why = "tmux and GNU screen pass no pictures through";
        r->reason = TDET_MULTIPLEXER;
        return TF_OK;
    }

    /* 3. the window's size in pixels, where the terminal fills it in */
    int cell_w = 0, cell_h = 0;
    struct winsize ws;
    if (ioctl(out_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 0 && ws.ws_xpixel > 0 &&
        ws.ws_ypixel > 0) {
        cell_w = ws.ws_xpixel / ws.ws_col;
        cell_h = ws.ws_ypixel / ws.ws_row;
    }

    /* 4. the queries */
    char buf[1024];
    int len = ask_raw(in_fd, out_fd, timeout_ms > 0 ? timeout_ms : TERM_DETECT_TIMEOUT_MS, buf,
                      (int)sizeof buf);
    if (len == -2) {
        if (!r->forced) {
            r->why = "the terminal's modes could not be read";
            r->reason = TDET_NO_MODES;
        }
        return TF_OK;
    }
    if (len < 0) {
        if (!r->forced) {
            r->caps.mode = TIMG_NONE;
            r->why = "the queries could not be written to the terminal";
            r->reason = TDET_NO_WRITE;
        }
        return TF_ERR_IO;
    }
    r->asked = true;
    term_graphics_decide(envp, buf, len, cell_w, cell_h, r);
    return TF_OK;
}
