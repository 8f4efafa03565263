#!/usr/bin/env bash
# Belief (issue 20; docs/benchmarks.md, "Events, belief and scale"). Two parts:
#  1. the belief stories as whole processes, `epipen worlds STORY` under hyperfine
#     (release build; target: <= 10 ms each);
#  2. the scale families, per backend: stories/muddy-children-peek.story (n children, one
#     peeks unsuspected; k = 3, every round of reveals) and stories/secrets.story (n
#     friends each told a secret in private), n growing until a run takes over 10 s
#     (`epipen bench --runs RUNS --timeout 10 --backend B --set n=N`, the median); the
#     last n printed with a time is the largest under 10 s.
# Needs a release build (cargo build --release) and hyperfine.
#
#     bash bench/belief.sh [RUNS] [part: stories|scale|all]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
part=${2:-all}
epipen=${EPIPEN:-./target/release/epipen}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

stories=(sally-anne sally-anne-spying first-example lie belief-revision
  consecutive-numbers-belief muddy-children-peek secrets)

if [[ $part == stories || $part == all ]]; then
  cmds=()
  for s in "${stories[@]}"; do cmds+=("$epipen worlds stories/$s.story"); done
  hyperfine -N --warmup 5 --runs 30 --style none --export-json "$tmp/h.json" "${cmds[@]}" >/dev/null 2>&1
  python3 - "$tmp/h.json" <<'PY'
import json, statistics, sys
print("| story | median | min | max | CPU (user + system, mean) |")
print("|---|---|---|---|---|")
for r in json.load(open(sys.argv[1]))["results"]:
    name = r["command"].split("stories/")[1]
    t = [x * 1000 for x in r["times"]]
    print(f"| {name} | {statistics.median(t):.1f} ms | {min(t):.1f} ms | {max(t):.1f} ms "
          f"| {(r['user'] + r['system']) * 1000:.1f} ms |")
PY
  echo
fi

# shellcheck source=bench/scale.sh
source bench/scale.sh

if [[ $part == scale || $part == all ]]; then
  echo "| family | backend | n | median of $runs (min-max) | peak memory | largest κ |"
  echo "|---|---|---|---|---|---|"
  scale muddy-children-peek bdd "" 20 40 60 80 100 110 120 130 140 150 160 180 200
  scale muddy-children-peek explicit "" 10 12 14 15 16 17 18 19 20
  scale muddy-children-peek z3 "" 6 8 9 10 11 12 13 14
  scale secrets bdd "" 20 40 60 80 100 120 140 160 200
  scale secrets explicit "" 6 7 8 9 10 11
  scale secrets z3 "" 3 4 5 6 7 8 9 10 12
fi
