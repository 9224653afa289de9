/* bench_term_image.c — how long an inline figure takes at 1920 x 1080 pixels (a full-HD
 * projector, a terminal filling it): drawing the figure into a raster page, encoding it as
 * sixel (libchafa) and as kitty's protocol (zlib + base64, render/term_image.c), and pushing the
 * bytes through a pseudo-terminal whose far side reads as fast as it can (the least a terminal
 * must swallow). The peer is libsixel's img2sixel on the same picture as a PNG (its time
 * includes starting the program and reading the PNG, about what a notebook shelling out to it
 * pays). Also one 800 x 500 animation frame through the GIF writer.
 *
 * Prints bench/run.sh's lines: name, median, unit, min, max[, goal]; the goal of issue 20 is
 * <= 100 ms from pixels wanted to bytes ready (draw + encode). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "anim.h"
#include "sample_figure.h"
#include "tf_config.h"
#include "term_image.h"

#define W        1920
#define MAX_REPS 1000
#define H        1080

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *name, double *v, int n, const char *unit, const char *goal)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    printf("%s\t%.2f\t%s\t%.2f\t%.2f%s%s\n", name, v[n / 2], unit, v[0], v[n - 1], goal ? "\t" : "",
           goal ? goal : "");
}

/* ---- a pseudo-terminal drained by a thread: the cost of the bytes themselves ---------------- */

static void *drain(void *arg)
{
    int fd = *(int *)arg;
    char buf[65536];
    while (read(fd, buf, sizeof buf) > 0) {
    }
    return NULL;
}

static double push_through_pty(const char *bytes, size_t len)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
        return -1;
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    if (slave < 0)
        return -1;
    /* raw: no newline translation or echo on the way */
    struct termios t;
    tcgetattr(slave, &t);
    t.c_iflag &= ~(tcflag_t)(ICRNL | IXON | ISTRIP | INLCR);
    t.c_oflag &= ~(tcflag_t)OPOST;
    t.c_lflag &= ~(tcflag_t)(ECHO | ICANON | ISIG | IEXTEN);
    tcsetattr(slave, TCSANOW, &t);
    pthread_t th;
    pthread_create(&th, NULL, drain, &master);
    double t0 = now_ms();
    for (size_t done = 0; done < len;) {
        ssize_t w = write(slave, bytes + done, len - done);
        if (w <= 0 && errno != EINTR)
            break;
        if (w > 0)
            done += (size_t)w;
    }
    tcdrain(slave);
    double t1 = now_ms();
    close(slave);
    pthread_join(th, NULL);
    close(master);
    return t1 - t0;
}

/* ---- img2sixel, the peer ---------------------------------------------------------------- */

static double run_img2sixel(const char *png)
{
    double t0 = now_ms();
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        execlp("img2sixel", "img2sixel", png, (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
    double t = now_ms() - t0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t : -1;
}

int main(int argc, char **argv)
{
    int reps = getenv("BENCH_QUICK") && *getenv("BENCH_QUICK") ? 5 : 15;
    if (argc > 2 && strcmp(argv[1], "--reps") == 0)
        reps = atoi(argv[2]);
    if (reps < 1 || reps > MAX_REPS)
        reps = 15;
    static double draw[MAX_REPS], sixel[MAX_REPS], kitty[MAX_REPS], tot_s[MAX_REPS],
        tot_k[MAX_REPS], pty_s[MAX_REPS], pty_k[MAX_REPS], peer[MAX_REPS], gif[MAX_REPS];
    timg_caps sc = {.mode = TIMG_SIXEL, .cell_w = 10, .cell_h = 20};
    timg_caps kc = {.mode = TIMG_KITTY, .cell_w = 10, .cell_h = 20};
    int cols = W / 10, rows = H / 20;
    size_t sixel_bytes = 0, kitty_bytes = 0;
    char png[] = "/tmp/tfviz-bench-XXXXXX"; /* img2sixel reads the format from the bytes */
    int pfd = mkstemp(png);
    bool have_peer = false;

    /* one untimed round: fonts loaded, caches warm, as in the explorer after its first figure */
    fig_raster r;
    if (sample_raster(W, H, 0, &r) != TF_OK) {
        fprintf(stderr, "bench_term_image: cannot draw the sample\n");
        return 1;
    }
    if (pfd >= 0) {
        FILE *fp = fdopen(pfd, "wb");
        fig_meta m = {0};
        have_peer =
            fp && fig_png_write(fp, &r, &m) == TF_OK && fclose(fp) == 0 && run_img2sixel(png) >= 0;
    }
    fig_raster_free(&r);

    for (int i = 0; i < reps; i++) {
        double t0 = now_ms();
        if (sample_raster(W, H, 0.01 * i, &r) != TF_OK)
            return 1;
        double t1 = now_ms();
        timg_pixels px = {.data = r.data,
                          .width = r.width,
                          .height = r.height,
                          .stride = r.stride,
                          .format = TIMG_ARGB32};
        term_image si = {0}, ki;
        tf_status st = term_image_supports(TIMG_SIXEL)
                           ? term_image_encode(&sc, &px, cols, rows, 0, &si)
                           : TF_ERR_UNSUPPORTED;
        double t2 = now_ms();
        if (term_image_encode(&kc, &px, cols, rows, 1, &ki) != TF_OK)
            return 1;
        double t3 = now_ms();
        draw[i] = t1 - t0;
        sixel[i] = t2 - t1;
        kitty[i] = t3 - t2;
        tot_s[i] = t2 - t0;
        tot_k[i] = (t1 - t0) + (t3 - t2);
        pty_s[i] = st == TF_OK ? push_through_pty(si.seq, si.len) : 0;
        pty_k[i] = push_through_pty(ki.seq, ki.len);
        sixel_bytes = si.len;
        kitty_bytes = ki.len;
        term_image_free(&si);
        term_image_free(&ki);
        fig_raster_free(&r);
        peer[i] = have_peer ? run_img2sixel(png) : 0;
        /* an 800 x 500 animation frame: draw + quantise + LZW */
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        tf_rgb pal[256];
        const cmap_id maps[] = {CMAP_RDBU};
        anim_gif_palette(maps, 1, pal);
        anim_gif *g;
        double t4 = now_ms();
        if (anim_gif_begin(m, 800, 500, 25, 0, pal, &g) == TF_OK) {
            fig_raster fr;
            if (sample_raster(800, 500, 0.25 * i, &fr) == TF_OK)
                anim_gif_frame(g, &fr);
            fig_raster_free(&fr);
            anim_gif_end(g);
        }
        gif[i] = now_ms() - t4;
        fclose(m);
        free(buf);
    }
    if (pfd >= 0)
        unlink(png);

    report("inline_draw_1920x1080", draw, reps, "ms", NULL);
    if (term_image_supports(TIMG_SIXEL)) {
        report("inline_sixel_encode_1920x1080", sixel, reps, "ms", NULL);
        report("inline_sixel_total_1920x1080", tot_s, reps, "ms", "<=100");
        report("inline_sixel_pty_1920x1080", pty_s, reps, "ms", NULL);
        printf("inline_sixel_bytes_1920x1080\t%zu\tbytes\n", sixel_bytes);
    }
    report("inline_kitty_encode_1920x1080", kitty, reps, "ms", NULL);
    report("inline_kitty_total_1920x1080", tot_k, reps, "ms", "<=100");
    report("inline_kitty_pty_1920x1080", pty_k, reps, "ms", NULL);
    printf("inline_kitty_bytes_1920x1080\t%zu\tbytes\n", kitty_bytes);
    if (have_peer) {
        report("img2sixel_1920x1080", peer, reps, "ms", NULL);
        if (term_image_supports(TIMG_SIXEL))
            printf("ratio\tsixel: img2sixel (PNG in, process) vs draw + encode\t"
                   "img2sixel_1920x1080\tinline_sixel_total_1920x1080\t\n");
    } else {
        printf("# img2sixel (libsixel-bin) not installed: no peer for the sixel encoder\n");
    }
    if (anim_gif_available())
        report("gif_frame_800x500", gif, reps, "ms", NULL);
    fig_release_fonts();
    return 0;
}
