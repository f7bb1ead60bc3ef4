#!/usr/bin/env bash
# Starts a throwaway single-node Apache Kafka 3.9.1 (KRaft, combined broker +
# controller) on 127.0.0.1 for tests and development, running the Maven
# Central jars fetched by kafka-fetch.sh (no tarball, no Docker). Prints the
# bootstrap address as the LAST line of stdout:
#   127.0.0.1:PORT
# Everything else goes to stderr, so `BROKERS=$(deploy/local/kafka-up.sh)` works.
#
# Broker defaults suit tests: replication factor 1 everywhere, auto topic
# creation on with 3 partitions, no initial group rebalance delay, consumer
# sessions from 1 s (KAFKA_SESSION_TIMEOUT_MS of the services may go below
# the broker default of 6 s).
# Ready means the log says "Kafka Server started" and the port accepts TCP.
#
# Idempotent: if the broker of this state dir already runs, only the address
# is printed; a stopped broker with formatted data is started again on it.
# Stop and wipe it with kafka-down.sh.
#
# Env:
#   PAYOUTS_LOCAL_DIR      state root (default: /tmp/payouts-local); the broker
#                          uses $PAYOUTS_LOCAL_DIR/kafka (config, data/, kafka.log)
#   PAYOUTS_CACHE_DIR      jar cache (default: $HOME/.cache/payouts), see kafka-fetch.sh
#   KAFKA_PORT             client (PLAINTEXT) port (default: 19092)
#   KAFKA_CONTROLLER_PORT  KRaft controller port (default: 19093)
#   KAFKA_START_TIMEOUT    seconds to wait for readiness (default: 90)
#   KAFKA_HEAP_OPTS        JVM heap flags (default: -Xms256m -Xmx512m)
#   JAVA_HOME / JAVA       Java 17+ to run (default: $JAVA_HOME/bin/java, else java)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
local_dir=${PAYOUTS_LOCAL_DIR:-/tmp/payouts-local}
state_dir=$local_dir/kafka
data_dir=$state_dir/data
config=$state_dir/server.properties
log_file=$state_dir/kafka.log
pid_file=$state_dir/kafka.pid
port=${KAFKA_PORT:-19092}
controller_port=${KAFKA_CONTROLLER_PORT:-19093}
timeout=${KAFKA_START_TIMEOUT:-90}
heap_opts=${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}
address="127.0.0.1:$port"

if [[ -n ${JAVA:-} ]]; then
  java_bin=$JAVA
elif [[ -n ${JAVA_HOME:-} ]]; then
  java_bin=$JAVA_HOME/bin/java
else
  java_bin=java
fi

log() { echo "kafka-up: $*" >&2; }

# A zombie (exited, not yet reaped) still answers kill -0: treat it as gone.
alive() { [[ -e /proc/$1 ]] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Pid of this state dir's broker if it is alive, else nothing.
our_pid() {
  local pid
  pid=$(cat "$pid_file" 2>/dev/null) || return 0
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qF "kafka.Kafka $config" && echo "$pid"
  return 0
}

# Port the running broker was configured with (from its server.properties).
configured_port() { sed -n 's/^advertised\.listeners=PLAINTEXT:\/\/127\.0\.0\.1:\([0-9]*\)$/\1/p' "$config"; }

wait_ready() {
  local pid=$1 deadline=$((SECONDS + timeout))
  while ((SECONDS < deadline)); do
    if ! alive "$pid"; then
      log "broker process $pid exited during startup"
      return 1
    fi
    if grep -q 'Kafka Server started' "$log_file" 2>/dev/null && port_open "$port"; then
      return 0
    fi
    sleep 0.25
  done
  log "broker not ready after ${timeout}s"
  return 1
}

fail_start() {
  local pid=$1
  echo "----- last lines of $log_file -----" >&2
  tail -n 40 "$log_file" >&2 || true
  kill -KILL "$pid" 2>/dev/null || true
  exit 1
}

write_config() {
  cat >"$config" <<PROPS
# Written by deploy/local/kafka-up.sh: single-node KRaft for tests only.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$data_dir
num.partitions=3
auto.create.topics.enable=true
default.replication.factor=1
min.insync.replicas=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=1000
num.network.threads=2
num.io.threads=2
PROPS
  # The broker writes to stdout (kafka.log); the raft server's INFO line is
  # the readiness signal, everything else is WARN and up.
  cat >"$state_dir/log4j.properties" <<'LOG4J'
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
LOG4J
}

# Kafka cluster ids are 16 random bytes in unpadded base64url; Kafka itself
# never hands out ids starting with "-" because the CLI would read a flag.
new_cluster_id() {
  local id
  while :; do
    id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | tr -d '=')
    [[ $id != -* ]] && break
  done
  echo "$id"
}

if ((port == controller_port)); then
  log "KAFKA_PORT and KAFKA_CONTROLLER_PORT must differ"
  exit 1
fi

mkdir -p "$local_dir"
# Serialise concurrent kafka-up/kafka-down calls on the same state root. The
# broker must not inherit fd 9, or it would hold the lock for its whole life.
exec 9>"$local_dir/.kafka.lock"
if ! flock -w 180 9; then
  log "another kafka-up/kafka-down on $local_dir holds $local_dir/.kafka.lock; gave up after 180 s"
  exit 1
fi

pid=$(our_pid)
if [[ -n $pid ]]; then
  if [[ $(configured_port) != "$port" ]]; then
    log "a broker already runs from $state_dir on port $(configured_port), not $port; run kafka-down.sh first"
    exit 1
  fi
  wait_ready "$pid" || fail_start "$pid"
  echo "$address"
  exit 0
fi

for p in "$port" "$controller_port"; do
  if port_open "$p"; then
    log "port $p on 127.0.0.1 is taken by another process; set KAFKA_PORT / KAFKA_CONTROLLER_PORT"
    exit 1
  fi
done

if ! "$java_bin" -version >/dev/null 2>&1; then
  log "java ('$java_bin') not runnable; install Java 17 (apt-get install -y openjdk-17-jre-headless)"
  exit 1
fi

libs_dir=$("$here/kafka-fetch.sh")
classpath="$libs_dir/*"
jvm_opts=()
read -r -a jvm_opts <<<"$heap_opts"
jvm_opts+=(-XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
  "-Dlog4j.configuration=file:$state_dir/log4j.properties")

mkdir -p "$state_dir"
write_config
if [[ ! -f $data_dir/meta.properties ]]; then
  rm -rf "$data_dir"
  log "formatting $data_dir"
  # Static controller.quorum.voters: format without --standalone.
  "$java_bin" "${jvm_opts[@]}" -cp "$classpath" kafka.tools.StorageTool format \
    -t "$(new_cluster_id)" -c "$config" >"$state_dir/format.log" 2>&1 || {
    cat "$state_dir/format.log" >&2
    log "storage format failed"
    exit 1
  }
fi

log "starting Kafka on $address (controller 127.0.0.1:$controller_port), log: $log_file"
# setsid: the broker must outlive the calling shell and its process group.
setsid "$java_bin" "${jvm_opts[@]}" -cp "$classpath" kafka.Kafka "$config" \
  </dev/null >"$log_file" 2>&1 9>&- &
pid=$!
echo "$pid" >"$pid_file"

wait_ready "$pid" || fail_start "$pid"
log "ready in ${SECONDS}s (pid $pid)"
echo "$address"
