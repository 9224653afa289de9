/* tui_text.h — every string the explorer shows, in Chinese and English (one table). */
#ifndef TF_TUI_TEXT_H
#define TF_TUI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    /* tabs */
    T_TAB_EMBED, T_TAB_PE, T_TAB_FREQ, T_TAB_REL, T_TAB_INPUT, T_TAB_ORDER, T_TAB_ROPE,
    T_TAB_LEARNED,
    /* captions */
    T_CAP_EMBED, T_CAP_PE, T_CAP_FREQ, T_CAP_REL, T_CAP_INPUT, T_CAP_ORDER, T_CAP_ROPE,
    T_CAP_LEARNED,
    /* view keys */
    T_KEYS_EMBED, T_KEYS_PE, T_KEYS_FREQ, T_KEYS_REL, T_KEYS_INPUT, T_KEYS_ORDER, T_KEYS_ROPE,
    T_KEYS_LEARNED,
    /* frame */
    T_HINT, T_TOO_SMALL, T_COMPUTING, T_ASCII_NOTICE, T_EDIT_PROMPT, T_EDIT_HINT, T_EXPORTED,
    T_HELP_TITLE, T_HELP_CLOSE, T_HELP_GLOBAL, T_LANG_NOW, T_BAD_TEXT, T_DMODEL_NOW,
    T_POSITIONS_NOW, T_BASE_NOW, T_INDEX_NOW, T_SCALE_ON, T_SCALE_OFF, T_PAIRING_NOW,
    T_NO_FIGURE, T_ST_TOKENIZER, T_ST_POSFROM,
    /* view 1 */
    T_E_TOKENS, T_E_ONEHOT, T_E_ONEHOT_UNK, T_E_ROW, T_E_SIZE, T_E_MEM, T_E_CHECK_NONE, T_E_CHECK,
    T_E_PIPE, T_E_MEM_SET, T_E_ROW_SET, T_E_ROW_RANDOM, T_I_TRAINED, T_E_LEGEND, T_E_NO_ENGLISH,
    /* view 2 */
    T_P_AXES, T_P_ZOOM, 
    /* view 3 */
    T_F_WAVELEN, T_F_WAVES, T_F_CLOCKS, 
    /* view 4 */
    T_R_GRAM, T_R_NEAREST, T_R_SAME, T_R_UNIQUE, T_R_MK, T_R_COLS, T_R_MAXRES,
    /* view 5 */
    T_I_EMB, T_I_PE, T_I_SUM, T_I_NORMS, T_I_SCALED, T_I_UNSCALED, T_I_BALANCE,
    /* view 6 */
    T_O_A, T_O_B, T_O_MODE0, T_O_MODE1, T_O_MODE2, T_O_DIFF, T_O_TOKEN, T_O_MAX, T_O_POOLED,
    T_O_PLAIN, T_O_ATTN, T_O_ATTN_NUM, T_O_SHOWN, T_O_OMITTED, T_O_ONE, T_O_HEAD, T_O_SHARE,
    T_O_SAME, T_O_SAME_S, T_O_DIFFERS, T_O_DIFFERS_S, T_O_LONG0, T_O_LONG1, T_O_LONG2,
    T_O_WEIGHT_S, T_O_EDIT_PROMPT, T_O_EDIT_HINT, T_O_HEAD_S, T_O_B_DEFAULT, T_O_B_BAD,
    T_O_B_RESET,
    /* view 7 */
    T_R7_PLANE, T_R7_ANGLE, T_R7_SCORE, T_R7_DECAY, T_R7_CHECK, 
    /* view 8 */
    T_L_FAILED, T_L_RUNNING, T_L_PAUSED, T_L_DONE, T_L_RESET, T_L_SPEED, T_L_PROGRESS,
    T_L_LOSS_NONE, T_L_LOSS, T_L_COS, T_L_MAP, T_L_MAPVAR, T_L_NEIGH, T_L_APPLIED,
    T_COUNT
} txt_id;

/* The string for id in the current language (never NULL). */
const char *txt(txt_id id);
/* The entry in one language, NULL for an id outside the table (for tests). */
const char *txt_lang(txt_id id, bool chinese);
void txt_set_zh(bool on);
bool txt_is_zh(void);
/* snprintf with the entry as the format (both languages take the same conversions). */
int txt_fmt(char *buf, size_t cap, txt_id id, ...);

#endif
