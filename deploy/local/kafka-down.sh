#!/usr/bin/env bash
# Stops the Kafka broker started by kafka-up.sh (kafka-stop.sh: SIGTERM, then SIGKILL after
# KAFKA_STOP_TIMEOUT seconds) and removes its state dir with all data.
# Safe to run when nothing is running or the dir is already gone. Leaves the
# jar cache (kafka-fetch.sh) alone.
#
# Env:
#   PAYOUTS_LOCAL_DIR   state root (default: /tmp/payouts-local); removes
#                       $PAYOUTS_LOCAL_DIR/kafka
#   KAFKA_STOP_TIMEOUT  seconds to wait after SIGTERM (default: 30)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
state_dir=$local_dir/kafka

log() { echo "kafka-down: $*" >&2; }

if [[ ! -d $state_dir ]]; then
  log "nothing to do ($state_dir absent)"
  exit 0
fi

"$here/kafka-stop.sh"

exec 9>"$local_dir/.kafka.lock"
if ! flock -w 180 9; then
  log "another kafka-up/kafka-down on $local_dir holds $local_dir/.kafka.lock; gave up after 180 s"
  exit 1
fi
rm -rf "$state_dir"
log "removed $state_dir"
