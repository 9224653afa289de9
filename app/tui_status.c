/* tui_status.c — the status line from whole fields; the analysis messages in both languages. */
#include "tui_status.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "textwidth.h"
#include "tui_text.h"
#include "utf8.h"

/* Columns of one character as term_text draws it: controls become '?', one column. */
static int char_width(uint32_t cp)
{
    if (cp < 0x20 || cp == 0x7f)
        return 1;
    return tw_codepoint(cp);
}

int tui_width(const char *s, size_t len)
{
    int cols = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, len - i, &cp);
        if (!k)
            k = 1, cp = '?'; /* an invalid byte is drawn as one '?' */
        cols += char_width(cp);
        i += k;
    }
    return cols;
}

int tui_cut(char *out, size_t cap, const char *s, size_t len, int width, const char *ell)
{
    if (!cap)
        return 0;
    out[0] = '\0';
    if (width <= 0)
        return 0;
    int total = tui_width(s, len);
    if (total <= width && len < cap) {
        memcpy(out, s, len);
        out[len] = '\0';
        return total;
    }
    int ew = ell ? tui_width(ell, strlen(ell)) : 0;
    size_t el = ell ? strlen(ell) : 0;
    if (ew > width) /* not even the ellipsis fits */
        ew = 0, el = 0;
    int room = width - ew, cols = 0;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        size_t k = utf8_decode(s + i, len - i, &cp);
        if (!k)
            k = 1, cp = '?';
        int cw = char_width(cp);
        if (cols + cw > room || i + k + el + 1 > cap)
            break;
        cols += cw;
        i += k;
    }
    memcpy(out, s, i);
    memcpy(out + i, ell ? ell : "", el);
    out[i + el] = '\0';
    return cols + ew;
}

int tui_status_compose(char *out, size_t cap, int width, const char *sentence, size_t sentence_len,
                       const char *const *fields, const int *prio, int n, int min_sentence,
                       const char *ell)
{
    static const char sep[] = " | ";
    bool keep[TUI_STATUS_FIELDS];
    int fw[TUI_STATUS_FIELDS];
    if (n > TUI_STATUS_FIELDS)
        n = TUI_STATUS_FIELDS;
    if (!cap)
        return 0;
    out[0] = '\0';
    if (width <= 2)
        return 0;
    int used = 2; /* a space at each end */
    for (int i = 0; i < n; i++) {
        fw[i] = tui_width(fields[i], strlen(fields[i]));
        keep[i] = true;
        used += 3 + fw[i];
    }
    int sw = tui_width(sentence, sentence_len);
    int smin = sw < min_sentence ? sw : min_sentence;
    /* drop whole fields, least important first, until the sentence has its minimum room */
    while (used + smin > width) {
        int worst = -1;
        for (int i = 0; i < n; i++)
            if (keep[i] && (worst < 0 || prio[i] > prio[worst]))
                worst = i;
        if (worst < 0)
            break;
        keep[worst] = false;
        used -= 3 + fw[worst];
    }
    size_t o = 0;
    int cols = 0;
    out[o++] = ' ', cols++;
    int room = width - used;
    /* with no field left the sentence opens the line; with no room for it, the fields do */
    bool any = false;
    if (room > 0 && sw > 0) {
        cols += tui_cut(out + o, cap - o, sentence, sentence_len, room, ell);
        o += strlen(out + o);
        any = true;
    }
    for (int i = 0; i < n; i++) {
        if (!keep[i])
            continue;
        const char *pre = any ? sep : "";
        size_t need = strlen(pre) + strlen(fields[i]);
        if (o + need + 2 > cap || cols + (any ? 3 : 0) + fw[i] + 1 > width)
            continue; /* a field is written whole or not at all */
        memcpy(out + o, pre, strlen(pre));
        o += strlen(pre), cols += any ? 3 : 0;
        memcpy(out + o, fields[i], strlen(fields[i]));
        o += strlen(fields[i]), cols += fw[i];
        any = true;
    }
    if (cols < width && o + 1 < cap)
        out[o++] = ' ', cols++;
    out[o] = '\0';
    return cols;
}

int tui_cursor_fit(char *out, size_t cap, const char *cursor, int width)
{
    if (!cap)
        return 0;
    out[0] = '\0';
    size_t len = strlen(cursor);
    /* try the whole value, then without its last part, and so on */
    for (;;) {
        int w = tui_width(cursor, len);
        if (w <= width && len < cap) {
            memcpy(out, cursor, len);
            out[len] = '\0';
            return w;
        }
        size_t cut = 0;
        for (size_t i = 0; i + 1 < len; i++)
            if (cursor[i] == ' ' && cursor[i + 1] == ' ')
                cut = i;
        if (!cut)
            return 0;
        len = cut;
    }
}

const char *tui_status_str(tf_status s, bool zh)
{
    static const char *const msg_zh[TF_STATUS_COUNT] = {
        [TF_OK] = "没有错误",
        [TF_ERR_NOMEM] = "内存不足",
        [TF_ERR_UTF8] = "文本不是有效的 UTF-8",
        [TF_ERR_EMPTY] = "文本是空的，请输入至少含一个词元的句子",
        [TF_ERR_TOO_LONG] = "文本太长",
        [TF_ERR_TOO_MANY] = "文本的词元太多",
        [TF_ERR_DMODEL] = "d_model 必须是允许范围内的偶数",
        [TF_ERR_POSITIONS] = "位置数超出允许范围",
        [TF_ERR_BASE] = "频率基数必须是大于 1 的有限数",
        [TF_ERR_VOCAB] = "词表大小超出允许范围",
        [TF_ERR_OFFSET] = "偏移必须在 0 到位置数减 1 之间",
        [TF_ERR_PERMUTATION] = "对比的文本必须由同样的词元组成，只是顺序不同",
        [TF_ERR_RANGE] = "有一个值超出了允许范围",
        [TF_ERR_IO] = "无法读取或写入文件",
        [TF_ERR_FORMAT] = "文件格式不对",
        [TF_ERR_UNAVAILABLE] = "这个模式需要的数据文件没有安装",
        [TF_ERR_TOO_BIG] = "这个请求需要的内存或时间超出了 tfviz 的上限",
        [TF_ERR_NOT_FOUND] = "文件里没有要找的那一项",
        [TF_ERR_UNSUPPORTED] = "这里做不到：这个版本的 tfviz 或这个终端不支持",
    };
    if (!zh || (unsigned)s >= TF_STATUS_COUNT)
        return tf_status_str(s);
    return msg_zh[s];
}

static const char *const msgs[TM_COUNT][2] = {
    [TM_BAD_TEXT] = {"%s：%s", "%s: %s"},
    [TM_VECTORS_DROPPED] =
        {"d_model = %d：W_E 回到随机值；在第 8 页按 u 可换回训练出的 %d 维词向量",
         "d_model = %d: W_E random again; u in view 8 brings back the "
         "trained d=%d rows"},
    [TM_FILE_DROPPED] = {"d_model = %d：W_E 回到随机值，不再使用 --vectors 的 %d 维词向量",
                         "d_model = %d: W_E is random again, not the d=%d rows of --vectors"},
    [TM_MAP_UNTRAINED] = {"还没有训练出的词向量：先让第 8 页训练一会儿（空格 继续），再按 e",
                          "no trained vectors yet: let view 8 train a while (Space "
                          "resumes), then e"},
    [TM_TEXT_CUT] = {"句子已截在 %d 字节的上限（见 docs/limits.md），多出的部分没有收下",
                     "text cut at the %d-byte limit (see docs/limits.md); the rest "
                     "was not taken"},
};

const char *tui_msg(tui_msg_id id, bool zh)
{
    if ((unsigned)id >= TM_COUNT)
        return "";
    return msgs[id][zh ? 0 : 1];
}

int tui_msg_fmt(char *buf, size_t cap, tui_msg_id id, ...)
{
    va_list ap;
    va_start(ap, id);
    int n = vsnprintf(buf, cap, tui_msg(id, txt_is_zh()), ap);
    va_end(ap);
    return n;
}

bool tui_export_path(char *out, size_t cap, const char *dir, const char *name, const char *ext)
{
    for (int k = 1; k < 10000; k++) {
        char num[16] = "";
        if (k > 1)
            snprintf(num, sizeof num, "-%d", k);
        int r =
            snprintf(out, cap, "%s%stfviz-%s%s.%s", dir ? dir : "", dir ? "/" : "", name, num, ext);
        if (r < 0 || (size_t)r >= cap)
            return false;
        struct stat st;
        if (lstat(out, &st) != 0)
            return true;
    }
    return false;
}
