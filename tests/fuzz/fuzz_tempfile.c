/* fuzz_tempfile.c — the atomic file writer under random names, contents and sequences of commit,
 * abort and the signal clean-up.
 *
 * Input: a name (its length and bytes), then operations. A model remembers what the target
 * should hold. Properties after every operation: the target holds exactly the last committed
 * bytes (or does not exist); nothing else is left in the folder (no temporary file); a path that
 * cannot be written (a missing folder, a directory, a name too long) fails with TF_ERR_IO and
 * leaves nothing. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/tempfile.h"
#include "fuzz_check.h"

static char dir[64];

static void remove_dir(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[PATH_MAX];
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
    }
    if (d)
        closedir(d);
    rmdir(dir);
}

static void make_dir(void)
{
    if (dir[0])
        return;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%.40s/tfviz-fuzz-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(dir) != NULL, "mkdtemp: %s", strerror(errno));
    atexit(remove_dir);
}

/* Entries of the folder other than . and ..; *only names the one entry when there is one. */
static int entries(char *only, size_t cap)
{
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL, "opendir");
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n++ == 0)
            snprintf(only, cap, "%s", e->d_name);
    }
    closedir(d);
    return n;
}

static void check_state(const char *path, const char *name, const uint8_t *want, size_t want_len,
                        int exists)
{
    char only[NAME_MAX + 1];
    int n = entries(only, sizeof only);
    if (!exists) {
        FUZZ_CHECK(n == 0, "%d entries left, first '%s'", n, only);
        return;
    }
    FUZZ_CHECK(n == 1 && strcmp(only, name) == 0, "%d entries, first '%s'", n, only);
    FILE *f = fopen(path, "rb");
    FUZZ_CHECK(f != NULL, "target missing");
    uint8_t *got = malloc(want_len + 1);
    size_t got_len = fread(got, 1, want_len + 1, f);
    fclose(f);
    FUZZ_CHECK(got_len == want_len && memcmp(got, want, want_len) == 0,
               "target holds %zu bytes, want %zu", got_len, want_len);
    free(got);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    make_dir();
    if (size < 2)
        return 0;
    /* 1. the name: 1..300 bytes from an alphabet with no '/' and no NUL */
    static const char alpha[] = "abcXYZ019._-~ \t\xe4\xbd\xa0\xff";
    size_t name_len = 1 + (data[0] | (size_t)(data[1] & 1) << 8) % 300;
    char name[301];
    for (size_t i = 0; i < name_len; i++)
        name[i] = alpha[(i + 2 < size ? data[i + 2] : i) % (sizeof alpha - 1)];
    name[name_len] = '\0';
    size_t i = 2 + name_len;
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int is_dir = !strcmp(name, ".") || !strcmp(name, "..");
    int too_long = name_len > NAME_MAX;

    /* 2. operations on the model */
    const uint8_t *want = NULL;
    size_t want_len = 0;
    int exists = 0;
    while (i < size) {
        unsigned op = data[i++] % 4;
        size_t chunk = i < size ? data[i++] : 0;
        if (chunk > size - i)
            chunk = size - i;
        const uint8_t *bytes = data + i;
        i += chunk;
        tempfile f;
        if (op == 3) { /* a folder that does not exist */
            char bad[600];
            snprintf(bad, sizeof bad, "%s/missing/%s", dir, name);
            FUZZ_CHECK(tempfile_open(&f, bad) == TF_ERR_IO, "opened under a missing folder");
            continue;
        }
        tf_status st = tempfile_open(&f, path);
        if (is_dir || too_long) {
            FUZZ_CHECK(st == TF_ERR_IO, "opened '%s' (status %d)", name, st);
            continue;
        }
        FUZZ_CHECK(st == TF_OK, "cannot open '%s': %s", name, strerror(errno));
        FUZZ_CHECK(fwrite(bytes, 1, chunk, f.fp) == chunk, "short write");
        if (op == 0) {
            FUZZ_CHECK(tempfile_commit(&f) == TF_OK, "commit: %s", strerror(errno));
            want = bytes, want_len = chunk, exists = 1;
        } else {
            if (op == 2)
                tempfile_signal_cleanup(); /* as the SIGINT handler does, then the abort */
            tempfile_abort(&f);
        }
        FUZZ_CHECK(f.fp == NULL && f.tmp_path == NULL, "handle not released");
        check_state(path, name, want, want_len, exists);
    }
    if (!is_dir)
        unlink(path);
    check_state(path, name, NULL, 0, 0);
    return 0;
}
