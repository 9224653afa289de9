/* fuzz_pefile.c — a position table's tensor name, as a .safetensors file gives it, through
 * everything that shows it: --print pe as text (the text report's section too) and JSON,
 * --print schemes as JSON, and the pe-file figure's legend.
 *
 * Input: the name (the reader gives names as valid UTF-8: other input is left out). It is
 * written into a 2 x 2 float32 .safetensors table here (a JSON string: \uXXXX for controls),
 * read back with learned_pe_load_mem, and shown. Properties: the table reads with that very
 * name; text and JSON are terminal-safe and the JSON valid; the figure draws (any Pango warning,
 * such as markup parsed from the name, aborts); fig_markup_text's label parses as Pango markup,
 * fits its buffer, and reads back as a prefix of the name (or all of it) and "…". */
#include <glib.h>
#include <pango/pango.h>

#include "analysis.h"
#include "figure.h"
#include "figures/figures.h"
#include "fuzz_check.h"
#include "learned_pe.h"
#include "print/print.h"

/* A .safetensors file of one 2 x 2 float32 tensor called name[0..len) into out (cap bytes):
 * its length, 0 when it does not fit. */
static size_t make_file(const char *name, size_t len, uint8_t *out, size_t cap)
{
    char *h = (char *)out + 8;
    size_t room = cap - 8 - 16, o = 0;
    o += (size_t)snprintf(h, room, "{\"");
    for (size_t i = 0; i < len && o + 8 < room; i++) {
        unsigned char c = (unsigned char)name[i];
        if (c < 0x20 || c == '"' || c == '\\')
            o += (size_t)snprintf(h + o, room - o, "\\u%04x", c);
        else
            h[o++] = (char)c;
    }
    int k = snprintf(h + o, room - o,
                     "\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,16]}}");
    if (k < 0 || o + (size_t)k >= room)
        return 0;
    o += (size_t)k;
    for (int b = 0; b < 8; b++)
        out[b] = (uint8_t)(o >> (8 * b));
    static const float v[4] = {1.0f, 0.5f, -0.25f, 2.0f};
    memcpy(out + 8 + o, v, sizeof v);
    return 8 + o + sizeof v;
}

/* --print what in format f: terminal-safe, and valid JSON when it is JSON. */
static void check_print(tf_analysis *a, const char *what, out_format f)
{
    tf_options o;
    options_defaults(&o);
    o.print_what = what;
    o.format = f;
    print_request req = {.opt = &o, .a = a};
    if (print_check(&req, &a->cfg))
        return;
    char *out = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&out, &n);
    if (!m)
        return;
    tf_status st = print_write(&req, m);
    fclose(m);
    FUZZ_CHECK(st == TF_OK, "%s format %d: status %d", what, f, st);
    FUZZ_CHECK(terminal_safe(out, n, 1), "%s: unsafe output:\n%.*s", what, (int)n, out);
    FUZZ_CHECK(f != FMT_JSON || json_valid(out, n), "%s: invalid JSON", what);
    free(out);
}

/* The legend's text: markup Pango parses, within its buffer, the name's start and "…". */
static void check_label(const char *name)
{
    char label[112];
    size_t n = fig_markup_text(label, sizeof label, name, 40);
    FUZZ_CHECK(n < sizeof label && strlen(label) == n, "label length %zu", n);
    char *text = NULL;
    GError *err = NULL;
    FUZZ_CHECK(pango_parse_markup(label, -1, 0, NULL, &text, NULL, &err), "markup: %s",
               err ? err->message : "?");
    size_t tl = strlen(text), nl = strlen(name);
    bool whole = strcmp(text, name) == 0;
    bool cut = tl >= 3 && strcmp(text + tl - 3, "\xe2\x80\xa6") == 0 &&
               strncmp(text, name, tl - 3) == 0 && tl - 3 < nl;
    FUZZ_CHECK(whole || cut, "label '%s' of '%s'", text, name);
    g_free(text);
}

/* Every GLib message (pango logs through the structured writer): a warning or worse fails. */
static GLogWriterOutput fatal_warnings(GLogLevelFlags level, const GLogField *fields,
                                       gsize n_fields, gpointer user_data)
{
    GLogWriterOutput r = g_log_writer_standard_streams(level, fields, n_fields, user_data);
    FUZZ_CHECK(!(level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING)),
               "a GLib warning (above)");
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool once;
    if (!once) { /* a Pango warning (markup it could not parse) is a failure */
        g_log_set_writer_func(fatal_warnings, NULL, NULL);
        once = true;
    }
    const char *name = (const char *)data;
    if (size == 0 || size > 4096 || memchr(data, 0, size) ||
        utf8_validate(name, size, NULL) != TF_OK)
        return 0;
    static uint8_t file[8 + 6 * 4096 + 128];
    size_t len = make_file(name, size, file, sizeof file);
    tf_learned_pe t;
    tensor_diag dg;
    if (len == 0 || learned_pe_load_mem(&t, file, len, NULL, &dg) != TF_OK)
        return 0;
    FUZZ_CHECK(t.name && strlen(t.name) == size && memcmp(t.name, name, size) == 0,
               "the table's name is not the file's");
    check_label(t.name);

    tf_positions p;
    positions_defaults(&p);
    p.list[0] = SCHEME_LEARNED, p.n = 1, p.table = &t;
    tf_config c;
    config_defaults(&c);
    c.d_model = 2, c.n_positions = 2, c.positions = &p;
    tf_analysis a;
    if (analysis_run(&c, "ab", 2, &a, NULL) == TF_OK) {
        check_print(&a, "pe", FMT_TEXT);
        check_print(&a, "pe", FMT_JSON);
        check_print(&a, "schemes", FMT_JSON);
        fig_request req = {.name = "pe-file"};
        fig_raster r;
        char why[200];
        if (figures_raster(&req, &a, 700, 900, 20, &r, why, sizeof why) == TF_OK)
            fig_raster_free(&r);
        analysis_free(&a);
    }
    learned_pe_free(&t);
    return 0;
}
