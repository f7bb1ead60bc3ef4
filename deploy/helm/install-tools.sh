#!/usr/bin/env bash
# Installs the chart tooling from package registries into a cache outside the repo, for
# deploy/helm/validate.sh and the "deploy" vitest project:
#   helm                 Helm 4, built from the Go module proxy (`go install`)
#   kubernetes-validate  PyPI, in its own venv; bundles the Kubernetes JSON schemas, so it runs offline
# Each tool is a no-op once the cached one reports the pinned version. Prints the bin dir as the last
# line of stdout; progress goes to stderr.
#
# Env:
#   PAYOUTS_CACHE_DIR  cache root (default: $HOME/.cache/payouts); binaries go to $PAYOUTS_CACHE_DIR/bin
#   GO                 Go executable (default: go; needs Go >= 1.26 for Helm 4.3)
#   PYTHON             Python executable for the venv (default: python3)
set -euo pipefail

# Helm 4 reads the Kubernetes version it reports to charts from the client-go it was built with, so a
# plain `go install` gives a usable .Capabilities.KubeVersion (Helm 3 needs ldflags for that).
readonly HELM_MODULE=helm.sh/helm/v4
readonly HELM_VERSION=v4.3.1
readonly KUBERNETES_VALIDATE_VERSION=1.37.0

cache_dir=${PAYOUTS_CACHE_DIR:-$HOME/.cache/payouts}
bin_dir=$cache_dir/bin
venv_dir=$cache_dir/kubernetes-validate-$KUBERNETES_VALIDATE_VERSION
go_bin=${GO:-go}
python_bin=${PYTHON:-python3}

log() { echo "install-tools: $*" >&2; }

# Registry fetches on a fresh CI machine occasionally fail mid-download; try three times.
retry() {
  local attempt
  for attempt in 1 2 3; do
    if "$@"; then return 0; fi
    log "attempt $attempt failed: $*"
    sleep $((attempt * 5))
  done
  return 1
}

helm_is_current() {
  [[ -x $bin_dir/helm ]] && [[ $("$bin_dir/helm" version --template '{{.Version}}' 2>/dev/null) == "$HELM_VERSION" ]]
}

install_helm() {
  if helm_is_current; then
    log "helm $HELM_VERSION already in $bin_dir"
    return
  fi
  if ! command -v "$go_bin" >/dev/null 2>&1; then
    log "Go ('$go_bin') not found; Helm is built from the Go module proxy"
    exit 1
  fi
  log "building helm $HELM_VERSION with $("$go_bin" version) (a few minutes on a cold cache)"
  local staging
  staging=$(mktemp -d)
  # GOTOOLCHAIN=local: use the installed Go rather than downloading a toolchain. The version ldflag
  # only fixes what `helm version` prints (the module tag is not stamped by go install).
  retry env GOTOOLCHAIN=local GOBIN="$staging" CGO_ENABLED=0 "$go_bin" install -trimpath \
    -ldflags "-s -w -X $HELM_MODULE/internal/version.version=$HELM_VERSION" \
    "$HELM_MODULE/cmd/helm@$HELM_VERSION"
  mkdir -p "$bin_dir"
  # Rename within one filesystem step so an interrupted run never leaves a half-written helm behind.
  cp "$staging/helm" "$bin_dir/.helm.tmp"
  mv -f "$bin_dir/.helm.tmp" "$bin_dir/helm"
  rm -rf "$staging"
  helm_is_current || { log "built helm does not report $HELM_VERSION"; exit 1; }
}

install_kubernetes_validate() {
  local tool=$venv_dir/bin/kubernetes-validate
  if [[ -x $tool ]] && "$tool" --version 2>/dev/null | grep -qF "$KUBERNETES_VALIDATE_VERSION"; then
    log "kubernetes-validate $KUBERNETES_VALIDATE_VERSION already in $venv_dir"
  else
    log "installing kubernetes-validate $KUBERNETES_VALIDATE_VERSION from PyPI"
    rm -rf "$venv_dir"
    "$python_bin" -m venv "$venv_dir" || { log "'$python_bin -m venv' failed (Debian: apt-get install python3-venv)"; exit 1; }
    retry "$venv_dir/bin/pip" install --quiet --disable-pip-version-check \
      "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
  fi
  mkdir -p "$bin_dir"
  ln -sfn "$tool" "$bin_dir/kubernetes-validate"
}

install_helm
install_kubernetes_validate
log "helm: $("$bin_dir/helm" version --short)"
log "kubernetes-validate: $("$bin_dir/kubernetes-validate" --version)"
echo "$bin_dir"
