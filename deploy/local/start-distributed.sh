#!/usr/bin/env bash
# Starts the distributed topology on this machine: one process per service, each
# `node services/runtime/dist/cli.js <role>` from the built output with the OpenTelemetry
# preload of the image, talking gRPC to each other and publishing/consuming
# through Kafka, exactly as production runs them.
#
#   1. PostgreSQL: $DATABASE_URL, else pg-up.sh plus a database of this topology
#      (payouts_dist_<base port>, created when missing).
#   2. Kafka: $KAFKA_BROKERS, else kafka-up.sh.
#   3. `migrate` once, then lookup, pricing, ledger, webhooks and
#      sandbox-rail (each ready when grpc.health.v1 answers SERVING), then the
#      gateway (ready when its admin /readyz answers 200).
#
# stdout gets only KEY=value lines (PARTNER_URL, ADMIN_URL, ADMIN_TOKEN, ...) so
# `eval "$(deploy/local/start-distributed.sh)"` works; progress goes to stderr.
#
# Idempotent: processes of this topology that still run are kept, missing ones
# are started, and the same KEY=value lines are printed again. Settings are read
# when a process starts: to change them, stop-distributed.sh first.
#
# Ports (PAYOUTS_BASE_PORT = B, default 28080): gateway partner B, admin B+1,
# lookup B+2, pricing B+3, ledger B+4, webhooks B+5, sandbox-rail B+6;
# Prometheus /metrics (METRICS_PORT) of gateway, lookup, ..., sandbox-rail on B+7..B+12.
# Two topologies run side by side with different base ports; each has its own
# state dir, database and webhook consumer group.
#
# Env (all optional):
#   PAYOUTS_BASE_PORT         first of the 7 ports (default: 28080)
#   PAYOUTS_LOCAL_DIR         state root (default: /tmp/payouts-local); this
#                             topology uses $PAYOUTS_LOCAL_DIR/distributed/<base port>
#   DATABASE_URL, KAFKA_BROKERS  use these instead of the local servers
#   ADMIN_TOKEN, RAIL_CALLBACK_SECRET, WEBHOOK_SECRET_KEY
#                             secrets; generated once and kept in the state dir
#   SERVICE_CALLER_KEYS, GATEWAY_SERVICE_PRIVATE_KEYS, LEDGER_SERVICE_PRIVATE_KEYS
#                             service identities (Ed25519 key pairs; all three or none; see
#                             services/platform/README.md); generated with
#                             `cli.js service-credentials` once and kept in the state dir.
#                             Each process gets only its own private keys (SERVICE_PRIVATE_KEYS).
#   EVENT_SIGNING_KEY, EVENT_VERIFY_KEYS
#                             the ledger's Ed25519 event signing key and the dispatcher's
#                             accepted public keys (both or none); generated with
#                             `cli.js event-signing-keys` once and kept in the state dir
#                             (event-keys.env). Only the ledger gets the private key.
#   GATEWAY_DATABASE_URL, LOOKUP_DATABASE_URL, PRICING_DATABASE_URL, LEDGER_DATABASE_URL,
#   WEBHOOKS_DATABASE_URL, SANDBOX_RAIL_DATABASE_URL
#                             each service's own database role (all or none); generated
#                             with `cli.js database-urls` (roles <database>_<service>, random
#                             passwords) once and kept in the state dir. `migrate` (as
#                             DATABASE_URL) creates the roles; each process gets only its own
#                             URL, as its DATABASE_URL.
#   HOST                      listen address of every process (default 127.0.0.1)
#   SANDBOX_AUTO_SETTLE_MS    sandbox rail settlement delay (default 3000; 0 = admin route)
#   WEBHOOK_ALLOW_PRIVATE_URLS  default true while HOST is loopback (local receivers), else false
#   WEBHOOK_CONSUMER_GROUP    default payouts-dist-<base port>-webhooks
#   LOG_LEVEL                 default info
#   PAYOUTS_START_TIMEOUT     seconds to wait for each process (default: 60)
#   Every other variable a service reads (QUOTE_TTL_MS, ...) is passed through.
# Flags: --build  run `npm run build` first (it also runs when services/runtime/dist is missing)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
base=${PAYOUTS_BASE_PORT:-28080}
local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
state_dir=$local_dir/distributed/$base
timeout=${PAYOUTS_START_TIMEOUT:-60}
cli=$root/services/runtime/dist/cli.js
instrumentation=$root/services/platform/dist/telemetry/instrumentation.js
# As the image runs every process (Dockerfile NODE_OPTIONS): OpenTelemetry loads first.
node_flags=("--import=$instrumentation")
services=(lookup pricing ledger webhooks sandbox-rail)

log() { echo "start-distributed: $*" >&2; }
die() {
  log "$*"
  exit 1
}

if ! [[ $base =~ ^[0-9]+$ ]] || ((base < 1024 || base > 65522)); then
  die "PAYOUTS_BASE_PORT must be a number between 1024 and 65522, got '$base'"
fi

port_of() {
  case $1 in
  gateway) echo "$base" ;;
  admin) echo $((base + 1)) ;;
  lookup) echo $((base + 2)) ;;
  pricing) echo $((base + 3)) ;;
  ledger) echo $((base + 4)) ;;
  webhooks) echo $((base + 5)) ;;
  sandbox-rail) echo $((base + 6)) ;;
  esac
}
addr_of() { echo "http://127.0.0.1:$(port_of "$1")"; }
metrics_port_of() {
  local i=7 role
  for role in gateway "${services[@]}"; do
    [[ $role == "$1" ]] && echo $((base + i))
    i=$((i + 1))
  done
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# shellcheck source=deploy/local/topology-pids.sh
source "$(dirname "${BASH_SOURCE[0]}")/topology-pids.sh"

# grpc.health.v1.Health/Check over h2c with node:http2 (no client library needed):
# an empty request (the whole server) must answer grpc-status 0 and status SERVING (1).
grpc_serving() {
  node --input-type=module -e '
    import http2 from "node:http2";
    const fail = () => process.exit(1);
    setTimeout(fail, 2000);
    const session = http2.connect(process.argv[1]);
    session.on("error", fail);
    const call = session.request({
      ":method": "POST", ":path": "/grpc.health.v1.Health/Check",
      "content-type": "application/grpc+proto", te: "trailers",
    });
    const chunks = [];
    let status;
    call.on("response", (h) => { status = h["grpc-status"]; });
    call.on("trailers", (t) => { status = t["grpc-status"]; });
    call.on("data", (c) => chunks.push(c));
    call.on("error", fail);
    call.on("end", () => {
      const body = Buffer.concat(chunks);
      session.close();
      // 5-byte frame header, then field 1 (varint) = 1 SERVING: 0x08 0x01.
      process.exit(status === "0" && body[5] === 0x08 && body[6] === 0x01 ? 0 : 1);
    });
    call.end(Buffer.alloc(5));
  ' "$1" 2>/dev/null
}

gateway_ready() { curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$(port_of admin)/readyz" 2>/dev/null; }

is_ready() {
  if [[ $1 == gateway ]]; then gateway_ready; else grpc_serving "$(addr_of "$1")"; fi
}

wait_ready() {
  local role=$1 pid=$2 deadline=$((SECONDS + timeout))
  until is_ready "$role"; do
    if ! alive "$pid"; then
      log "$role (pid $pid) exited during start; last lines of $state_dir/logs/$role.log:"
      tail -n 30 "$state_dir/logs/$role.log" >&2 || true
      return 1
    fi
    ((SECONDS < deadline)) || {
      log "$role not ready after ${timeout}s; see $state_dir/logs/$role.log"
      return 1
    }
    sleep 0.2
  done
}

# Starts one role in its own session and process group (so stop-distributed.sh can
# signal the group), with no inherited stdout: `$(start-distributed.sh)` returns.
launch() {
  local role=$1 port=$2
  local -x DATABASE_URL
  DATABASE_URL=$(database_url_of "$role")
  echo "--- $(date -u +%FT%TZ) start $role on port $port" >>"$state_dir/logs/$role.log"
  local -x EVENT_SIGNING_KEY
  EVENT_SIGNING_KEY=$(event_signing_key_of "$role")
  PORT=$port METRICS_PORT=$(metrics_port_of "$role") SERVICE_PRIVATE_KEYS=$(service_keys_of "$role") setsid node "${node_flags[@]}" "$cli" "$role" </dev/null >>"$state_dir/logs/$role.log" 2>&1 9>&- &
  echo $! >"$state_dir/pids/$role.pid"
  started+=("$!")
  log "$role started (pid $!, port $port)"
}

# A value kept in the state dir by an earlier run, or nothing.
kept() { sed -n "s/^$1=//p" "$state_dir/secrets.env" 2>/dev/null || true; }

# A secret from the environment, else the one kept from an earlier run, else a new one.
secret() {
  local name=$1 generator=$2 value=${!1:-}
  [[ -n $value ]] || value=$(sed -n "s/^$name=//p" "$state_dir/secrets.env" 2>/dev/null)
  [[ -n $value ]] || value=$(node -e "$generator")
  echo "$value"
}

# Each service's own database URL (<SERVICE>_DATABASE_URL): from the environment when all are given, else
# kept from an earlier run, else generated (roles named after the database, so topologies sharing a server
# do not share roles).
database_url_names=(GATEWAY_DATABASE_URL LOOKUP_DATABASE_URL PRICING_DATABASE_URL LEDGER_DATABASE_URL
  WEBHOOKS_DATABASE_URL SANDBOX_RAIL_DATABASE_URL)
load_database_urls() {
  local name missing=false generated db_name
  for name in "${database_url_names[@]}"; do [[ -n ${!name:-} ]] || missing=true; done
  [[ $missing == true ]] || return 0
  missing=false
  for name in "${database_url_names[@]}"; do
    printf -v "$name" '%s' "$(kept "$name")"
    [[ -n ${!name} ]] || missing=true
  done
  [[ $missing == true ]] || return 0
  db_name=${DATABASE_URL##*/}
  db_name=${db_name%%\?*}
  generated=$(DATABASE_ROLE_PREFIX=$db_name node "$cli" database-urls </dev/null 9>&-) ||
    die "could not generate the service database URLs"
  for name in "${database_url_names[@]}"; do printf -v "$name" '%s' "$(sed -n "s/^$name=//p" <<<"$generated")"; done
}
database_url_settings() {
  local name
  for name in "${database_url_names[@]}"; do echo "$name=${!name}"; done
}
# A process's own database URL: its role's (the migration role's DATABASE_URL is for migrate only).
database_url_of() {
  case $1 in
  gateway) echo "$GATEWAY_DATABASE_URL" ;;
  lookup) echo "$LOOKUP_DATABASE_URL" ;;
  pricing) echo "$PRICING_DATABASE_URL" ;;
  ledger) echo "$LEDGER_DATABASE_URL" ;;
  webhooks) echo "$WEBHOOKS_DATABASE_URL" ;;
  sandbox-rail) echo "$SANDBOX_RAIL_DATABASE_URL" ;;
  esac
}

# The private keys a role signs its calls to others with: only the gateway and the ledger call services.
service_keys_of() {
  case $1 in
  gateway) echo "$GATEWAY_SERVICE_PRIVATE_KEYS" ;;
  ledger) echo "$LEDGER_SERVICE_PRIVATE_KEYS" ;;
  *) echo "" ;;
  esac
}

# The event signing key: the ledger's alone (it signs the events the dispatcher verifies).
event_signing_key_of() {
  if [[ $1 == ledger ]]; then echo "$event_signing_key"; else echo ""; fi
}

cd "$root"
mkdir -p "$state_dir/pids" "$state_dir/logs"
exec 9>"$state_dir/.lock"
flock -w 120 9 || die "another start/stop of $state_dir holds its lock; gave up after 120 s"

if [[ ${1:-} == --build || ! -f $cli || ! -f $instrumentation ]]; then
  log "building (npm run build)"
  (cd "$root" && npm run build >&2)
fi

if [[ -z ${DATABASE_URL:-} ]]; then
  server_url=$(bash "$here/pg-up.sh" 9>&-)
  db_name=payouts_dist_$base
  DATABASE_URL=${server_url%/*}/$db_name
  # shellcheck disable=SC2016 # JavaScript, not shell, in single quotes
  (cd "$root" && node --input-type=module -e '
    import pg from "pg";
    const [url, name] = process.argv.slice(1);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
    await client.end();
  ' "$server_url" "$db_name")
fi
[[ -n ${KAFKA_BROKERS:-} ]] || KAFKA_BROKERS=$(bash "$here/kafka-up.sh" 9>&-)

ADMIN_TOKEN=$(secret ADMIN_TOKEN 'console.log(require("crypto").randomBytes(24).toString("base64url"))')
RAIL_CALLBACK_SECRET=$(secret RAIL_CALLBACK_SECRET 'console.log(require("crypto").randomBytes(32).toString("base64url"))')
WEBHOOK_SECRET_KEY=$(secret WEBHOOK_SECRET_KEY 'console.log(require("crypto").randomBytes(32).toString("hex"))')
((${#ADMIN_TOKEN} >= 16)) || die "ADMIN_TOKEN must be at least 16 characters"
# Service identities: generated together (the callers' private keys and the public keys the servers
# check), from the environment only when all three are given.
if [[ -z ${SERVICE_CALLER_KEYS:-} || -z ${GATEWAY_SERVICE_PRIVATE_KEYS:-} || -z ${LEDGER_SERVICE_PRIVATE_KEYS:-} ]]; then
  SERVICE_CALLER_KEYS=$(kept SERVICE_CALLER_KEYS)
  GATEWAY_SERVICE_PRIVATE_KEYS=$(kept GATEWAY_SERVICE_PRIVATE_KEYS)
  LEDGER_SERVICE_PRIVATE_KEYS=$(kept LEDGER_SERVICE_PRIVATE_KEYS)
fi
if [[ -z $SERVICE_CALLER_KEYS || -z $GATEWAY_SERVICE_PRIVATE_KEYS || -z $LEDGER_SERVICE_PRIVATE_KEYS ]]; then
  credentials=$(node "$cli" service-credentials </dev/null 9>&-) || die "could not generate service credentials"
  SERVICE_CALLER_KEYS=$(sed -n "s/^SERVICE_CALLER_KEYS=//p" <<<"$credentials")
  GATEWAY_SERVICE_PRIVATE_KEYS=$(sed -n "s/^GATEWAY_SERVICE_PRIVATE_KEYS=//p" <<<"$credentials")
  LEDGER_SERVICE_PRIVATE_KEYS=$(sed -n "s/^LEDGER_SERVICE_PRIVATE_KEYS=//p" <<<"$credentials")
fi
load_database_urls

# Event signing keys: from the environment when both are given, else the pair kept from an earlier run,
# else a new pair. Kept apart from secrets.env; the private key is passed to the ledger only (launch).
event_signing_key=${EVENT_SIGNING_KEY:-}
if [[ -z $event_signing_key || -z ${EVENT_VERIFY_KEYS:-} ]]; then
  event_keys=$(cat "$state_dir/event-keys.env" 2>/dev/null || true)
  [[ -n $event_keys ]] || event_keys=$(node "$cli" event-signing-keys </dev/null 9>&-) || die "could not generate event signing keys"
  event_signing_key=$(sed -n "s/^EVENT_SIGNING_KEY=//p" <<<"$event_keys")
  EVENT_VERIFY_KEYS=$(sed -n "s/^EVENT_VERIFY_KEYS=//p" <<<"$event_keys")
fi
(umask 077 && printf 'EVENT_SIGNING_KEY=%s\nEVENT_VERIFY_KEYS=%s\n' "$event_signing_key" "$EVENT_VERIFY_KEYS" >"$state_dir/event-keys.env")
export EVENT_VERIFY_KEYS
export -n EVENT_SIGNING_KEY 2>/dev/null || true

# What the running processes were started with; a second start must not silently mix settings.
settings="DATABASE_URL=$DATABASE_URL
KAFKA_BROKERS=$KAFKA_BROKERS
ADMIN_TOKEN=$ADMIN_TOKEN
RAIL_CALLBACK_SECRET=$RAIL_CALLBACK_SECRET
WEBHOOK_SECRET_KEY=$WEBHOOK_SECRET_KEY
SERVICE_CALLER_KEYS=$SERVICE_CALLER_KEYS
GATEWAY_SERVICE_PRIVATE_KEYS=$GATEWAY_SERVICE_PRIVATE_KEYS
LEDGER_SERVICE_PRIVATE_KEYS=$LEDGER_SERVICE_PRIVATE_KEYS
$(database_url_settings)"
any_running=false
for role in "${services[@]}" gateway; do [[ -n $(running_pid "$role") ]] && any_running=true; done
if [[ $any_running == true && -f $state_dir/secrets.env && $(cat "$state_dir/secrets.env") != "$settings" ]]; then
  die "processes of $state_dir run with other settings (DATABASE_URL, KAFKA_BROKERS or secrets); run stop-distributed.sh first"
fi
(umask 077 && echo "$settings" >"$state_dir/secrets.env")

export DATABASE_URL KAFKA_BROKERS ADMIN_TOKEN RAIL_CALLBACK_SECRET WEBHOOK_SECRET_KEY SERVICE_CALLER_KEYS
# Private keys go to their own process only (launch); never exported to every process.
export -n GATEWAY_SERVICE_PRIVATE_KEYS LEDGER_SERVICE_PRIVATE_KEYS SERVICE_PRIVATE_KEYS 2>/dev/null || true
export PAYOUTS_TOPOLOGY_DIR=$state_dir
ADMIN_PORT=$(port_of admin)
LOOKUP_ADDR=$(addr_of lookup)
PRICING_ADDR=$(addr_of pricing)
LEDGER_ADDR=$(addr_of ledger)
WEBHOOKS_ADDR=$(addr_of webhooks)
RAIL_ADDR=$(addr_of sandbox-rail)
RAIL_CALLBACK_URL="http://127.0.0.1:$(port_of gateway)/callbacks/rail"
export ADMIN_PORT LOOKUP_ADDR PRICING_ADDR LEDGER_ADDR WEBHOOKS_ADDR RAIL_ADDR RAIL_CALLBACK_URL
export HOST=${HOST:-127.0.0.1}
# Private receivers only while nothing outside this machine reaches the listeners.
case "$HOST" in
  127.* | ::1 | localhost) private_default=true ;;
  *) private_default=false ;;
esac
export WEBHOOK_ALLOW_PRIVATE_URLS=${WEBHOOK_ALLOW_PRIVATE_URLS:-$private_default}
export WEBHOOK_CONSUMER_GROUP=${WEBHOOK_CONSUMER_GROUP:-payouts-dist-$base-webhooks}
export LOG_LEVEL=${LOG_LEVEL:-info}

started=()
on_exit() {
  local rc=$?
  if ((rc != 0 && ${#started[@]} > 0)); then
    log "start failed; stopping the processes this run started"
    for pid in "${started[@]}"; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  fi
}
trap on_exit EXIT

log "migrating $DATABASE_URL"
(export "${database_url_names[@]}" && node "${node_flags[@]}" "$cli" migrate) </dev/null >>"$state_dir/logs/migrate.log" 2>&1 9>&- || {
  tail -n 30 "$state_dir/logs/migrate.log" >&2
  die "migrate failed"
}

# Every port a missing process needs must be free before anything starts.
for role in "${services[@]}" gateway; do
  [[ -z $(running_pid "$role") ]] || continue
  ports=("$(port_of "$role")")
  [[ $role == gateway ]] && ports+=("$ADMIN_PORT")
  for port in "${ports[@]}"; do
    ! port_open "$port" || die "port $port ($role) is taken by another process; set PAYOUTS_BASE_PORT"
  done
done

# Services first (all at once), the gateway last: it is the edge that sends traffic in.
for group in services gateway; do
  if [[ $group == services ]]; then roles=("${services[@]}"); else roles=(gateway); fi
  waits=()
  for role in "${roles[@]}"; do
    pid=$(running_pid "$role")
    if [[ -z $pid ]]; then
      launch "$role" "$(port_of "$role")"
      pid=$!
    fi
    waits+=("$role:$pid")
  done
  for entry in "${waits[@]}"; do wait_ready "${entry%%:*}" "${entry##*:}"; done
done
log "ready: state, pids and logs in $state_dir"

cat <<OUT
PARTNER_URL=http://127.0.0.1:$(port_of gateway)
ADMIN_URL=http://127.0.0.1:$ADMIN_PORT
ADMIN_TOKEN=$ADMIN_TOKEN
DATABASE_URL=$DATABASE_URL
KAFKA_BROKERS=$KAFKA_BROKERS
LOOKUP_ADDR=$LOOKUP_ADDR
PRICING_ADDR=$PRICING_ADDR
LEDGER_ADDR=$LEDGER_ADDR
WEBHOOKS_ADDR=$WEBHOOKS_ADDR
RAIL_ADDR=$RAIL_ADDR
STATE_DIR=$state_dir
OUT
