/* test_fileio.c — atomic replacement: the old file survives an abort, no temporary file is left,
 * unwritable targets fail cleanly. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fileio.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/tfviz-fileio-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int count_entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.' || strstr(e->d_name, ".tmp-") != NULL;
    closedir(d);
    return n;
}

static void read_back(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static void test_commit_and_abort(void **state)
{
    (void)state;
    char path[128], buf[64];
    snprintf(path, sizeof path, "%s/out.txt", dir);
    tf_atomic_file f;
    assert_int_equal(atomic_open(&f, path), TF_OK);
    fputs("first", f.fp);
    assert_int_equal(atomic_commit(&f), TF_OK);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "first");

    assert_int_equal(atomic_open(&f, path), TF_OK);
    fputs("partial", f.fp);
    atomic_abort(&f);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "first"); /* the old file is intact */
    assert_int_equal(count_entries(), 1); /* and no temporary file is left */

    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644);
    unlink(path);
}

static void test_bad_targets(void **state)
{
    (void)state;
    tf_atomic_file f;
    char path[128];
    snprintf(path, sizeof path, "%s/missing/out.txt", dir);
    assert_int_equal(atomic_open(&f, path), TF_ERR_IO);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(atomic_open(&f, dir), TF_ERR_IO); /* a directory */
    assert_int_equal(errno, EISDIR);
    assert_int_equal(count_entries(), 0);
}

static int teardown(void **state)
{
    (void)state;
    return rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_commit_and_abort),
        cmocka_unit_test(test_bad_targets),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
