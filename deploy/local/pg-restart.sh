#!/usr/bin/env bash
# Restarts the PostgreSQL server started by pg-up.sh on its existing data, with the settings it was
# started with (pg_ctl reuses postmaster.opts, so a PG_DURABLE=1 server stays durable), and prints its
# connection string as the LAST line of stdout, like pg-up.sh. For fault drills (test/chaos): every
# client connection is cut.
#
#   deploy/local/pg-restart.sh [fast|immediate]
#
# fast (default): pg_ctl restart -m fast, a clean shutdown (sessions are terminated, a checkpoint is
# written). immediate: -m immediate, the postmaster quits without a checkpoint and the next start runs
# crash recovery from the WAL, as after a power cut of the server process (not of the machine).
#
# Env:
#   PAYOUTS_LOCAL_DIR  state root (default: /tmp/payouts-local); the server in $PAYOUTS_LOCAL_DIR/pg
#   PGBIN              PostgreSQL 15 bin dir (default: auto, see pg-bin.sh)
#   PG_START_TIMEOUT   seconds to wait for the stop and for readiness again (default: 60)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
state_dir=$local_dir/pg
data_dir=$state_dir/data
timeout=${PG_START_TIMEOUT:-60}
mode=${1:-fast}

log() { echo "pg-restart: $*" >&2; }

if [[ $mode != fast && $mode != immediate ]]; then
  log "usage: pg-restart.sh [fast|immediate] (got '$mode')"
  exit 2
fi

pg_bin=$("$here/pg-bin.sh")
run_as_owner=()
[[ $(id -u) == 0 ]] && id -u postgres >/dev/null 2>&1 && run_as_owner=(runuser -u postgres --)

exec 9>"$local_dir/.pg-scripts.lock"
if ! flock -w 120 9; then
  log "another pg script on $local_dir holds $local_dir/.pg-scripts.lock; gave up after 120 s"
  exit 1
fi

if ! [[ -f $data_dir/postmaster.pid ]] ||
  ! "${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" status >/dev/null 2>&1; then
  log "no server runs from $data_dir; start it with pg-up.sh"
  exit 1
fi
port=$(sed -n 4p "$data_dir/postmaster.pid")

log "restarting the server in $data_dir (-m $mode)"
# -l: the server's output goes to its log, not to this script's stdout (a caller reading it would wait
# for the server to exit). The server must not inherit the lock fd either.
"${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" -l "$state_dir/server.log" \
  -m "$mode" -w -t "$timeout" restart >&2 9>&-
"$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t "$timeout"
echo "postgres://postgres@127.0.0.1:$port/postgres"
