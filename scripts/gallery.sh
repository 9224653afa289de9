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

# The figures and the options each is drawn with come from the table of figures
# (app/figures/export.c), written out by tfviz-options-docs, built beside tfviz; here only what
# each shows (English / 中文), by name: a figure without a caption shows its title. Each still
# figure is drawn four times: one column (3.5 in) and the full text width (two-column, 7.16 in),
# in Chinese and in English.
table=$("$(dirname "$tfviz")/tfviz-options-docs" figures)
declare -A caption=(
    [pe]="PE(pos, j) for 100 positions and 128 dimensions: fast pairs on the left, slow on the right. / 100 个位置、128 维的位置编码：左边变化快，右边变化慢。"
    [rope]="RoPE: cos of the rotation angle per pair, and pair 0 of q turning with the position. / RoPE：每对维度的旋转角余弦，以及 q 的第 0 对随位置转动。"
    [rope-decay]="RoFormer's long-term decay bound at d = 128 (32.5 at r = 0, about 10 at r = 100). / RoFormer 的远程衰减上界（d = 128）。"
    [freq]="Frequencies and wavelengths per pair on a log axis, and a few dimensions across positions. / 对数坐标下的频率与波长，以及几个维度随位置的变化。"
    [dot]="PE(p)·PE(q): constant along every diagonal, so it depends on p − q only. / 位置编码点积沿对角线不变，只取决于 p − q。"
    [dot-offset]="PE(p)·PE(p + k) against the distance k: d/2 at k = 0, then falling, the same curve for every p. / PE(p)·PE(p + k) 随距离 k 的变化：k = 0 时为 d/2，随后下降，与 p 无关。"
    [rope-score]="RoPE's score (R_m q)·(R_n k) against m − n for the same q and k: a peak at 0 and a decay, the same at every absolute position. / RoPE 的注意力分数随 m − n 的变化：0 处最大，随距离衰减，与绝对位置无关。"
    [rope-qk]="Pair 0 of q at m and of k at n, for (m, n) = (2, 0) and (6, 4): both turn with their positions and the angle between them, (m − n)θ₀, is the same. / q 在位置 m、k 在位置 n 的第 0 对：(2, 0) 与 (6, 4) 两组都随位置转动，夹角 (m − n)θ₀ 相同。"
    [pe-vs-rope]="The positions of 我爱学习 through both schemes: PE(pos) is a vector added to each token's embedding; RoPE turns pair i of q and k by pos·θᵢ (its cosine shown). / 我爱学习的位置经过两种方案：PE(pos) 是加到词嵌入上的向量；RoPE 把 q、k 的第 i 对旋转 pos·θᵢ（图为余弦）。"
    [input]="X_emb, PE and their sum for each token of 我爱学习. / 我爱学习每个词元的词嵌入、位置编码与二者之和。"
    [order]="我爱学习 vs 学习爱我 through one random, untrained head (LayerNorm, word vectors × √d), B drawn in A's word order (--order-b own: in its own): without positions A and B are the same picture cell for cell and \|A − B\| (bottom row, its own scale) is blank; with PE and with RoPE they differ and the outputs move by a sizeable share of max\|Z\| (under each column). / 同一个随机注意力头，B 按 A 的词序画：无位置时 A、B 两幅图逐格相同，\|A − B\|（最下一行）一片空白；加 PE 或 RoPE 后两幅图不同，输出明显变化（见每列下方）。"
    [embedding]="The rows of W_E that the sentence's ids pick out. / 句子的编号从 W_E 中取出的行。"
    [embedding-map]="The 60 commonest words of vectors trained on the built-in corpus (tfviz --train -o VECTORS; in English the English corpus, tfviz --train --lang en -o VECTORS), on their two principal components: cities, family words and verbs gather. / 用内置语料训练的词向量中最常见的 60 个词在前两个主成分上的位置：城市、亲属、动词各自聚在一起。"
    [schemes]="Beyond the article: the schemes real models use against distance on a log axis, three panels stacked in a column and side by side across the text width. First, sinusoidal PE and RoPE (the same curve for q = k) and RoPE with YaRN; second, past the trained length L = 4096 plain RoPE turns slow pairs to angles training never reached, YaRN not until 4L; third, ALiBi's penalty keeps growing at any length while T5's (untrained) bias goes flat past its 128. / 文章之外：真实模型的位置方案随距离的变化（对数轴），单栏上下排列、通栏左右并排。第二栏：超出训练长度后原始 RoPE 的慢频率对转到没见过的角度，YaRN 要到 4L 才会；第三栏：ALiBi 的惩罚一直线性增长，T5 的偏置过了 128 就不再变化。"
    [pe-file]="A learned position table (here the untrained, random one of --scheme learned; --pe-file FILE reads a model's): the table, the dot products of its rows, and the mean cosine of rows k apart beside sinusoidal PE's. / 学习得到的位置表（此处为未训练的随机表；--pe-file FILE 读取模型的表）：表本身、行之间的点积，以及相隔 k 的两行的平均余弦，与正弦 PE 对照。"
    [order-training]="One attention layer trained on who does it, once per position scheme, from the same weights: held-out accuracy per epoch (chance dashed) and the training loss. none stays at 50 %, the others reach 100 %. / 同一个单层注意力模型按每种位置方案各训练一次：none 停在 50%，其余达到 100%。"
)
vectors=$(mktemp)
vectors_en=$(mktemp) # an English figure's words: the English built-in corpus
trap 'rm -f "$vectors" "$vectors_en"' EXIT
"$tfviz" --train -o "$vectors" >/dev/null 2>&1
"$tfviz" --train --lang en -o "$vectors_en" >/dev/null 2>&1

{
    echo "# Figure gallery / 插图一览"
    echo
    echo "Every image here is drawn by tfviz itself (\`meson compile -C build gallery\` redraws them)."
    echo "They are PNGs at 100 dpi for this page; for a paper use \`.pdf\` or \`.svg\` (vector text)"
    echo "or PNG at the default 300 dpi. Each figure is shown at one column (3.5 in, the default) and"
    echo "at the full text width (\`--width two-column\`, 7.16 in, about 2.5 to 3.4 in tall), in"
    echo "Chinese (the default) and English (\`--lang en\`). \`--venue acl|neurips|icml|iclr|ieee|a4\`"
    echo "takes a venue's own widths; \`--serif\` matches Times text."
    echo
    echo "本页的图都由 tfviz 自己生成。每个图都有单栏与通栏、中文与英文四个版本。论文请用 \`.pdf\` 或"
    echo "\`.svg\`（矢量文字），或默认 300 dpi 的 PNG。"
    echo
} >"$docs/gallery.md"

rm -f "$out"/*.png "$out"/deck-*.pdf
while IFS=$'\t' read -r -u 3 name kind _ opts title_en title_zh; do
    [[ $kind == still ]] || continue
    [[ $opts == - ]] && opts=
    what=${caption[$name]:-$title_en / $title_zh}
    shown=$opts
    opts_en=${opts//VECTORS/$vectors_en}
    opts=${opts//VECTORS/$vectors}
    if [[ $opts == *--width* ]]; then # a figure drawn at one size only (its options say which)
        # shellcheck disable=SC2086 # opts are words
        "$tfviz" --export "$out/$name.png" --figure "$name" --dpi 100 $opts
        {
            echo "## $name"
            echo
            echo "$what"
            echo
            echo '```sh'
            echo "tfviz --export $name.pdf --figure $name $shown"
            echo '```'
            echo
            echo "![$name](gallery/$name.png)"
            echo
        } >>"$docs/gallery.md"
        continue
    fi
    declare -A shown_as=()
    for variant in "|" "-en|--lang en" "-2col|--width two-column" "-2col-en|--width two-column --lang en"; do
        IFS='|' read -r suffix extra <<<"$variant"
        use=$opts
        [[ $extra == *"--lang en"* ]] && use=$opts_en
        # a size the figure refuses is said in the gallery instead of its picture
        # shellcheck disable=SC2086 # opts and extra are words
        if "$tfviz" --export "$out/$name$suffix.png" --figure "$name" --dpi 100 $use $extra \
            2>"$out/.err"; then
            shown_as[x$suffix]="![$name$suffix](gallery/$name$suffix.png)"
        else
            shown_as[x$suffix]="(refused: $(sed 's/^tfviz: //' "$out/.err"))"
        fi
    done
    rm -f "$out/.err"
    {
        echo "## $name"
        echo
        echo "$what"
        echo
        echo '```sh'
        echo "tfviz --export $name.pdf --figure $name $shown"
        echo "tfviz --export $name.pdf --figure $name $shown --width two-column --lang en"
        echo '```'
        echo
        echo "| one column / 单栏 | one column, English |"
        echo "|---|---|"
        echo "| ${shown_as[x]} | ${shown_as[x-en]} |"
        echo
        echo "${shown_as[x-2col]}"
        echo
        echo "${shown_as[x-2col-en]}"
        echo
    } >>"$docs/gallery.md"
done 3<<<"$table"

# one base alone: --base draws that base's bound and no other
"$tfviz" --export "$out/rope-decay-one-base.png" --figure rope-decay -d 128 -n 256 --base 500000 --dpi 100
"$tfviz" --export "$out/rope-decay-one-base-en.png" --figure rope-decay -d 128 -n 256 --base 500000 --dpi 100 --lang en
{
    echo "## rope-decay, one base"
    echo
    echo "With \`--base\` the figure draws that base alone (without it, 10000 beside Llama 3's 500000); a base keeps its style either way. / 指定 \`--base\` 时只画这一个基数。"
    echo
    echo '```sh'
    echo "tfviz --export rope-decay.pdf --figure rope-decay -d 128 -n 256 --base 500000"
    echo '```'
    echo
    echo "| 中文 | English |"
    echo "|---|---|"
    echo "| ![rope-decay, one base](gallery/rope-decay-one-base.png) | ![rope-decay, one base, English](gallery/rope-decay-one-base-en.png) |"
    echo
} >>"$docs/gallery.md"

# the animations: four frames of each, two by two in reading order (Pillow, python3-pil, joins
# them)
declare -A anim_caption=(
    [rope-rotation]="q of 我 and k of 学习 turning together with the position: in the plane of pair 0 both turn by the same angle, so the angle between them stays, and so does q·k over all pairs. / q（我）和 k（学习）随位置一起转：第 0 对平面里两者转过同样的角度，夹角不变，全部维度的 q·k 也不变。"
    [pe-waves]="The position advances along the columns of PE: each column is a sine or cosine wave, slower for larger j; the row PE(pos) on the right changes as pos moves. / 位置沿 PE 的各列前进：每列都是正弦或余弦波，j 越大越慢；右边是当前位置的整行。"
    [training]="The map of words while SGNS trains on the built-in corpus: from a random start, 爱 and 喜欢, 猫 and 狗 move together while the control pair 爱 – 北京 drifts apart (with --lang en the English corpus: love and like, cat and dog, control love – London). / 在内置语料上训练时的词向量图：从随机起点开始，爱与喜欢、猫与狗逐渐靠拢，对照的爱与北京分开。"
    [order-training]="The order model's curves as it trains, epoch by epoch, once per position scheme: without positions held-out accuracy stops at chance (50 %) and the loss levels off; with sinusoidal PE, learned positions or RoPE both rise to about 100 %. / 语序模型边训练边画出的曲线，每种位置方案各一条：不加位置时测试准确率停在猜测水平（50 %），损失不再下降；加了正弦位置编码、可学习位置或 RoPE 后都升到约 100 %。"
)
{
    echo "## Animations / 动画"
    echo
    echo "Written as a GIF (\`--export NAME.gif\`) or as numbered PNG frames (\`--export DIR/\`), 960 x 540"
    echo "pixels by default; \`--frames\` and \`--fps\` set the length and speed. Each picture below shows"
    echo "four frames of one animation, in reading order. / 导出为 GIF 或逐帧 PNG；下面每条是一段动画的四帧。"
    echo
} >>"$docs/gallery.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while IFS=$'\t' read -r -u 3 name kind _ opts title_en title_zh; do
    [[ $kind == animation ]] || continue
    [[ $opts == - ]] && opts=
    what=${anim_caption[$name]:-$title_en / $title_zh}
    # shellcheck disable=SC2086 # opts are words
    "$tfviz" --export "$tmp/$name/" --figure "$name" --frames 4 --dpi 80 $opts
    /usr/bin/python3 - "$tmp/$name" "$out/$name-strip.png" <<'PY'
import os, sys
from PIL import Image
frames = [Image.open(os.path.join(sys.argv[1], f)) for f in sorted(os.listdir(sys.argv[1]))]
w, h = frames[0].size
strip = Image.new("RGB", (2 * w + 8, 2 * h + 8), (200, 200, 200))
for i, f in enumerate(frames):
    strip.paste(f.convert("RGB"), (i % 2 * (w + 8), i // 2 * (h + 8)))
strip.save(sys.argv[2], optimize=True)
PY
    {
        echo "### $name"
        echo
        echo "$what"
        echo
        echo '```sh'
        echo "tfviz --export $name.gif --figure $name${opts:+ $opts}"
        echo '```'
        echo
        echo "![$name](gallery/$name-strip.png)"
        echo
    } >>"$docs/gallery.md"
done 3<<<"$table"
# the lesson as slides: the PDF of each language, and its pages as one picture (Pillow joins
# the folder's PNGs, three across)
{
    echo "## The lesson as slides / 课堂幻灯片"
    echo
    echo "\`tfviz --lesson --export deck.pdf\` writes the lesson's twelve steps as 16:9 slides (13.33 x 7.5 in;"
    echo "\`--export DIR/\` writes 1920 x 1080 PNGs): each step's title, its point, its picture and its"
    echo "\"try this\" line, for the class's sentence. / 把课堂的十二步导出为 16:9 幻灯片。"
    echo
} >>"$docs/gallery.md"
for variant in "zh|我爱学习|" "en|The cat chases the dog|--lang en"; do
    IFS='|' read -r lang sentence extra <<<"$variant"
    # shellcheck disable=SC2086 # extra is words
    "$tfviz" --lesson --export "$out/deck-$lang.pdf" $extra "$sentence"
    # shellcheck disable=SC2086
    "$tfviz" --lesson --export "$tmp/deck-$lang/" $extra "$sentence"
    /usr/bin/python3 - "$tmp/deck-$lang" "$out/deck-$lang-pages.png" <<'PY'
import os, sys
from PIL import Image
pages = [Image.open(os.path.join(sys.argv[1], f)) for f in sorted(os.listdir(sys.argv[1]))]
w, h = 480, 270
sheet = Image.new("RGB", (3 * w + 16, 4 * h + 24), (200, 200, 200))
for i, p in enumerate(pages):
    sheet.paste(p.convert("RGB").resize((w, h), Image.LANCZOS), (i % 3 * (w + 8), i // 3 * (h + 8)))
sheet.save(sys.argv[2], optimize=True)
PY
    {
        echo "### $sentence"
        echo
        echo '```sh'
        echo "tfviz --lesson --export deck.pdf${extra:+ $extra} '$sentence'"
        echo '```'
        echo
        echo "[deck-$lang.pdf](gallery/deck-$lang.pdf)"
        echo
        echo "![deck-$lang](gallery/deck-$lang-pages.png)"
        echo
    } >>"$docs/gallery.md"
done
# the before/after pictures (drawn once, kept in docs/gallery/compare): listed, not redrawn
cat >>"$docs/gallery.md" <<'MD'
## Before and after / 修改前后

Pictures of a figure as the previous version drew it and as this one does, in
[gallery/compare](gallery/compare). Where the previous version refused the page, the "before"
picture shows its message. / 上一版与本版画同一张图的对比；上一版拒绝导出时，"before" 图是它的提示。

| what changed / 改动 | before / 之前 | after / 之后 |
|---|---|---|
| rope-rotation at one column, 8 pt (English; after: English and Chinese): the angles' panel, the subtitles and the shift's positions give way, the score's legend goes above its plot | ![anim-rope-rotation-1col-before](gallery/compare/anim-rope-rotation-1col-before.png) | ![anim-rope-rotation-1col-after](gallery/compare/anim-rope-rotation-1col-after.png) |
| rope-rotation at two columns, 12 pt, English | ![anim-rope-rotation-2col-12pt-before](gallery/compare/anim-rope-rotation-2col-12pt-before.png) | ![anim-rope-rotation-2col-12pt-after](gallery/compare/anim-rope-rotation-2col-12pt-after.png) |
| pe-waves at one column, 8 pt: the panels side by side, their legends in rows above the plots | ![anim-pe-waves-1col-before](gallery/compare/anim-pe-waves-1col-before.png) | ![anim-pe-waves-1col-after](gallery/compare/anim-pe-waves-1col-after.png) |
| training at one column, 8 pt, Chinese: the cosines' legend left the page; now below the panel | ![anim-training-1col-before](gallery/compare/anim-training-1col-before.png) | ![anim-training-1col-after](gallery/compare/anim-training-1col-after.png) |
| training at two columns, 8 pt: the legend covered the curves at the start; now in the corner the whole run leaves free | ![anim-training-2col-before](gallery/compare/anim-training-2col-before.png) | ![anim-training-2col-after](gallery/compare/anim-training-2col-after.png) |
| order-training at one column, 8 pt: a frame drops the note and the loss panel | ![anim-order-training-1col-before](gallery/compare/anim-order-training-1col-before.png) | ![anim-order-training-1col-after](gallery/compare/anim-order-training-1col-after.png) |
| order-training at 3.5 in, 10 pt: the chance label crossed the curves; now where no curve of the run passes | ![order-training-chance-before](gallery/compare/order-training-chance-before.png) | ![order-training-chance-after](gallery/compare/order-training-chance-after.png) |
| rope at two columns, 12 pt, as the zh/en test draws it (我爱学习, d = 32; Chinese above, English below): the two languages had different ticks and ranges; now the same | ![rope-2col-12pt-zh-en-before](gallery/compare/rope-2col-12pt-zh-en-before.png) | ![rope-2col-12pt-zh-en-after](gallery/compare/rope-2col-12pt-zh-en-after.png) |
| rope at two columns, 12 pt (Chinese, English) | ![rope-2col-12pt-before](gallery/compare/rope-2col-12pt-before.png) ![rope-2col-12pt-en-before](gallery/compare/rope-2col-12pt-en-before.png) | ![rope-2col-12pt-after](gallery/compare/rope-2col-12pt-after.png) ![rope-2col-12pt-en-after](gallery/compare/rope-2col-12pt-en-after.png) |
| embedding-map at two columns (Chinese, English) | ![embedding-map-2col-before](gallery/compare/embedding-map-2col-before.png) ![embedding-map-2col-en-before](gallery/compare/embedding-map-2col-en-before.png) | ![embedding-map-2col-after](gallery/compare/embedding-map-2col-after.png) ![embedding-map-2col-en-after](gallery/compare/embedding-map-2col-en-after.png) |
| schemes at two columns (`--width two-column`): the panels stacked on a page 10.4 in tall before, side by side on one 2.8 in tall after / 通栏：之前上下堆叠、页高 10.4 in；之后左右并排，页高 2.8 in | ![schemes-2col-before](gallery/compare/schemes-2col-before.png) | ![schemes-2col-after](gallery/compare/schemes-2col-after.png) |
| pe-file at two columns, English (`--width two-column`): the two maps and the curve stacked on a page 8.2 in tall before, side by side on one 2.8 in tall after / 通栏：之前三块上下排、页高 8.2 in；之后左右并排，页高 2.8 in | ![pe-file-2col-before](gallery/compare/pe-file-2col-before.png) | ![pe-file-2col-after](gallery/compare/pe-file-2col-after.png) |
| schemes at one column, 14 pt, English: the label L = 128 crossed ALiBi's curve before; after, it stands where no curve, guide line or other label crosses it (here the number alone) / 之前 L = 128 压在 ALiBi 曲线上；之后放在没有曲线穿过的地方 | ![schemes-en-1col-before](gallery/compare/schemes-en-1col-before.png) | ![schemes-en-1col-after](gallery/compare/schemes-en-1col-after.png) |
| order, English: the note names the head its numbers come from (Head 3 of 16), as view 6 and `--print order` do / 注释写明数字来自哪个注意力头 | ![order-head-note-before](gallery/compare/order-head-note-before.png) | ![order-head-note-after](gallery/compare/order-head-note-after.png) |
| rope-decay with `--base 500000`: that base alone | ![rope-decay-one-base-before](gallery/compare/rope-decay-one-base-before.png) | ![rope-decay-one-base-after](gallery/compare/rope-decay-one-base-after.png) |
| embedding-map in English (`--lang en`; the gallery trains its vectors with `--train --lang en`): the words came from the Chinese corpus and a CJK font was embedded; now the English built-in corpus / 英文图用英文内置语料训练的词向量 | ![embedding-map-en-words-before](gallery/compare/embedding-map-en-words-before.png) | ![embedding-map-en-words-after](gallery/compare/embedding-map-en-words-after.png) |
| schemes at one column, Chinese: the legend said （与 sinusoidal 重合）, now （与 正弦 PE 重合）; the unseen-angles panel no longer repeats the first panel's legend / 图例用中文方案名；第二栏不再重复图例 | ![schemes-zh-1col-before](gallery/compare/schemes-zh-1col-before.png) | ![schemes-zh-1col-after](gallery/compare/schemes-zh-1col-after.png) |
| rope at one column, English: panel (b)'s subtitle is the key of its arrows: q turned by mθ₀, each labelled with its m; the labels keep off the arrows, the guides and the circle / (b) 的小标题说明箭头是什么 | ![rope-1col-key-before](gallery/compare/rope-1col-key-before.png) | ![rope-1col-key-after](gallery/compare/rope-1col-key-after.png) |
| input at one column, 10 pt (English): X_emb's colour bar had one tick (0.00); every colour bar now labels at least its two ends, and 0 when signed / 色标至少标出两端（有正负时加 0） | ![colorbar-ends-before](gallery/compare/colorbar-ends-before.png) | ![colorbar-ends-after](gallery/compare/colorbar-ends-after.png) |
MD
echo "gallery: $(ls "$out" | wc -l) figures in $out"
