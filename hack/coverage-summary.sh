#!/usr/bin/env bash
# Prints statement coverage per package from a Go cover profile in which the
# same block may appear more than once (unit and e2e profiles concatenated):
# a block counts as covered when any of its entries ran.
set -euo pipefail
profile=${1:?usage: coverage-summary.sh PROFILE}
awk 'NR > 1 {
	split($1, loc, ":"); pkg = loc[1]; sub(/\/[^\/]*$/, "", pkg)
	stmts[$1] = $2; owner[$1] = pkg
	if ($3 > 0) hit[$1] = 1
}
END {
	for (b in stmts) { total[owner[b]] += stmts[b]; if (b in hit) covered[owner[b]] += stmts[b] }
	for (p in total) printf "%-60s %5.1f%%\n", p, 100 * covered[p] / total[p]
}' "$profile" | sort
