#!/usr/bin/env bash
# Events (issue 19; docs/benchmarks.md, "Events, belief and scale"). Three parts:
#  gossip    knowing-whether gossip (stories/gossip.story): SMCDEL's successful sequence
#            12;34;13;24 at n = 4 and its failing 12;23;31, as whole processes
#            (`epipen check` under hyperfine; target <= 0.1 s); then every pair calling
#            once (`--set sequence=0`), n growing until a run takes over 10 s.
#  prisoners stories/prisoners.story, the schedule 1, 0, 2, 0, …, (n-1), 0 (everyone
#            visits), n growing until a run takes over 10 s.
#  before    every story that existed before events landed, `epipen worlds STORY` with
#            this build and with OLD (a binary built from 4fcb46d, the parent of
#            3d76fb9 "Events (issue 19), first part"), under hyperfine, Auto's backend.
# Sizes: `epipen bench --runs RUNS --timeout 10 --set n=N` (the median of RUNS runs); the
# last n printed with a time is the largest under 10 s. Needs a release build
# (cargo build --release) and hyperfine.
#
#     bash bench/events.sh [RUNS] [part: gossip|prisoners|before|all] [OLD]
#
# OLD, e.g.: git worktree add ../belief-old 4fcb46d && (cd ../belief-old &&
# cargo build --release -p epipen-cli); OLD=../belief-old/target/release/epipen
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
part=${2:-all}
old=${3:-../belief-old/target/release/epipen}
epipen=${EPIPEN:-./target/release/epipen}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Median, min, max (ms) and CPU of each command of a hyperfine JSON export.
table() {
  python3 - "$1" <<'PY'
import json, statistics, sys
for r in json.load(open(sys.argv[1]))["results"]:
    t = [x * 1000 for x in r["times"]]
    print(f"| `{r['command']}` | {statistics.median(t):.1f} ms | {min(t):.1f} ms "
          f"| {max(t):.1f} ms | {(r['user'] + r['system']) * 1000:.1f} ms |")
PY
}

# shellcheck source=bench/scale.sh
source bench/scale.sh

if [[ $part == gossip || $part == all ]]; then
  hyperfine -N -i --warmup 5 --runs 30 --style none --export-json "$tmp/g.json" \
    "$epipen check stories/gossip.story" \
    "$epipen check stories/gossip.story --set sequence=1" >/dev/null 2>&1 || true
  echo "| command | median | min | max | CPU (user + system, mean) |"
  echo "|---|---|---|---|---|"
  table "$tmp/g.json"
  echo
  echo "| story | backend | n | median of $runs (min-max) | peak memory | largest κ |"
  echo "|---|---|---|---|---|---|"
  for b in auto explicit bdd; do scale gossip "$b" "--set sequence=0" 3 4 5; done
  echo
fi

if [[ $part == prisoners || $part == all ]]; then
  echo "| story | backend | n | median of $runs (min-max) | peak memory | largest κ |"
  echo "|---|---|---|---|---|---|"
  scale prisoners auto "" 3 4 5 6 7 8 9 10 11 12
  scale prisoners bdd "" 3 4 5 6 7 8 9 10 11 12
  scale prisoners explicit "" 3 4 5 6 8 10 12 14 16
  echo
fi

if [[ $part == before || $part == all ]]; then
  echo "| story | backend | before events (4fcb46d): median, CPU | now: median, CPU | now / before (median; CPU) |"
  echo "|---|---|---|---|---|"
  for f in $(cd stories && git ls-tree --name-only 4fcb46d . | grep '\.story$'); do
    backend=$("$epipen" -vv worlds "stories/$f" 2>&1 >/dev/null | sed -n 's/.*backend chosen backend="\([a-z0-9]*\)".*/\1/p' | head -1)
    hyperfine -N --warmup 3 --runs 21 --style none --export-json "$tmp/o.json" \
      "$old worlds stories/$f" "$epipen worlds stories/$f" >/dev/null 2>&1 || true
    python3 - "$tmp/o.json" "$f" "$backend" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))["results"]
old, new = (statistics.median(x["times"]) * 1000 for x in r)
cold, cnew = ((x["user"] + x["system"]) * 1000 for x in r)
print(f"| {sys.argv[2]} | {sys.argv[3]} | {old:.1f} ms, {cold:.1f} ms | {new:.1f} ms, {cnew:.1f} ms "
      f"| {new / old:.2f}; {cnew / cold:.2f} |")
PY
  done
fi
