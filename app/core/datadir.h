/* datadir.h — where the generated data files (dictionary, BPE tables) are. */
#ifndef TF_DATADIR_H
#define TF_DATADIR_H

/* The directory to read them from, in this order:
 *   1. $TFVIZ_DATA_DIR, when set and not empty;
 *   2. <dir of the executable>/../assets, when it exists (the uninstalled build tree);
 *   3. <dir of the executable>/../share/tfviz, when it exists (an installed or staged tree);
 *   4. the configured data directory (<prefix>/share/tfviz).
 * The string is static; never NULL. */
const char *datadir_get(void);

#endif
