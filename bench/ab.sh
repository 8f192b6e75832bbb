#!/bin/sh
# Benchmark git revisions against each other, interleaved in one run, so the load of a shared machine
# falls on each alike. Each revision is unpacked into a temp dir (git archive) using this checkout's
# node_modules; the table rows of bench/run.ts are printed per revision and round.
#   bench/ab.sh ROUNDS "SECTIONS" REV...
#   bench/ab.sh 3 "send_text concurrent pressure" 963b8c6 HEAD
set -e
rounds=$1
sections=$2
shift 2
root=$(git rev-parse --show-toplevel)
dir=$(mktemp -d)
for rev in "$@"; do
  mkdir -p "$dir/$rev"
  git -C "$root" archive "$rev" | tar -x -C "$dir/$rev"
  ln -s "$root/node_modules" "$dir/$rev/node_modules"
done
round=1
while [ "$round" -le "$rounds" ]; do
  for rev in "$@"; do
    echo "=== $rev round $round $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    # shellcheck disable=SC2086 # SECTIONS is a list of words
    (cd "$dir/$rev" && bun bench/run.ts $sections 2>&1 | grep '^| ' || true)
  done
  round=$((round + 1))
done
rm -rf "$dir"
