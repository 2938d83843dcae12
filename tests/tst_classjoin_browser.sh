#!/usr/bin/env bash
# The class's page in a real browser (issue 49, item 3): `bloomscope --teach --class-join` prints the
# join URL; Debian's headless Chromium at a phone's viewport (390 x 844) opens it, types a name,
# presses Add and must read the verdict and the bits (tests/js/classjoin_browser.js over the DevTools
# protocol); the page is no wider than the phone. Screenshots of the form and the answer are kept in
# WORK_DIR. Then the window is closed and the port takes no connection.
#   tst_classjoin_browser.sh SOURCE_DIR BLOOMSCOPE WORK_DIR
set -euo pipefail

src=$1
gui=$2
work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
chromium=$(command -v chromium || true)
[ -n "$chromium" ] || fail "chromium is missing: run packaging/setup"
command -v node >/dev/null || fail "node is missing: run packaging/setup"

rm -rf "$work"
mkdir -p "$work"
QT_QPA_PLATFORM=offscreen "$gui" --teach --class-join 127.0.0.1:0 >"$work/gui.out" 2>"$work/gui.err" &
pid=$!
trap 'kill -TERM $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  grep -q '^http://' "$work/gui.out" && break
  kill -0 $pid 2>/dev/null || fail "bloomscope ended: $(cat "$work/gui.err")"
  sleep 0.2
done
url=$(grep -m1 '^http://' "$work/gui.out") || fail "no join URL on stdout: $(cat "$work/gui.out" "$work/gui.err")"
case "$url" in http://127.0.0.1:*/j/??????) ;; *) fail "not a join URL: $url" ;; esac

answer=$(node --no-warnings --experimental-websocket "$src/tests/js/classjoin_browser.js" "$chromium" "$url" alan "$work") ||
  fail "the browser did not get the verdict: $answer"
grep -q 'bits 2, 8, 10' <<<"$answer" || fail "alan's bits are 2, 8, 10 (the article): $answer"
[ -s "$work/classjoin-phone-form.png" ] && [ -s "$work/classjoin-phone-answer.png" ] || fail "no screenshots"

# A wrong join code: 404 in the browser's eyes too (plain HTTP here).
code=$(node --no-warnings -e "fetch(process.argv[1]).then(r => console.log(r.status))" "${url%/*}/wrong1")
[ "$code" = 404 ] || fail "a wrong code answered $code"

kill -TERM $pid
wait $pid 2>/dev/null || true
trap - EXIT
if node --no-warnings -e "fetch(process.argv[1]).then(() => process.exit(0), () => process.exit(1))" "$url"; then
  fail "the page still answers after the window closed"
fi
echo "PASS: a phone-sized Chromium added alan through the class's page and read: $(tr '\n' ' ' <<<"$answer")"
