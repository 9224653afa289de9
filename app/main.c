/* main.c — tfviz: how a Transformer turns a sentence into the matrix its first layer reads. */
#include "cli.h"

int main(int argc, char **argv) { return cli_run(argc, argv); }
