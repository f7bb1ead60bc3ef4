#!/usr/bin/env bash
# Starts a throwaway PostgreSQL 15 server for tests and development from the
# system binaries (see pg-bin.sh), listening on 127.0.0.1 only, and prints its
# connection string as the LAST line of stdout:
#   postgres://postgres@127.0.0.1:PORT/postgres
# Everything else goes to stderr, so `URL=$(deploy/local/pg-up.sh)` works.
#
# Durability is switched off (fsync, full_page_writes, synchronous_commit):
# data may be lost on a crash, which is fine for test data only, unless
# PG_DURABLE=1 (see below). Auth is trust
# for the "postgres" superuser on loopback and the private unix socket.
#
# Idempotent: if the server of this state dir already runs, only the URL is
# printed; a stopped server with existing data is started again as it was.
# As root, the server runs as OS user "postgres" (created if absent), because
# postgres refuses to run as root. Stop and wipe it with pg-down.sh.
#
# Env:
#   PAYOUTS_LOCAL_DIR  state root (default: /tmp/payouts-local); the server
#                      uses $PAYOUTS_LOCAL_DIR/pg (data/, sock/, server.log)
#   PGPORT             TCP port (default: 55433)
#   PGBIN              PostgreSQL 15 bin dir (default: auto, see pg-bin.sh)
#   PG_START_TIMEOUT   seconds to wait for readiness (default: 60)
#   PG_DURABLE         1 = start with fsync, synchronous_commit and
#                      full_page_writes on (a committed transaction survives
#                      pg_ctl restart -m immediate); applies to this start and,
#                      through postmaster.opts, to every pg_ctl restart (see
#                      pg-restart.sh). Default 0: the fast throwaway settings.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
state_dir=$local_dir/pg
data_dir=$state_dir/data
sock_dir=$state_dir/sock
port=${PGPORT:-55433}
timeout=${PG_START_TIMEOUT:-60}
durable=${PG_DURABLE:-0}
url="postgres://postgres@127.0.0.1:$port/postgres"

log() { echo "pg-up: $*" >&2; }

if [[ $durable != 0 && $durable != 1 ]]; then
  log "PG_DURABLE must be 0 or 1, not '$durable'"
  exit 1
fi

if ! pg_bin=$("$here/pg-bin.sh"); then
  log "cannot start: run $here/install-postgres.sh first"
  exit 1
fi

run_as_owner=()
if [[ $(id -u) == 0 ]]; then
  if ! id -u postgres >/dev/null 2>&1; then
    log "creating system user postgres"
    useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin postgres
  fi
  run_as_owner=(runuser -u postgres --)
fi

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Port recorded on line 4 of postmaster.pid by the running server.
running_port() { sed -n 4p "$data_dir/postmaster.pid" 2>/dev/null; }

server_running() {
  [[ -f $data_dir/postmaster.pid ]] && "${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" status >/dev/null 2>&1
}

# Serialise concurrent pg-up/pg-down calls on the same state root. The server
# must not inherit fd 9, or it would hold the lock for its whole life.
mkdir -p "$local_dir"
exec 9>"$local_dir/.pg-scripts.lock"
if ! flock -w 120 9; then
  log "another pg-up/pg-down on $local_dir holds $local_dir/.pg-scripts.lock; gave up after 120 s"
  exit 1
fi

if server_running; then
  if [[ $(running_port) != "$port" ]]; then
    log "a server already runs from $data_dir on port $(running_port), not $port; run pg-down.sh first"
    exit 1
  fi
  "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t "$timeout"
  echo "$url"
  exit 0
fi

if port_open "$port"; then
  log "port $port on 127.0.0.1 is taken by another process; set PGPORT to a free port"
  exit 1
fi

created_state=false
on_exit() {
  local rc=$?
  if ((rc != 0)); then
    [[ -f $state_dir/initdb.log ]] && tail -n 30 "$state_dir/initdb.log" >&2
    [[ -f $state_dir/server.log ]] && tail -n 30 "$state_dir/server.log" >&2
    if [[ $created_state == true ]]; then
      "${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" -m immediate -w stop >/dev/null 2>&1 9>&- || true
      rm -rf "$state_dir"
    fi
  fi
}
trap on_exit EXIT

# A data dir without PG_VERSION is a half-made initdb: start over.
if [[ ! -f $data_dir/PG_VERSION ]]; then
  rm -rf "$state_dir"
  created_state=true
  mkdir -p "$sock_dir"
  [[ ${#run_as_owner[@]} -gt 0 ]] && chown -R postgres: "$state_dir"
  if ! "${run_as_owner[@]}" test -w "$state_dir"; then
    log "user postgres cannot write $state_dir (a parent dir is not traversable?); set PAYOUTS_LOCAL_DIR"
    exit 1
  fi
  log "initdb in $data_dir"
  "${run_as_owner[@]}" "$pg_bin/initdb" -D "$data_dir" -U postgres --auth=trust \
    -E UTF8 --locale=C --no-sync >"$state_dir/initdb.log" 2>&1
  # Throwaway test data: trade durability for speed. wal_level=minimal needs
  # max_wal_senders=0. 300 connections leave room for many service pools.
  cat >>"$data_dir/postgresql.conf" <<CONF

# --- deploy/local/pg-up.sh (throwaway test server) ---
listen_addresses = '127.0.0.1'
unix_socket_directories = '$sock_dir'
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
wal_level = minimal
max_wal_senders = 0
max_wal_size = 1GB
checkpoint_timeout = 30min
CONF
fi

# Command-line settings override postgresql.conf and are kept in postmaster.opts, which pg_ctl restart
# reuses: a durable server stays durable across restarts, whatever its data dir was created with.
server_opts="-p $port"
[[ $durable == 1 ]] && server_opts+=" -c fsync=on -c synchronous_commit=on -c full_page_writes=on"

log "starting PostgreSQL on 127.0.0.1:$port ($pg_bin)$([[ $durable == 1 ]] && echo ', durable')"
"${run_as_owner[@]}" "$pg_bin/pg_ctl" -D "$data_dir" -l "$state_dir/server.log" \
  -w -t "$timeout" -o "$server_opts" start >&2 9>&-
"$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres -t "$timeout"
echo "$url"
