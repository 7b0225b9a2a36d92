#!/usr/bin/env bash
# Lazy SMP: time to a fixed depth with 1 and 2 threads on a few positions of several
# variants (a benchmark, not a test). Run from the repository root after
# `cargo build --release`:   engine-tests/bench/smp_speedup.sh
# Environment: SAKO (binary), RUNS (runs per measurement, median used; default 3).
# Prints per position the median wall time for 1 and 2 threads, the speed-up (time with 1
# thread / time with 2), and the geometric mean of the speed-ups.
set -u
SAKO=${SAKO:-target/release/sako}
RUNS=${RUNS:-3}
[ -x "$SAKO" ] || { echo "no sako binary at $SAKO" >&2; exit 2; }
# variant|fen (empty = start)|depth
ROWS=(
  "normal|r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 9|15"
  "normal|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|12"
  "chancellor||13"
  "great||11"
  "shatar||13"
  "chesquerque||11"
)
now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) printf "%.3f\n", a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
timed() { # variant fen depth threads
  local i t0 t1 times=""
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now)
    if [ -n "$2" ]; then
      "$SAKO" analyze --variant "$1" --fen "$2" --depth "$3" --threads "$4" --hash 64 >/dev/null
    else
      "$SAKO" analyze --variant "$1" --depth "$3" --threads "$4" --hash 64 >/dev/null
    fi
    t1=$(now)
    times+="$(echo "$t1 - $t0" | bc -l)"$'\n'
  done
  printf '%s' "$times" | median
}
printf '%-12s %5s %9s %9s %8s\n' variant depth t1_s t2_s speedup
logsum=0; n=0
for row in "${ROWS[@]}"; do
  IFS='|' read -r v fen d <<<"$row"
  t1=$(timed "$v" "$fen" "$d" 1)
  t2=$(timed "$v" "$fen" "$d" 2)
  s=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", a / b }')
  logsum=$(awk -v l="$logsum" -v s="$s" 'BEGIN { printf "%.6f", l + log(s) }'); n=$((n + 1))
  printf '%-12s %5s %9s %9s %8s\n' "$v" "$d" "$t1" "$t2" "$s"
done
awk -v l="$logsum" -v n="$n" 'BEGIN { printf "geometric mean speed-up: %.2f\n", exp(l / n) }'
