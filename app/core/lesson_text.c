/* lesson_text.c — the guided lesson's words, in Chinese and English (one table), and the class's
 * sentence put into them. The lesson (tui/lesson.c) shows them on the screen and the deck
 * (figures/deck.c, --lesson --export) on slides: one text for both.
 *
 * Where a text names an example it names the class's sentence: {c} a character of it, {A} the
 * sentence, {B} its words reversed (order B), {B2} its last word first (lesson_fill fills them).
 *
 * Each step: a title, two or three short sentences that carry the idea, and one thing for the
 * class to try. Lines are written short so that --big (wide, bold, few words per line) still
 * fits an 80x24 projector screen. */
#include "core/lesson_text.h"

#include <stdio.h>
#include <string.h>

#include "textwidth.h"
#include "utf8.h"

static const lesson_words steps[LESSON_STEPS + LESSON_EXTRA_STEPS] = {
    {{"文字不是数字", "Characters are not numbers"},
     {"屏幕上的「{c}」对计算机只是几个字节。编码号只说明它是哪个字符，并不包含任何意思。"
      "神经网络只会做乘法和加法，所以我们得先把文字变成它能计算的数。",
      "To the computer, {c} on the screen is just a few bytes. Its code number says which "
      "character it is, not what it means. A neural network can only multiply and add, so we "
      "must first turn text into numbers it can compute with."},
     {"按 / 输入你自己的句子，例如 我喜欢猫，然后回车。", "Press / and type your own sentence, "
      "e.g. I like cats, then Enter."},
     {"/ 输入新句子，表格跟着变", "/ type a new sentence; the table follows"},
     .point = {"计算机只会算数：文字要先变成数字。", "A computer only computes: text must become numbers."}},
    {{"词表和编号", "The vocabulary and the id"},
     {"分词器把句子切成词元。词表给每个词元一个固定的编号 id：同一个词永远是同一个数。"
      "编号只是一个座位号，3 和 4 挨着并不说明两个词意思相近。",
      "The tokenizer cuts the sentence into tokens. The vocabulary gives each token a fixed "
      "id: the same word always gets the same number. An id is only a seat number: 3 next to "
      "4 does not mean the words are alike."},
     {"按上下键选择另一个词元，看它的 id。", "Press Up/Down to select another token and read "
      "its id."},
     {"方向键 选词元", "Arrows: another token"},
     .point = {"同一个词永远是同一个编号；编号不表示意思。", "Same word, same id; the id itself means nothing."}},
    {{"独热向量", "One-hot"},
     {"把 id 写成一个长度为 V 的向量：只有第 id 位是 1，其余全是 0。"
      "它不偏袒任何词，但很浪费：每个向量都和词表一样长，任意两个都互相垂直。",
      "Write the id as a vector of length V: a 1 at position id, 0 everywhere else. It plays "
      "no favourites, but it is wasteful: each vector is as long as the vocabulary, and any two "
      "are perpendicular."},
     {"看独热向量那一行：V 有多大？里面有几个 1？", "Read the one-hot line under the tokens: "
      "how big is V? How many 1s does it hold?"},
     {"方向键 选词元", "Arrows: another token"},
     .point = {"独热向量：第 id 位是 1，其余 V-1 位都是 0。", "One-hot: a 1 at position id, 0 in the other V-1 places."}},
    {{"onehot . W_E 取出一行", "onehot . W_E picks one row"},
     {"嵌入矩阵 W_E 有 V 行、d_model 列。独热向量乘 W_E，除了第 id 行全都乘了 0，"
      "结果正好是第 id 行。所以实际程序直接查表，不做乘法。",
      "The embedding matrix W_E has V rows and d_model columns. Multiplying the one-hot by "
      "W_E multiplies every row but row id by 0, so the result is exactly row id. Real programs "
      "just look the row up."},
     {"按 c：程序真的做一次乘法，和查表的行比较。", "Press c: the program really multiplies "
      "and compares with the row it looked up."},
     {"方向键 选词元  c 真的做一次乘法来验证", "Arrows: token  c: really multiply and compare"},
     .point = {"独热向量乘 W_E，正好取出第 id 行：查表。", "One-hot times W_E is exactly row id: a lookup."}},
    {{"这一行是学出来的", "The row is learned"},
     {"W_E 一开始是随机数。训练时，出现在相似上下文里的词被推向相近的行，"
      "于是「意思」成了向量之间的距离。下面就是正在进行的训练。",
      "W_E starts as random numbers. Training pushes words that appear in similar contexts "
      "towards similar rows, so meaning becomes distance between vectors. Below, training runs "
      "live."},
     {"按 r 从随机值重新训练：余弦从 0 附近出发，随后 爱-喜欢 升到点线带上方，爱-北京 留在带内或更低。",
      "Press r to train again from random rows: cosines start near 0, then 爱-喜欢 leaves the "
      "dotted band and 爱-北京 does not."},
     {"p 暂停/继续  r 从随机值重来  < > 速度  上下键 选词",
      "p: pause/go on  r: restart from random  < >: speed  Up/Down: word"},
     .point = {"W_E 是训练出来的：相似上下文的词靠在一起。", "W_E is learned: words of similar contexts move together."}},
    {{"注意力不知道顺序", "Attention has no sense of order"},
     {"只用词向量时，「{A}」和「{B}」的注意力（B 按 A 的词序画）一模一样，每个词的输出也相同；"
      "加上 PE 或 RoPE，权重和输出才不同。",
      "Word vectors alone give {A} and {B} the same attention (B drawn in A's word order) and "
      "each word the same output; with PE or RoPE the weights and outputs differ."},
     {"按 c 换个词序输入，如 {B2}：「无位置」仍是 0。",
      "Press c, type the words in another order ({B2}): no PE stays 0."},
     {"c 输入语序 B（同样的词元换个顺序，留空 = 倒序）",
      "c: type order B (the same tokens in another order; empty: reversed)"},
     .point = {"没有位置，注意力只看到一袋词。", "Without positions, attention sees a bag of words."}},
    {{"训练一下：没有位置就学不会语序", "Train it: no positions, no word order"},
     {"同一个单层注意力模型学「谁是施事者」：猫追狗 里是猫，狗追猫 里是狗。每种位置方案各训练一次。"
      "none 不加位置：两种语序是同一袋词，只能给同一个答案，只对一半。"
      "加上 PE、可学习的位置或 RoPE，从未见过的测试句几乎全对。",
      "One attention layer learns who does it: the cat in 猫追狗, the dog in 狗追猫. It trains "
      "once per position scheme. none has no positions: both orders are one bag of words, so it gives "
      "both the same answer and is right on only half. With PE, learned positions or RoPE, "
      "sentences it never saw come out nearly all right."},
     {"按 r 从头再训练一次，盯住 none 那条线。", "Press r to train again and watch the none "
      "line."},
     {"p 暂停/继续  . 一轮  r 重来  < > 速度  h 换头",
      "p: pause/resume  .: one epoch  r: again  < >: speed  h: head"},
     .point = {"不加位置，模型学不会语序。", "Without positions, a model cannot learn word order."}},
    {{"位置编码公式", "The positional-encoding formula"},
     {"PE 是算出来的，不是学出来的，也不用存：PE(pos, 2i) = sin(pos * w_i)，"
      "PE(pos, 2i+1) = cos(pos * w_i)，w_i = 1/base^(2i/d)。下面把光标所在的格子一步步算出来。",
      "PE is computed, not learned or stored: PE(pos, 2i) = sin(pos * w_i), PE(pos, 2i+1) = "
      "cos(pos * w_i), w_i = 1/base^(2i/d). The lines below work out the cell under the cursor."},
     {"按上下键换一个位置，算式跟着变。", "Press Up/Down to move to another position; the "
      "worked numbers follow."},
     {"上下键 换位置  z/Z 缩小/放大  f 全图", "Up/Down: position  z/Z: zoom out/in  f: fit"},
     .point = {"PE 是算出来的：sin 和 cos，不是学出来的。", "PE is computed from sin and cos, not learned."}},
    {{"频率和时钟", "Frequencies and the clock"},
     {"每一对维度 (2i, 2i+1) 是一根以 w_i 转动的指针。前面的维度转得快，像秒针；"
      "后面的转得很慢，像时针。合在一起读，就知道现在几点，也就是第几个位置。",
      "Each pair of dimensions (2i, 2i+1) is a hand turning at speed w_i. Early pairs turn "
      "fast like a second hand, late pairs slowly like an hour hand. Read together they tell "
      "the time: the position."},
     {"按 a 让时钟走起来，按上下键换一对维度。", "Press a to let the clocks run, Up/Down "
      "to pick another pair of dimensions."},
     {"a 时钟走/停  上下键 换一对维度  左右键 位置",
      "a: run/stop the clocks  Up/Down: another pair  Left/Right: position"},
     .point = {"每对维度是一根指针：前快后慢。", "Each pair of dimensions is a clock hand, fast to slow."}},
    {{"唯一性和相对旋转 M_k", "Uniqueness and the relative rotation M_k"},
     {"不同位置的 PE 各不相同。更妙的是，PE(pos+k) = M_k PE(pos)：M_k 只依赖距离 k，"
      "不依赖 pos。所以「相隔 k 个词」在任何地方看起来都一样。",
      "No two positions share a PE. Better: PE(pos+k) = M_k PE(pos), where M_k depends only "
      "on the distance k, not on pos. So k words apart looks the same everywhere."},
     {"按上下键改变 k，看误差仍然接近 0。", "Press Up/Down to change k; the error stays near "
      "0."},
     {"上下键 改变 k  左右键 改变 pos", "Up/Down: change k  Left/Right: change pos"},
     .point = {"PE(pos+k) = M_k PE(pos)：只看距离 k。", "PE(pos+k) = M_k PE(pos): only the distance k counts."}},
    {{"X_input = X_emb + PE 进入 Q、K、V", "X_input = X_emb + PE enters Q, K, V"},
     {"词向量和位置编码直接相加，得到第一层真正读入的矩阵。Q、K、V 都由它算出，"
      "所以位置信息混在每一个分数里。",
      "The word vectors and the positional encoding are simply added: this is the matrix the "
      "first layer reads. Q, K and V are all computed from it, so position is mixed into every "
      "score."},
     {"按 s 打开或关闭乘 sqrt(d)，比较两者的大小。", "Press s to switch the sqrt(d) scaling "
      "on and off and compare the sizes."},
     {"上下键 选词元  s 乘 sqrt(d) 开/关", "Up/Down: token  s: sqrt(d) scaling on/off"},
     .point = {"X_input = X_emb + PE：位置进入 Q、K、V。", "X_input = X_emb + PE: position enters Q, K and V."}},
    {{"RoPE：旋转位置编码", "RoPE: rotary position embedding"},
     {"RoPE 不再相加，而是把 q 和 k 的每一对维度按位置旋转一个角度。"
      "两者点积只取决于相对距离 m-n，现在的大模型（LLaMA 等）都用它。",
      "RoPE adds nothing: it rotates each pair of dimensions of q and k by an angle set by the "
      "position. Their dot product depends only on the distance m-n. Today's large models "
      "(LLaMA and others) use it."},
     {"按 p 换配对方式，按上下键换词元。最后按 q 结束。", "Press p to change the pairing, "
      "Up/Down for another token. Press q to finish."},
     {"p 配对方式  b 频率基数  上下键 选词元  左右键 换一对维度",
      "p: pairing  b: frequency base  Up/Down: token  Left/Right: pair"},
     .point = {"RoPE 旋转 q 和 k：q_m.k_n 只取决于 m-n。", "RoPE rotates q and k: q_m.k_n depends only on m-n."}},
    /* beyond the article (--lesson --extended) */
    {{"文章之外：真实模型怎样放位置", "Beyond the article: what real models do"},
     {"GPT-2 和 BERT 学一张位置表，但表只有 L 行，更长的输入无法编码；ALiBi（BLOOM）和 T5 "
      "不动输入，而是给注意力得分加偏置；Llama 用 RoPE，再把频率缩放来延长上下文。",
      "GPT-2 and BERT learn a table of positions, but it has only L rows: a longer input cannot "
      "be encoded. ALiBi (BLOOM) and T5 leave the input alone and add a bias to the scores. "
      "Llama uses RoPE, and scales its frequencies to stretch the context."},
     {"按 S 换右边的方案，按 x 给 RoPE 选一种扩展，看超出 L 以后会怎样。最后按 q 结束。",
      "Press S for another scheme on the right, x for a RoPE scaling, and watch what happens "
      "past L. Press q to finish."},
     {"s/S 换方案 A/B  m 掩码  h 头  x RoPE 扩展", "s/S: scheme A/B  m: mask  h: head  "
      "x: RoPE scaling"},
     .point = {"真实模型：学出来的表、得分偏置或 RoPE。", "Real models: a learned table, a score bias, or RoPE."}},
};

const lesson_words *lesson_words_at(int i)
{
    return i >= 0 && i < LESSON_STEPS + LESSON_EXTRA_STEPS ? &steps[i] : NULL;
}

/* ---------------------------------------------------------------------------------------------
 * The class's sentence in the texts: {c} a character of it (the first of its second word), {A}
 * the sentence, {B} its words reversed (or the order B the class typed), {B2} its last word
 * first (another order to type). Long names are cut. */

#define NAME_COLS 24 /* the widest a sentence named in a text may be */
#define NAME_WORDS 12

/* The words of the sentence in the order given by kind ('B' reversed, '2' last first), the
 * first NAME_WORDS of them, into out. */
static void words_in_order(const tf_analysis *a, const char *typed_b, char kind, char *out,
                           size_t cap)
{
    size_t n = analysis_word_count(a), order[NAME_WORDS], k = 0;
    if (kind == 'B' && typed_b) {
        snprintf(out, cap, "%s", typed_b);
        return;
    }
    for (; k < n && k < NAME_WORDS; k++)
        order[k] = kind == 'B' ? n - 1 - k : (k == 0 ? n - 1 : k - 1);
    analysis_words_spell(a, order, k, out, cap);
}

/* What a placeholder at p names (its length in *used), into buf; NULL when p holds none. */
static const char *placeholder(const tf_analysis *a, const char *typed_b, const char *p,
                               size_t *used, char *buf, size_t cap)
{
    char raw[512];
    if (strncmp(p, "{c}", 3) == 0) {
        size_t i = a->tokens.n > 1 ? 1 : 0, st = a->tokens.n ? a->tokens.items[i].start : 0;
        while (st < a->text_len && a->text[st] == ' ')
            st++;
        uint32_t cp;
        size_t k = st < a->text_len ? utf8_decode(a->text + st, a->text_len - st, &cp) : 0;
        snprintf(buf, cap, "%.*s", (int)k, a->text + st);
        *used = 3;
        return buf;
    }
    if (strncmp(p, "{A}", 3) == 0)
        snprintf(raw, sizeof raw, "%.*s", (int)(a->text_len < 500 ? a->text_len : 500), a->text);
    else if (strncmp(p, "{B}", 3) == 0 || strncmp(p, "{B2}", 4) == 0)
        words_in_order(a, typed_b, p[2] == '2' ? '2' : 'B', raw, sizeof raw);
    else
        return NULL;
    *used = p[2] == '2' ? 4 : 3;
    tw_cut(buf, cap, raw, strlen(raw), NAME_COLS, "...");
    return buf;
}

const char *lesson_fill(const tf_analysis *a, const char *typed_b, const char *tmpl, char *out,
                        size_t cap)
{
    size_t o = 0;
    out[0] = '\0';
    for (const char *p = tmpl; p && *p && o + 1 < cap;) {
        char name[256];
        size_t used;
        const char *v = *p == '{' ? placeholder(a, typed_b, p, &used, name, sizeof name) : NULL;
        if (!v) {
            out[o++] = *p++;
            continue;
        }
        o += (size_t)snprintf(out + o, cap - o, "%s", v);
        if (o >= cap)
            o = cap - 1;
        p += used;
    }
    out[o] = '\0';
    return out;
}
