#!/usr/bin/env bash
# Prints the directory holding the PostgreSQL 15 server binaries (initdb,
# pg_ctl, postgres, pg_isready) and exits 0; exits 1 with a hint naming
# install-postgres.sh when none is found. Used by pg-up.sh and pg-down.sh.
#
# Search order: $PGBIN, /usr/lib/postgresql/15/bin (Debian/Ubuntu packages),
# /usr/pgsql-15/bin (RPM layout), then the pg_ctl found on PATH if it is 15.x.
#
# Env:
#   PGBIN  explicit bin dir to use (must contain a 15.x pg_ctl)
set -euo pipefail

readonly WANT_MAJOR=15

# True when dir has every binary pg-up needs and pg_ctl reports major 15.
is_pg15_bin_dir() {
  local dir=$1 tool
  for tool in initdb pg_ctl postgres pg_isready; do
    [[ -x $dir/$tool ]] || return 1
  done
  [[ $("$dir/pg_ctl" --version 2>/dev/null) =~ \)\ $WANT_MAJOR(\.|$) ]]
}

candidates=()
[[ -n ${PGBIN:-} ]] && candidates+=("$PGBIN")
candidates+=("/usr/lib/postgresql/$WANT_MAJOR/bin" "/usr/pgsql-$WANT_MAJOR/bin")
if on_path=$(command -v pg_ctl 2>/dev/null); then
  # Follow symlinks: Debian keeps the real binaries outside PATH.
  candidates+=("$(dirname "$(readlink -f "$on_path")")")
fi

for dir in "${candidates[@]}"; do
  if is_pg15_bin_dir "$dir"; then
    echo "$dir"
    exit 0
  fi
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
{
  echo "pg-bin: no PostgreSQL $WANT_MAJOR server binaries found (looked in: ${candidates[*]})."
  echo "pg-bin: install them with: sudo $here/install-postgres.sh   (or set PGBIN=/path/to/bin)"
} >&2
exit 1
