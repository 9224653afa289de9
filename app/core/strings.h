/* strings.h — every sentence tfviz shows in Chinese and English: one table, one language switch.
 *
 * The table has sections with their own rules (tests/test_strings.c checks them):
 *   - the terminal (the explorer, its messages, the lesson's frame): both languages take the
 *     same printf conversions, and no East-Asian-ambiguous character appears (CJK terminals
 *     draw them two columns wide);
 *   - figures: pango markup and any character (Greek letters, minus signs), same conversions;
 *   - glosses: printed reports (--print, --train) are English with a short Chinese gloss in
 *     them; the English entry is a printf format that says where the gloss goes ("{zh}", once),
 *     the Chinese one is plain text.
 * The lesson's steps are the lesson's own text (core/lesson_text.c); the model's English status
 * sentences (tf_status_str) get their Chinese here. */
#ifndef TF_STRINGS_H
#define TF_STRINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/strings_en.h" /* generated: T_NAME_EN, the English literal of each entry */
#include "order_task.h"
#include "status.h"

typedef enum {
    /* tabs */
    T_TAB_EMBED, T_TAB_PE, T_TAB_FREQ, T_TAB_REL, T_TAB_INPUT, T_TAB_ORDER, T_TAB_ROPE,
    T_TAB_LEARNED, T_TAB_SCHEMES, T_TAB_TRAIN,
    /* short tab names, for a tab bar that does not fit (chrome.c) */
    T_TABS_REL, T_TABS_LEARNED, T_TABS_SCHEMES, T_TABS_TRAIN,
    /* captions */
    T_CAP_EMBED, T_CAP_PE, T_CAP_FREQ, T_CAP_REL, T_CAP_INPUT, T_CAP_ORDER, T_CAP_ROPE,
    T_CAP_LEARNED, T_CAP_SCHEMES, T_CAP_TRAIN,
    /* view keys */
    T_KEYS_EMBED, T_KEYS_PE, T_KEYS_FREQ, T_KEYS_REL, T_KEYS_INPUT, T_KEYS_ORDER, T_KEYS_ROPE,
    T_KEYS_LEARNED, T_KEYS_SCHEMES, T_KEYS_TRAIN,
    /* frame */
    T_HINT, T_TOO_SMALL, T_COMPUTING, T_ASCII_NOTICE, T_EDIT_PROMPT, T_EDIT_HINT, T_EXPORTED,
    T_HELP_TITLE, T_HELP_CLOSE, T_HELP_GLOBAL, T_LANG_NOW, T_BAD_TEXT, T_DMODEL_NOW,
    T_POSITIONS_NOW, T_BASE_NOW, T_INDEX_NOW, T_SCALE_ON, T_SCALE_OFF, T_PAIRING_NOW,
    T_NO_FIGURE, T_ST_TOKENIZER, T_ST_POSFROM,
    /* view 1 */
    T_E_TOKENS, T_E_ONEHOT, T_E_ONEHOT_UNK, T_E_ROW, T_E_SIZE, T_E_MEM, T_E_CHECK_NONE, T_E_CHECK,
    T_E_PIPE, T_E_MEM_SET, T_E_ROW_SET, T_E_ROW_RANDOM, T_I_TRAINED, T_E_LEGEND,
    T_E_NO_ENGLISH,
    /* view 2 */
    T_P_AXES, T_P_SAMPLED, T_P_WINDOW, T_P_ROWS, T_P_SPLIT, T_P_SPLIT_S, T_P_WINDOW_SPLIT,
    /* view 3 */
    T_F_WAVELEN, T_F_WAVES, T_F_CLOCKS, 
    /* view 4 */
    T_R_GRAM, T_R_NEAREST, T_R_SAME, T_R_UNIQUE, T_R_MK, T_R_COLS, T_R_MAXRES, T_R_COMPUTING,
    T_R_MAXRES_WAIT, T_R_FITTED, T_R_BLOCKS, T_R_BLOCKS_S, T_R_UNIQUE_S,
    T_WORKING, /* %d %ld: d_model, n; a screen whose numbers a worker computes */
    T_WORKING_S, /* %d %ld: T_WORKING's shorter form for a narrow screen */
    /* view 5 */
    T_I_EMB, T_I_PE, T_I_SUM, T_I_NORMS, T_I_SCALED, T_I_UNSCALED, T_I_BALANCE, T_I_POS0,
    T_I_POS1, T_I_QKV, T_E_ARTICLE,
    /* view 6 */
    T_O_B, T_O_MODE0, T_O_MODE1, T_O_MODE2, T_O_DIFF, T_O_TOKEN, T_O_MAX, T_O_POOLED,
    T_O_PLAIN, T_O_SHOWN, T_O_OMITTED, T_O_ONE, T_O_HEAD, T_O_SHARE,
    T_O_LONG0, T_O_LONG1, T_O_LONG2, T_O_EDIT_PROMPT, T_O_EDIT_HINT, T_O_HEAD_S, T_O_B_DEFAULT, T_O_B_BAD,
    T_O_B_RESET, T_O_LEARNED, T_O_ALIBI, T_O_T5, T_O_SCHEMES, T_O_ALIBI_SYM,
    T_O_B_ALIGNED, T_O_B_OWN, T_O_QUERY, T_O_KEY, T_O_MAP_A, T_O_MAP_B, T_O_MAP_BOWN, T_O_MAP_D,
    T_O_RD_SAME, T_O_RD_SAME_S, T_O_RD_DIFF, T_O_RD_DIFF_S, T_O_BAR_ATTN, T_O_BAR_DIFF,
    T_O_SHOW_OWN, T_O_SHOW_ALIGNED, T_O_A_S, T_O_MAP_D_S, T_O_RD_DIFF_XS,
    /* view 7 */
    T_R7_PLANE, T_R7_ANGLE, T_R7_SCORE, T_R7_DECAY, T_R7_CHECK, 
    /* view 8 */
    T_L_FAILED, T_L_RUNNING, T_L_PAUSED, T_L_DONE, T_L_RESET, T_L_SPEED, T_L_PROGRESS,
    T_L_LOSS_NONE, T_L_LOSS, T_L_COS, T_L_MAP, T_L_MAPVAR, T_L_NEIGH, T_L_APPLIED,
    T_L_DONE_HINT, T_L_DONE_HINT_S, T_L_DONE_LESSON, T_L_BAND, T_L_DRIFT, T_L_VERDICT_START,
    T_L_ABOVE,
    T_L_INSIDE, T_L_BELOW,
    /* view 9 */
    T_S9_NONE, T_S9_SIN, T_S9_LEARNED, T_S9_ROPE, T_S9_ALIBI, T_S9_T5, T_S9_PAST_NONE,
    T_S9_PAST_SIN, T_S9_PAST_LEARNED, T_S9_PAST_ROPE, T_S9_PAST_ALIBI, T_S9_PAST_T5,
    T_S9_PAST_ROPE_L, T_S9_PAST_ROPE_PLAIN, T_S9_RANDOM, T_S9_MATRIX, T_S9_MASKED, T_S9_CURVE,
    /* view 10 */
    T_TR_FAILED, T_TR_RUNNING, T_TR_PAUSED, T_TR_DONE, T_TR_STEPPING, T_TR_STATE, T_TR_STATE_S, T_TR_PER_FRAME,
    T_TR_GENERATED, T_TR_ACC, T_TR_LOSS, T_TR_EPOCHS, T_TR_SCHEME, T_TR_SAME, T_TR_SAME_S,
    T_TR_NO_PAIR, T_TR_RIGHT, T_TR_WRONG, T_TR_HEAD, T_TR_ATTN, T_TR_WHY, T_TR_WHY_S,
    T_TR_WHY_NONE, T_TR_RESET, T_TR_RESET_PAUSED, T_TR_SPEED, T_TR_SPEED_MAX, T_TR_STEP, T_TR_EXAMPLE, T_TR_EXAMPLE_S,
    T_TR_UNTRAINED, T_TR_ACC_LINE, T_TR_CLASS_NOT, T_TR_CLASS_THREE, T_TR_CLASS_SIGN, T_TR_CLASS_LONG,
    T_TR_CLASS_SAME, T_TR_CLASS_ROLES, T_TR_CLASS_NO_VERB, T_TR_CLASS, T_TR_CLASS_S,
    /* the explorer's messages */
    T_M_BAD_TEXT,        /* %s: %s  (T_BAD_TEXT, the reason) */
    T_M_VECTORS_DROPPED, /* %d %d  d_model now, the trained vectors' dimension */
    T_M_FILE_DROPPED,    /* %d %d  d_model now, the --vectors file's dimension */
    T_M_MAP_UNTRAINED,   /* view 8: nothing trained yet */
    T_M_TEXT_CUT,        /* %d  the byte limit */
    /* g: the figure inside the terminal */
    T_PIC_NONE,          /* %s  why not (one of T_PIC_WHY_*) */
    T_PIC_WHY_TMUX, T_PIC_WHY_NOT_TTY, T_PIC_WHY_DUMB, T_PIC_WHY_SILENT, T_PIC_WHY_NO_CELL,
    T_PIC_WHY_NO_PICTURES, T_PIC_WHY_FORCED_NONE, T_PIC_WHY_BAD_FORCE, T_PIC_WHY_NO_CHAFA,
    T_PIC_WHY_NO_COLOR, T_PIC_WHY_ASCII, T_PIC_WHY_OTHER,
    T_PIC_ON,            /* %s  the mode (kitty, sixel, ...) */
    T_PIC_OFF, T_PIC_DRAWING, T_PIC_NO_FIGURE, T_PIC_LESSON,
    T_PIC_FAILED,        /* %s  why */
    /* the lesson's frame */
    T_LESSON_HEADER, T_LESSON_TRY, T_LESSON_END, T_LESSON_BYTES_HEAD,
    T_LESSON_BYTES_NOTE, T_LESSON_PE_CELL, T_LESSON_PE_TABLE,
    T_LESSON_HELP_TITLE, /* the ? overlay: the lesson's keys, then the step's own */
    T_LESSON_HELP_STEP,
    /* the lesson as slides (figures/deck.c) */
    T_DECK_LIVE,         /* the first slide: the command of the live lesson follows */
    T_DECK_NUMBERS,      /* a slide's --print command follows */
    T_DECK_ALL_NUMBERS,  /* %s  the last slide: the --print topics of every slide */
    T_DECK_TOKENS_HEAD,  /* step 2's table: its two rows' names, '|' between them */
    T_DECK_ONEHOT_TITLE, /* %u  V */
    T_DECK_ONEHOT_X,
    /* the lesson's keys (core/lesson_keys.c): for each key its names ('|' between them), a
     * word or two for the key line, a sentence for the ? help and the docs */
    T_LK_NEXT_KEYS, T_LK_NEXT, T_LK_NEXT_HELP, T_LK_BACK_KEYS, T_LK_BACK, T_LK_BACK_HELP,
    T_LK_LANG_KEYS, T_LK_LANG, T_LK_LANG_HELP, T_LK_EDIT_KEYS, T_LK_EDIT, T_LK_EDIT_HELP,
    T_LK_HELP_KEYS, T_LK_HELP, T_LK_HELP_HELP, T_LK_QUIT_KEYS, T_LK_QUIT, T_LK_QUIT_HELP,
    T_LK_NOTE,
    /* view 9's curve: what it plots, by poscurve_quantity (bias, similarity, score) */
    T_S9_Q_BIAS, T_S9_Q_SIMILARITY, T_S9_Q_SCORE,
    /* shorter forms for narrow panels (issue 15: no label cut) */
    T_S9_MATRIX_S, T_E_ONEHOT_S, T_E_ROW_S, T_P_SAMPLED_S, T_F_WAVELEN_S, T_F_WAVES_S, T_I_POS0_S,
    T_I_POS1_S, T_I_QKV_S, T_I_BALANCE_S, T_L_PROGRESS_S, T_L_LOSS_S, T_L_MAP_S, T_L_MAPVAR_S,
    T_L_NEIGH_S, T_L_BAND_S, T_TR_ACC_S, T_S9_CURVE_S, T_R7_PLANE_S, T_R7_ANGLE_S, T_R7_SCORE_S,
    T_R7_DECAY_S, T_R7_CHECK_S, T_L_VERDICT_START_S, T_L_DRIFT_S,
    T_CAP_EMBED_S, T_CAP_PE_S, T_CAP_FREQ_S, T_CAP_REL_S, T_CAP_INPUT_S,
    T_CAP_ORDER_S, T_CAP_ROPE_S, T_CAP_LEARNED_S, T_CAP_SCHEMES_S, T_CAP_TRAIN_S,
    T_S9_NONE_S, T_S9_SIN_S, T_S9_LEARNED_S, T_S9_ROPE_S, T_S9_ALIBI_S, T_S9_T5_S,
    T_TERMINAL_END, /* the end of the terminal's section */

    /* figures: titles, then axis and legend labels */
    T_F_TITLE_PE = T_TERMINAL_END, T_F_TITLE_ROPE, T_F_TITLE_DECAY, T_F_TITLE_FREQ,
    T_F_TITLE_DOT, T_F_TITLE_INPUT, T_F_TITLE_ORDER, T_F_TITLE_EMBEDDING, T_F_TITLE_MAP,
    T_F_TITLE_SCHEMES, T_F_TITLE_PEFILE,
    T_F_DIM, T_F_POS, T_F_POS_P, T_F_POS_Q, T_F_POS_M, T_F_WAVELENGTH, T_F_PAIR_DIMS,
    T_F_FREQ_WAVE, T_F_BASE, T_F_REL_DIST, T_F_DECAY_BOUND, T_F_PAIR, T_F_DIMS_HALF,
    T_F_DIMS_INTERLEAVED, T_F_ROTATION, T_F_ROPE_PAIR0, T_F_PE_POS, T_F_VALUE, T_F_TOKEN,
    T_F_TOKEN_ID, T_F_PC1, T_F_PC2, T_F_MAP_TITLE, T_F_EMB_TRAINED, T_F_EMB_RANDOM,
    T_F_NO_POS, T_F_WITH_PE, T_F_ATTN_WEIGHT, T_F_TOKEN_A, T_F_MAX_DIFF, T_F_MAX_DIFF_S, T_F_MODE_ZERO,
    T_F_O_NOTE0, T_F_O_NOTE1, T_F_O_NOTE2, T_F_O_READ0, T_F_O_READ1, T_F_O_READ2, T_F_O_READ3, T_F_O_READ4,
    T_F_O_ROW_A, T_F_O_ROW_B, T_F_O_ROW_BOWN, T_F_O_ROW_D, T_F_O_KEY, T_F_O_B_ALIGNED,
    T_F_O_B_OWN, T_F_O_DIFF_BAR,
    T_F_TITLE_DOT_OFFSET, T_F_TITLE_ROPE_SCORE, T_F_OFFSET_K, T_F_DOT_OFFSET, T_F_SCORE,
    T_F_SCORE_TOKEN, T_F_OWN_SCALE, T_F_DIM_SPLIT, T_F_DIM_SPLIT_S, T_F_TITLE_ROPE_QK, T_F_QK_Q, T_F_QK_K,
    T_F_TITLE_PE_VS_ROPE, T_F_PVR_PE, T_F_PVR_ROPE,
    T_F_S_LEARNED, T_F_S_ROPE, T_F_S_ALIBI, T_F_S_T5,
    /* the animations: titles, then rope-rotation, pe-waves and training */
    T_F_TITLE_ROPE_ROT, T_F_TITLE_PE_WAVES, T_F_TITLE_TRAINING,
    T_F_RR_PLANE,   /* %s %.1f %s %.1f  token of q, m, token of k, n */
    T_F_RR_DIM_A, T_F_RR_DIM_B, T_F_RR_ANGLES, T_F_RR_ANGLE, T_F_RR_ANGLE_Q, T_F_RR_ANGLE_K,
    T_F_RR_ANGLE_D,
    T_F_RR_SHIFT,   /* %ld %ld  the first positions m and n */
    T_F_RR_SCORE,   /* %d %.3f  pairs, the score */
    T_F_RR_BOTH, T_F_RR_QONLY, /* the score's legend: both shifted, q alone shifted */
    T_F_PW_WAVES,
    T_F_PW_ROW,     /* %.1f  the position */
    T_F_AVG_COLS, T_F_AVG_CELLS, T_F_AVG_SHORT, T_F_SAME_CURVE, T_F_PW_SIN, T_F_PW_COS,
    T_F_TR_MAP,     /* %zu %.0f  words, percent of the run */
    T_F_TR_CONTROL,
    T_F_TR_START,   /* %d  epochs */
    T_F_TR_LOSS,    /* %.2f */
    T_F_TR_DONE, T_F_TR_COS,
    T_F_TITLE_ORDER_TRAINING, T_F_HELD_OUT, T_F_EPOCH, T_F_TRAIN_LOSS, T_F_CHANCE, T_F_CHANCE_S, T_F_TRAIN_NOTE,
    T_F_TRAIN_NOTE_S,
    T_FIGURES_END, /* the end of the figures' section */

    /* glosses of the printed reports (--print text, --train, the progress bar) */
    T_G_WRITING = T_FIGURES_END, T_G_TRAINING, T_G_LEFT, T_G_CUT_CHARS,
    T_G_SPLIT, T_G_FALLBACK, T_G_NO_ENGLISH, T_G_UNK, T_G_PARTIAL, T_G_ROWS_SET, T_G_SIMILARITY,
    T_G_REPORT, T_G_R_TOKENS, T_G_R_EMBEDDING, T_G_R_PE, T_G_R_FREQ, T_G_R_RELATIVE, T_G_R_INPUT,
    T_G_R_ORDER, T_G_R_ROPE, T_G_R_SKIPPED,
    T_G_SGNS, T_G_COS_TRAINED, T_G_CONTROL, T_G_NEIGHBOURS, T_G_BAND, T_G_NEIGHBOURS_OF, T_G_PCA,
    T_G_STEPS, T_G_ORDER_TITLE, T_G_ORDER_EPOCHS, T_G_ORDER_FINAL, T_G_ORDER_WHY,
    T_G_ORDER_NO_PAIRS, T_G_CLASS_PAIR, T_G_CLASS_SAME, T_G_CLASS_RIGHT, T_G_CLASS_WRONG,
    T_G_NO_FORMAT,       /* %s %s %s  the topic, the formats it writes, the one asked for */
    T_G_NOT_HERE,        /* %s %s %s  the option, where it applies, the run's modes */
    T_GLOSSES_END, /* the end of the glosses */
    T_COUNT = T_GLOSSES_END
} txt_id;

/* The string for id in the current language (never NULL), as text (never as a format: txtf). */
const char *txt(txt_id id);
/* The entry in one language, NULL for an id outside the table (for tests). */
const char *txt_lang(txt_id id, bool chinese);
void txt_set_zh(bool on);
bool txt_is_zh(void);

/* ---- formats: checked by the compiler in both languages ------------------------------------
 * Each function returns entry id as a printf format and takes en, id's English literal
 * (T_NAME_EN from the generated core/strings_en.h). format_arg tells the compiler that the result
 * takes en's conversions, as gettext's _() does, so printf-like calls are checked against the
 * English; tests/test_strings.c checks that the Chinese takes the same conversions. The macros
 * below name only the id: txtf(T_X) wherever a format is expected. */
const char *txt_format(txt_id id, const char *en) __attribute__((format_arg(2)));
const char *txt_format_lang(txt_id id, bool chinese, const char *en)
    __attribute__((format_arg(3)));
/* A gloss's format: the English entry with "{zh}" replaced by the Chinese (in a buffer of the
 * calling thread's, valid until its next call). */
const char *txt_gloss_f(txt_id id, const char *en) __attribute__((format_arg(2)));
#define txtf(id) txt_format(id, id##_EN)
#define txtf_lang(id, chinese) txt_format_lang(id, chinese, id##_EN)
/* snprintf with the entry as the format. */
#define txt_fmt(buf, cap, id, ...) snprintf(buf, cap, txt_format(id, id##_EN), ##__VA_ARGS__)
/* The same in a given language. */
#define txt_fmt_lang(buf, cap, id, chinese, ...)                                               \
    snprintf(buf, cap, txt_format_lang(id, chinese, id##_EN), ##__VA_ARGS__)
/* A gloss written to fp with the arguments. */
#define txt_gloss(fp, id, ...) fprintf(fp, txt_gloss_f(id, id##_EN), ##__VA_ARGS__)
/* The same into buf (cap bytes, snprintf). */
#define txt_gloss_fmt(buf, cap, id, ...) snprintf(buf, cap, txt_gloss_f(id, id##_EN), ##__VA_ARGS__)
/* The gloss's format itself into buf (cap bytes). */
const char *txt_gloss_format(char *buf, size_t cap, txt_id id);
/* A tf_status as a sentence in Chinese or English (the model's own, tf_status_str). */
const char *txt_status_lang(tf_status s, bool chinese);
/* The same in the current language. */
const char *txt_status(tf_status s);
/* What is wrong with a line of an order task file, in Chinese or English (order_problem_str). */
const char *txt_order_problem_lang(order_problem p, bool chinese);

#endif
