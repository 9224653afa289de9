/* docs_main.c — tfviz-options-docs: what the option table writes besides --help, on standard
 * output. `tfviz-options-docs man` gives the man page's OPTIONS section, `bash` and `zsh` the
 * completions, `modes` where each option applies, `lesson-keys` the lesson's key table of README.md and the docs,
 * `lesson-keys-man` the man page's.
 * scripts/options_docs.py puts them into docs/tfviz.1, completions/ and the Markdown files (meson
 * compile -C build options-docs) or checks that they are there (the doc-options test).
 * `figures` writes the table of figures (figures_list), which the gallery script and the tests
 * read: no list of figures is kept anywhere else. */
#include <stdio.h>
#include <string.h>

#include "core/lesson_keys.h"
#include "core/options.h"
#include "figures/figures.h"
#include "print/print.h"

int main(int argc, char **argv)
{
    options_set_values("print", print_topics());
    options_set_values("figure", figures_names());
    options_set_values("animation", figures_animations());
    const char *what = argc == 2 ? argv[1] : "";
    if (strcmp(what, "man") == 0)
        options_man(stdout);
    else if (strcmp(what, "bash") == 0)
        options_bash(stdout);
    else if (strcmp(what, "zsh") == 0)
        options_zsh(stdout);
    else if (strcmp(what, "modes") == 0)
        options_modes_list(stdout);
    else if (strcmp(what, "lesson-keys") == 0)
        lesson_keys_markdown(stdout);
    else if (strcmp(what, "lesson-keys-man") == 0)
        lesson_keys_man(stdout);
    else if (strcmp(what, "figures") == 0)
        figures_list(stdout);
    else {
        fputs("usage: tfviz-options-docs man|bash|zsh|modes|lesson-keys|lesson-keys-man|figures\n",
              stderr);
        return 2;
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
