#!/bin/sh
# Drives `clvm repl` on a real terminal through tmux: the history is kept
# across sessions in $HOME/.clvm_history (a temporary HOME) and recalled
# with the up arrow; tab completes commands and built-in names. Skipped,
# counted, without tmux.
# usage: tests/repl/tmux.sh BUILD_DIR
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
case "$build" in /*) ;; *) build=$root/$build ;; esac
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP tests/repl/tmux.sh: no tmux"
    echo "tmux: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/repltmux.XXXXXX") || exit 2
n=0
sock="$tmp/sock.0"
trap 'for s in "$tmp"/sock.*; do tmux -S "$s" kill-server 2>/dev/null; done
      rm -rf "$tmp"' EXIT INT TERM
pass=0; fail=0

# session [NO_COLOR value]: starts clvm repl in a fresh tmux server (a
# socket of its own: reusing one races with the old server's exit).
session() {
    tmux -S "$sock" kill-server 2>/dev/null
    n=$((n + 1)); sock="$tmp/sock.$n"
    HOME=$tmp tmux -S "$sock" -f /dev/null new-session -d \
        -x 120 -y 40 "env HOME=$tmp NO_COLOR=${1-1} $build/clvm repl; sleep 30"
}
keys() { tmux -S "$sock" send-keys "$@"; }
# expect TEXT: waits up to 5 s for TEXT on the screen.
expect() {
    i=0
    while [ $i -lt 50 ]; do
        tmux -S "$sock" capture-pane -p >"$tmp/screen" 2>/dev/null
        grep -qF -- "$1" "$tmp/screen" && return 0
        sleep 0.1; i=$((i + 1))
    done
    return 1
}
check() {
    if expect "$2"; then pass=$((pass + 1))
    else echo "FAIL tmux: $1: no '$2' on the screen:"; cat "$tmp/screen"
         fail=$((fail + 1)); fi
}

session
check "prompt" "clvm>"
keys "as_uint(1.0f)" Enter
check "evaluation" "bits 0x3f800000"
keys "quit" Enter
sleep 0.3
session
check "second prompt" "clvm>"
keys Up
check "history recall" "clvm> quit"
keys Up Enter
check "recalled line runs" "bits 0x3f800000"
keys "hel" Tab Enter
check "command completion" "list the commands, or describe one"
keys "get_work_d" Tab "()" Enter
check "built-in completion" "clvm> get_work_dim ()"
keys "quit" Enter
sleep 0.3
if grep -qx 'as_uint(1.0f)' "$tmp/.clvm_history"; then pass=$((pass + 1))
else echo "FAIL tmux: no history file line"; fail=$((fail + 1)); fi
# Colour on a terminal (an error in red), none when NO_COLOR is set.
# colour NAME NO_COLOR WANT: WANT is "yes" if escapes must be on the screen.
colour() {
    session "$2"
    expect "clvm>"
    keys "nosuchcommand(" Enter
    expect "error"
    tmux -S "$sock" capture-pane -e -p >"$tmp/screen" 2>/dev/null
    if grep -q "$(printf '\033')\[" "$tmp/screen"; then got=yes; else got=no; fi
    if [ "$got" = "$3" ]; then pass=$((pass + 1))
    else echo "FAIL tmux: $1: escapes on the screen: $got"; fail=$((fail + 1)); fi
    keys "quit" Enter
}
colour "colour on a terminal" "" yes
colour "no colour with NO_COLOR" 1 no
echo "tmux: $pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
