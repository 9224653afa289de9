#!/usr/bin/env bash
# gallery.sh — draw every figure with the built tfviz into docs/gallery/ (PNG, 120 dpi) and
# write docs/gallery.md. Run through `meson compile -C build gallery`.
#
#   scripts/gallery.sh TFVIZ DOCS_DIR
set -euo pipefail
tfviz=$1
docs=$2
out=$docs/gallery
mkdir -p "$out"

# name | options | what it shows (English / 中文)
figures=(
    "pe|-n 100 -d 128|PE(pos, j) for 100 positions and 128 dimensions: fast pairs on the left, slow on the right. / 100 个位置、128 维的位置编码：左边变化快，右边变化慢。"
    "pe-en|--lang en -n 64 -d 512 --width two-column --height 2.6in|All 512 dimensions at the two-column width, English labels. / 通栏宽度下的全部 512 维，英文标签。"
    "rope|-n 64 -d 128|RoPE: cos of the rotation angle per pair, and pair 0 of q turning with the position. / RoPE：每对维度的旋转角余弦，以及 q 的第 0 对随位置转动。"
    "rope-decay|-d 128 -n 256|RoFormer's long-term decay bound at d = 128 (32.5 at r = 0, about 10 at r = 100). / RoFormer 的远程衰减上界（d = 128）。"
    "freq|-d 128 -n 64|Frequencies and wavelengths per pair on a log axis, and a few dimensions across positions. / 对数坐标下的频率与波长，以及几个维度随位置的变化。"
    "dot|-d 128 -n 64|PE(p)·PE(q): constant along every diagonal, so it depends on p − q only. / 位置编码点积沿对角线不变，只取决于 p − q。"
    "input|-d 64|X_emb, PE and their sum for each token of 我爱学习. / 我爱学习每个词元的词嵌入、位置编码与二者之和。"
    "order|--compare 学习爱我|我爱学习 vs 学习爱我 through one random, untrained head (LayerNorm, word vectors × √d): without positions B's weights are A's permuted and the outputs equal; with PE and with RoPE the weights differ and the outputs move by a sizeable share of max\|Z\| (under each column). / 同一个随机注意力头：无位置时 B 只是 A 的行列重排，输出相同；加 PE 或 RoPE 后权重不同，输出明显变化（见每列下方）。"
    "embedding|-d 64|The rows of W_E that the sentence's ids pick out. / 句子的编号从 W_E 中取出的行。"
    "schemes|--scheme sinusoidal,rope,alibi,t5 --scaling yarn --factor 4 --head 5 -d 128 --lang en --width two-column --height 6.5in|Beyond the article: the schemes real models use against distance on a log axis. Above, sinusoidal PE and RoPE (the same curve for q = k) and RoPE with YaRN; in the middle, past the trained length L = 4096 plain RoPE turns slow pairs to angles training never reached, YaRN not until 4L; below, ALiBi's penalty keeps growing at any length while T5's (untrained) bias goes flat past its 128. / 文章之外：真实模型的位置方案随距离的变化（对数轴）。中间一栏：超出训练长度后原始 RoPE 的慢频率对转到没见过的角度，YaRN 要到 4L 才会；下方：ALiBi 的惩罚一直线性增长，T5 的偏置过了 128 就不再变化。"
    "order-training|--seed 42|One attention layer trained on who does it, once per position scheme, from the same weights: held-out accuracy per epoch (chance dashed) and the training loss. none stays at 50 %, the others reach 100 %. / 同一个单层注意力模型按每种位置方案各训练一次：none 停在 50%，其余达到 100%。"
)

{
    echo "# Figure gallery / 插图一览"
    echo
    echo "Every image here is drawn by tfviz itself (\`meson compile -C build gallery\` redraws them)."
    echo "They are PNGs at 120 dpi for this page; for a paper use \`.pdf\` or \`.svg\` (vector text,"
    echo "the heatmap embedded once at the data's own resolution) or PNG at the default 300 dpi."
    echo "One-column width (3.5 in) is the default; \`--width two-column\` gives 7.16 in."
    echo
    echo "本页的图都由 tfviz 自己生成。论文请用 \`.pdf\` 或 \`.svg\`（矢量文字），或默认 300 dpi 的 PNG。"
    echo
} >"$docs/gallery.md"

for entry in "${figures[@]}"; do
    IFS='|' read -r name opts what <<<"$entry"
    fig=${name%-en}
    # shellcheck disable=SC2086 # opts are words
    "$tfviz" --export "$out/$name.png" --figure "$fig" --dpi 120 $opts
    {
        echo "## $name"
        echo
        echo "$what"
        echo
        echo '```sh'
        echo "tfviz --export $name.pdf --figure $fig $opts"
        echo '```'
        echo
        echo "![$name](gallery/$name.png)"
        echo
    } >>"$docs/gallery.md"
done
echo "gallery: $(ls "$out" | wc -l) figures in $out"
