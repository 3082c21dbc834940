# Sourced by the test scripts that run one case of a tool per call (tests/*/run.sh): what every one of
# them needs, in one place. The script sets `case_name` first; this file gives it
#   $tmp             a folder of its own, removed at exit (tests write nowhere else; also TMPDIR)
#   $out $err        the captured stdout and stderr of the last `run` or `capture`, and $status
#   ${extra[@]}      the arguments of TIT_E2E_ARGS (the sanitizer stage passes thread contexts)
#   ${IDEAL[@]}      SimGrid's network model without its corrections, for hand-computed times
#   capture CMD...   runs CMD capturing its output and exit status (`run` does the same unless the script
#                    redefines it around its own program)
#   fail MSG         prints the case, MSG and the captured output, and exits 1
#   expect_ok        the last command exited 0
#   expect_error STATUS STRING...
#                    the last command exited STATUS, its stderr contains each fixed STRING, and it
#                    printed no prediction ("Simulated time") on stdout
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Temporary files of the programs a case runs go to its folder too: Open MPI's session directory among them, since
# two mpiruns that start at once race on creating /tmp/ompi.HOST.UID ("File exists", orte_init fails).
export TMPDIR=$tmp
out=$tmp/stdout err=$tmp/stderr
: >"$out"
: >"$err"
status=0
read -r -a extra <<< "${TIT_E2E_ARGS:-}"
IDEAL=(--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1e12)

capture() { "$@" >"$out" 2>"$err"; status=$?; }
run() { capture "$@"; }
fail() { echo "FAIL [$case_name]: $*"; echo "--- stdout"; cat "$out"; echo "--- stderr"; cat "$err"; exit 1; }
expect_ok() { [ "$status" -eq 0 ] || fail "exit status $status, expected 0"; }
expect_error() {
  local want=$1; shift
  [ "$status" -eq "$want" ] || fail "exit status $status, expected $want"
  local s
  for s in "$@"; do grep -qF -- "$s" "$err" || fail "stderr lacks '$s'"; done
  ! grep -q "Simulated time" "$out" || fail "a time was printed despite the error"
}
