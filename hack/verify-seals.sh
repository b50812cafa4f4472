#!/usr/bin/env bash
# Verifies workspaces' hash chains of LedgerSeals with base64, gzip and
# sha256sum alone (docs/ledger.md#seals), the same check as cmd/verifyseals
# but for the payload's records. It reads one seal a line,
#
#   namespace name sequence previousHash hash payloadSHA256 payload
#
# from the file given as its argument, or from stdin, exactly what this
# kubectl command prints (no cluster is needed once the lines are saved):
#
#   kubectl get seals -A -o jsonpath='{range .items[*]}{.metadata.namespace} {.metadata.name} {.spec.sequence} {.spec.previousHash} {.spec.hash} {.spec.payloadSHA256} {.spec.payload}{"\n"}{end}' \
#     | hack/verify-seals.sh
#
# For each workspace it checks that the seals are 1, 2, 3, ... without a gap,
# each named seal-<sequence in six digits or more>, that each payload's
# base64 and gzip decode to bytes whose SHA-256 is payloadSHA256, that each
# previousHash is the previous seal's hash (64 zeros for seal 1), and that
# each hash is the SHA-256 of "<namespace>\n<sequence>\n<previousHash>\n<payloadSHA256>\n".
# It prints "<namespace>: verified <n> seals, head <hash>" or
# "<namespace>: seal <name> (sequence <n>): <what failed>" per workspace
# ("no seals" for no line), and exits 0 when every chain holds, 1 when one is broken, 2 on bad input.
set -uo pipefail

zero=0000000000000000000000000000000000000000000000000000000000000000
input=${1:--}
if [ "$input" != - ] && [ ! -r "$input" ]; then
	echo "verify-seals: cannot read $input" >&2
	exit 2
fi

# Sorted by workspace, then by sequence as a number: kubectl lists by name,
# and seal-1000000 sorts before seal-100001 by name.
sorted=$(mktemp) || exit 2
trap 'rm -f "$sorted"' EXIT
if ! LC_ALL=C sort -k1,1 -k3,3n "$input" >"$sorted"; then
	exit 2
fi

status=0
ns='' count=0 head=$zero broken=''

# finish prints the verdict on the workspace just read.
finish() {
	[ -n "$ns" ] || return 0
	if [ -n "$broken" ]; then
		echo "$ns: $broken"
		status=1
	else
		echo "$ns: verified $count seals, head $head"
	fi
}

sha() { sha256sum | cut -d' ' -f1; }

while read -r namespace name sequence previous hash payloadsha payload extra; do
	[ -n "$namespace" ] || continue
	if [ -z "$payload" ] || [ -n "$extra" ]; then
		echo "verify-seals: a line is not 'namespace name sequence previousHash hash payloadSHA256 payload': $namespace $name" >&2
		exit 2
	fi
	case $sequence in
	'' | *[!0-9]*)
		echo "verify-seals: $namespace $name: sequence $sequence is not a number" >&2
		exit 2
		;;
	esac
	if [ "$namespace" != "$ns" ]; then
		finish
		ns=$namespace count=0 head=$zero broken=''
	fi
	[ -z "$broken" ] || continue
	want=$((count + 1))
	link="seal $name (sequence $sequence)"
	if [ "$sequence" -ne "$want" ]; then
		if [ "$sequence" -lt "$want" ]; then
			broken="$link: seal sequence $sequence appears twice"
		else
			broken="seal $(printf 'seal-%06d' "$want") (sequence $want): it is missing: the chain has a gap"
		fi
		continue
	fi
	if [ "$name" != "$(printf 'seal-%06d' "$sequence")" ]; then
		broken="$link: its name is not $(printf 'seal-%06d' "$sequence")"
		continue
	fi
	if ! got=$(printf '%s' "$payload" | base64 -d | gzip -dc | sha); then
		broken="$link: the payload is not the base64 of a gzip"
		continue
	fi
	if [ "$got" != "$payloadsha" ]; then
		broken="$link: the payload hashes to $got, not to payloadSHA256 $payloadsha"
		continue
	fi
	if [ "$previous" != "$head" ]; then
		broken="$link: previousHash is $previous, the previous seal's hash is $head"
		continue
	fi
	chain=$(printf '%s\n%s\n%s\n%s\n' "$namespace" "$sequence" "$previous" "$payloadsha" | sha)
	if [ "$hash" != "$chain" ]; then
		broken="$link: hash is $hash, the chain hash is $chain"
		continue
	fi
	count=$want head=$hash
done <"$sorted"
finish
if [ -z "$ns" ]; then
	echo "no seals"
fi
exit "$status"
