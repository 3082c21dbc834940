#!/usr/bin/env bash
# corpus/corpus.sh without its codes: the list of codes, each code's arguments at a rank count and the refusals of
# a rank count a code cannot run at and of a bad CORPUS_NPB_CLASS (exit 2, the message naming the value).
# Usage: run.sh CASE (args)
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
corpus=$root/corpus/corpus.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [corpus]: $*" >&2; exit 1; }
case ${1:-} in
  args)
    bash "$corpus" -l >"$tmp/codes" || fail "corpus.sh -l: exit $?"
    for c in hpcg lulesh minife comd amg miniamr; do grep -qx "$c" "$tmp/codes" || fail "-l does not list $c"; done
    [ "$(bash "$corpus" -a lulesh 27)" = "-s 8 -i 30 -q" ] || fail "lulesh's arguments at 27 ranks: $(bash "$corpus" -a lulesh 27)"
    bash "$corpus" -a lulesh 26 >/dev/null 2>"$tmp/err"
    [ $? -eq 2 ] || fail "lulesh at 26 ranks should be exit 2"
    grep -qF "lulesh needs a cube rank count, not 26" "$tmp/err" || fail "the refusal of 26 ranks says: $(cat "$tmp/err")"
    CORPUS_NPB_CLASS=X bash "$corpus" -l >/dev/null 2>"$tmp/err"
    [ $? -eq 2 ] || fail "CORPUS_NPB_CLASS=X should be exit 2"
    grep -qF "CORPUS_NPB_CLASS must be one of S W A B C, not 'X'" "$tmp/err" || fail "the refusal says: $(cat "$tmp/err")"
    CORPUS_NPB_CLASS=A bash "$corpus" -l >/dev/null || fail "CORPUS_NPB_CLASS=A refused" ;;
  *) echo "usage: run.sh args" >&2; exit 2 ;;
esac
echo "corpus: ok"
