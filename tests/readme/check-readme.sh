#!/usr/bin/env bash
# Test `readme-commands`: the README cannot drift from what works.
#  - The first lines of README.md give exactly two commands, `scripts/...` in backquotes: first the
#    demo (its line mentions "replay"), then the test command (its line mentions "test").
#  - Both exist and are executable.
#  - The demo command works: run with TIT_SKIP_SETUP=1 and BUILD_DIR (no install, no build: it uses
#    the binary already built) it exits 0 and prints "Simulated time: <seconds> s".
#    The test command is not run here (it runs this test).
#  - .ci/run runs the README's test command.
#
# Usage: check-readme.sh SOURCE_DIR BUILD_DIR
set -euo pipefail

if (($# != 2)); then
  echo "usage: $0 SOURCE_DIR BUILD_DIR" >&2
  exit 2
fi
src=$1
build=$2
head_count=10

fail() {
  echo "readme-commands: FAIL: $*" >&2
  exit 1
}

readme=$src/README.md
[[ -f $readme ]] || fail "$readme does not exist"
top=$(head -n "$head_count" "$readme")

# shellcheck disable=SC2016 # literal backquotes
mapfile -t cmds < <(grep -o '`scripts/[^`]*`' <<<"$top" | tr -d '`')
((${#cmds[@]} == 2)) ||
  fail "the first $head_count lines of README.md must give exactly 2 commands \`scripts/...\`, found ${#cmds[@]}: ${cmds[*]:-none}"
demo=${cmds[0]}
tests=${cmds[1]}
echo "README demo command: $demo"
echo "README test command: $tests"

grep -F "\`$demo\`" <<<"$top" | grep -qi 'replay' ||
  fail "the line of the first command \`$demo\` does not say it replays an example"
grep -F "\`$tests\`" <<<"$top" | grep -qi 'test' ||
  fail "the line of the second command \`$tests\` does not say it runs the tests"

for c in "$demo" "$tests"; do
  [[ $c =~ ^scripts/[A-Za-z0-9._-]+$ ]] || fail "\`$c\` must be a script path without arguments"
  [[ -f $src/$c ]] || fail "$c does not exist"
  [[ -x $src/$c ]] || fail "$c is not executable"
done

ci=$src/.ci/run
[[ -f $ci ]] || fail ".ci/run does not exist"
pattern="^[[:space:]]*(exec[[:space:]]+)?(bash[[:space:]]+)?(\./)?${tests//./\\.}[[:space:]]*$"
grep -Eq "$pattern" "$ci" || fail ".ci/run does not run the README's test command \`$tests\`"
echo ".ci/run runs $tests"

echo "+ TIT_SKIP_SETUP=1 BUILD_DIR=$build $demo"
set +e
out=$(cd "$src" && TIT_SKIP_SETUP=1 BUILD_DIR="$build" "./$demo" 2>&1)
rc=$?
set -e
echo "$out"
((rc == 0)) || fail "\`$demo\` exited with status $rc"
grep -Eq '^Simulated time: [0-9][0-9.eE+-]* s$' <<<"$out" ||
  fail "\`$demo\` did not print 'Simulated time: <seconds> s'"
echo "readme-commands: OK"
