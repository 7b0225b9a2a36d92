#!/usr/bin/env bash
# Search speed of two sako builds on the same fixed-depth analyses (a benchmark, not a test),
# for changes meant to make the search faster without changing it: the node counts of both
# builds must be equal, and the time ratio says how much faster the new one is.
#
#   engine-tests/bench/search_speed.sh OLD_BINARY NEW_BINARY
#
# Environment: RUNS (hyperfine runs per position, default 10), ROWS (space-separated labels
# to run, default all). Needs hyperfine. Rows: chess positions of each phase (the start, a
# middlegame, endgames where the kings walk, so that king-bucketed nets refresh often) and
# the start of two other games. Method: hyperfine's mean wall time of the whole process
# `sako analyze --depth D` with the built-in net, 16 MB hash, one thread; ratio = old mean /
# new mean (above 1: the new build is faster); the last row is the geometric mean.
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD_BINARY NEW_BINARY" >&2; exit 2; }
OLD=$1 NEW=$2
RUNS=${RUNS:-10}
command -v hyperfine >/dev/null || { echo "needs hyperfine" >&2; exit 2; }
for b in "$OLD" "$NEW"; do [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }; done

# label|variant|fen (empty = start)|depth
ALL=(
  "start|normal||17"
  "middlegame|normal|r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 9|17"
  "rook-ending|normal|8/5pk1/6p1/8/4P3/5KP1/r7/4R3 w - - 0 40|20"
  "pawn-ending|normal|8/5k2/3p2p1/1p1P3p/1P5P/4K1P1/8/8 w - - 0 45|34"
  "minor-ending|normal|8/4kp2/3b2p1/7p/4N2P/6P1/5PK1/8 w - - 0 38|25"
  "shatar-start|shatar||17"
  "great-start|great||15"
)
nodes() { # binary variant fen depth -> nodes of the last info line
  local args=(analyze --variant "$2" --depth "$4" --threads 1 --hash 16)
  [ -n "$3" ] && args+=(--fen "$3")
  "$1" "${args[@]}" | sed -n 's/^info .* nodes \([0-9]*\).*/\1/p' | tail -1
}
printf '%-13s %6s %11s %9s %9s %7s\n' row depth nodes old_ms new_ms ratio
logsum=0 n=0
for row in "${ALL[@]}"; do
  IFS='|' read -r label v fen d <<<"$row"
  if [ -n "${ROWS:-}" ] && [[ " $ROWS " != *" $label "* ]]; then continue; fi
  n_old=$(nodes "$OLD" "$v" "$fen" "$d"); n_new=$(nodes "$NEW" "$v" "$fen" "$d")
  if [ "$n_old" != "$n_new" ]; then
    echo "$label: node counts differ ($n_old old, $n_new new): not the same search" >&2
    exit 1
  fi
  fenarg=""; [ -n "$fen" ] && fenarg="--fen '$fen'"
  cmd="analyze --variant $v $fenarg --depth $d --threads 1 --hash 16"
  json=$(mktemp)
  hyperfine -N --style none --warmup 1 --runs "$RUNS" --export-json "$json" \
    "$OLD $cmd" "$NEW $cmd" >/dev/null 2>&1 || { echo "$label: hyperfine failed" >&2; exit 1; }
  read -r t_old t_new < <(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(r[0]["mean"], r[1]["mean"])' "$json")
  rm -f "$json"
  ratio=$(awk -v a="$t_old" -v b="$t_new" 'BEGIN { printf "%.3f", a / b }')
  logsum=$(awk -v l="$logsum" -v r="$ratio" 'BEGIN { printf "%.6f", l + log(r) }'); n=$((n + 1))
  awk -v l="$label" -v d="$d" -v nn="$n_new" -v a="$t_old" -v b="$t_new" -v r="$ratio" \
    'BEGIN { printf "%-13s %6s %11s %9.1f %9.1f %7s\n", l, d, nn, a * 1000, b * 1000, r }'
done
[ "$n" -gt 0 ] && awk -v l="$logsum" -v n="$n" 'BEGIN { printf "geometric mean ratio (old/new): %.3f\n", exp(l / n) }'
