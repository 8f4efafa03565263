#!/usr/bin/env bash
# Sum and Product at x + y <= N: epipen beside the floor, a hand-written C solver with
# counting arrays (bench/floor/sum_product.c, built here with the system's cc -O2; it is
# a benchmark peer, never part of the library), in the same hyperfine run
# (docs/benchmarks.md, "The puzzles' targets, and native speed"). Needs hyperfine and a release build.
#
#     bash bench/floor.sh [RUNS] [N...]        # default: 5 runs, N = 10000
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
sizes=("${@:-10000}")
epipen=${EPIPEN:-./target/release/epipen}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/sum_product" bench/floor/sum_product.c

echo "| N | epipen (median) | C floor (median) | epipen / floor | same worlds |"
echo "|---|---|---|---|---|"
for n in "${sizes[@]}"; do
  sed "s/x + y <= 100$/x + y <= $n/" stories/sum-and-product.story >"$tmp/sp.story"
  ours="$epipen worlds --limit 1000 $tmp/sp.story"
  floor="$tmp/sum_product $n"
  # The same answer: epipen's worlds as "x y" lines beside the floor's.
  same=no
  if diff <($ours | sed -n 's/^  x = \([0-9]*\), y = \([0-9]*\)$/\1 \2/p' | sort) <($floor | sort) >/dev/null; then
    same=yes
  fi
  hyperfine -N --runs "$runs" --warmup 1 --export-json "$tmp/h.json" "$ours" "$floor" >/dev/null 2>&1
  rss_ours=$(/usr/bin/time -f %M $ours 2>&1 >/dev/null | tail -1)
  rss_floor=$(/usr/bin/time -f %M $floor 2>&1 >/dev/null | tail -1)
  python3 - "$tmp/h.json" "$n" "$rss_ours" "$rss_floor" "$same" <<'PY'
import json, sys
ours, floor = (r["median"] for r in json.load(open(sys.argv[1]))["results"])
n, rss_ours, rss_floor, same = sys.argv[2:6]
print(f"| {n} | {ours:.3f} s, {int(rss_ours) // 1024} MB | {floor:.3f} s, {int(rss_floor) // 1024} MB "
      f"| {ours / floor:.2f}x | {same} |")
PY
done
