# bash completion for bloomctl (installed as /usr/share/bash-completion/completions/bloomctl)
_bloomctl()
{
    local cur prev words cword
    _init_completion || return

    local commands="explain init info add check load fill fpr skew chunk rebuild swap drop-old
        signup audit simulate demo delete-user tables health metrics record history"
    local options="--db --table --function --json --chunks --chunk-bits --k --csv --sample --yes
        --shards --generate --taken-share --typing-ms --debounce-ms --source --query --file --method
        --target-fpr --expected-names --into --into-function --grace --abort --exact --no-record
        --allow-fewer-names --accept-uncarried --allow-smaller --audit-sample --jobs --redis --key --bits
        --js --redis-demo --max-fpr --max-chunk-fill --warn-fpr --warn-chunk-fill --max-snapshot-age
        --since --thin --print-sql --install-function --publication-ok --version --help"

    case $prev in
        --table|--into)
            # Filter tables from the server, when --db was given (bloomctl tables reads the catalog).
            local db="" i
            for ((i = 1; i < cword; i++)); do
                [[ ${words[i]} == --db ]] && db=${words[i + 1]}
                [[ ${words[i]} == --db=* ]] && db=${words[i]#--db=}
            done
            if [[ -n $db ]]; then
                COMPREPLY=($(compgen -W "$(bloomctl --db "$db" tables 2>/dev/null)" -- "$cur"))
            fi
            return
            ;;
        --file|--shards)
            _filedir
            return
            ;;
        load)
            _filedir
            return
            ;;
        --method)
            COMPREPLY=($(compgen -W "client sql" -- "$cur"))
            return
            ;;
        --db|--source|--function|--into-function|--query|--chunks|--chunk-bits|--k|--sample|--generate| \
        --taken-share|--typing-ms|--debounce-ms|--target-fpr|--expected-names|--grace|--audit-sample|--jobs| \
        --redis|--key|--bits)
            return
            ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi
    local i
    for ((i = 1; i < cword; i++)); do
        if [[ " $commands " == *" ${words[i]} "* ]]; then
            return # the command is given: its arguments are names or tables
        fi
    done
    COMPREPLY=($(compgen -W "$commands" -- "$cur"))
}
complete -F _bloomctl bloomctl
