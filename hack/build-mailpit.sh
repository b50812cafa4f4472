#!/usr/bin/env bash
# Usage: build-mailpit.sh VERSION OUT
#
# Builds Mailpit VERSION, the mail catcher of `make run`, with its web UI
# into OUT. `go install github.com/axllent/mailpit@VERSION` alone gives a
# blank web view: the UI's bundle (server/ui/dist: app.js, app.css, the
# fonts), which Mailpit embeds, is built by its release process and is not
# in the Go module. So this copies the module's source, installs the UI's
# npm packages at the versions its package-lock.json pins (`npm ci`), bundles
# the UI with esbuild (`npm run build`), and then runs `go build` with the
# version stamped, as Mailpit's own Dockerfile does.
#
# Two entries of the lock file are left out, because the npm registry the
# project's machines reach does not serve those versions:
#   - rapidoc, the viewer of the API's OpenAPI page (/api/v1/): its own
#     entry point (server/ui-src/docs.js) is emptied, so that page shows no
#     viewer; the mailbox, the messages and their attachments are unaffected.
#   - sass-embedded and its per-platform builds, an optional peer of
#     esbuild-sass-plugin, which compiles the styles with the pure
#     JavaScript `sass` of the lock file instead (`npm ci --omit=peer`).
set -euo pipefail

version=$1
# OUT is used after a cd: make it absolute.
out=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")

for tool in node npm; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "build-mailpit: $tool is not on PATH; Mailpit's web UI is built with node and npm" \
			"(make test needs them too: install Node.js 20 or later with npm)" >&2
		exit 1
	fi
done

work=$(mktemp -d)
# The module cache is read-only; so is the copy until chmod.
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# go mod download runs outside any module, so that it adds nothing to ours.
module=$(cd "$work" && GOFLAGS= go mod download -json "github.com/axllent/mailpit@$version")
dir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p' <<<"$module")
if [ -z "$dir" ] || [ ! -f "$dir/package-lock.json" ]; then
	echo "build-mailpit: go mod download found no source with a package-lock.json for mailpit $version:" >&2
	echo "$module" >&2
	exit 1
fi
cp -R "$dir" "$work/src"
chmod -R u+w "$work/src"
cd "$work/src"

# Drop rapidoc from package.json and the lock file alike (npm ci refuses a
# lock that disagrees with package.json); it has no dependencies of its own.
node - <<'EOF'
const fs = require("fs");
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
delete pkg.dependencies.rapidoc;
delete lock.packages[""].dependencies.rapidoc;
delete lock.packages["node_modules/rapidoc"];
fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2));
fs.writeFileSync("package-lock.json", JSON.stringify(lock, null, 2));
fs.writeFileSync("server/ui-src/docs.js", "// The API viewer (rapidoc) is not built here.\n");
EOF

# No browser is needed to bundle the UI (Playwright runs Mailpit's own
# end-to-end tests only).
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --omit=peer --no-audit --no-fund --loglevel=error
npm run build
if [ ! -s server/ui/dist/app.js ] || [ ! -s server/ui/dist/app.css ]; then
	echo "build-mailpit: npm run build wrote no server/ui/dist/app.js and app.css" >&2
	exit 1
fi

CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/axllent/mailpit/config.Version=$version" -o "$out.tmp" .
mv "$out.tmp" "$out"
