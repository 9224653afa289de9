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

/* A symbolic link is written through: the file it names is replaced (or created, for a link to
 * a file not there yet), and the link stays a link. */
static void test_symlink_written_through(void **state)
{
    (void)state;
    char target[128], link[128], later[128], dangling[128], buf[64];
    snprintf(target, sizeof target, "%s/paper.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(later, sizeof later, "%s/later.txt", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.txt", dir);
    FILE *fp = fopen(target, "w");
    assert_non_null(fp);
    fputs("old", fp);
    fclose(fp);
    assert_int_equal(symlink("paper.txt", link), 0);
    assert_int_equal(symlink("later.txt", dangling), 0);

    tf_atomic_file f;
    assert_int_equal(atomic_open(&f, link), TF_OK);
    fputs("new", f.fp);
    assert_int_equal(atomic_commit(&f), TF_OK);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    read_back(target, buf, sizeof buf);
    assert_string_equal(buf, "new");

    assert_int_equal(atomic_open(&f, dangling), TF_OK);
    fputs("created", f.fp);
    assert_int_equal(atomic_commit(&f), TF_OK);
    assert_int_equal(lstat(dangling, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    read_back(later, buf, sizeof buf);
    assert_string_equal(buf, "created");
    assert_int_equal(count_entries(), 4); /* two files, two links, no temporary file */
    unlink(link), unlink(dangling), unlink(target), unlink(later);
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
        cmocka_unit_test(test_symlink_written_through),
        cmocka_unit_test(test_bad_targets),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
