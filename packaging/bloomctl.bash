# bash completion for bloomctl (installed as /usr/share/bash-completion/completions/bloomctl)

# A word as the command would get it, for the quoting a connection string takes ('...', "...",
# backslashes), without running any expansion (bash-completion's dequote would eval it).
_bloomctl_dequote()
{
    local w=$1 out="" c q="" i
    for ((i = 0; i < ${#w}; i++)); do
        c=${w:i:1}
        if [[ $q == "'" ]]; then
            if [[ $c == "'" ]]; then q=""; else out+=$c; fi
        elif [[ $q == '"' ]]; then
            if [[ $c == '"' ]]; then
                q=""
            elif [[ $c == '\' && ${w:i+1:1} == [\"\\\$\`] ]]; then
                out+=${w:i+1:1}
                ((i++))
            else
                out+=$c
            fi
        elif [[ $c == "'" || $c == '"' ]]; then
            q=$c
        elif [[ $c == '\' ]]; then
            ((i++))
            out+=${w:i:1}
        else
            out+=$c
        fi
    done
    printf '%s' "$out"
}

_bloomctl()
{
    local cur prev words cword
    # Words are not split at '=', ':' or '@' (COMP_WORDBREAKS has them): --db service=filt, --db=...,
    # postgresql://user@host:5432/db and --table=schema.t stay one word each.
    _init_completion -n =:@ || return

    # --table=T and --into=T: the same tables (readline replaces only what follows the '=').
    if [[ $cur == --table=* || $cur == --into=* ]]; then
        prev=${cur%%=*}
        cur=${cur#*=}
    fi

    local commands="explain init info add check load fill fpr skew chunk rebuild swap drop-old
        signup audit simulate demo delete-user tables health metrics record history help"
    # The command word, if one is given yet (the first word that names a command).
    local command="" i
    for ((i = 1; i < cword; i++)); do
        if [[ " $commands " == *" ${words[i]} "* ]]; then
            command=${words[i]}
            break
        fi
    done
    case $prev in
        --table|--into)
            # Filter tables from the server, when --db was given (bloomctl tables reads the catalog).
            local db="" i table
            for ((i = 1; i < cword; i++)); do
                [[ ${words[i]} == --db ]] && db=$(_bloomctl_dequote "${words[i + 1]}")
                [[ ${words[i]} == --db=* ]] && db=$(_bloomctl_dequote "${words[i]#--db=}")
            done
            # A table's name is the server's text, not the user's: each one offered is quoted for the
            # shell (printf %q), so that $(...), spaces or ';' in it stay one inert word. A line with an
            # escape other than '\\' stands for a control character --table refuses: left out.
            if [[ -n $db ]]; then
                COMPREPLY=()
                local want quoted
                want=$(_bloomctl_dequote "$cur")
                while IFS= read -r table; do
                    if [[ $table == *\\* ]]; then
                        [[ ${table//\\\\/} == *\\* ]] && continue
                        table=${table//\\\\/\\}
                    fi
                    [[ $table == "$want"* ]] || continue
                    printf -v quoted '%q' "$table"
                    COMPREPLY+=("$quoted")
                done < <(bloomctl --db "$db" tables 2>/dev/null)
            fi
            return
            ;;
        --textfile)
            _filedir -d
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
        --redis|--key|--bits|--warning|--critical|-w|-c|--max-fpr|--max-chunk-fill|--warn-fpr|--warn-chunk-fill| \
        --max-snapshot-age|--since|--statement-timeout)
            return
            ;;
    esac

    if [[ $cur == -* ]]; then
        # Each command's options (and the global ones) as its help lists them: the help is generated from
        # bloomctl's one option table, so the completion never offers an option the command refuses.
        local options
        options=$(bloomctl help "${command:-info}" 2>/dev/null |
            sed -nE 's/^  (-[[:alpha:]], )?(--[[:alnum:]-]+).*/\2/p')
        [[ -z $command ]] && options=$(bloomctl --help 2>/dev/null |
            sed -nE 's/^  (-[[:alpha:]], )?(--[[:alnum:]-]+).*/\2/p')
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
        return
    fi
    if [[ -z $command ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    elif [[ $command == help && ${words[cword - 1]} == help ]]; then
        COMPREPLY=($(compgen -W "${commands% help}" -- "$cur")) # bloomctl help COMMAND
    fi # otherwise the command's arguments: names, or a file (load, above)
}
complete -F _bloomctl bloomctl
