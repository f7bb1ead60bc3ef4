#!/usr/bin/env bash
# Fetches the Kafka 3.9.1 broker jars (kafka_2.13 + reload4j logging) and their
# runtime dependencies from Maven Central into a cache outside the repo, using
# deploy/local/kafka/pom.xml. No-op once a completed fetch left its marker.
# Prints the libs dir as the last line of stdout; progress goes to stderr.
#
# Env:
#   PAYOUTS_CACHE_DIR  cache root (default: $HOME/.cache/payouts)
#                      libs -> $PAYOUTS_CACHE_DIR/kafka-3.9.1/libs
#                      Maven local repo -> $PAYOUTS_CACHE_DIR/m2
#   MVN                Maven executable (default: mvn)
set -euo pipefail

readonly KAFKA_VERSION=3.9.1
readonly DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache_dir=${PAYOUTS_CACHE_DIR:-$HOME/.cache/payouts}
dist_dir=$cache_dir/kafka-$KAFKA_VERSION
libs_dir=$dist_dir/libs
marker=$dist_dir/.fetched
mvn_bin=${MVN:-mvn}

if [[ -f $marker ]]; then
  echo "$libs_dir"
  exit 0
fi

# Parallel CI jobs may fetch at once: one resolves, the others wait for it.
mkdir -p "$dist_dir"
exec 9>"$dist_dir/.fetch.lock"
flock 9
if [[ -f $marker ]]; then
  echo "$libs_dir"
  exit 0
fi

if ! command -v "$mvn_bin" >/dev/null 2>&1; then
  echo "kafka-fetch: Maven ('$mvn_bin') not found; install it (apt-get install -y maven) and retry" >&2
  exit 1
fi

# A half-finished earlier run may have left a partial libs dir: start clean so
# the classpath never mixes versions.
rm -rf "$libs_dir"
mkdir -p "$libs_dir" "$cache_dir/m2"

echo "kafka-fetch: resolving Kafka $KAFKA_VERSION into $libs_dir" >&2
# Full plugin coordinates: a bare "dependency:" prefix on Maven 3.8.x resolves
# an old plugin version.
"$mvn_bin" -B -f "$here/kafka/pom.xml" \
  "-Dmaven.repo.local=$cache_dir/m2" \
  "$DEP_PLUGIN:copy-dependencies" \
  "-DoutputDirectory=$libs_dir" \
  -DincludeScope=runtime >"$dist_dir/fetch.log" 2>&1 || {
  tail -n 40 "$dist_dir/fetch.log" >&2
  echo "kafka-fetch: Maven failed (full log: $dist_dir/fetch.log)" >&2
  exit 1
}

if [[ ! -f $libs_dir/kafka_2.13-$KAFKA_VERSION.jar ]]; then
  echo "kafka-fetch: kafka_2.13-$KAFKA_VERSION.jar missing after Maven ran" >&2
  exit 1
fi

date -u +%Y-%m-%dT%H:%M:%SZ >"$marker"
echo "kafka-fetch: $(find "$libs_dir" -name '*.jar' | wc -l) jars ready" >&2
echo "$libs_dir"
