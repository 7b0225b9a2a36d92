#!/usr/bin/env bash
# Perft speed of sako per variant, in Mnodes/s, and each game's ratio to standard chess
# (a benchmark, not a test). Run from the repository root after `cargo build --release`:
#
#   engine-tests/bench/perft_variants.sh
#
# Environment: SAKO (binary, default target/release/sako), RUNS (timed runs, median used,
# default 3). Method: wall time (date +%s.%N) of the whole process, median of RUNS runs,
# minus the start-up time of a depth-1 run of the same position; leaf nodes per second
# (bulk-counted at the last ply, as Fairy-Stockfish's perft does). Ratio to normal = normal's
# Mnodes/s divided by the row's: above 2 would break the target "no game more than 2x slower
# per node than chess".
set -u
SAKO=${SAKO:-target/release/sako}
RUNS=${RUNS:-3}
[ -x "$SAKO" ] || { echo "no sako binary at $SAKO (cargo build --release)" >&2; exit 2; }
command -v bc >/dev/null || { echo "needs bc" >&2; exit 2; }

# label|variant|fen (empty = start)|depth
ROWS=(
  "normal start|normal||6"
  "historia start (drops)|historia||5"
  "historia movement phase|historia|rnbqkbnr/ee2pppp/pppp4/8/8/4PPPP/PPPPE1E1/RNBQKBNR[] w - - 0 1|6"
  "shatarhia start|shatarhia||6"
  "chesquerque start|chesquerque||6"
  "chancellor start|chancellor||6"
  "great start|great||5"
)

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) printf "%.4f\n", a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'; }
run() { # variant fen depth -> nodes
  if [ -n "$2" ]; then "$SAKO" perft --variant "$1" --fen "$2" "$3"; else "$SAKO" perft --variant "$1" "$3"; fi \
    | sed -n 's/^Nodes searched: *\([0-9]*\)/\1/p'
}
timed() { # variant fen depth -> "median_seconds nodes"
  local i t0 t1 n times=""
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now); n=$(run "$@"); t1=$(now)
    times+="$(echo "$t1 - $t0" | bc -l)"$'\n'
  done
  echo "$(printf '%s' "$times" | median) $n"
}

printf '%-26s %5s %12s %9s %9s %8s\n' position depth nodes seconds Mnodes/s vs_normal
normal_rate=""
for row in "${ROWS[@]}"; do
  IFS='|' read -r label variant fen depth <<<"$row"
  read -r up _ < <(timed "$variant" "$fen" 1)
  read -r t n < <(timed "$variant" "$fen" "$depth")
  secs=$(awk -v t="$t" -v u="$up" 'BEGIN { d = t - u; if (d < 0.001) d = 0.001; printf "%.3f", d }')
  rate=$(awk -v n="$n" -v s="$secs" 'BEGIN { printf "%.2f", n / s / 1e6 }')
  [ -z "$normal_rate" ] && normal_rate=$rate
  ratio=$(awk -v a="$normal_rate" -v b="$rate" 'BEGIN { printf "%.2f", a / b }')
  printf '%-26s %5s %12s %9s %9s %8s\n' "$label" "$depth" "$n" "$secs" "$rate" "$ratio"
done
