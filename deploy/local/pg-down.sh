#!/usr/bin/env bash
# Stops the PostgreSQL server started by pg-up.sh (fast shutdown; immediate
# after PG_STOP_TIMEOUT) and removes its state dir with all data.
# Safe to run when nothing is running or the dir is already gone.
#
# Env:
#   PAYOUTS_LOCAL_DIR  state root (default: /tmp/payouts-local); removes
#                      $PAYOUTS_LOCAL_DIR/pg
#   PGBIN              PostgreSQL 15 bin dir (default: auto, see pg-bin.sh)
#   PG_STOP_TIMEOUT    seconds to wait for a fast shutdown (default: 30)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
state_dir=$local_dir/pg
data_dir=$state_dir/data
timeout=${PG_STOP_TIMEOUT:-30}

log() { echo "pg-down: $*" >&2; }

if [[ ! -d $state_dir ]]; then
  log "nothing to do ($state_dir absent)"
  exit 0
fi

exec 9>"$local_dir/.pg-scripts.lock"
if ! flock -w 120 9; then
  log "another pg-up/pg-down on $local_dir holds $local_dir/.pg-scripts.lock; gave up after 120 s"
  exit 1
fi

run_as_owner=()
[[ $(id -u) == 0 ]] && id -u postgres >/dev/null 2>&1 && run_as_owner=(runuser -u postgres --)

if [[ -f $data_dir/postmaster.pid ]]; then
  if pg_bin=$("$here/pg-bin.sh" 2>/dev/null) &&
    "${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" status >/dev/null 2>&1; then
    log "stopping server in $data_dir"
    "${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" -m fast -w -t "$timeout" stop >&2 ||
      "${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" -m immediate -w stop >&2
  else
    # No usable pg_ctl: signal the postmaster directly (SIGQUIT = immediate).
    pid=$(head -n 1 "$data_dir/postmaster.pid")
    if [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null; then
      log "pg_ctl unavailable; sending SIGQUIT to postmaster $pid"
      kill -QUIT "$pid"
      for _ in $(seq "$timeout"); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
    fi
  fi
fi

rm -rf "$state_dir"
log "removed $state_dir"
