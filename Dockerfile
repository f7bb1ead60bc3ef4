# syntax=docker/dockerfile:1
#
# One image for every process; the argument picks the role:
#   docker run IMAGE gateway | lookup | pricing | ledger | webhooks | sandbox-rail | migrate
# Pin NODE_IMAGE to a digest in release builds (node:20-bookworm-slim@sha256:...).
ARG NODE_IMAGE=node:20-bookworm-slim

# ---- build: all dependencies, compile every workspace -------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /src

# Manifests first so the dependency layer is reused while only sources change. One line per entry of
# "workspaces" in the root package.json (test/deploy checks that they agree).
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY services/platform/package.json services/platform/
COPY services/lookup/package.json services/lookup/
COPY services/pricing/package.json services/pricing/
COPY services/ledger/package.json services/ledger/
COPY services/webhooks/package.json services/webhooks/
COPY services/sandbox-rail/package.json services/sandbox-rail/
COPY gateway/package.json gateway/
COPY services/runtime/package.json services/runtime/
COPY gateway/client/package.json gateway/client/
COPY gateway/console/package.json gateway/console/
COPY test/package.json test/
# npm install, not npm ci: the lockfile was made against a registry mirror that serves only linux-x64
# builds, so it lacks other platforms' optional entries and npm ci's sync check refuses it.
RUN npm install --no-audit --no-fund

COPY . .
RUN npm run build

# Gather what the runtime needs from each workspace: its manifest, compiled output and SQL migrations.
# Sources, tests and the test workspace's code stay behind. The operator console ships as the static files
# of its build (gateway/console/dist), which the gateway's admin listener serves at /console.
RUN set -eu; \
    mkdir -p /out; \
    cp package.json package-lock.json /out/; \
    for ws in proto services/platform services/lookup services/pricing services/ledger services/webhooks \
              services/sandbox-rail gateway services/runtime gateway/client gateway/console test; do \
      mkdir -p "/out/$ws"; \
      cp "$ws/package.json" "/out/$ws/"; \
      for dir in dist migrations; do \
        if [ -d "$ws/$dir" ]; then cp -R "$ws/$dir" "/out/$ws/"; fi; \
      done; \
    done; \
    test -f /out/services/runtime/dist/cli.js; \
    test -f /out/gateway/console/dist/index.html

# ---- runtime: production dependencies only, non-root ---------------------------------------------
FROM ${NODE_IMAGE} AS runtime
# Production mode: a process without a credential it needs (service tokens, WEBHOOK_SECRET_KEY) stops.
# Listeners bind to HOST, loopback when unset; inside a container that would be unreachable, and the
# container's network namespace is the boundary, so the image binds every interface.
ENV NODE_ENV=production
ENV HOST=0.0.0.0
WORKDIR /app

COPY --from=build /out/ ./
# The runtime package (the process host) depends on the gateway and every service workspace and holds the
# CLI, so its production tree is what the image runs; the test workspace's dependencies stay out. --ignore-scripts: no production
# dependency needs an install script.
RUN npm install --omit=dev --workspace services/runtime --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force \
 && groupadd --system --gid 10001 payouts \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
      --shell /usr/sbin/nologin payouts

# Numeric so Kubernetes can verify runAsNonRoot without resolving the name.
USER 10001:10001

# Partner API, admin API (internal), Prometheus metrics, gRPC services (lookup..sandbox-rail).
EXPOSE 8080 8081 9464 50051 50052 50053 50054 50055

# OpenTelemetry loads before the application so http, undici and pg are instrumented (no ESM loader hook:
# it cost ~40 MB per process for nothing traced here, see instrumentation.ts). Spans leave the process only
# when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_TRACES_EXPORTER) is set; OTEL_SDK_DISABLED=true turns tracing
# off (services/platform/README.md).
ENV NODE_OPTIONS="--import=/app/services/platform/dist/telemetry/instrumentation.js"

# Node runs as PID 1: the processes handle SIGTERM themselves (graceful drain), so no init is needed.
ENTRYPOINT ["node", "services/runtime/dist/cli.js"]
CMD ["gateway"]
