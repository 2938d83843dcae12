#!/usr/bin/env bash
# bash completion of --table from the server (packaging/bloomctl.bash), typed into a real interactive
# bash through a pty (script(1)): readline splits the words at COMP_WORDBREAKS ('=', ':' and '@' among
# them) as it does for a user, for each spelling of --db (issue 37, 5). Against a private PostgreSQL
# (bloomctl demo) holding two filters.
#   tst_completion.sh SOURCE_DIR BLOOMCTL WORK_DIR
set -euo pipefail

src=$1
ctl=$2
work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v script >/dev/null || fail "script(1) is missing (Debian's bsdutils)"
[ -r /usr/share/bash-completion/bash_completion ] || fail "bash-completion is missing: run packaging/setup"

rm -rf "$work"
mkdir -p "$work/bin"
ln -s "$ctl" "$work/bin/bloomctl"

"$ctl" demo --shards 1 --generate 100 >"$work/demo.out" 2>"$work/demo.err" &
demo=$!
trap 'kill -TERM $demo 2>/dev/null || true; wait $demo 2>/dev/null || true' EXIT
for _ in $(seq 1 240); do
  grep -q '^  --db ' "$work/demo.out" && break
  kill -0 $demo 2>/dev/null || fail "bloomctl demo ended: $(cat "$work/demo.err")"
  sleep 0.5
done
db=$(sed -n 's/^  --db "\(.*\)"$/\1/p' "$work/demo.out")
[ -n "$db" ] || fail "no --db from bloomctl demo: $(cat "$work/demo.out" "$work/demo.err")"
field() { sed -n "s/.*\\b$1=\\([^ ]*\\).*/\\1/p" <<<"$db"; }
host=$(field host) port=$(field port) user=$(field user) dbname=$(field dbname)
"$ctl" --db "$db" --table other_filter --function other_bits init --chunks 1024 >/dev/null
printf '[bloomtest]\nhost=%s\nport=%s\nuser=%s\ndbname=%s\n' "$host" "$port" "$user" "$dbname" >"$work/pg_service.conf"
export PGSERVICEFILE=$work/pg_service.conf

mkdir -p "$work/cwd"
cat >"$work/rc" <<RC
PS1='\$ '
cd '$work/cwd'
source /usr/share/bash-completion/bash_completion
source '$src/packaging/bloomctl.bash'
PATH='$work/bin':\$PATH
_tst_bloomctl() { _bloomctl "\$@"; printf '%s\n' "\${COMPREPLY[@]}" >'$work/reply.tmp'; mv '$work/reply.tmp' '$work/reply'; }
complete -F _tst_bloomctl bloomctl
RC

# Types LINE and a Tab into an interactive bash; prints the COMPREPLY _bloomctl made.
complete_line() {
  rm -f "$work/reply"
  {
    sleep 0.5
    printf '%s\t' "$1"
    for _ in $(seq 1 300); do [ -e "$work/reply" ] && break; sleep 0.1; done
    printf '\003exit\n'
  } | timeout 60 script -qfec "bash --noprofile --rcfile '$work/rc' -i" /dev/null >"$work/tty" 2>&1 || true
  [ -e "$work/reply" ] || fail "no completion for: $1 (the terminal said: $(tr -d '\r' <"$work/tty" | tail -n 5))"
  cat "$work/reply"
}

# Types LINE, a Tab and then Enter: the completed command runs (what a user does next).
complete_and_run() {
  rm -f "$work/reply"
  {
    sleep 0.5
    printf '%s\t' "$1"
    for _ in $(seq 1 300); do [ -e "$work/reply" ] && break; sleep 0.1; done
    sleep 0.5
    printf '\n'
    sleep 2
    printf 'echo RAN-$?\n'
    sleep 1
    printf 'exit\n'
  } | timeout 60 script -qfec "bash --noprofile --rcfile '$work/rc' -i" /dev/null >"$work/tty" 2>&1 || true
  [ -e "$work/reply" ] || fail "no completion for: $1 (the terminal said: $(tr -d '\r' <"$work/tty" | tail -n 5))"
  cat "$work/reply"
}

uri_host=${host//\//%2F}
checked=0
expect() {
  local want=$1 line=$2 got
  got=$(complete_line "$line")
  [ "$got" = "$want" ] || fail "completing '$line': got '$got', want '$want'"
  checked=$((checked + 1))
}
one=public.other_filter
both=$(printf 'public.other_filter\npublic.username_filter')
expect "$one" "bloomctl --db 'host=$host port=$port user=$user dbname=$dbname' --table public.o"
expect "$one" "bloomctl --db \"host=$host port=$port user=$user dbname=$dbname\" --table public.o"
expect "$one" "bloomctl --db host=$host\\ port=$port\\ user=$user\\ dbname=$dbname --table public.o"
expect "$one" "bloomctl --db='host=$host port=$port user=$user dbname=$dbname' --table public.o"
expect "$one" "bloomctl --db service=bloomtest --table public.o"
expect "$one" "bloomctl --db=service=bloomtest --table public.o"
expect "$one" "bloomctl --db postgresql://$user@$uri_host:$port/$dbname --table public.o"
expect "$one" "bloomctl --db 'postgresql:///$dbname?host=$uri_host&port=$port&user=$user' --table public.o"
expect "$one" "bloomctl --db service=bloomtest --table=public.o"
expect "$both" "bloomctl --db service=bloomtest info --table "
expect "" "bloomctl --db service=nosuchservice --table public.o"
# Options: a command's own and the global ones, from its help (the one option table), never another
# command's (check has no --csv; fill has); commands, and help's argument.
expect "--exact" "bloomctl --db service=bloomtest check --e"
expect "" "bloomctl check --cs"
expect "--csv" "bloomctl fill --cs"
expect "$(printf -- '--warning\n--warn-fpr\n--warn-chunk-fill')" "bloomctl health --war"
expect "$(printf -- '--debounce-ms\n--db')" "bloomctl simulate --d"
expect "$(printf 'health\nhistory\nhelp')" "bloomctl h"
expect "$(printf 'health\nhistory')" "bloomctl help h"
# Names the server chose (issue 44, 4): offered quoted for the shell, one inert word each. A command
# substitution in a table's name never runs, not even when the completed line is run.
hostile='public.u$(touch${IFS}FILE)'
"$ctl" --db "$db" --table "$hostile" --function public.hostile_bits init --chunks 1024 >/dev/null
"$ctl" --db "$db" --table 'public.a b;c' --function public.spaced_bits init --chunks 1024 >/dev/null
got=$(complete_and_run "bloomctl --db service=bloomtest --table public.u\$")
[ "$got" = "$(printf '%q' "$hostile")" ] || fail "completing the hostile name to run it: got '$got'"
[ ! -e "$work/cwd/FILE" ] || fail "running the completed hostile name ran its command substitution"
grep -q 'RAN-[0-9]' "$work/tty" || fail "the completed line did not run: $(tr -d '\r' <"$work/tty")"
checked=$((checked + 1))
expect "$(printf '%q' "$hostile")" "bloomctl --db service=bloomtest --table public.u\\\$"
expect 'public.a\ b\;c' "bloomctl --db service=bloomtest --table public.a"
expect 'public.a\ b\;c' "bloomctl --db service=bloomtest --table 'public.a b"
echo "tst_completion: $checked completions: --table from the server for each --db spelling, options by command, hostile names quoted and inert"
