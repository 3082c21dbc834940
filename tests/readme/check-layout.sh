#!/usr/bin/env bash
# Test `layout`: the rooms keep their rules (docs/README.md, "Repository layout").
#  - libs/, tools/, tracer/, calibration/ and sweep/ know nothing of SimGrid: no SimGrid, XBT or SMPI header.
#  - libs/ includes only libs/: every quoted include of a file there resolves under libs/.
#  - tools/ includes only tools/ and libs/.
# Usage: check-layout.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: check-layout.sh SOURCE_DIR}
cd "$src"
status=0
fail() { echo "layout: FAIL: $*" >&2; status=1; }

while IFS= read -r hit; do
  fail "$hit: SimGrid-free code includes a SimGrid header"
done < <(grep -rnE '#include *<(simgrid|xbt|smpi)/' libs tools tracer calibration sweep --include='*.cpp' --include='*.hpp' --include='*.inc' || true)

check_room() { # ROOM ALLOWED_ROOTS...: every quoted include of ROOM's files is beside the file or under a root
  local room=$1; shift
  local f inc ok root
  while IFS= read -r f; do
    while IFS= read -r inc; do
      ok=0
      [[ -f $(dirname "$f")/$inc ]] && ok=1
      for root in "$@"; do [[ -f $root/$inc ]] && ok=1; done
      ((ok)) || fail "$f includes \"$inc\", which is not in ${*}"
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
  done < <(find "$room" -name '*.cpp' -o -name '*.hpp' -o -name '*.inc')
}
check_room libs libs
check_room tools tools libs

((status == 0)) && echo "layout: OK"
exit "$status"
