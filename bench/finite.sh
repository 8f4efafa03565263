#!/usr/bin/env bash
# Finite stories, epipen beside a plain Python brute force in the same run
# (docs/benchmarks.md, "The puzzles' targets, and native speed"). Needs hyperfine
# (apt-get install hyperfine) and a release build (cargo build --release).
#
#     bash bench/finite.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
epipen=./target/release/epipen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for n in 1000 2000 10000; do
  sed "s/x + y <= 100$/x + y <= $n/" stories/sum-and-product.story >"$tmp/sp$n.story"
done

bench() { # NAME EPIPEN-COMMAND PYTHON-COMMAND
  local name=$1 ours=$2 peer=$3
  hyperfine -N --runs "$runs" --warmup 1 --export-json "$tmp/h.json" "$ours" "$peer" >/dev/null 2>&1
  local rss_ours rss_peer
  rss_ours=$(/usr/bin/time -f %M $ours 2>&1 >/dev/null | tail -1)
  rss_peer=$(/usr/bin/time -f %M $peer 2>&1 >/dev/null | tail -1)
  python3 - "$tmp/h.json" "$name" "$rss_ours" "$rss_peer" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
ours, peer = (r["median"] for r in results)
print(f"| {sys.argv[2]} | {ours:.3f} s, {int(sys.argv[3]) // 1024} MB "
      f"| {peer:.3f} s, {int(sys.argv[4]) // 1024} MB | {peer / ours:.1f}x |")
EOF
}

echo "| workload | epipen (median) | Python brute force (median) | epipen faster by |"
echo "|---|---|---|---|"
bench "Python itself (start-up)" "$epipen --version" "python3 -c pass"
bench "Cheryl's Birthday" "$epipen worlds stories/cheryl.story" "python3 bench/brute.py cheryl"
bench "Cheryl's Age" "$epipen worlds stories/cheryls-age.story" "python3 bench/brute.py cheryls-age"
for n in 1000 2000 10000; do
  bench "Sum and Product, x + y <= $n" "$epipen worlds $tmp/sp$n.story" \
    "python3 bench/brute.py sum-and-product $n"
done
bench "10 000 sampled Cheryl puzzles" \
  "$epipen sweep stories/cheryl-sample.story --samples 10000 --seed 1" \
  "python3 tests/puzzles/norvig_counter.py 10000 1 cheryl-sample"
bench "What Sum, B = 200" "$epipen worlds --set B=200 stories/what-sum.story" \
  "python3 bench/brute.py what-sum 200"
