/* strings.c — the sentences tfviz shows, Chinese and English side by side.
 *
 * Layout rules for every entry of the terminal's section: no East-Asian-ambiguous characters
 * (Greek letters, the multiplication sign, dashes, arrows, curly quotes, box drawing), because
 * CJK terminals draw them two columns wide and break alignment; so w_i, theta_i, 2pi, sqrt(d), x and ASCII
 * punctuation stand in for them. Both languages of an entry take the same printf conversions in
 * the same order (a unit test checks this). */
#include "core/strings.h"

#include <stdio.h>
#include <string.h>

static bool zh = true;

/* The terminal: the explorer, its messages and the lesson's frame. */
static const char *const table[T_TERMINAL_END][2] = {
    [T_TAB_EMBED] = {"词嵌入", "Embedding"},
    [T_TAB_PE] = {"位置编码", "PE"},
    [T_TAB_FREQ] = {"频率", "Freq"},
    [T_TAB_REL] = {"相对", "Relative"},
    [T_TAB_INPUT] = {"融合", "Sum"},
    [T_TAB_ORDER] = {"语序", "Order"},
    [T_TAB_ROPE] = {"RoPE", "RoPE"},
    [T_TAB_LEARNED] = {"训练", "Learned"},
    [T_TAB_SCHEMES] = {"位置方案", "Schemes"},
    [T_TAB_TRAIN] = {"训练语序", "Train order"},
    [T_TABS_REL] = {"相对", "Rel"},
    [T_TABS_LEARNED] = {"训练", "Words"},
    [T_TABS_TRAIN] = {"训练语序", "Train"},
    [T_TABS_SCHEMES] = {"方案", "Schemes"},

    [T_CAP_EMBED] = {"分词器把每个词元换成词表编号 k。编号 k 就是长度为 V 的独热向量，"
                     "它乘以 W_E（V x d_model）恰好取出第 k 行：查表就是矩阵乘法。",
                     "The tokenizer maps each token to an id k. Id k is a one-hot vector "
                     "of length V; onehot(k) times W_E (V x d_model) is exactly row k."},
    [T_CAP_PE] = {"位置编码是算出来的：PE(pos,2i) = sin(pos/10000^(2i/d))，"
                  "PE(pos,2i+1) = cos(同一角度)。值在 -1 到 1 之间，每行与词向量等长。",
                  "PE is computed, not learned: PE(pos,2i) = sin(pos/10000^(2i/d)), "
                  "PE(pos,2i+1) = cos(same angle); values in [-1, 1], one row per position."},
    [T_CAP_FREQ] = {"每对维度有自己的频率 w_i = 10000^(-2i/d)，按几何级数递减：波长从 2pi "
                    "增长到接近 10000*2pi，就像一排转速各不相同的时钟。",
                    "Pair i turns at w_i = 10000^(-2i/d): frequencies fall geometrically, "
                    "wavelengths grow from 2pi to nearly 10000*2pi, like clocks at many speeds."},
    [T_CAP_REL] = {"每个位置的编码都不相同。PE(pos+k) = M_k PE(pos)：每对维度旋转 k*w_i，"
                   "与 pos 无关，所以两个位置的点积只取决于它们的距离。",
                   "Every position gets its own vector. PE(pos+k) = M_k PE(pos): each "
                   "pair turns by k*w_i for any pos, so PE(p).PE(q) depends on p-q only."},
    [T_CAP_INPUT] = {"第一层读入 X_input = X_emb + PE（原论文先把 X_emb 乘以 sqrt(d_model)，"
                     "按 s 比较）。每次请求：分词、编号、查表、加 PE、再算 Q K V。",
                     "Layer 1 reads X_input = X_emb + PE (the paper scales X_emb by "
                     "sqrt(d_model): press s). Each request: tokenize, ids, lookup, + PE, "
                     "QKV."},
    [T_CAP_ORDER] = {"注意力本身看不见顺序：没有位置信息时，两个语序中每个词的输出完全相同；"
                     "加上 PE 或 RoPE 后输出才不同。",
                     "Attention alone cannot see word order: without positions each token "
                     "gets the same output in both orders; with PE or RoPE they differ."},
    [T_CAP_ROPE] = {"RoPE 不往输入里加任何东西：算出 Q、K 之后把每对维度旋转 m*theta_i，"
                    "于是 q_m.k_n 只取决于 m-n。",
                    "RoPE adds nothing to the input: after Q and K are computed, each pair "
                    "of dimensions turns by m*theta_i, so q_m.k_n depends on m-n only."},
    [T_CAP_LEARNED] = {"W_E 起初是随机数，含义是训练出来的：余弦从 0 附近出发（点线带：常见词两两），"
                       "随后相似上下文的词（爱、喜欢）高出带子，对照组（爱、北京）不会。",
                       "W_E starts random and is trained: cosines start near 0 (band: common "
                       "word pairs); then similar pairs rise above the band, the control "
                       "does not."},
    [T_CAP_SCHEMES] = {"文章之外：真实模型怎样放入位置。两种方案并排：位置之间的信号，随距离的变化，"
                       "以及超出训练长度 L 之后会怎样。",
                       "Beyond the article: how real models bring in positions. Two schemes side "
                       "by side: the signal between positions, against distance, and past the "
                       "trained length L."},

    [T_CAP_TRAIN] = {"训练验证：同一个单层注意力模型学「谁是施事者」，每种位置方案各训练一次，"
                     "曲线是从未训练过的测试句的准确率。不加位置时两种语序是同一袋词，模型必然"
                     "给出同一个答案，至多对一半。",
                     "Trained: one attention layer learns who does it, once per position "
                     "scheme; curves: held-out accuracy. Without positions both orders are one "
                     "bag of words, so they get the same answer: at most half right."},

    [T_KEYS_EMBED] = {"左右键 选词元  c 用乘法验证", "Left/Right token  c check by multiplying"},
    [T_KEYS_PE] = {"方向键 PgUp/PgDn 移动  z/Z/f 缩放  s 排列",
                   "arrows PgUp/PgDn move  z/Z/f zoom  s layout"},
    [T_KEYS_FREQ] = {"上下键 选维度对  左右键 位置  空格/a 动画",
                     "Up/Down pair  Left/Right pos  Space/a animate"},
    [T_KEYS_REL] = {"左右键 pos  上下键 k", "Left/Right pos  Up/Down k"},
    [T_KEYS_INPUT] = {"上下键 选词元  s 乘 sqrt(d) 开/关", "Up/Down token  s sqrt(d) scaling"},
    [T_KEYS_ORDER] = {"c 输入语序 B  o B 的词序", "c type order B  o B's own order"},
    [T_KEYS_ROPE] = {"左右 维度对  上下 词元  p 配对  b 基数",
                     "L/R pair  Up/Down token  p pairing  b base"},
    [T_KEYS_LEARNED] = {"空格/p 暂停 n 单步 r 重来 < > 速度 u 应用",
                        "Space/p pause n step r reset < > speed u use"},
    [T_KEYS_SCHEMES] = {"s/S 换方案 A/B  m 掩码  h 头  x RoPE 扩展",
                        "s/S scheme A/B  m mask  h head  x RoPE scaling"},
    [T_KEYS_TRAIN] = {"空格/p 暂停  . 一轮  r 重来  < > 速度  h 换头  左右 换句",
                      "Space/p pause  . epoch  r reset  < > speed  h head  L/R sentence"},

    [T_HINT] = {"? 帮助  q 退出  / 改句子  l English", "? help  q quit  / edit  l zh/en"},
    [T_TOO_SMALL] = {"窗口太小：至少需要 %d x %d，现在是 %d x %d。请放大终端窗口。",
                     "The window is too small: tfviz needs at least %d x %d, this one is %d x %d. "
                     "Please enlarge it."},
    [T_COMPUTING] = {"计算中...", "computing..."},
    [T_ASCII_NOTICE] = {"区域设置不是 UTF-8：使用 ASCII 显示（设置 LANG=C.UTF-8 可显示中文）",
                        "Locale not UTF-8: ASCII mode (LANG=C.UTF-8 for Chinese)."},
    [T_EDIT_PROMPT] = {"句子: ", "Sentence: "},
    [T_EDIT_HINT] = {" 输入句子（支持中文输入法） 回车 确认  Esc 取消  Ctrl-U 清空",
                     " Type a sentence (input methods work)  Enter apply  Esc cancel  "
                     "Ctrl-U clear"},
    [T_EXPORTED] = {"已导出 %s", "exported %s"},
    [T_HELP_TITLE] = {"按键", "Keys"},
    [T_HELP_CLOSE] = {"按任意键关闭", "press any key to close"},
    [T_HELP_GLOBAL] = {"1-9 0 Tab Shift-Tab  切换视图（0 是第 10 页；也可点击标签）\n"
                       "?  帮助     q 或 Esc  退出\n"
                       "/ 或 :  编辑句子（中文输入法可用，回车确认，Esc 取消）\n"
                       "+ -  d_model 加倍 / 减半（4 到 4096）\n"
                       "[ ]  位置数减少 / 增加（8 到 10000）\n"
                       "b  频率基数 10000 / 500000     i  位置从 0 或 1 起算\n"
                       "l  中文 / English     e  把当前视图导出为图片\n"
                       "g  在能显示图片的终端里，把当前视图换成插图（再按一次复原）\n"
                       "第 8 页：在内置语料上现场训练词向量，按 u 把它们用于第 1、5 页\n"
                       "第 9 页：两种位置方案并排；第 10 页（按 0）：每种方案现场训练，看谁学得会语序\n"
                       "鼠标：点击标签切换视图，点击热图移动光标，滚轮上下",
                       "1-9 0 Tab Shift-Tab  switch views (0 is view 10; or click a tab)\n"
                       "?  help     q or Esc  quit\n"
                       "/ or :  edit the sentence (input methods work; Enter apply, Esc cancel)\n"
                       "+ -  double / halve d_model (4 to 4096)\n"
                       "[ ]  fewer / more positions (8 to 10000)\n"
                       "b  frequency base 10000 / 500000     i  count positions from 0 or 1\n"
                       "l  Chinese / English     e  export this view as a figure\n"
                       "g  this view as the exported figure, in terminals that show pictures\n"
                       "view 8 trains word vectors live; u puts them into views 1 and 5\n"
                       "view 9: two schemes side by side; view 10 (key 0): word order trained live\n"
                       "mouse: click a tab, click the heatmap to move the cursor, wheel scrolls"},
    [T_LANG_NOW] = {"界面语言：中文", "Language: English"},
    [T_BAD_TEXT] = {"无法分析这个句子", "cannot analyse this sentence"},
    [T_DMODEL_NOW] = {"d_model = %d", "d_model = %d"},
    [T_POSITIONS_NOW] = {"位置数 n = %ld", "positions n = %ld"},
    [T_BASE_NOW] = {"频率基数 base = %g", "frequency base = %g"},
    [T_INDEX_NOW] = {"位置从 %d 开始计数", "positions count from %d"},
    [T_SCALE_ON] = {"X_emb 先乘以 sqrt(d_model)（原论文的做法）",
                    "X_emb is multiplied by sqrt(d_model) first (the original paper)"},
    [T_SCALE_OFF] = {"X_emb 不缩放", "X_emb is not scaled"},
    [T_PAIRING_NOW] = {"RoPE 配对方式：%s", "RoPE pairing: %s"},
    [T_NO_FIGURE] = {"这一页还没有可导出的图", "this view has no figure yet"},
    [T_ST_TOKENIZER] = {"分词", "tokenizer"},
    [T_ST_POSFROM] = {"pos 起于", "pos from"},

    [T_E_TOKENS] = {"词元与编号（%s 分词，词表 V = %u）", "Tokens and ids (%s tokenizer, V = %u)"},
    [T_E_ONEHOT] = {"「%s」的独热向量：第 %d 位是 1，其余 %s 位都是 0",
                    "one-hot of %s: 1 at index %d, 0 in the other %s entries"},
    [T_E_ONEHOT_UNK] = {"「%s」不在词表里，记为 [UNK]：第 %d 位是 1，其余 %s 位都是 0",
                        "%s is not in the vocabulary, so [UNK]: 1 at index %d, 0 in the other %s"},
    [T_E_ROW] = {"W_E 的第 %d 行 = 独热向量 . W_E（%d 个数）",
                 "row %d of W_E = onehot . W_E (%d numbers)"},
    [T_E_SIZE] = {"W_E 形状 %s x %d = %s 个参数", "W_E is %s x %d = %s parameters"},
    [T_E_MEM] = {"内存：fp32 %sB，bf16 %sB（训练前是随机数）",
                 "memory: fp32 %sB, bf16 %sB (untrained)"},
    [T_E_MEM_SET] = {"内存：fp32 %sB，bf16 %sB；%zu 个词的行是训练/载入的",
                     "memory: fp32 %sB, bf16 %sB; %zu words have trained/loaded rows"},
    [T_E_ROW_SET] = {"这一行是训练/载入的词向量", "this row is a trained/loaded word vector"},
    [T_E_ROW_RANDOM] = {"这一行仍是随机数（训练语料里没有这个词）",
                        "this row is still random (the word is not in the vectors)"},
    [T_I_TRAINED] = {"本句 %zu/%zu 个词元的 X_emb 行来自训练/载入的向量，其余是随机数",
                     "%zu of %zu tokens take their X_emb row from trained/loaded vectors; "
                     "the rest are random"},
    [T_E_CHECK_NONE] = {"按 c：用完整的矩阵乘法验证查表", "press c: check the lookup by the full "
                                                            "matrix product"},
    [T_E_CHECK] = {"独热向量 . W_E 与第 k 行最大差 %.1e（相同）",
                   "max |onehot . W_E - row k| = %.1e (identical)"},
    [T_E_PIPE] = {"文本 > 分词 > 编号 > 查表 > 加 PE > X_input > Q K V",
                  "text > tokens > ids > lookup > + PE > X_input > Q K V"},
    [T_E_LEGEND] = {"~ 拆分：词表外的长词拆成的词表内的词    * 退回：没有词覆盖的单字",
                    "~ split: in-vocabulary word of a longer word   * fallback: lone character"},
    [T_E_NO_ENGLISH] = {"* 没有英文词表（scripts/bootstrap.sh 获取），英文单词退回字母",
                        "* no English word list (scripts/bootstrap.sh): English words are letters"},

    [T_P_AXES] = {"pos\\j", "pos\\j"},
    [T_P_SAMPLED] = {"交错排列：每列取 %ld 维中的 1 维（sin、cos 交替），%ld 维全在图上；s 分开",
                     "interleaved: 1 column = 1 of %ld dims (sin/cos alternate), all %ld; s split"},
    [T_P_SPLIT] = {"左 sin（偶数 j），右 cos（奇数 j）；每列取 %ld 维中的 1 维，共 %ld 维；s 交错",
                   "sin (even j) left, cos (odd j) right; 1 of %ld dims, all %ld; s interleave"},
    [T_P_SPLIT_S] = {"左 sin 右 cos；每列取 %ld 维中的 1 维，共 %ld；s 交错",
                     "sin left, cos right; 1 of %ld dims, all %ld; s interleave"},
    [T_P_WINDOW_SPLIT] = {"第 %ld-%ld 列（共 %ld 列，先 sin 后 cos），每列 %ld 维  z 缩小  f 全图",
                          "cols %ld-%ld of %ld (sin half, then cos), %ld per column; z zoom out, f fit"},
    [T_P_WINDOW] = {"维 %ld-%ld（共 %ld 维），每列 %ld 维  z 缩小  f 全图",
                    "dims %ld-%ld of %ld, %ld per column; z zoom out, f fit"},
    [T_P_ROWS] = {"位置 %ld-%ld（共 %ld 个）", "positions %ld-%ld of %ld"},

    [T_F_WAVELEN] = {"波长 2pi/w_i（对数轴），i = 0 .. %d", "wavelength 2pi/w_i (log axis), "
                                                             "i = 0 .. %d"},
    [T_F_WAVES] = {"第 %d、%d 维随位置变化：w = %.6g，波长 %.6g",
                   "dims %d, %d: w = %.6g, wavelength %.6g"},
    [T_F_CLOCKS] = {"时钟 pos = %ld", "clocks at pos = %ld"},

    [T_R_GRAM] = {"PE.PE^T：前 %ld 个位置", "PE.PE^T, first %ld positions"},
    [T_R_NEAREST] = {"唯一性：%ld 个位置两两不同", "Uniqueness: %ld positions, all different"},
    [T_R_SAME] = {"注意：%ld 个位置中有两个编码相同", "Note: two of %ld positions share a vector"},
    [T_R_UNIQUE] = {"最近：每一对相隔 %ld 的位置（如 %ld 与 %ld），距离都是 %.6f：距离只取决于相隔多远",
                    "nearest: every pair %ld apart (%ld and %ld, ...), all at distance %.6f: the "
                    "distance depends on the offset only"},
    [T_R_MK] = {"相对位置：pos = %ld，k = %ld", "Relative: pos = %ld, k = %ld"},
    [T_R_COLS] = {"   j   PE(%ld)     M_%ld PE(%ld)   |差|", "   j   PE(%ld)     M_%ld PE(%ld)  |diff|"},
    [T_R_MAXRES] = {"这一行最大差 %.1e；所有位置 %.1e（n = %ld）",
                    "max diff here %.1e; over all positions %.1e (n = %ld)"},
    [T_R_FITTED] = {"颜色：此图最小到最大", "colours: min..max here"},
    [T_R_BLOCKS_S] = {"M_%ld 的 2x2 块", "M_%ld's 2x2 blocks"},
    [T_R_UNIQUE_S] = {"最近：相隔 %ld 的每一对（如 %ld 与 %ld），距离都是 %.6f",
                      "nearest: every pair %ld apart (%ld and %ld, ...): %.6f"},
    [T_R_BLOCKS] = {"M_%ld：每对 (2i, 2i+1) 一个 2x2 旋转块", "M_%ld: a 2x2 rotation per pair (2i, 2i+1)"},
    [T_R_COMPUTING] = {"唯一性：正在计算 %ld 个位置...", "Uniqueness: computing %ld positions..."},
    [T_R_MAXRES_WAIT] = {"这一行最大差 %.1e；所有位置：计算中（n = %ld）",
                         "max diff here %.1e; over all positions: computing (n = %ld)"},
    [T_WORKING] = {"后台计算中（d_model = %d，n = %ld），按键照常可用",
                   "computing in the background (d_model = %d, n = %ld)... keys still work"},
    [T_WORKING_S] = {"后台计算中（d_model = %d，n = %ld）", "computing (d_model = %d, n = %ld)..."},

    [T_I_POS0] = {"pos 从 0 数：「%s」是第 %zu 个词，pos = %ld（文章从 1 数：--index-base 1）",
                  "pos from 0: %s is word %zu, pos = %ld (article: from 1, --index-base 1)"},
    [T_I_POS1] = {"pos 从 1 数，和文章一样：「%s」是第 %zu 个词，pos = %ld",
                  "pos from 1, as the article: %s is word %zu, pos = %ld"},
    [T_I_QKV] = {"第一层：Q、K、V = X_input 乘 W_Q、W_K、W_V（X_input 为 %zu x %d）",
                 "layer 1: Q, K, V = X_input times W_Q, W_K, W_V (X_input is %zu x %d)"},
    [T_E_ARTICLE] = {"文章的规模 100,000 x 4096：%s个参数，fp32 %sB",
                     "the article's W_E, 100,000 x 4096: %s, %sB fp32"},
    [T_I_EMB] = {"X_emb", "X_emb"},
    [T_I_PE] = {"PE", "PE"},
    [T_I_SUM] = {"X_input", "X_input"},
    [T_I_NORMS] = {"    范数", "     norm"},
    [T_I_SCALED] = {"X_input = %g * X_emb + PE（已乘 sqrt(d_model)）",
                    "X_input = %g * X_emb + PE (scaled by sqrt(d_model))"},
    [T_I_UNSCALED] = {"X_input = %g * X_emb + PE（未缩放）", "X_input = %g * X_emb + PE (not "
                                                              "scaled)"},
    [T_I_BALANCE] = {"平均范数：词义 X_emb %.2f，位置 PE %.2f；按 s 缩放 X_emb",
                     "mean norm: meaning X_emb %.2f, position PE %.2f; s: rescale X_emb"},

    [T_O_B] = {"语序 B：%s", "order B: %s"},
    [T_O_MODE0] = {"无位置", "no PE"},
    [T_O_MODE1] = {"加 PE", "with PE"},
    [T_O_MODE2] = {"RoPE", "RoPE"},
    [T_O_DIFF] = {"每个词元在两种语序下输出之差 max|Z_B - Z_A|：", "per token, max|Z_B - Z_A| "
                                                                 "between the two orders:"},
    [T_O_TOKEN] = {"词元", "token"},
    [T_O_MAX] = {"最大", "max"},
    [T_O_POOLED] = {"平均池化", "pooled"},
    [T_O_PLAIN] = {"无位置时差为 0（仅舍入误差）：注意力只看到一袋词。",
                   "Without positions: 0 up to rounding, a bag of words."},
    [T_O_SHOWN] = {"热图只显示前 %d 个词元（共 %d 个）", "heatmaps show the first %d of %d tokens"},
    [T_O_OMITTED] = {"... 另有 %d 行未列出：--print order --format json",
                     "... %d more rows: --print order --format json"},
    [T_O_ONE] = {"只有一个词元：两种语序相同，无顺序可比，各列都是 0。",
                 "One token has no order: both orders match, so all 0."},
    [T_O_HEAD] = {"随机（未训练）注意力头第 %d 个（共 %d 个），三种共用；LayerNorm，sqrt(d) x_emb",
                  "One random, untrained head (%d of %d) for all modes; LayerNorm, sqrt(d) x_emb"},
    [T_O_HEAD_S] = {"随机（未训练）的头：第 %d 个（共 %d 个），三种共用",
                    "Random, untrained head %d of %d, same for all modes"},
    [T_O_SHARE] = {"/max|Z|", "/max|Z|"},
    [T_O_LONG0] = {"无位置：B 的权重就是 A 的行列重排，每个词的输出不变：差为 0（舍入误差 %.0e）。",
                   "no PE: B's weights are A's, rows and columns swapped; outputs equal, 0 up to "
                   "rounding (%.0e)."},
    [T_O_LONG1] = {"加 PE：PE 改变了输入，权重随之不同；输出变化达 max|Z_A| 的 %s。",
                   "with PE: PE changes the inputs, so the weights differ; the outputs move by %s "
                   "of max|Z_A|."},
    [T_O_LONG2] = {"RoPE：旋转 q、k 改变了 q.k，权重随之不同；输出变化达 max|Z_A| 的 %s。",
                   "RoPE: rotating q and k changes q.k, so the weights differ; the outputs move "
                   "by %s of max|Z_A|."},
    [T_O_EDIT_PROMPT] = {"语序 B: ", "Order B: "},
    [T_O_EDIT_HINT] = {" 新的语序 B（从空白开始）：同样的词换个顺序  回车 确认（空 = 倒序）  Esc 取消",
                       " New order B (starts empty)  Enter apply, empty = words reversed  Esc "
                       "cancel"},
    [T_O_B_DEFAULT] = {"语序 B：把 A 的词倒过来", "order B: the words of A reversed"},
    [T_O_B_BAD] = {"语序 B 必须用和 A 相同的词元，只换顺序；B 保持不变",
                   "order B must use the same tokens as A in another order; B is unchanged"},
    [T_O_B_RESET] = {"句子变了：语序 B 改回倒序", "new sentence: order B is its words reversed"},
    [T_O_LEARNED] = {"可学习表", "learned"},
    [T_O_ALIBI] = {"ALiBi", "ALiBi"},
    [T_O_T5] = {"T5", "T5"},
    [T_O_SCHEMES] = {"同一个注意力头，只换位置方案：表中是每种方案下输出的变化占 max|Z| 的比例。",
                     "One head, only the position scheme changes: the table gives each "
                     "scheme's change as a share of max|Z|."},
    [T_O_ALIBI_SYM] = {"对称 ALiBi 只看 |i-j|，而倒序保持每个 |i-j| 不变，所以差为 0；"
                       "换个语序（c）或用 --mask causal 就不同了。",
                       "Symmetric ALiBi sees |i-j| only, which reversing keeps: 0. Another "
                       "order (c) or --mask causal differs."},
    [T_O_B_ALIGNED] = {"B（按 A 的词序）：%s", "B, in A's word order: %s"},
    [T_O_A_S] = {"A：%s", "A: %s"},
    [T_O_B_OWN] = {"B（按 B 自己的词序）：%s", "B, in its own order: %s"},
    [T_O_QUERY] = {"查询", "query"},
    [T_O_KEY] = {"键", "key"},
    [T_O_MAP_A] = {"A", "A"},
    [T_O_MAP_B] = {"B", "B"},
    [T_O_MAP_BOWN] = {"B 自序", "B own"},
    [T_O_MAP_D] = {"|A-B|", "|A-B|"},
    [T_O_MAP_D_S] = {"差", "dif"},
    [T_O_RD_SAME] = {"相同：max|A-B| %s", "same: max|A-B| %s"},
    [T_O_RD_SAME_S] = {"相同 %s", "same %s"},
    [T_O_RD_DIFF] = {"不同：max|A-B| %s，输出 %s", "differs: max|A-B| %s, Z %s"},
    [T_O_RD_DIFF_S] = {"差 %s，输出 %s", "|A-B| %s, Z %s"},
    [T_O_RD_DIFF_XS] = {"不同：差 %s", "differs %s"},
    [T_O_BAR_ATTN] = {"注意力", "attention"},
    [T_O_BAR_DIFF] = {"|A-B|", "|A-B|"},
    [T_O_SHOW_OWN] = {"B 按它自己的词序画（o 换回 A 的词序）",
                      "B drawn in its own word order (o: back to A's)"},
    [T_O_SHOW_ALIGNED] = {"B 按 A 的词序画：无位置时两幅图逐格相同",
                          "B drawn in A's word order: without positions the maps match cell by cell"},

    [T_S9_NONE] = {"NoPE：什么都不加，注意力只看到一袋词（因果掩码本身会透露一点顺序）。",
                   "NoPE: nothing is added; attention sees a bag of words (a causal mask alone "
                   "leaks some order)."},
    [T_S9_SIN] = {"正弦 PE：算出来的，加到输入上；两个位置的相似度只取决于距离。",
                  "Sinusoidal PE: computed, added to the input; the similarity of two positions "
                  "depends on their distance only."},
    [T_S9_LEARNED] = {"可学习表（GPT-2、BERT）：每个位置一行，训练得到；行与行之间没有公式。",
                      "Learned table (GPT-2, BERT): one trained row per position, no formula "
                      "between rows."},
    [T_S9_ROPE] = {"RoPE（Llama）：旋转 q 和 k，得分只取决于 m-n；图中 q = k 时的得分。",
                   "RoPE (Llama): q and k are rotated, so the score depends on m-n only; shown "
                   "for q = k."},
    [T_S9_ALIBI] = {"ALiBi（BLOOM）：得分加上 -m|i-j|，每个头一个斜率 m，不学习任何参数。",
                    "ALiBi (BLOOM): the score gets -m|i-j|, one slope m per head, nothing "
                    "learned."},
    [T_S9_T5] = {"T5：按相对距离分桶，每个桶学一个偏置加到得分上；远处的桶越来越宽。",
                 "T5: relative distances fall into buckets, each with a learned bias added to "
                 "the score; far buckets grow wide."},
    [T_S9_PAST_NONE] = {"超出训练长度：没有位置信号，也就没有什么会失效。",
                        "Past the trained length: no position signal, so nothing breaks."},
    [T_S9_PAST_SIN] = {"超出训练长度：公式照样能算，但模型没见过这些位置，实际外推并不好。",
                       "Past the trained length: the formula still gives values, but the model "
                       "never saw them; in practice it extrapolates poorly."},
    [T_S9_PAST_LEARNED] = {"超出 L：表里没有第 L 行，更长的输入根本无法编码（曲线在 L 处中断）。",
                           "Past L: the table has no row L, so a longer input cannot be "
                           "encoded at all (the curve stops at L)."},
    [T_S9_PAST_ROPE] = {"没有训练长度（用 --original-context 或 x 选择扩展方法）：公式在任何距离都有定义。",
                        "No trained length (set --original-context, or x for a scaling): the "
                        "formula is defined at any distance."},
    [T_S9_PAST_ALIBI] = {"超出训练长度：惩罚照样线性增长，远处的键权重趋于 0，所以 ALiBi 能外推。",
                         "Past the trained length: the penalty keeps growing linearly, far keys "
                         "fade out, so ALiBi extrapolates by design."},
    [T_S9_PAST_T5] = {"超出 max_distance：所有更远的距离落进最后一个桶，偏置不再变化（曲线变平）。",
                      "Past max_distance: every farther distance shares the last bucket, so the "
                      "bias stops changing (the curve goes flat)."},
    [T_S9_PAST_ROPE_L] = {"在 2L = %ld 处：原始 RoPE 有 %.0f%% 的频率对转到训练中没见过的角度，"
                          "扩展后为 %.0f%%。",
                          "At 2L = %ld: %.0f%% of plain RoPE's pairs are at angles never seen in "
                          "training; with the scaling %.0f%%."},
    [T_S9_PAST_ROPE_PLAIN] = {"在 2L = %ld 处：%.0f%% 的频率对转到训练中没见过的角度（按 x 选一种扩展来比较）。",
                              "At 2L = %ld: %.0f%% of the pairs are at angles never seen in "
                              "training (x picks a scaling to compare)."},
    [T_S9_RANDOM] = {"随机", "random"},
    [T_E_ONEHOT_S] = {"「%s」：第 %d 位是 1，其余 %s 位是 0", "one-hot of %s: 1 at %d, 0 in %s others"},
    [T_E_ROW_S] = {"W_E 第 %d 行（%d 个数）", "row %d of W_E (%d numbers)"},
    [T_P_SAMPLED_S] = {"交错：每列 = %ld 维取 1，共 %ld 维；s 分开", "interleaved: 1 of %ld dims, all %ld; s split"},
    [T_F_WAVELEN_S] = {"波长（对数），i = 0 .. %d", "wavelength (log), i = 0 .. %d"},
    [T_F_WAVES_S] = {"第 %d、%d 维：w=%.3g，波长 %.3g", "dims %d,%d: w=%.3g, 2pi/w=%.3g"},
    [T_I_POS0_S] = {"「%s」是第 %zu 个词，pos = %ld（从 0 数）", "%s is word %zu, pos = %ld (from 0)"},
    [T_I_POS1_S] = {"「%s」是第 %zu 个词，pos = %ld（从 1 数）", "%s is word %zu, pos = %ld (from 1)"},
    [T_I_QKV_S] = {"Q、K、V = X_input 乘 W_Q、W_K、W_V（%zu x %d）", "Q, K, V = X_input times W_Q, W_K, W_V (%zu x %d)"},
    [T_I_BALANCE_S] = {"平均范数：X_emb %.2f，PE %.2f", "mean norm: X_emb %.2f, PE %.2f"},
    [T_L_PROGRESS_S] = {"第 %d/%d 轮  %llu/%llu 词", "epoch %d/%d  %llu/%llu words"},
    [T_L_LOSS_S] = {"损失 %.3f", "loss %.3f"},
    [T_L_MAP_S] = {"%d 个常见词（PCA）", "%d common words (PCA)"},
    [T_L_MAPVAR_S] = {"方差 %.0f%% 和 %.0f%%", "variance %.0f%%, %.0f%%"},
    [T_L_NEIGH_S] = {"与「%s」最近的词", "nearest to %s"},
    [T_L_BAND_S] = {"点线带 %+.2f，标准差 %.2f", "band %+.2f sd %.2f"},
    [T_TR_ACC_S] = {"准确率（%%）", "held-out %%"},
    [T_S9_CURVE_S] = {"%s 随 k 变化（对数）", "%s vs k (log)"},
    [T_R7_PLANE_S] = {"第 %d 对，%s，theta=%.3g", "pair %d, %s: theta=%.3g"},
    [T_R7_ANGLE_S] = {"角度 m*theta_i（行 m 列 i）", "m*theta_i (rows m, cols i)"},
    [T_R7_SCORE_S] = {"q_m.k_n 对 m-n", "q_m.k_n by m-n"},
    [T_R7_DECAY_S] = {"衰减上界（d = %d）", "decay bound (d = %d)"},
    [T_R7_CHECK_S] = {"重合：偏差 %.1e（%ld 位）", "same: dev %.1e (n = %ld)"},
    [T_L_VERDICT_START_S] = {"随机起点：余弦都在 0 附近", "random start: cosines near 0"},
    [T_CAP_EMBED_S] = {"词元 -> 编号 k -> 独热向量；独热向量乘 W_E 恰好取出第 k 行：查表就是矩阵乘法。",
        "token -> id k -> one-hot; onehot(k) times W_E is exactly row k: a lookup is a matrix product."},
    [T_CAP_PE_S] = {"位置编码是算出来的：PE(pos,2i) = sin(pos/10000^(2i/d))，PE(pos,2i+1) = cos(同一角度)。",
        "PE is computed, not learned: PE(pos,2i) = sin(pos/10000^(2i/d)), PE(pos,2i+1) = cos(same)."},
    [T_CAP_FREQ_S] = {"每对维度的频率 w_i = 10000^(-2i/d) 按几何级数递减，像一排转速不同的时钟。",
        "Pair i turns at w_i = 10000^(-2i/d): frequencies fall geometrically, like clocks at many speeds."},
    [T_CAP_REL_S] = {"每个位置的编码都不同。PE(pos+k) = M_k PE(pos)，点积只取决于距离。",
        "Every position has its own vector. PE(pos+k) = M_k PE(pos): dot products depend on p-q."},
    [T_CAP_INPUT_S] = {"第一层读入 X_input = X_emb + PE（s：乘 sqrt(d_model)）。分词、编号、查表、加 PE、算 Q K V。",
        "Layer 1 reads X_input = X_emb + PE (s: sqrt(d_model) scaling). Tokens, ids, lookup, + PE, QKV."},
    [T_CAP_ORDER_S] = {"注意力本身看不见顺序：没有位置时，两个语序的输出完全相同。",
        "Attention alone cannot see word order: without positions both orders give the same outputs."},
    [T_CAP_ROPE_S] = {"RoPE 旋转 q 和 k（角度 m*theta_i），q_m.k_n 只取决于 m-n。",
        "RoPE adds nothing to the input: it turns q and k by m*theta_i, so q_m.k_n depends on m-n."},
    [T_CAP_LEARNED_S] = {"W_E 是训练出来的：余弦从 0 附近出发（点线带），随后 爱-喜欢 高出带子，爱-北京 不会。",
        "W_E is trained: cosines start near 0 (band); then similar words rise above it, the "
        "control does not."},
    [T_CAP_SCHEMES_S] = {"文章之外：真实模型的两种位置方案并排，以及超出训练长度 L 之后会怎样。",
        "Beyond the article: two schemes real models use, side by side, and what they do past length L."},
    [T_CAP_TRAIN_S] = {"训练验证：单层注意力学「谁是施事者」；不加位置时两种语序是同一袋词，至多对一半。",
        "Trained: attention learns who does it; without positions both orders look alike: half right at most."},
    [T_S9_NONE_S] = {"NoPE：什么都不加，只看到一袋词。", "NoPE: nothing added; a bag of words."},
    [T_S9_SIN_S] = {"正弦 PE：算出来，加到输入上。", "Sinusoidal PE: computed, added to the input."},
    [T_S9_LEARNED_S] = {"可学习表：每个位置一行，训练得到。", "Learned table: one trained row per position."},
    [T_S9_ROPE_S] = {"RoPE：旋转 q、k，只看 m-n。", "RoPE: q, k rotated; the score sees m-n only."},
    [T_S9_ALIBI_S] = {"ALiBi：得分加上 -m|i-j|。", "ALiBi: the score gets -m|i-j|."},
    [T_S9_T5_S] = {"T5：按距离分桶，每桶一个偏置。", "T5: distance buckets, a learned bias each."},
    [T_L_DRIFT_S] = {"（先一起朝常见词移动）", "(all drift to common words)"},
    [T_S9_MATRIX_S] = {"行 i 列 j，%ld 个位置", "rows i, cols j, %ld pos."},
    [T_S9_MATRIX] = {"查询 i（行）与键 j（列），前 %ld 个位置", "query i (rows), key j (cols), %ld positions"},
    [T_S9_MASKED] = {"  空白：被掩码", "  blank: masked"},
    [T_S9_CURVE] = {"%s 随 k = i-j 变化（对数；灰点 L）", "%s vs k = i-j (log; grey: L)"},

    [T_R7_PLANE] = {"第 %d 对，%s 的 q，theta=%.3g", "pair %d, q of %s: theta=%.3g"},
    [T_R7_ANGLE] = {"角度 m*theta_i mod 2pi（行 m，列 i）", "m*theta_i mod 2pi (rows m, cols i)"},
    [T_R7_SCORE] = {"q_m.k_n 对 m-n（%s 的 q，%s 的 k）", "q_m.k_n by m-n (q: %s, k: %s)"},
    [T_R7_DECAY] = {"RoFormer 长程衰减上界（d = %d）", "RoFormer decay bound (d = %d)"},
    [T_R7_CHECK] = {"三线重合：最大偏差 %.1e（%ld 位）", "same curve: max dev %.1e (n = %ld)"},

    [T_L_FAILED] = {"无法载入内置语料，无法训练", "cannot load the built-in corpus to train on"},
    [T_L_RUNNING] = {"训练中", "training"},
    [T_L_PAUSED] = {"已暂停", "paused"},
    [T_L_DONE] = {"训练完成", "trained"},
    [T_L_RESET] = {"向量回到随机初值，重新训练", "vectors back to their random start; training again"},
    [T_L_SPEED] = {"速度：每帧 %ld 个词", "speed: %ld words per frame"},
    [T_L_PROGRESS] = {"第 %d/%d 轮  %llu/%llu 词  学习率 %.4f  每帧 %ld 词  V=%u d=%d",
                      "epoch %d/%d  %llu/%llu words  rate %.4f  %ld/frame  V=%u d=%d"},
    [T_L_LOSS_NONE] = {"损失（每个词对）", "loss per (word, context) pair"},
    [T_L_LOSS] = {"损失（每个词对）%.3f", "loss per (word, context) pair %.3f"},
    [T_L_COS] = {"余弦相似度", "cosine"},
    [T_L_MAP] = {"最常见 %d 词的前两个主成分", "%d commonest words, PCA axes 1-2"},
    [T_L_MAPVAR] = {"两个轴分别占方差的 %.0f%% 和 %.0f%%", "axes: %.0f%% and %.0f%% of variance"},
    [T_L_NEIGH] = {"与「%s」最相近的词（上下键换词）", "nearest to %s (Up/Down: other word)"},
    [T_L_APPLIED] = {"第 1、5 页改用这 %u 个训练出的词向量（d_model = %d，训练进度 %.0f%%）",
                     "views 1 and 5 now use these %u trained vectors (d_model = %d, "
                     "%.0f%% trained)"},
    [T_L_DONE_HINT] = {"训练完成，其他页不变。按 u，第 1、5 页改用这些词向量（d_model 变为 %d）",
                       "Trained; other views unchanged. u: views 1, 5 use these vectors (d_model = %d)"},
    [T_L_DONE_HINT_S] = {"训练完成。u：第 1、5 页改用（d_model %d）",
                         "Trained. u: use in views 1, 5 (d_model %d)"},
    [T_L_BAND] = {"点线带：常见 %d 词两两 %+.2f，标准差 %.2f", "band (%d common words): %+.2f sd %.2f"},
    [T_L_DRIFT] = {"（所有词先一起朝常见词方向移动）", "(all first drift toward common words)"},
    [T_L_VERDICT_START] = {"随机起点：所有余弦都在 0 附近", "random start: every cosine near 0"},
    [T_L_ABOVE] = {"高出带子：", "above the band: "},
    [T_L_INSIDE] = {"在带内：", "in the band: "},
    [T_L_BELOW] = {"低于带子：", "below it: "},
    [T_L_DONE_LESSON] = {"训练完成，其他步骤不变；r 重新训练",
                         "Training done, other steps unchanged; r trains again"},

    [T_TR_FAILED] = {"无法准备语序训练：%s", "cannot set up the order training: %s"},
    [T_TR_RUNNING] = {"训练中", "training"},
    [T_TR_PAUSED] = {"已暂停", "paused"},
    [T_TR_DONE] = {"训练完成", "trained"},
    [T_TR_STEPPING] = {"再训练一轮", "one more epoch"},
    [T_TR_STATE] = {"第 %d/%d 轮  %s  %s：训练 %u 句，测试 %u 句  d_model %d，%d 个头",
                    "epoch %d/%d  %s  %s: %u training, %u held-out sentences  "
                    "d_model %d, %d heads"},
    [T_TR_STATE_S] = {"第 %d/%d 轮  %s", "epoch %d/%d  %s"},
    [T_TR_PER_FRAME] = {"每帧训练 %d ms", "%d ms/frame"},
    [T_TR_GENERATED] = {"生成的任务（种子 %llu）", "generated task (seed %llu)"},
    [T_TR_ACC] = {"测试句准确率（%%），虚线：不加位置的上限",
                  "held-out %%, dashed: the most without positions"},
    [T_TR_ACC_LINE] = {"不加位置至多 50%%", "no positions: at most 50%%"},
    [T_TR_LOSS] = {"训练损失（对数坐标）", "training loss (log scale)"},
    [T_TR_EPOCHS] = {"轮", "epoch"},
    [T_TR_SCHEME] = {"%-10s 测试 %5.1f%%", "%-10s held-out %5.1f%%"},
    [T_TR_SAME] = {"两种语序答案相同：%.0f%% 的句对", "same answer for both orders: %.0f%% of pairs"},
    [T_TR_SAME_S] = {"两序同答 %.0f%%", "same for both orders %.0f%%"},
    [T_TR_NO_PAIR] = {"测试句没有成对的语序", "no held-out pairs"},
    [T_TR_RIGHT] = {"对", "right"},
    [T_TR_WRONG] = {"错", "wrong"},
    [T_TR_HEAD] = {"注意力：第 %d/%d 个头（h 换头）", "attention of head %d/%d (h: next)"},
    [T_TR_ATTN] = {"行 = 查询，列 = 键", "rows query, columns key"},
    [T_TR_WHY] = {"none %.1f%%：不加位置时两种语序是同一袋词，%.0f%% 的句对得到同一个答案，"
                  "每对至多答对一句",
                  "none %.1f%%: without positions both orders are one bag of words; %.0f%% "
                  "of pairs get the same answer, so at most one of each pair is right"},
    [T_TR_WHY_S] = {"none %.1f%%：%.0f%% 的句对两种语序答案相同", "none %.1f%%: same answer for "
                                                             "both orders in %.0f%% of pairs"},
    [T_TR_WHY_NONE] = {"没有训练 none：用 --scheme 加上它，就能看到不加位置的结果",
                       "none is not trained: add it with --scheme to see attention without "
                       "positions"},
    [T_TR_RESET] = {"回到同样的初始权重，重新训练", "back to the same initial weights; training "
                                                  "again"},
    [T_TR_RESET_PAUSED] = {"回到同样的初始权重（暂停中，空格继续）",
                           "back to the same initial weights (paused; Space goes on)"},
    [T_TR_SPEED] = {"速度：%s", "speed: %s"},
    [T_TR_SPEED_MAX] = {"全速", "full speed"},
    [T_TR_STEP] = {"再训练一轮后暂停", "one more epoch, then pause"},
    [T_TR_EXAMPLE] = {"例句 %d/%d（左右键换句）", "sentence pair %d/%d (Left/Right)"},
    [T_TR_EXAMPLE_S] = {"例句 %d/%d", "sentence pair %d/%d"},
    [T_TR_UNTRAINED] = {"还没有训练：先让第 10 页训练一会儿（空格 继续），再按 e",
                        "nothing trained yet: let view 10 train a while (Space resumes), then e"},
    /* the class's sentence in the order task: why it could not join (sentence, its words, why) */
    [T_TR_CLASS_NOT] = {"仍用内置的 我 爱 学习 这一对：「%s」（分词：%s）%s",
                        "the built-in pair 我 爱 学习 is used: \"%s\" (words: %s) %s"},
    [T_TR_CLASS_THREE] = {"不是「施事者 动词 受事者」三个词", "is not three words, doer verb object"},
    [T_TR_CLASS_SIGN] = {"含有标点、数字或符号", "holds punctuation, digits or signs"},
    [T_TR_CLASS_LONG] = {"有一个词太长（超过 64 字节）", "has a word longer than 64 bytes"},
    [T_TR_CLASS_SAME] = {"施事者和受事者是同一个词，调换后还是同一句",
                         "has the same word as doer and object, so both orders are one sentence"},
    [T_TR_CLASS_ROLES] = {"读不成「施事者 动词 受事者」：中间是任务里的名词，或两头是动词或虚词",
                          "does not read doer verb object: its middle word is one of the task's "
                          "nouns, or a noun is a verb or a function word"},
    [T_TR_CLASS_NO_VERB] = {"中间的词在 jieba 词典里不是动词", "has a middle word that jieba's "
                                                                "dictionary does not tag as a verb"},
    /* the watched pair's title when it is the class's sentence */
    [T_TR_CLASS] = {"你的句子 %d/%d（测试句，从未训练；左右键换句）",
                    "your sentence %d/%d (held out, never trained on; Left/Right)"},
    [T_TR_CLASS_S] = {"你的句子 %d/%d", "your sentence %d/%d"},

    [T_M_BAD_TEXT] = {"%s：%s", "%s: %s"},
    [T_M_VECTORS_DROPPED] =
        {"d_model = %d：W_E 回到随机值；在第 8 页按 u 可换回训练出的 %d 维词向量",
         "d_model = %d: W_E random again; u in view 8 brings back the "
         "trained d=%d rows"},
    [T_M_FILE_DROPPED] = {"d_model = %d：W_E 回到随机值，不再使用 --vectors 的 %d 维词向量",
                          "d_model = %d: W_E is random again, not the d=%d rows of --vectors"},
    [T_M_MAP_UNTRAINED] = {"还没有训练出的词向量：先让第 8 页训练一会儿（空格 继续），再按 e",
                           "no trained vectors yet: let view 8 train a while (Space "
                           "resumes), then e"},
    [T_M_TEXT_CUT] = {"句子已截在 %d 字节的上限（见 docs/limits.md），多出的部分没有收下",
                      "text cut at the %d-byte limit (see docs/limits.md); the rest "
                      "was not taken"},
    [T_PIC_NONE] = {"g：这里显示不了图片，%s", "g: no pictures here: %s"},
    [T_PIC_WHY_TMUX] = {"tmux 和 screen 不转发图片（TFVIZ_GRAPHICS=symbols 可用方块字符画）",
                        "tmux and screen pass no pictures through (TFVIZ_GRAPHICS=symbols draws "
                        "them in block characters)"},
    [T_PIC_WHY_NOT_TTY] = {"输出不是终端", "the output is not a terminal"},
    [T_PIC_WHY_DUMB] = {"TERM 未设置或为 dumb", "TERM is unset or dumb"},
    [T_PIC_WHY_SILENT] = {"终端没有及时回答图片查询（可设 TFVIZ_GRAPHICS=kitty 或 sixel）",
                          "the terminal did not answer the picture queries in time (set "
                          "TFVIZ_GRAPHICS=kitty or sixel)"},
    [T_PIC_WHY_NO_CELL] = {"终端支持 sixel，但没有告诉字符格的像素大小",
                           "the terminal has sixel but did not tell its cell size in pixels"},
    [T_PIC_WHY_NO_PICTURES] = {"这个终端不显示 kitty、sixel 或 iTerm2 图片（TFVIZ_GRAPHICS=symbols "
                               "可用方块字符画）",
                               "this terminal shows no kitty, sixel or iTerm2 pictures "
                               "(TFVIZ_GRAPHICS=symbols draws block characters)"},
    [T_PIC_WHY_FORCED_NONE] = {"TFVIZ_GRAPHICS=none 关掉了图片",
                               "TFVIZ_GRAPHICS=none turns pictures off"},
    [T_PIC_WHY_BAD_FORCE] = {"TFVIZ_GRAPHICS 只能是 kitty、sixel、iterm、symbols 或 none",
                             "TFVIZ_GRAPHICS must be kitty, sixel, iterm, symbols or none"},
    [T_PIC_WHY_NO_CHAFA] = {"这个 tfviz 编译时没有 libchafa，只能显示 kitty 图片",
                            "this tfviz was built without libchafa, so only kitty pictures work"},
    [T_PIC_WHY_NO_COLOR] = {"方块字符图需要颜色（NO_COLOR 或 --no-color 关掉了颜色）",
                            "block-character pictures need colour (NO_COLOR or --no-color is "
                            "set)"},
    [T_PIC_WHY_ASCII] = {"方块字符图需要 UTF-8 区域设置", "block-character pictures need a UTF-8 "
                                                       "locale"},
    [T_PIC_WHY_OTHER] = {"读不到终端的模式", "the terminal's modes could not be read"},
    [T_PIC_ON] = {"g：这一页的插图（%s），再按 g 回到字符图",
                  "g: this view's figure (%s); g again for the text cells"},
    [T_PIC_OFF] = {"g：回到字符图", "g: back to the text cells"},
    [T_PIC_DRAWING] = {"正在绘制插图...", "drawing the figure..."},
    [T_PIC_NO_FIGURE] = {"这一页没有插图，仍显示字符图", "this view has no figure; the text cells "
                                                      "stay"},
    [T_PIC_LESSON] = {"g 在浏览模式里显示插图（tfviz 不带 --lesson）",
                      "g shows figures in the explorer (tfviz without --lesson)"},
    [T_PIC_FAILED] = {"g：画不出插图：%s", "g: cannot draw the figure: %s"},

    [T_LESSON_HEADER] = {"tfviz 课堂 %d/%d", "tfviz lesson %d/%d"},
    [T_LESSON_TRY] = {"试一试：", "Try this: "},
    [T_LESSON_END] = {"这是最后一步。按 PgUp 或退格键回顾，按 q 结束课程。",
                      "This is the last step. PgUp or Backspace goes back, q ends the lesson."},
    [T_LESSON_BYTES_HEAD] = {"字符|码位|UTF-8 字节|十进制",
                             "character|code point|UTF-8 bytes|decimal"},
    [T_LESSON_BYTES_NOTE] = {"这些数字只是编号：相邻的编号不代表相近的意思。",
                             "These numbers are only labels: neighbouring codes do not mean "
                             "neighbouring meanings."},
    [T_LESSON_PE_CELL] = {"pos=%ld, 维度 j=%ld (i=%ld): w_i = 1/%g^(%ld/%d) = %.6f;  "
                          "pos*w_i = %.6f;  %s(%.6f) = %+.6f",
                          "pos=%ld, dim j=%ld (i=%ld): w_i = 1/%g^(%ld/%d) = %.6f;  "
                          "pos*w_i = %.6f;  %s(%.6f) = %+.6f"},
    [T_LESSON_PE_TABLE] = {"热图里这一格：%+.6f", "the heatmap's cell: %+.6f"},
    [T_LESSON_HELP_TITLE] = {"课堂按键", "Lesson keys"},
    [T_LESSON_HELP_STEP] = {"第 %d 步：", "Step %d: "},
    [T_DECK_LIVE] = {"在终端里上这一课：", "This lesson live in a terminal: "},
    [T_DECK_NUMBERS] = {"这一页的数字：", "The numbers: "},
    [T_DECK_ALL_NUMBERS] = {"各页的数字：--print 后面依次换成 %s", "Every slide's numbers: the same "
                            "command with --print %s"},
    [T_DECK_TOKENS_HEAD] = {"词元|编号 id", "token|id"},
    [T_DECK_ONEHOT_TITLE] = {"长度 V = %u 的独热向量：第 id 位是 1，其余都是 0",
                             "One-hot vectors of length V = %u: 1 at the id, 0 everywhere else"},
    [T_DECK_ONEHOT_X] = {"词表中的位置（0 到 V-1）", "place in the vocabulary (0 to V-1)"},
    [T_LK_NEXT_KEYS] = {"空格|PgDn|回车", "Space|PgDn|Enter"},
    [T_LK_NEXT] = {"下一步", "next"},
    [T_LK_NEXT_HELP] = {"下一步，每一步都一样（翻页笔的下一页键发送 PgDn）",
                        "next step, in every step (a presenter's clicker sends PgDn)"},
    [T_LK_BACK_KEYS] = {"PgUp|退格", "PgUp|Backspace"},
    [T_LK_BACK] = {"上一步", "back"},
    [T_LK_BACK_HELP] = {"上一步，每一步都一样（翻页笔的上一页键发送 PgUp）",
                        "previous step, in every step (a clicker's back key sends PgUp)"},
    [T_LK_LANG_KEYS] = {"l", "l"},
    [T_LK_LANG] = {"英文", "中文"},
    [T_LK_LANG_HELP] = {"中文 / English，停在同一步", "中文 / English, on the same step"},
    [T_LK_EDIT_KEYS] = {"/", "/"},
    [T_LK_EDIT] = {"改句子", "edit"},
    [T_LK_EDIT_HELP] = {"输入学生的句子，每一步都跟着它（回车确认，Esc 取消）",
                        "type the class's sentence; every step follows it (Enter apply, Esc "
                        "cancel)"},
    [T_LK_HELP_KEYS] = {"?", "?"},
    [T_LK_HELP] = {"帮助", "help"},
    [T_LK_HELP_HELP] = {"帮助：课堂按键和这一步自己的键", "help: the lesson's keys and the step's own"},
    [T_LK_QUIT_KEYS] = {"q|Esc", "q|Esc"},
    [T_LK_QUIT] = {"退出", "quit"},
    [T_LK_QUIT_HELP] = {"结束课程，终端恢复原样", "end the lesson; the terminal is restored"},
    [T_S9_Q_BIAS] = {"偏置", "bias"},
    [T_S9_Q_SIMILARITY] = {"相似度", "similarity"},
    [T_S9_Q_SCORE] = {"得分", "score"},
    [T_LK_NOTE] = {"其余的键交给这一步的视图，和探索模式相同（方向键、p 暂停训练、a 让时钟走）。",
                   "Every other key goes to the step's view as in the explorer (arrows, p pauses "
                   "the training, a runs the clocks)."},
};

/* The figures' words: pango markup, and the characters of mathematics. */
static const char *const figure_table[T_FIGURES_END - T_TERMINAL_END][2] = {
#define F(id) [(id) - T_TERMINAL_END]
    F(T_F_TITLE_PE) = {"正弦位置编码", "Sinusoidal positional encoding"},
    F(T_F_TITLE_ROPE) = {"RoPE：按位置旋转 q 与 k", "RoPE: rotating q and k by position"},
    F(T_F_TITLE_DECAY) = {"RoPE 远程衰减（RoFormer §3.4.3）",
                          "RoPE long-term decay (RoFormer §3.4.3)"},
    F(T_F_TITLE_FREQ) = {"频率沿维度按几何级数下降",
                         "Frequencies fall geometrically across dimensions"},
    F(T_F_TITLE_DOT) = {"PE(p) ⋅ PE(q) 只取决于 p − q", "PE(p) ⋅ PE(q) depends only on p − q"},
    F(T_F_TITLE_INPUT) = {"第一层读入 <i>X</i><sub>emb</sub> + PE",
                          "The first layer reads <i>X</i><sub>emb</sub> + PE"},
    F(T_F_TITLE_ORDER) = {"没有位置信息，注意力看不出语序",
                          "Word order is invisible without positions"},
    F(T_F_TITLE_EMBEDDING) = {"词嵌入：独热向量 × <i>W</i><sub>E</sub> = 取出第 id 行",
                              "Embedding rows: onehot(id) ⋅ <i>W</i><sub>E</sub> = row id"},
    F(T_F_TITLE_MAP) = {"学出来的词向量按含义聚在一起", "Learned word vectors gather by meaning"},
    F(T_F_TITLE_SCHEMES) = {"位置方案随距离的变化，以及超出训练长度之后",
                            "Position schemes against distance, and past the trained length"},
    F(T_F_TITLE_PEFILE) = {"可学习的位置表：学到了什么", "A learned position table: what it holds"},
    F(T_F_DIM) = {"维度 <i>j</i>", "dimension <i>j</i>"},
    F(T_F_POS) = {"位置 <i>pos</i>", "position <i>pos</i>"},
    F(T_F_POS_P) = {"位置 <i>p</i>", "position <i>p</i>"},
    F(T_F_POS_Q) = {"位置 <i>q</i>", "position <i>q</i>"},
    F(T_F_POS_M) = {"位置 <i>m</i>", "position <i>m</i>"},
    F(T_F_WAVELENGTH) = {"波长 2π / ω<sub><i>i</i></sub>", "2π / ω<sub><i>i</i></sub>"},
    F(T_F_PAIR_DIMS) = {"维度对 <i>i</i>（第 2<i>i</i>、2<i>i</i>+1 维）",
                        "pair <i>i</i> (dimensions 2<i>i</i>, 2<i>i</i>+1)"},
    F(T_F_FREQ_WAVE) = {"频率与波长", "frequency, wavelength"},
    F(T_F_BASE) = {"基数", "base"},
    F(T_F_REL_DIST) = {"相对距离 <i>m</i> − <i>n</i>", "relative distance <i>m</i> − <i>n</i>"},
    F(T_F_DECAY_BOUND) = {"衰减上界 (2/<i>d</i>) Σ<sub><i>j</i></sub> |<i>S</i><sub><i>j</i></sub>|",
                          "decay bound (2/<i>d</i>) Σ<sub><i>j</i></sub> |<i>S</i><sub><i>j</i></sub>|"},
    F(T_F_PAIR) = {"维度对 <i>i</i>", "pair <i>i</i>"},
    F(T_F_DIMS_HALF) = {"第 <i>i</i>、<i>i</i>+<i>d</i>/2 维",
                        "dims <i>i</i>, <i>i</i>+<i>d</i>/2"},
    F(T_F_DIMS_INTERLEAVED) = {"第 2<i>i</i>、2<i>i</i>+1 维", "dims 2<i>i</i>, 2<i>i</i>+1"},
    F(T_F_ROTATION) = {"旋转角 cos(<i>m</i>θ<sub><i>i</i></sub>)",
                       "rotation cos(<i>m</i>θ<sub><i>i</i></sub>)"},
    F(T_F_ROPE_PAIR0) = {"<i>q</i>(%s) 第 0 对转过 <i>m</i>θ<sub>0</sub>，<i>m</i> = %ld–%ld",
                         "<i>q</i>(%s) turned by <i>m</i>θ<sub>0</sub>, <i>m</i> = %ld–%ld"},
    F(T_F_PE_POS) = {"位置编码 PE(<i>pos</i>)", "PE(<i>pos</i>)"},
    F(T_F_VALUE) = {"数值", "value"},
    F(T_F_TOKEN) = {"词元", "token"},
    F(T_F_TOKEN_ID) = {"词元与编号", "token, id"},
    F(T_F_PC1) = {"主成分 1（%.0f%% 方差）", "PC 1 (%.0f%% of variance)"},
    F(T_F_PC2) = {"主成分 2（%.0f%% 方差）", "PC 2 (%.0f%% of variance)"},
    F(T_F_MAP_TITLE) = {"学出来的词向量：最常见的 %zu 个词（d = %d）投影到二维",
                        "learned vectors: the %zu commonest words (d = %d) in 2-D"},
    F(T_F_EMB_TRAINED) = {"<i>W</i><sub>E</sub>（%u × %zu）中的行，%zu 个词的行来自训练/载入",
                          "rows of <i>W</i><sub>E</sub> (%u × %zu), %zu words trained/loaded"},
    F(T_F_EMB_RANDOM) = {"<i>W</i><sub>E</sub>（%u × %zu）中的行，训练前是随机数",
                         "rows of <i>W</i><sub>E</sub> (%u × %zu), random until trained"},
    F(T_F_NO_POS) = {"无位置信息", "no positions"},
    F(T_F_WITH_PE) = {"加 PE", "+ PE"},
    F(T_F_ATTN_WEIGHT) = {"注意力权重", "attention weight"},
    F(T_F_TOKEN_A) = {"A 中的词元", "token of A"},
    F(T_F_MAX_DIFF) = {"Δ<i>Z</i> 占 max|<i>Z</i><sub>A</sub>| 的 %%",
                       "Δ<i>Z</i>, %% of max|<i>Z</i><sub>A</sub>|"},
    F(T_F_MAX_DIFF_S) = {"Δ<i>Z</i>（%%）", "Δ<i>Z</i> (%%)"},
    F(T_F_MODE_ZERO) = {"%s：0", "%s: 0"},
    /* the order figure's note on its head (which of the layer's heads, 1-based, and how many
     * the layer has: view 6's and --print order's head_index + 1 and heads_in_layer), longest
     * first: the first that fits is drawn */
    F(T_F_O_NOTE0) = {"第 %d 个注意力头（共 %d 个），随机、未训练：LayerNorm(√<i>d</i> "
                      "<i>x</i><sub>emb</sub> [+ PE]) → <i>q, k, v</i>。\n展示的是机制，不是训练后的"
                      "模型关注什么。",
                      "Head %d of %d, random and untrained: LayerNorm(√<i>d</i> "
                      "<i>x</i><sub>emb</sub> [+ PE]) → <i>q, k, v</i>.\nIt shows the mechanism, "
                      "not what a trained model attends to."},
    F(T_F_O_NOTE1) = {"第 %d 个头（共 %d 个），随机、未训练（LayerNorm，√<i>d</i> "
                      "<i>x</i><sub>emb</sub>）：\n展示机制，不是训练结果。",
                      "Head %d of %d, random, untrained (LayerNorm, √<i>d</i> "
                      "<i>x</i><sub>emb</sub>):\nthe mechanism, not a trained model."},
    F(T_F_O_NOTE2) = {"第 %d 个头（共 %d 个），随机、未训练。", "Head %d of %d, random, untrained."},
    /* the reading under a mode's column, longest first, the same form for every mode:
     * max|A - B| (its difference map's largest cell) and the change of the outputs */
    F(T_F_O_READ0) = {"max|A − B| = %s，输出变化 max|<i>Z</i>| 的 %s",
                      "max|A − B| = %s; changes %s of max|<i>Z</i>|"},
    F(T_F_O_READ1) = {"max|A − B| = %s\n变化 max|<i>Z</i>| 的 %s",
                      "max|A − B| = %s\nchanges %s of max|<i>Z</i>|"},
    F(T_F_O_READ2) = {"max|A−B| %s\n变化 %s", "max|A−B| %s\nchanges %s"},
    F(T_F_O_READ_WORDS) = {"最大差 %s\n变化 %s", "max diff %s\nchanges %s"},
    F(T_F_O_READ3) = {"最大差 %s\n变化 %s", "max %s\nΔZ %s"},
    F(T_F_O_READ4) = {"%s\n%s", "%s\n%s"},
    /* the rows of squares: what they show, and that their rows are the queries */
    F(T_F_O_ROW_A) = {"A：查询", "A: query"},
    F(T_F_O_ROW_B) = {"B：查询", "B: query"},
    F(T_F_O_ROW_BOWN) = {"B（自身词序）\n查询", "B, own order\nquery"},
    F(T_F_O_ROW_D) = {"|A − B|\n查询", "|A − B|\nquery"},
    F(T_F_O_KEY) = {"键", "key"},
    F(T_F_O_B_ALIGNED) = {"B（按 A 的词序画）", "B, in A's word order"},
    F(T_F_O_B_OWN) = {"B（按它自己的词序）", "B, in its own order"},
    F(T_F_O_DIFF_BAR) = {"|A − B|", "|A − B|"},
    F(T_F_TITLE_DOT_OFFSET) = {"PE(p) · PE(p + k) 随距离 k 下降",
                               "PE(p) · PE(p + k) falls with the distance k"},
    F(T_F_TITLE_ROPE_SCORE) = {"RoPE：注意力分数只取决于 m − n，并随距离衰减",
                               "RoPE: the score depends on m − n only, and decays with it"},
    F(T_F_OFFSET_K) = {"距离 <i>k</i>（任意 <i>p</i> 都相同）",
                       "distance <i>k</i> (the same for every <i>p</i>)"},
    F(T_F_DOT_OFFSET) = {"PE(<i>p</i>) · PE(<i>p</i> + <i>k</i>)",
                         "PE(<i>p</i>) · PE(<i>p</i> + <i>k</i>)"},
    F(T_F_SCORE) = {"(<i>R<sub>m</sub> q</i>) · (<i>R<sub>n</sub> k</i>) / (|<i>q</i>| |<i>k</i>|)",
                    "(<i>R<sub>m</sub> q</i>) · (<i>R<sub>n</sub> k</i>) / (|<i>q</i>| |<i>k</i>|)"},
    F(T_F_DIM_SPLIT_S) = {"sin 半 | cos 半", "sin half | cos half"},
    F(T_F_DIM_SPLIT) = {"列：前半 sin(<i>pos</i> ω<sub><i>i</i></sub>)，后半 cos",
                        "column: sin(<i>pos</i> ω<sub><i>i</i></sub>) half, then cos half"},
    /* no line break inside (m - n)θ: no-break spaces */
    F(T_F_TITLE_ROPE_QK) = {"RoPE：q 与 k 一起转动，夹角为 (m\xc2\xa0−\xc2\xa0n)θ",
                            "RoPE: q and k turn together, the angle between them is "
                            "(m\xc2\xa0−\xc2\xa0n)θ"},
    F(T_F_QK_Q) = {"<i>q</i>，位置 <i>m</i> = %ld", "<i>q</i> at <i>m</i> = %ld"},
    F(T_F_QK_K) = {"<i>k</i>，位置 <i>n</i> = %ld", "<i>k</i> at <i>n</i> = %ld"},
    F(T_F_TITLE_PE_VS_ROPE) = {"同一句话的位置：正弦 PE 相加，RoPE 旋转",
                               "One sentence's positions: sinusoidal PE adds, RoPE rotates"},
    F(T_F_PVR_PE) = {"PE(<i>pos</i>)：加到 <i>x</i> 上", "PE(<i>pos</i>), added to <i>x</i>"},
    F(T_F_PVR_ROPE) = {"RoPE：<i>q</i>、<i>k</i> 的第 <i>i</i> 对转 <i>pos</i> θ<sub><i>i</i></sub>（cos）",
                       "RoPE: pair <i>i</i> of <i>q</i>, <i>k</i> turns by <i>pos</i> θ<sub><i>i</i></sub> (cos)"},
    F(T_F_OWN_SCALE) = {"（单独色标）", " (own colour scale)"},
    F(T_F_SCORE_TOKEN) = {"<i>q</i> = <i>k</i> = <i>q</i>(%s)", "<i>q</i> = <i>k</i> = <i>q</i>(%s)"},
    F(T_F_S_LEARNED) = {"可学习表", "learned"},
    F(T_F_S_ROPE) = {"RoPE", "RoPE"},
    F(T_F_S_ALIBI) = {"ALiBi", "ALiBi"},
    F(T_F_S_T5) = {"T5 偏置", "T5 bias"},
    F(T_F_TITLE_ROPE_ROT) = {"RoPE 让 q 和 k 一起转：夹角不变，q ⋅ k 也不变",
                             "RoPE turns q and k together: their angle and q ⋅ k stay the same"},
    F(T_F_TITLE_PE_WAVES) = {"位置前进时，PE 的每一列是一条正弦或余弦波",
                             "As the position advances, each column of PE is a sine or cosine "
                             "wave"},
    F(T_F_TITLE_TRAINING) = {"训练中：意思相近的词向量聚到一起",
                             "During training, words with similar meanings move together"},
    F(T_F_RR_PLANE) = {"第 0 对：<i>q</i>(%s) 在 <i>m</i> = %.1f，<i>k</i>(%s) 在 <i>n</i> = %.1f",
                       "pair 0: <i>q</i>(%s) at <i>m</i> = %.1f, <i>k</i>(%s) at <i>n</i> = %.1f"},
    F(T_F_RR_DIM_A) = {"第 0 对的第一维", "first dimension of pair 0"},
    F(T_F_RR_DIM_B) = {"第 0 对的第二维", "second dimension of pair 0"},
    F(T_F_RR_ANGLES) = {"第 0 对平面里的角度", "angles in the plane of pair 0"},
    F(T_F_RR_ANGLE) = {"角度（弧度）", "angle (rad)"},
    F(T_F_RR_ANGLE_Q) = {"<i>q</i> 的角度", "angle of <i>q</i>"},
    F(T_F_RR_ANGLE_K) = {"<i>k</i> 的角度", "angle of <i>k</i>"},
    F(T_F_RR_ANGLE_D) = {"二者之差", "between them"},
    F(T_F_RR_SHIFT) = {"平移 <i>s</i>：<i>m</i> = %ld + <i>s</i>，<i>n</i> = %ld + <i>s</i>",
                       "shift <i>s</i>: <i>m</i> = %ld + <i>s</i>, <i>n</i> = %ld + <i>s</i>"},
    F(T_F_RR_BOTH) = {"q、k 同时平移", "q and k shifted"},
    F(T_F_RR_QONLY) = {"只平移 q", "q shifted alone"},
    F(T_F_RR_SCORE) = {"全部 %d 对的 <i>q</i><sub><i>m</i></sub> ⋅ <i>k</i><sub><i>n</i></sub> = "
                       "%.3f，始终不变",
                       "<i>q</i><sub><i>m</i></sub> ⋅ <i>k</i><sub><i>n</i></sub> over all %d "
                       "pairs = %.3f at every shift"},
    F(T_F_PW_WAVES) = {"PE 的几列：随位置变化的波", "columns of PE across the positions"},
    F(T_F_PW_ROW) = {"这一行 PE(<i>pos</i> = %.1f)：每对维度的 sin 与 cos",
                     "the row PE(<i>pos</i> = %.1f): sin and cos of every pair"},
    F(T_F_AVG_COLS) = {"%s\n（每像素：%.2g 列的平均）", "%s\n(a pixel: mean of %.2g columns)"},
    F(T_F_AVG_CELLS) = {"%s\n（每像素：%.2g × %.2g 格的平均）",
                       "%s\n(a pixel: mean of %.2g × %.2g cells)"},
    F(T_F_AVG_SHORT) = {"%s\n（像素为平均）", "%s\n(pixels: means)"},
    F(T_F_SAME_CURVE) = {"%s（与 %s 重合）", "%s (coincides with %s)"},
    F(T_F_PW_SIN) = {"sin：PE(<i>pos</i>, 2<i>i</i>)", "sin: PE(<i>pos</i>, 2<i>i</i>)"},
    F(T_F_PW_COS) = {"cos：PE(<i>pos</i>, 2<i>i</i>+1)", "cos: PE(<i>pos</i>, 2<i>i</i>+1)"},
    F(T_F_TR_MAP) = {"%zu 个词的向量，训练进度 %.0f%%", "vectors of %zu words, %.0f%% trained"},
    F(T_F_TR_CONTROL) = {"（对照）", " (control)"},
    F(T_F_TR_START) = {"随机起点（共 %d 轮）", "random start (%d epochs to go)"},
    F(T_F_TR_LOSS) = {"损失 %.2f", "loss %.2f"},
    F(T_F_TR_DONE) = {"训练进度 (%)", "share of the training (%)"},
    F(T_F_TR_COS) = {"余弦相似度", "cosine similarity"},
    F(T_F_TITLE_ORDER_TRAINING) = {"有了位置信息才学得会语序",
                                   "Word order is learned only with positions"},
    F(T_F_HELD_OUT) = {"测试句准确率", "held-out accuracy"},
    F(T_F_EPOCH) = {"训练轮数", "epoch"},
    F(T_F_TRAIN_LOSS) = {"训练损失", "training loss"},
    F(T_F_CHANCE) = {"不加位置至多 50%%：两种语序答案相同，至多对一半",
                     "at most 50%% without positions: both orders get one answer, so at most "
                     "half are right"},
    /* the 50 % line's label where neither form above fits clear of the curves */
    F(T_F_CHANCE_S) = {"至多 50%%", "at most 50%%"},
    /* the training figure's note, longest first: the first that fits is drawn */
    F(T_F_TRAIN_NOTE) = {"单层注意力模型学「谁是施事者」，每种方案各训练一次：\n训练 %u 句，"
                         "测试 %u 句（从未训练过）。\n不加位置时两种语序答案相同，至多对一半。",
                         "One attention layer learns who does it, once per scheme:\n%u training, "
                         "%u held-out sentences (never trained on).\nWithout positions both "
                         "orders get the same answer: at most half right."},
    F(T_F_TRAIN_NOTE_S) = {"训练 %u 句，测试 %u 句；\nnone：两种语序答案相同。",
                           "%u training, %u held-out sentences;\nnone: the same answer for both "
                           "orders."},
#undef F
};

/* The glosses: the English line (a format, "{zh}" where the Chinese goes), the Chinese words. */
static const char *const gloss_table[T_GLOSSES_END - T_FIGURES_END][2] = {
#define G(id) [(id) - T_FIGURES_END]
    G(T_G_WRITING) = {"写出", "{zh} / writing"},
    G(T_G_TRAINING) = {"训练", "{zh} / training"},
    G(T_G_LEFT) = {"剩余", "{zh} / left"},
    G(T_G_CUT_CHARS) = {"字级切分", "note: the word dictionary (tfviz-dict.bin) is missing in %s, "
                                   "so the corpus is cut into characters ({zh}); install "
                                   "python3-jieba and rebuild for words."},
    G(T_G_SPLIT) = {"词表外的词拆成了词表内的词",
                    "~ split: %zu token(s) are vocabulary words inside a word that is not in the "
                    "V = %u vocabulary / {zh}\n"},
    G(T_G_FALLBACK) = {"词表内没有词覆盖的字，退回单字",
                       "* fallback: %zu token(s) are characters that no vocabulary word covers / "
                       "{zh}\n"},
    G(T_G_NO_ENGLISH) = {"没有英文词表，英文单词拆成了字母",
                         "This build has no English word list, so English words fall back to "
                         "letters; scripts/bootstrap.sh fetches it / {zh}\n"},
    G(T_G_UNK) = {"词表外的字记为 [UNK]", "unk: %zu token(s) are not in the vocabulary and "
                                          "became [UNK] (id %d) / {zh}\n"},
    G(T_G_PARTIAL) = {"字节级 BPE 把一个汉字拆成了几个字节",
                      "partial: %zu token(s) hold part of a UTF-8 character, shown as bytes / "
                      "{zh}\n"},
    G(T_G_ROWS_SET) = {"已训练/载入", "%zu rows of W_E are trained/loaded vectors (%zu of this "
                                       "sentence's %zu tokens, marked *; {zh}); the others are "
                                       "random (seed %llu, uniform +-%.6f).\n"},
    G(T_G_SIMILARITY) = {"余弦相似度", "Cosine similarity of the embedding rows ({zh}); * = "
                                       "trained/loaded row\n"},
    G(T_G_REPORT) = {"tfviz —— 一句话如何变成 Transformer 第一层读入的矩阵",
                     "tfviz — from a sentence to the matrix a Transformer's first layer "
                     "reads\n{zh}\n\n"},
    G(T_G_R_TOKENS) = {"词表与编号", "1. Tokens and ids ({zh}, C1)\n"},
    G(T_G_R_EMBEDDING) = {"词嵌入", "\n2. Embedding rows: onehot(id) . W_E = row id of W_E "
                                   "({zh}, C2-C4)\n"},
    G(T_G_R_PE) = {"位置编码", "\n3. Positional encoding ({zh}, C7)\n"},
    G(T_G_R_FREQ) = {"频率", "\n4. Frequencies fall geometrically ({zh}, C8)\n"},
    G(T_G_R_RELATIVE) = {"唯一性与相对位置",
                         "\n5. Uniqueness and relative position ({zh}, C9-C10)\n"},
    G(T_G_R_INPUT) = {"融合", "\n6. X_input = X_emb + PE ({zh}, C11)\n"},
    G(T_G_R_ORDER) = {"语序", "\n7. Attention is order-blind without positions ({zh}, C6)\n"},
    G(T_G_R_ROPE) = {"旋转位置编码", "\n8. RoPE rotates q and k instead ({zh}, C13)\n"},
    G(T_G_R_SKIPPED) = {"计算量超出限制，已跳过",
                        "  (skipped: about %.0f s of work with these settings, past the limit "
                        "of %.0f s; tfviz --print %s says what to lower / {zh})\n"},
    G(T_G_SGNS) = {"词向量训练", "Skip-gram with negative sampling ({zh})\n"},
    G(T_G_COS_TRAINED) = {"余弦相似度，训练前 -> 训练后",
                          "Cosine similarity, random start -> trained ({zh}):\n"},
    G(T_G_CONTROL) = {"对照", "   (control {zh})"},
    G(T_G_NEIGHBOURS) = {"最近邻", "Nearest neighbours ({zh}):\n"},
    G(T_G_BAND) = {"基线带：常见词两两的余弦", "  band ({zh}): every pair of the %d commonest "
                   "words, mean %+.3f, sd %.3f\n"},
    G(T_G_NEIGHBOURS_OF) = {"最近邻", " by cosine similarity ({zh}), %u words x %d from %s:\n"},
    G(T_G_PCA) = {"主成分投影", "2-D map by PCA ({zh}) of the %zu most frequent words of %s:\n"},
    G(T_G_STEPS) = {"逐步训练", "Training step by step ({zh}): loss per pair and cosine "
                                "similarity, %s\n"},
    G(T_G_ORDER_TITLE) = {"训练语序：同一个单层注意力模型，每种位置方案各训练一次",
                          "Who does it, trained: one attention layer, once per position scheme "
                          "({zh})\n"},
    G(T_G_ORDER_EPOCHS) = {"训练损失与测试准确率",
                           "Training loss and held-out accuracy per epoch ({zh}):\n"},
    G(T_G_ORDER_FINAL) = {"最终结果", "After training, epoch %d ({zh}):\n"},
    G(T_G_ORDER_WHY) = {"为什么 none 停在百分之五十：不加位置时，一对句子的两种语序是同一袋词，模型给"
                        "每个词的分数在两句中相同，为两句选出同一个施事者（最后一列）；两句的施事者"
                        "不同，所以每对至多答对一句，准确率至多一半。加上位置信息，模型才分得清两种"
                        "语序。",
                        "\nWhy none stays at 50%%: without positions the two orders of a pair are "
                        "the same bag of\nwords, so the model gives each word the same score in "
                        "both and names the same doer for\nboth (the last column); the two doers "
                        "differ, so at most one answer of each pair is right:\nat most 50%%. "
                        "With positions a scheme tells the two orders apart.\n{zh}\n"},
    G(T_G_NO_FORMAT) = {"这个主题不输出这种格式",
                        "--print %s writes %s, not %s ({zh}): choose one of those with "
                        "--format"},
    G(T_G_NOT_HERE) = {"这个选项在这里不起作用",
                       "%s applies to %s, not to %s ({zh}): leave it out, or run the mode it "
                       "applies to."},
    G(T_G_ORDER_NO_PAIRS) = {"这个任务的测试句没有成对的句子（同样的词、另一种语序），所以这里 none "
                             "的准确率没有上限：单凭词本身就可能猜出施事者。给每个测试句加上另一种"
                             "语序，就能看到 none 落到猜测水平。",
                             "\nThe held-out sentences of this task have no pairs (the same words "
                             "in another order), so\nnothing bounds none's accuracy here: its "
                             "words alone may give the doer away. Add each\nheld-out sentence's "
                             "other order to see none fall to chance.\n{zh}\n"},
    G(T_G_CLASS_PAIR) = {"你的句子和它的另一种语序（测试句，从未训练）",
                         "\nThe class's sentence and its other order, held out, never trained on "
                         "({zh}):\n  %s  /  %s   doers %s / %s\n"},
    G(T_G_CLASS_SAME) = {"两种语序同一个施事者，必错一句",
                         "the same doer for both orders: one is wrong ({zh})"},
    G(T_G_CLASS_RIGHT) = {"两种语序都对", "right in both orders ({zh})"},
    G(T_G_CLASS_WRONG) = {"有错", "wrong in %d of the two ({zh})"},
#undef G
};

/* The model's status sentences in Chinese; the English ones are tf_status_str's. */
static const char *const status_zh[TF_STATUS_COUNT] = {
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

const char *txt_lang(txt_id id, bool chinese)
{
    int l = chinese ? 0 : 1;
    if (id >= 0 && id < T_TERMINAL_END)
        return table[id][l];
    if (id >= T_TERMINAL_END && id < T_FIGURES_END)
        return figure_table[id - T_TERMINAL_END][l];
    if (id >= T_FIGURES_END && id < T_GLOSSES_END)
        return gloss_table[id - T_FIGURES_END][l];
    return NULL;
}

const char *txt(txt_id id)
{
    const char *s = txt_lang(id, zh);
    return s ? s : "";
}

void txt_set_zh(bool on) { zh = on; }
bool txt_is_zh(void) { return zh; }

const char *txt_format(txt_id id, const char *en)
{
    (void)en; /* for the compiler's checks at the call */
    return txt(id);
}

const char *txt_format_lang(txt_id id, bool chinese, const char *en)
{
    (void)en;
    const char *f = txt_lang(id, chinese);
    return f ? f : "";
}

const char *txt_gloss_format(char *buf, size_t cap, txt_id id)
{
    const char *en = txt_lang(id, false), *gloss = txt_lang(id, true);
    const char *at = en ? strstr(en, "{zh}") : NULL;
    if (!at) {
        snprintf(buf, cap, "%s", en ? en : "");
        return buf;
    }
    snprintf(buf, cap, "%.*s%s%s", (int)(at - en), en, gloss, at + 4);
    return buf;
}

const char *txt_gloss_f(txt_id id, const char *en)
{
    (void)en;
    static _Thread_local char fmt[2048];
    return txt_gloss_format(fmt, sizeof fmt, id);
}

const char *txt_status_lang(tf_status s, bool chinese)
{
    if (!chinese || (unsigned)s >= TF_STATUS_COUNT)
        return tf_status_str(s);
    return status_zh[s];
}

const char *txt_status(tf_status s) { return txt_status_lang(s, zh); }

/* The order task file's problems in Chinese; the English ones are order_problem_str's. */
static const char *const problem_zh[ORDER_PROBLEM_COUNT] = {
    [ORDER_OK] = "没有错误",
    [ORDER_BAD_UTF8] = "这一行不是有效的 UTF-8：请把文件存为 UTF-8",
    [ORDER_BAD_CONTROL] = "这一行有控制字符：只保留词、空格和制表符",
    [ORDER_BAD_LINE_LONG] = "这一行超过 1024 字节：请拆成较短的句子",
    [ORDER_BAD_WORD_LONG] = "有一个词超过 64 字节：请用空格把词分开",
    [ORDER_BAD_TOKENS] = "这句超过 32 个词：请用较短的句子",
    [ORDER_BAD_ONE_TOKEN] = "这句只有一个词：至少写两个，用空格分开，例如 *猫 追 狗",
    [ORDER_BAD_NO_MARK] = "没有标出施事者：在它前面加 *，例如 *猫 追 狗",
    [ORDER_BAD_TWO_MARKS] = "不止一个词标了 *：只标施事者",
    [ORDER_BAD_EMPTY_MARK] = "* 后面没有词：把它紧贴在施事者前面，例如 *猫 追 狗",
    [ORDER_BAD_STRAY_MARK] = "* 出现在词的中间：它只能放在施事者前面；词之间用空格分开",
    [ORDER_BAD_DIRECTIVE] = "不认识的 @ 行：只有 @train 和 @test",
    [ORDER_BAD_CONFLICT] = "同一句话在前面的行里标了另一个施事者：只保留其中一行",
    [ORDER_BAD_IN_BOTH] = "测试句（@test）也是训练句：删掉其中一处",
    [ORDER_BAD_TOO_MANY] = "文件超过 100000 句：请减少句子",
    [ORDER_BAD_VOCAB] = "文件中不同的词超过 8191 个：请减少用词",
    [ORDER_BAD_FILE_BIG] = "文件超过 16 MiB：请用较小的文件",
    [ORDER_BAD_EMPTY] = "文件里没有句子：每行写一句，施事者前加 *，例如 *猫 追 狗",
    [ORDER_BAD_NO_TRAIN] = "没有可训练的句子：在 @test 之前或 @train 之后写训练句",
    [ORDER_BAD_NO_TEST] = "没有可留作测试的句子：至少要有两组不同的词，或在 @test 之后写测试句",
    [ORDER_BAD_READ] = "无法读取文件：请检查文件名和权限",
};

const char *txt_order_problem_lang(order_problem p, bool chinese)
{
    if (!chinese || (unsigned)p >= ORDER_PROBLEM_COUNT)
        return order_problem_str(p);
    return problem_zh[p];
}
