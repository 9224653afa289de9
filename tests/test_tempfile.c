/* test_tempfile.c — atomic replacement: the old file survives an abort, no temporary file is left,
 * unwritable targets fail cleanly, links are never followed to choose where to write, and no
 * set-user-ID bit is copied. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "core/tempfile.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/tfviz-tempfile-XXXXXX");
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
    tempfile f;
    assert_int_equal(tempfile_open(&f, path), TF_OK);
    fputs("first", f.fp);
    assert_int_equal(tempfile_commit(&f), TF_OK);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "first");

    assert_int_equal(tempfile_open(&f, path), TF_OK);
    fputs("partial", f.fp);
    tempfile_abort(&f);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "first"); /* the old file is intact */
    assert_int_equal(count_entries(), 1); /* and no temporary file is left */

    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0644);
    unlink(path);
}

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static void write_atomically(const char *path, const char *text)
{
    tempfile f;
    assert_int_equal(tempfile_open(&f, path), TF_OK);
    fputs(text, f.fp);
    assert_int_equal(tempfile_commit(&f), TF_OK);
}

/* A symbolic link is never followed to choose where to write: the link itself is replaced by
 * the new file (as sed -i does), and the file it named is untouched; a dangling link is
 * replaced too, and nothing is created where it pointed. */
static void test_symlink_replaced(void **state)
{
    (void)state;
    char target[128], link[128], later[128], dangling[128], buf[64];
    snprintf(target, sizeof target, "%s/victim.txt", dir);
    snprintf(link, sizeof link, "%s/link.txt", dir);
    snprintf(later, sizeof later, "%s/later.txt", dir);
    snprintf(dangling, sizeof dangling, "%s/dangling.txt", dir);
    write_file(target, "old");
    assert_int_equal(chmod(target, 0600), 0);
    assert_int_equal(symlink("victim.txt", link), 0);
    assert_int_equal(symlink("later.txt", dangling), 0);

    write_atomically(link, "new");
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    read_back(link, buf, sizeof buf);
    assert_string_equal(buf, "new");
    read_back(target, buf, sizeof buf);
    assert_string_equal(buf, "old"); /* what the link named is untouched */
    assert_int_equal(stat(target, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0600);

    write_atomically(dangling, "created");
    assert_int_equal(lstat(dangling, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    assert_int_equal(lstat(later, &sb), -1); /* nothing made where the link pointed */
    assert_int_equal(count_entries(), 3);    /* three files, no temporary file */
    unlink(link), unlink(dangling), unlink(target);
}

/* The new file keeps the permission bits of the file it replaces but never its set-user-ID,
 * set-group-ID or sticky bits; a hard link to the old file keeps the old contents. */
static void test_mode_and_hard_links(void **state)
{
    (void)state;
    char path[128], other[128], buf[64];
    snprintf(path, sizeof path, "%s/tool", dir);
    snprintf(other, sizeof other, "%s/tool-hardlink", dir);
    write_file(path, "old");
    assert_int_equal(chmod(path, 07755), 0);
    assert_int_equal(link(path, other), 0);
    write_atomically(path, "new");
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0755);
    assert_int_equal(sb.st_nlink, 1);
    read_back(path, buf, sizeof buf);
    assert_string_equal(buf, "new");
    read_back(other, buf, sizeof buf);
    assert_string_equal(buf, "old");
    assert_int_equal(stat(other, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 07755); /* the other name's file is as it was */
    unlink(path), unlink(other);
}

/* A link to a device is written through open(): the device gets the bytes, the link stays. */
static void test_link_to_device(void **state)
{
    (void)state;
    char link[128];
    snprintf(link, sizeof link, "%s/null", dir);
    assert_int_equal(symlink("/dev/null", link), 0);
    write_atomically(link, "gone");
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(count_entries(), 1);
    unlink(link);
}

static void test_bad_targets(void **state)
{
    (void)state;
    tempfile f;
    char path[128];
    snprintf(path, sizeof path, "%s/missing/out.txt", dir);
    assert_int_equal(tempfile_open(&f, path), TF_ERR_IO);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(tempfile_open(&f, dir), TF_ERR_IO); /* a directory */
    assert_int_equal(errno, EISDIR);
    snprintf(path, sizeof path, "%s/to-dir", dir);
    assert_int_equal(symlink(".", path), 0); /* a link to a directory */
    assert_int_equal(tempfile_open(&f, path), TF_ERR_IO);
    assert_int_equal(errno, EISDIR);
    unlink(path);
    assert_int_equal(tempfile_open(&f, ""), TF_ERR_IO);
    assert_int_equal(errno, ENOENT);
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
        cmocka_unit_test(test_symlink_replaced),
        cmocka_unit_test(test_mode_and_hard_links),
        cmocka_unit_test(test_link_to_device),
        cmocka_unit_test(test_bad_targets),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
