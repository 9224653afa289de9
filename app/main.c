/* main.c — tfviz: how a Transformer turns a sentence into the matrix its first layer reads.
 *
 * The one place that knows every front-end: it tells the option table the names only they know,
 * then runs the command line (cli.c). */
#include "cli.h"
#include "core/options.h"
#include "figures/figures.h"
#include "print/print.h"

int main(int argc, char **argv)
{
    options_set_values("print", print_topics());
    options_set_values("figure", figures_names());
    options_set_values("animation", figures_animations());
    return cli_run(argc, argv);
}
