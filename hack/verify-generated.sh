#!/usr/bin/env bash
# Fails when `make manifests generate` would change a generated file, or
# `go mod tidy` go.mod or go.sum, as the verify targets of Flux and
# cluster-api do. It regenerates and tidies in place, so a failing run leaves
# the fresh files behind: review them and commit them.
set -euo pipefail
cd "$(dirname "$0")/.."

generated() {
	{
		find api config dist/chart/templates/crd -type f \( -name 'zz_generated*.go' -o -name '*.yaml' \) -print0
		printf '%s\0' go.mod go.sum
	} | sort -z | xargs -0 sha256sum
}

before=$(generated)
# The same recipes as the Makefile's, so the two cannot drift apart.
make --no-print-directory -s manifests generate CONTROLLER_GEN="${CONTROLLER_GEN:?}"
# A requirement no package imports any more, or one imported but marked
# indirect, is a change to go.mod that nobody reviewed.
go mod tidy
after=$(generated)

if [[ "$before" != "$after" ]]; then
	echo "Generated files or go.mod/go.sum were out of date; they have been regenerated:" >&2
	diff <(echo "$before") <(echo "$after") >&2 || true
	echo "Run 'make manifests generate' and 'go mod tidy', and commit the result." >&2
	exit 1
fi
echo "Generated files, go.mod and go.sum are up to date."
