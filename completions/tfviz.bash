# bash completion for tfviz, made from its option table (app/core/options_table.h);
# meson compile -C build options-docs writes it again.
_tfviz()
{
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    local opts="--print --format --output -o --export --figure --dpi --width --height --venue --font --serif --colormap --vmin --vmax --font-size --title --no-title --panel-labels --fps --frames --show --lang --order-b --pe-layout --d-model -d --positions -n --base --index-base --seed --tokenizer --no-hmm --vocab-size --scale-embedding --rope-style --offset --compare --scheme --mask --heads --head --num-buckets --max-distance --pe-file --pe-tensor --t5-file --t5-tensor --original-context --scaling --factor --beta-fast --beta-slow --mscale --mscale-all-dim --attention-factor --no-truncate --low-freq-factor --high-freq-factor --seq-len --train --corpus --epochs --window --negative --min-count --sample --threads --vectors --vectors-limit --word --top --train-order --order-task --order-pairs --lesson --big --extended --no-color --help -h --version -V"
    case $prev in
    --print) COMPREPLY=($(compgen -W "tokens vocab embedding pe freq input relative dot rope decay order schemes bias rope-scaling similarity neighbors pca training order-training style" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "text csv json npy" -- "$cur")); return ;;
    -o | --output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --export) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --figure) COMPREPLY=($(compgen -W "pe rope rope-decay freq dot input order embedding embedding-map dot-offset rope-score rope-qk pe-vs-rope schemes pe-file order-training rope-rotation pe-waves training" -- "$cur")); return ;;
    --dpi) return ;;
    --width) COMPREPLY=($(compgen -W "one-column two-column half" -- "$cur")); return ;;
    --height) COMPREPLY=($(compgen -W "one-column two-column half" -- "$cur")); return ;;
    --venue) COMPREPLY=($(compgen -W "acl neurips icml iclr ieee a4" -- "$cur")); return ;;
    --font) return ;;
    --colormap) COMPREPLY=($(compgen -W "viridis cividis rdbu puor gray" -- "$cur")); return ;;
    --vmin) return ;;
    --vmax) return ;;
    --font-size) return ;;
    --title) return ;;
    --fps) return ;;
    --frames) return ;;
    --show) COMPREPLY=($(compgen -W "pe rope rope-decay freq dot input order embedding embedding-map dot-offset rope-score rope-qk pe-vs-rope schemes pe-file order-training rope-rotation pe-waves training" -- "$cur")); return ;;
    --lang) COMPREPLY=($(compgen -W "zh en" -- "$cur")); return ;;
    --order-b) COMPREPLY=($(compgen -W "aligned own" -- "$cur")); return ;;
    --pe-layout) COMPREPLY=($(compgen -W "interleaved split" -- "$cur")); return ;;
    -d | --d-model) return ;;
    -n | --positions) return ;;
    --base) return ;;
    --index-base) COMPREPLY=($(compgen -W "0 1" -- "$cur")); return ;;
    --seed) return ;;
    --tokenizer) COMPREPLY=($(compgen -W "word char cl100k o200k" -- "$cur")); return ;;
    --vocab-size) return ;;
    --rope-style) COMPREPLY=($(compgen -W "interleaved half" -- "$cur")); return ;;
    --offset) return ;;
    --compare) return ;;
    --scheme) COMPREPLY=($(compgen -W "none sinusoidal learned rope alibi t5" -- "$cur")); return ;;
    --mask) COMPREPLY=($(compgen -W "causal symmetric" -- "$cur")); return ;;
    --heads) return ;;
    --head) return ;;
    --num-buckets) return ;;
    --max-distance) return ;;
    --pe-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --pe-tensor) return ;;
    --t5-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --t5-tensor) return ;;
    --original-context) return ;;
    --scaling) COMPREPLY=($(compgen -W "none linear ntk dynamic yarn llama3" -- "$cur")); return ;;
    --factor) return ;;
    --beta-fast) return ;;
    --beta-slow) return ;;
    --mscale) return ;;
    --mscale-all-dim) return ;;
    --attention-factor) return ;;
    --low-freq-factor) return ;;
    --high-freq-factor) return ;;
    --seq-len) return ;;
    --corpus) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --epochs) return ;;
    --window) return ;;
    --negative) return ;;
    --min-count) return ;;
    --sample) return ;;
    --threads) return ;;
    --vectors) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --vectors-limit) return ;;
    --word) return ;;
    --top) return ;;
    --order-task) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --order-pairs) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    fi
}
complete -F _tfviz tfviz
