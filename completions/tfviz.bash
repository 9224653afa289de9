# bash completion for tfviz, made from its option table (app/core/options_table.h);
# meson compile -C build options-docs writes it again.
_tfviz()
{
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    local opts="--print --format --output -o --export --figure --dpi --width --height --colormap --font-size --title --no-title --lang --d-model -d --positions -n --base --index-base --seed --tokenizer --vocab-size --scale-embedding --rope-style --scheme --heads --offset --compare --train --corpus --epochs --window --negative --min-count --sample --threads --vectors --vectors-limit --word --top --train-order --order-task --order-pairs --lesson --big --no-color --help -h --version -V"
    case $prev in
    --print) COMPREPLY=($(compgen -W "tokens vocab embedding pe freq input relative dot rope decay order similarity neighbors pca training order-training" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "text csv json npy" -- "$cur")); return ;;
    -o | --output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --export) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --figure) COMPREPLY=($(compgen -W "pe rope rope-decay freq dot input order embedding embedding-map order-training" -- "$cur")); return ;;
    --dpi) return ;;
    --width) COMPREPLY=($(compgen -W "one-column two-column" -- "$cur")); return ;;
    --height) COMPREPLY=($(compgen -W "one-column two-column" -- "$cur")); return ;;
    --colormap) COMPREPLY=($(compgen -W "viridis cividis rdbu puor gray" -- "$cur")); return ;;
    --font-size) return ;;
    --title) return ;;
    --lang) COMPREPLY=($(compgen -W "zh en" -- "$cur")); return ;;
    -d | --d-model) return ;;
    -n | --positions) return ;;
    --base) return ;;
    --index-base) COMPREPLY=($(compgen -W "0 1" -- "$cur")); return ;;
    --seed) return ;;
    --tokenizer) COMPREPLY=($(compgen -W "word char cl100k o200k" -- "$cur")); return ;;
    --vocab-size) return ;;
    --rope-style) COMPREPLY=($(compgen -W "interleaved half" -- "$cur")); return ;;
    --scheme) COMPREPLY=($(compgen -W "none sinusoidal learned rope alibi t5" -- "$cur")); return ;;
    --heads) return ;;
    --offset) return ;;
    --compare) return ;;
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
