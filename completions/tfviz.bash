# bash completion for tfviz. tests/doc_test.py checks these lists against `tfviz --help`.
_tfviz()
{
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    local opts="--print --format --output -o --d-model -d --positions -n --base --index-base
        --seed --tokenizer --vocab-size --scale-embedding --rope-style --offset --compare
        --export --figure --dpi --width --height --colormap --font-size --title --no-title
        --train --corpus --epochs --window --negative --min-count --sample --threads --vectors
        --vectors-limit --word --top
        --lesson --big --lang --no-color --help -h --version -V"
    local figures="pe rope rope-decay freq dot input order embedding embedding-map"
    local print_what="tokens vocab embedding pe freq input relative dot rope decay order similarity
        neighbors pca training"
    case $prev in
    --print) COMPREPLY=($(compgen -W "$print_what" -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "text csv json npy" -- "$cur")); return ;;
    --tokenizer) COMPREPLY=($(compgen -W "word char cl100k o200k" -- "$cur")); return ;;
    --rope-style) COMPREPLY=($(compgen -W "interleaved half" -- "$cur")); return ;;
    --index-base) COMPREPLY=($(compgen -W "0 1" -- "$cur")); return ;;
    --lang) COMPREPLY=($(compgen -W "zh en" -- "$cur")); return ;;
    --figure) COMPREPLY=($(compgen -W "$figures" -- "$cur")); return ;;
    --colormap) COMPREPLY=($(compgen -W "viridis cividis rdbu puor gray" -- "$cur")); return ;;
    --width | --height) COMPREPLY=($(compgen -W "one-column two-column" -- "$cur")); return ;;
    -o | --output | --export | --corpus | --vectors) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -d | --d-model | -n | --positions | --base | --seed | --vocab-size | --offset | --compare | --dpi | \
        --font-size | --title | --epochs | --window | --negative | --min-count | --sample | \
        --threads | --vectors-limit | --word | --top)
        return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    fi
}
complete -F _tfviz tfviz
