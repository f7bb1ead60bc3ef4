#!/usr/bin/env bash
# Stops the distributed topology started by start-distributed.sh: the gateway
# first (no new traffic), then the services, each with SIGTERM to its process
# group (they drain and exit), SIGKILL after PAYOUTS_STOP_TIMEOUT seconds.
# Safe to run when nothing runs. Keeps logs and secrets (a restart keeps the same
# admin token), the database and Kafka; --purge also removes the state dir.
#
# Env:
#   PAYOUTS_BASE_PORT      which topology (default: 28080)
#   PAYOUTS_LOCAL_DIR      state root (default: /tmp/payouts-local)
#   PAYOUTS_STOP_TIMEOUT   seconds to wait after SIGTERM (default: 25; a
#                          process forces its own exit after 20 s)
# Flags: --purge  remove $PAYOUTS_LOCAL_DIR/distributed/<base port> afterwards
#        --all    every topology under $PAYOUTS_LOCAL_DIR/distributed
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
timeout=${PAYOUTS_STOP_TIMEOUT:-25}
purge=false
all=false
for arg in "$@"; do
  case $arg in
  --purge) purge=true ;;
  --all) all=true ;;
  *)
    echo "stop-distributed: unknown argument $arg (expected --purge, --all)" >&2
    exit 2
    ;;
  esac
done

if [[ $all == true ]]; then
  for dir in "$local_dir"/distributed/*/; do
    [[ -d $dir ]] || continue
    flags=()
    [[ $purge == true ]] && flags+=(--purge)
    PAYOUTS_BASE_PORT=$(basename "$dir") bash "$here/stop-distributed.sh" "${flags[@]}"
  done
  exit 0
fi

base=${PAYOUTS_BASE_PORT:-28080}
state_dir=$local_dir/distributed/$base

log() { echo "stop-distributed: $*" >&2; }

# shellcheck source=deploy/local/topology-pids.sh
source "$(dirname "${BASH_SOURCE[0]}")/topology-pids.sh"

# SIGTERM to each role's process group, then wait for all of them together.
stop_roles() {
  local role pid pids=()
  for role in "$@"; do
    pid=$(running_pid "$role")
    rm -f "$state_dir/pids/$role.pid"
    [[ -n $pid ]] || continue
    log "stopping $role (pid $pid)"
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    pids+=("$pid")
  done
  local deadline=$((SECONDS + timeout))
  for pid in "${pids[@]}"; do
    while alive "$pid" && ((SECONDS < deadline)); do sleep 0.1; done
    if alive "$pid"; then
      log "pid $pid still alive after ${timeout}s; sending SIGKILL"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
      for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
    fi
  done
}

if [[ ! -d $state_dir ]]; then
  log "nothing to do ($state_dir absent)"
  exit 0
fi

exec 9>"$state_dir/.lock"
flock -w 120 9 || {
  log "another start/stop of $state_dir holds its lock; gave up after 120 s"
  exit 1
}

stop_roles gateway
stop_roles lookup pricing ledger webhooks sandbox-rail
log "stopped $state_dir"

if [[ $purge == true ]]; then
  rm -rf "$state_dir"
  log "removed $state_dir"
fi
