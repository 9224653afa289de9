/* outfile.c — atomic output files and their messages. */
#include "core/outfile.h"

#include <errno.h>
#include <string.h>

#include "core/err.h"

/* Why a write failed, in words a user can act on. */
static const char *why(int e)
{
    if (e == EFBIG) /* SIGXFSZ is handled (core/signals.h): the write fails with EFBIG instead */
        return "the file would pass the file size limit (ulimit -f)";
    return strerror(e);
}

int outfile_open(outfile *o, const char *path, const char *hint)
{
    o->path = path;
    o->fp = stdout;
    o->kept = NULL;
    if (!path)
        return 0;
    if (!*path) { /* refused before anything is made (a temporary file named "..tmp-*") */
        err_say("the output file name is empty; choose a writable path %s.", hint);
        return 1;
    }
    if (tempfile_open(&o->af, path) != TF_OK) {
        err_say("cannot write %s: %s; choose a writable path %s.", path, strerror(errno), hint);
        return 1;
    }
    o->fp = o->af.fp;
    return 0;
}

int outfile_close(outfile *o, tf_status st)
{
    int e = errno ? errno : EIO; /* the writer's failure, before anything else sets errno */
    if (!o->path) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            err_say("writing the output failed: %s.", why(errno));
            return 1;
        }
        return 0;
    }
    if (st != TF_OK) {
        tempfile_abort(&o->af);
        if (st != TF_ERR_IO)
            return 0;
        err_say("cannot write %s: %s; %s.", o->path, why(e),
                o->kept ? o->kept : "nothing was changed there");
        return 1;
    }
    if (tempfile_commit(&o->af) != TF_OK) {
        err_say("cannot write %s: %s; %s.", o->path, why(errno),
                o->kept ? o->kept : "nothing was changed there");
        return 1;
    }
    return 0;
}
