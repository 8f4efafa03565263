# The scale runs of bench/events.sh and bench/belief.sh (sourced by both): `epipen bench`
# on STORY with BACKEND and the extra `--set`s SETS for each n in N..., a table row each,
# until one takes 10 s or fails. Uses the caller's $epipen, $runs and $tmp.
# shellcheck shell=bash
scale() { # STORY BACKEND SETS N...
  local story=$1 backend=$2 sets=$3
  shift 3
  for n in "$@"; do
    # shellcheck disable=SC2086
    "$epipen" bench --runs "$runs" --timeout 10 --json --backend "$backend" $sets --set "n=$n" \
      "stories/$story.story" >"$tmp/b.json" 2>/dev/null || true
    if ! python3 - "$tmp/b.json" "$story" "$backend" "$n" <<'PY'; then break; fi
import json, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("{")]
r = json.loads(lines[0]) if lines else {}
story, backend, n = sys.argv[2:5]
if r.get("ok") and r["median_ms"] < 10000:
    print(f"| {story} | {backend} | {n} | {r['median_ms'] / 1000:.2f} s "
          f"({r['min_ms'] / 1000:.2f}-{r['max_ms'] / 1000:.2f}) | {r['peak_rss_kb'] // 1024} MB | {r['kappa_max']} |")
    sys.exit(0)
print(f"| {story} | {backend} | {n} | {r.get('status', 'over 10 s')} | | |")
sys.exit(1)
PY
  done
}
