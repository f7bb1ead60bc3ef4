#!/usr/bin/env bash
# Stops the Kafka broker started by kafka-up.sh (SIGTERM, then SIGKILL after KAFKA_STOP_TIMEOUT
# seconds) and KEEPS its state dir: kafka-up.sh starts it again on the same data (topics, offsets,
# consumer groups). kafka-down.sh stops it and deletes the data. Safe to run when nothing is running.
#
# Env:
#   PAYOUTS_LOCAL_DIR   state root (default: /tmp/payouts-local); the broker of $PAYOUTS_LOCAL_DIR/kafka
#   KAFKA_STOP_TIMEOUT  seconds to wait after SIGTERM (default: 30)
set -euo pipefail

local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
state_dir=$local_dir/kafka
pid_file=$state_dir/kafka.pid
timeout=${KAFKA_STOP_TIMEOUT:-30}

log() { echo "kafka-stop: $*" >&2; }

# A zombie (exited, not yet reaped) still answers kill -0: treat it as gone.
alive() { [[ -e /proc/$1 ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

if [[ ! -d $state_dir ]]; then
  log "nothing to do ($state_dir absent)"
  exit 0
fi

exec 9>"$local_dir/.kafka.lock"
if ! flock -w 180 9; then
  log "another kafka script on $local_dir holds $local_dir/.kafka.lock; gave up after 180 s"
  exit 1
fi

pid=$(cat "$pid_file" 2>/dev/null || true)
# Only signal the pid if it still is this state dir's broker: pids get reused.
if [[ $pid =~ ^[0-9]+$ ]] &&
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF "kafka.Kafka $state_dir/server.properties"; then
  log "stopping broker $pid"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((timeout * 4))); do
    alive "$pid" || break
    sleep 0.25
  done
  if alive "$pid"; then
    log "broker $pid still alive after ${timeout}s; sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for _ in $(seq 50); do alive "$pid" || break; sleep 0.1; done
  fi
else
  log "no broker of $state_dir runs"
fi
