#!/usr/bin/env bash
# Usage: envtest-download.sh SETUP_ENVTEST KUBERNETES_VERSION DEST TIMEOUT_SECONDS
#
# Tries to download kube-apiserver, etcd and kubectl of KUBERNETES_VERSION
# with controller-runtime's setup-envtest (seconds on a normal network) and
# installs them into DEST. Prints one line saying which path make
# envtest-binaries takes: downloaded (exit 0), or, when the download is
# unreachable, fails or takes longer than TIMEOUT_SECONDS, why not and that
# the binaries are built from Go modules instead (exit 1; the caller builds
# them).
set -uo pipefail

setup_envtest=$1 version=${2#v} dest=$3 timeout=$4

# fallback prints why the download is not used, and exits for the build.
fallback() {
	echo "setup-envtest: $1; building kube-apiserver, kubectl and etcd from Go modules instead" \
		"(first time only, a few minutes)"
	exit 1
}

store=$(mktemp -d)
# setup-envtest makes what it downloads read-only.
trap 'chmod -R u+w "$store" 2>/dev/null; rm -rf "$store"' EXIT

"$setup_envtest" use "$version" --bin-dir "$store/envtest" -p path >"$store/path" 2>"$store/error" &
pid=$!
( sleep "$timeout" && kill "$pid" ) >/dev/null 2>&1 &
watchdog=$!
wait "$pid"
status=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null

if [ "$status" -gt 128 ]; then
	fallback "no download of Kubernetes $version within ${timeout}s"
elif [ "$status" -ne 0 ]; then
	reason=$(tail -n 1 "$store/error")
	fallback "could not download Kubernetes $version (${reason:-exit status $status})"
fi

from=$(cat "$store/path")
for name in kube-apiserver etcd kubectl; do
	[ -x "$from/$name" ] || fallback "the download of Kubernetes $version has no $name"
done
mkdir -p "$dest"
for name in kube-apiserver etcd kubectl; do
	{ cp "$from/$name" "$dest/$name.tmp" && chmod 0755 "$dest/$name.tmp" && mv -f "$dest/$name.tmp" "$dest/$name"; } ||
		fallback "could not install $name into $dest"
done
etcd_version=$("$dest/etcd" --version 2>/dev/null | sed -n 's/^etcd Version: //p')
echo "setup-envtest: downloaded kube-apiserver, kubectl $version and etcd ${etcd_version:-of that release} into $dest"
