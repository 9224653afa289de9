/* cli.h — one run of tfviz from its command line. */
#ifndef TF_CLI_H
#define TF_CLI_H

/* Parse argv, run the chosen mode, return the process exit status: 0 success, 1 an I/O
 * failure, 2 bad input or usage. The front-ends' lists of names (--print's topics, --figure's
 * figures) must be handed to core/options first (main does). */
int cli_run(int argc, char **argv);

#endif
