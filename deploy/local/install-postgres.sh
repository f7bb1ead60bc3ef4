#!/usr/bin/env bash
# Installs the PostgreSQL 15 server binaries from the distribution's apt
# packages (Debian/Ubuntu: postgresql-15) when pg-bin.sh finds none, then
# prints the bin dir as the last line of stdout. No-op when already present.
#
# Non-interactive, and keeps the package from getting in the way of pg-up.sh:
#  - a drop-in in /etc/postgresql-common/createcluster.d sets
#    create_main_cluster = false, so no "15/main" cluster is created;
#  - while apt runs, a policy-rc.d (only if none exists) denies service starts.
# Both are removed again afterwards. Needs root.
#
# Usage: install-postgres.sh [--force] [--dry-run]
#   --force    run apt-get even if binaries are found (repair/upgrade)
#   --dry-run  simulate the apt-get install (apt-get -s); changes no package
# Env:
#   PG_APT_PACKAGE  package to install (default: postgresql-15)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
package=${PG_APT_PACKAGE:-postgresql-15}
force=false
simulate=()
for arg in "$@"; do
  case $arg in
    --force) force=true ;;
    --dry-run) simulate=(-s) ;;
    *) echo "usage: $0 [--force] [--dry-run]" >&2; exit 2 ;;
  esac
done

log() { echo "install-postgres: $*" >&2; }

if [[ $force == false ]] && bin_dir=$("$here/pg-bin.sh" 2>/dev/null); then
  log "PostgreSQL 15 already present"
  echo "$bin_dir"
  exit 0
fi

if [[ $(id -u) != 0 ]]; then
  log "must run as root (apt-get install); try: sudo $0"
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  log "apt-get not found: install the PostgreSQL 15 server binaries by hand and set PGBIN"
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log "apt-get update"
apt-get update -qq >&2

if ! apt-cache show "$package" >/dev/null 2>&1; then
  offered=$(apt-cache pkgnames postgresql- | grep -E '^postgresql-[0-9]+$' | sort -V | tr '\n' ' ')
  log "apt offers no package '$package' (server packages offered: ${offered:-none})."
  log "add a repository that has it, or set PG_APT_PACKAGE and PGBIN for another build of 15"
  exit 1
fi

dropin_dir=/etc/postgresql-common/createcluster.d
dropin=$dropin_dir/zz-payouts-local-no-main-cluster.conf
policy=/usr/sbin/policy-rc.d
made_dropin=false
made_policy=false
cleanup() {
  [[ $made_dropin == true ]] && rm -f "$dropin"
  [[ $made_policy == true ]] && rm -f "$policy"
  return 0
}
trap cleanup EXIT

# postgresql-common's postinst reads create_main_cluster through
# createcluster.conf, which includes this directory.
if [[ ! -e $dropin ]]; then
  mkdir -p "$dropin_dir"
  echo "create_main_cluster = false" >"$dropin"
  made_dropin=true
fi
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\n# temporary, from deploy/local/install-postgres.sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  made_policy=true
fi

log "apt-get install ${simulate[*]} $package"
apt-get install -y -q "${simulate[@]}" --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
  "$package" >&2

if [[ ${#simulate[@]} -gt 0 ]]; then
  log "dry run: nothing installed"
  exit 0
fi
"$here/pg-bin.sh"
