#!/usr/bin/env bash
# Probabilities (issue 29; docs/benchmarks.md, "Events, belief and scale"): CPU seconds and peak
# memory, median of RUNS runs, of
#  - bench/chances/million.story: 10^6 worlds (three numbers 0..99, a prior), A's
#    probability asked 1000 times (`check actual probability(A, …) <= 1`);
#  - the cost of weights on the explicit backend: dice.story (six rolls of a die, no
#    chances) against dice-weighted.story (the same with a prior and each face weighted),
#    sum-and-product-2000.story against sum-and-product-2000-prior.story (10^6 worlds),
#    stories/prisoners.story against bench/chances/prisoners-weighted.story (target: at
#    most 1.5x).
# Needs a release build (cargo build --release -p epipen-cli).
#
#     bash bench/chances.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
epipen=${EPIPEN:-./target/release/epipen}

# The median CPU seconds (user + system) and peak memory (MB) of RUNS runs of a command.
measure() {
  local cpu=() mem=()
  for _ in $(seq "$runs"); do
    read -r u s m < <(/usr/bin/time -f '%U %S %M' "$@" 2>&1 >/dev/null | tail -1)
    cpu+=("$(echo "$u + $s" | bc)")
    mem+=("$m")
  done
  local c m
  c=$(printf '%s\n' "${cpu[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
  m=$(printf '%s\n' "${mem[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p")
  echo "$c $((m / 1024))"
}

echo "| story | backend | CPU s (median of $runs) | peak MB |"
echo "|---|---|---|---|"
for story in bench/chances/million.story bench/chances/dice.story bench/chances/dice-weighted.story \
  bench/chances/sum-and-product-2000.story bench/chances/sum-and-product-2000-prior.story \
  stories/prisoners.story bench/chances/prisoners-weighted.story; do
  read -r c m < <(measure "$epipen" --backend explicit run "$story")
  echo "| \`$story\` | explicit | $c | $m |"
done
