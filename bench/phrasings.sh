#!/usr/bin/env bash
# The same puzzles phrased in different ways (bench/phrasings/, docs/benchmarks.md,
# "Phrasings"): for each family, every phrasing in one hyperfine run, whole processes
# (`epipen worlds STORY`), with the peak memory and each phrasing's time over the
# family's best. Needs hyperfine and a release build.
#
#     bash bench/phrasings.sh [RUNS] [FAMILY...]
#
# Families: count256 minesweeper dining muddy battleship sum-product cheryl.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
families=("${@:-count256 minesweeper dining muddy battleship sum-product cheryl}")
read -r -a families <<<"${families[*]}"
epipen=${EPIPEN:-./target/release/epipen}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "| family | phrasing | median | min | max | peak memory | / best |"
echo "|---|---|---|---|---|---|---|"
for family in "${families[@]}"; do
  stories=(bench/phrasings/"$family"*.story)
  commands=()
  for s in "${stories[@]}"; do
    commands+=("$epipen worlds --timeout 120 $s")
  done
  hyperfine -N -i --runs "$runs" --warmup 1 --export-json "$tmp/h.json" "${commands[@]}" >/dev/null 2>&1
  rss=()
  for c in "${commands[@]}"; do
    rss+=("$(/usr/bin/time -f %M $c 2>&1 >/dev/null | tail -1)")
  done
  python3 - "$tmp/h.json" "$family" "${rss[@]}" <<'PY'
import json, os, sys
results = json.load(open(sys.argv[1]))["results"]
family, rss = sys.argv[2], sys.argv[3:]
best = min(r["median"] for r in results)
for r, kb in zip(results, rss):
    story = os.path.basename(r["command"].split()[-1]).removesuffix(".story")
    failed = any(code != 0 for code in r.get("exit_codes", []))
    print(f"| {family} | {story}{' (failed)' if failed else ''} | {r['median']:.3f} s | {r['min']:.3f} s "
          f"| {r['max']:.3f} s | {int(kb) // 1024} MB | {r['median'] / best:.1f}x |")
PY
done
