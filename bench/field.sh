#!/usr/bin/env bash
# The field's benchmark families at the sizes SMCDEL and KHoare publish (issue 10;
# docs/benchmarks.md, "The field's families, beside SMCDEL"): dining cryptographers, muddy
# children (all muddy), drinking logicians, What Sum. Each row is `epipen bench` on one
# story at one size (median wall time of RUNS runs, peak memory, worlds left); What Sum
# at B = 200 also runs the plain Python brute force (bench/brute.py). Needs a release
# build (cargo build --release) and python3.
#
#     bash bench/field.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
epipen=./target/release/epipen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

row() { # FAMILY STORY NAME=VALUE...
  local family=$1 story=$2
  shift 2
  local sets=() size=""
  for s in "$@"; do
    sets+=(--set "$s")
    size="${size:+$size, }$s"
  done
  "$epipen" bench --runs "$runs" --timeout 120 --json "${sets[@]}" "$story" >"$tmp/b.json" 2>/dev/null || true
  local left
  left=$("$epipen" worlds --limit 1000000 --timeout 120 "${sets[@]}" "$story" 2>/dev/null | sed -n 1p | cut -d' ' -f1) || true
  python3 - "$tmp/b.json" "$family" "$size" "$left" <<'EOF'
import json, sys
r = json.loads(open(sys.argv[1]).readline())
family, size, left = sys.argv[2:5]
if r.get("ok"):
    print(f"| {family} | {size} | {left} | {r['median_ms'] / 1000:.2f} s "
          f"| {r['peak_rss_kb'] // 1024} MB | {r['kappa_max']} |")
else:
    print(f"| {family} | {size} | | {r.get('status', 'failed')} | | |")
EOF
}

echo "| family | size | worlds left | epipen (median of $runs) | peak memory | largest κ (BDD nodes; What Sum: worlds) |"
echo "|---|---|---|---|---|---|"
for n in 50 100 200 400 800; do
  row "dining cryptographers" stories/dining-cryptographers.story "n=$n"
done
for n in 40 100 200; do
  row "muddy children, all muddy" stories/muddy-children.story "n=$n" "k=$n"
done
for n in 200 400 1000; do
  row "drinking logicians" stories/drinking-logicians.story "n=$n"
done
for b in 10 20 30 40 50 200; do
  row "What Sum" stories/what-sum.story "B=$b"
done

start=$(date +%s.%N)
python3 bench/brute.py what-sum 200 >/dev/null
end=$(date +%s.%N)
python3 -c "print(f'| What Sum, Python brute force (bench/brute.py) | B=200 | | {$end - $start:.2f} s | | |')"
