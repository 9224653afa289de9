/* anim_frames.c — an animation as numbered PNG frames in a folder, for any video tool
 * (ffmpeg -framerate 25 -i frame_%04d.png ...): their names, and the frames of an earlier run
 * past the last removed; anim.h says how the caller writes each. */
#include "anim.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct anim_dir {
    char *path; /* dir/frame_NNNN.png, the last one written or tried */
    size_t path_cap;
    long frames;
    char dir[]; /* then path's room */
};

tf_status anim_dir_begin(const char *dir, anim_dir **out)
{
    *out = NULL;
    struct stat sb;
    if ((mkdir(dir, 0777) != 0 && errno != EEXIST) || stat(dir, &sb) != 0) /* "": ENOENT */
        return TF_ERR_IO;
    if (!S_ISDIR(sb.st_mode)) {
        errno = ENOTDIR;
        return TF_ERR_IO;
    }
    size_t n = strlen(dir), cap = n + sizeof "/frame_0000.png";
    anim_dir *d = calloc(1, sizeof *d + n + 1 + cap);
    if (!d)
        return TF_ERR_NOMEM;
    memcpy(d->dir, dir, n + 1);
    d->path = d->dir + n + 1;
    d->path_cap = cap;
    /* "out/" and "out" name the same folder */
    while (n > 1 && d->dir[n - 1] == '/')
        d->dir[--n] = '\0';
    *out = d;
    return TF_OK;
}

const char *anim_dir_next(anim_dir *d)
{
    if (d->frames >= ANIM_MAX_FRAMES)
        return NULL;
    snprintf(d->path, d->path_cap, "%s/frame_%04ld.png", d->dir, d->frames + 1);
    return d->path;
}

void anim_dir_written(anim_dir *d)
{
    d->frames++;
}

/* The number N of a name "frame_NNNN.png" (exactly four digits), 0 for any other name. */
static long frame_number(const char *name)
{
    bool ok = strlen(name) == 14 && strncmp(name, "frame_", 6) == 0 &&
              strspn(name + 6, "0123456789") == 4 && strcmp(name + 10, ".png") == 0;
    return ok ? strtol(name + 6, NULL, 10) : 0;
}

tf_status anim_dir_end(anim_dir *d)
{
    DIR *dp = d->frames ? opendir(d->dir) : NULL; /* no frame: nothing removed */
    tf_status st = !d->frames ? TF_ERR_RANGE : dp ? TF_OK : TF_ERR_IO;
    for (struct dirent *e; dp && (e = readdir(dp));) {
        if (frame_number(e->d_name) <= d->frames)
            continue;
        snprintf(d->path, d->path_cap, "%s/%s", d->dir, e->d_name);
        if (unlink(d->path) != 0)
            st = TF_ERR_IO;
    }
    if (dp)
        closedir(dp);
    anim_dir_free(d);
    return st;
}

void anim_dir_free(anim_dir *d)
{
    free(d);
}
