#!/usr/bin/env bash
# Validates the payouts chart offline, for CI and before a release:
#   1. helm lint --strict with each values file (values.schema.json and validateValues included)
#   2. helm template with each values file, at the chart's minimum Kubernetes version and the newest one
#      the tools know
#   3. kubernetes-validate --strict of every rendered manifest against that version's JSON schemas
# Runs every check, prints one line per check, and exits non-zero if any failed. The rendered manifests
# stay in $VALIDATE_OUT_DIR (default: a new temp dir) for inspection.
#
# Tools come from deploy/helm/install-tools.sh ($PAYOUTS_CACHE_DIR/bin), else from PATH.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
chart=$here/payouts
cache_bin=${PAYOUTS_CACHE_DIR:-$HOME/.cache/payouts}/bin
out_dir=${VALIDATE_OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/payouts-chart.XXXXXX")}
values_files=("$here/ci-values.yaml" "$here/production-values.yaml")
# The chart's kubeVersion floor, and the newest schema set kubernetes-validate 1.37 bundles.
kube_versions=(1.27.0 1.37.0)

find_tool() {
  if [[ -x $cache_bin/$1 ]]; then
    echo "$cache_bin/$1"
  elif command -v "$1" >/dev/null 2>&1; then
    command -v "$1"
  else
    echo "validate: $1 not found in $cache_bin or PATH; run deploy/helm/install-tools.sh first" >&2
    exit 2
  fi
}

helm=$(find_tool helm)
kubernetes_validate=$(find_tool kubernetes-validate)
mkdir -p "$out_dir"
failures=0

# check NAME LOG COMMAND...: runs COMMAND with its output in LOG; prints ok/FAIL, and the log on failure.
check() {
  local name=$1 log=$2
  shift 2
  if "$@" >"$log" 2>&1; then
    echo "ok    $name"
  else
    echo "FAIL  $name"
    sed 's/^/      /' "$log"
    failures=$((failures + 1))
  fi
}

# kinds FILE: "3 Deployment, 1 Job, ..." for the summary line.
kinds() {
  grep -E '^kind: ' "$1" | sort | uniq -c | awk '{printf "%s%s %s", sep, $1, $3; sep=", "}'
}

echo "helm: $("$helm" version --short)   kubernetes-validate: $("$kubernetes_validate" --version)"
echo "chart: $chart"
echo "rendered manifests: $out_dir"

for values in "${values_files[@]}"; do
  name=$(basename "$values" .yaml)
  check "helm lint --strict -f $name.yaml" "$out_dir/$name.lint.log" \
    "$helm" lint --strict "$chart" -f "$values"
  for kube in "${kube_versions[@]}"; do
    rendered=$out_dir/$name.k8s-$kube.yaml
    rm -f "$rendered"
    check "helm template -f $name.yaml --kube-version $kube" "$out_dir/$name.k8s-$kube.template.log" \
      sh -c '"$1" template payouts "$2" --namespace payouts --kube-version "$3" -f "$4" >"$5"' \
      _ "$helm" "$chart" "$kube" "$values" "$rendered"
    if [[ -s $rendered ]]; then
      echo "      rendered: $(kinds "$rendered")"
      check "kubernetes-validate --strict -k $kube ($name)" "$out_dir/$name.k8s-$kube.validate.log" \
        "$kubernetes_validate" --strict --quiet --kubernetes-version "$kube" "$rendered"
    fi
  done
done

if ((failures > 0)); then
  echo "validate: $failures check(s) failed"
  exit 1
fi
echo "validate: all checks passed"
