# syntax=docker/dockerfile:1
# One image for both containers of the pod: /manager (the controller, the
# default entrypoint) and /adapter (the /v1 HTTP API sidecar).
#   make docker-build IMG=registry.example/invoicing:v0.1.0
FROM golang:1.26 AS builder
ARG TARGETOS
ARG TARGETARCH

WORKDIR /workspace
# Copy the Go Modules manifests and download the modules first, into a cache
# that later builds reuse, so that a source change does not download again.
COPY go.mod go.mod
COPY go.sum go.sum
RUN --mount=type=cache,target=/go/pkg/mod go mod download

# Copy the Go source (relies on .dockerignore to filter)
COPY cmd/main.go cmd/main.go
COPY cmd/adapter/ cmd/adapter/
COPY api/ api/
COPY internal/ internal/

# Build both binaries, statically (CGO off), from the module and build caches.
# GOARCH has no default, so that the binaries match the platform the image is
# built for (docker buildx sets TARGETOS and TARGETARCH).
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOOS=${TARGETOS:-linux} GOARCH=${TARGETARCH} \
    go build -trimpath -ldflags="-s -w" -o manager ./cmd && \
    CGO_ENABLED=0 GOOS=${TARGETOS:-linux} GOARCH=${TARGETARCH} \
    go build -trimpath -ldflags="-s -w" -o adapter ./cmd/adapter

# Use distroless as minimal base image to package the manager and adapter binaries
# Refer to https://github.com/GoogleContainerTools/distroless for more details
FROM gcr.io/distroless/static:nonroot
WORKDIR /
COPY --from=builder /workspace/manager .
COPY --from=builder /workspace/adapter .
USER 65532:65532

# The controller is the default; the adapter sidecar runs /adapter (config/manager/manager.yaml).
ENTRYPOINT ["/manager"]
