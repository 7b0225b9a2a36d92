#!/usr/bin/env bash
# Perft speed of sako against Debian's Fairy-Stockfish 11.1 (`go perft`), start positions.
#
#   engine-tests/bench/perft_vs_fsf.sh            (run from the repository root)
#
# Environment:
#   SAKO   sako binary                       (default target/release/sako)
#   FSF    Fairy-Stockfish binary            (default: fairy-stockfish in PATH or /usr/games)
#   PEERS  folder with variants-fsf11.ini    (default engine-tests/peers, next to this script)
#   RUNS   timed runs per measurement; the median is used (default 3)
#   ROWS   space-separated subset of rows to run, e.g. "normal chancellor" (default: all)
#   QUICK  if 1, every depth is lowered by 2 (smoke test of the script itself)
#
# Method: every measurement is wall time (date +%s.%N) of a whole process, the median of RUNS
# runs; each program's start-up is measured the same way on a trivial run (sako `perft ... 1`,
# FSF `go perft 1`) and subtracted. Nodes/s = nodes / (time - start-up). Ratio = FSF time / sako
# time: above 1 means sako is faster. The node counts of both programs are compared (and, where
# FSF cannot play the game, sako's count is compared with the oracle count in
# engine-tests/perft/<variant>.epd); any difference is flagged MISMATCH.
#
# Rows (sako variant, depth, FSF variant):
#   normal     6  chess                  (built in)
#   chancellor 6  paulowich              (variants-fsf11.ini; 11.1 lacks the a-side Chancellor
#                                          castling, which cannot happen before ply 9: counts equal)
#   great      5  -                      Debian FSF 11.1 CANNOT play Great Shatranj: it has no
#                                          custom pieces (General WDFA, Minister WDN, Priestess FAN,
#                                          Woody WD). Checked: fed the `great` section of variants.ini
#                                          it loads it but ignores customPieceN, and `go perft 1` from
#                                          the start gives 8 instead of 30. pyffish can play it, but it
#                                          is a Python binding driven move by move, not a fair timing
#                                          comparison: FSF columns n/a; sako's count is checked
#                                          against engine-tests/perft/great.epd instead.
#   historia   4  historia11             (variants-fsf11.ini; its elephant lacks the backward step,
#                                          irrelevant here: the first 20 plies are drops)
#   shatar     5  shatar                 (built in; Berse = J there, same moves)
set -u

SAKO=${SAKO:-target/release/sako}
PEERS=${PEERS:-$(cd "$(dirname "$0")/../peers" && pwd)}
RUNS=${RUNS:-3}
ROWS=${ROWS:-"normal chancellor great historia shatar"}
EPD_DIR=${EPD_DIR:-engine-tests/perft}
if [ -z "${FSF:-}" ]; then
    FSF=$(command -v fairy-stockfish || true)
    [ -z "$FSF" ] && [ -x /usr/games/fairy-stockfish ] && FSF=/usr/games/fairy-stockfish
fi
INI="$PEERS/variants-fsf11.ini"

# name  depth  fsf-variant (- = none)  needs-ini
ALL_ROWS="normal:6:chess:0 chancellor:6:paulowich:1 great:5:-:0 historia:4:historia11:1 shatar:5:shatar:0"

now() { date +%s.%N; }

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) printf "%.4f\n", a[(NR+1)/2]; else printf "%.4f\n", (a[NR/2]+a[NR/2+1])/2}'; }

# fsf_perft VARIANT NEEDS_INI DEPTH -> prints node count (empty on failure)
fsf_perft() {
    local v=$1 ini=$2 d=$3
    {
        echo uci
        [ "$ini" = 1 ] && echo "setoption name VariantPath value $INI"
        echo "setoption name UCI_Variant value $v"
        echo "position startpos"
        echo "go perft $d"
        echo quit
    } | "$FSF" 2>&1 | sed -n 's/^Nodes searched: *\([0-9][0-9]*\).*/\1/p' | tail -1
}

sako_perft() {
    "$SAKO" perft --variant "$1" "$2" 2>/dev/null | tail -1 | sed -n 's/^Nodes searched: *\([0-9][0-9]*\).*/\1/p'
}

# time_runs CMD... : runs CMD RUNS times, prints "median_seconds nodes" (nodes of the last run)
time_runs() {
    local i t0 t1 n="" times=""
    for ((i = 0; i < RUNS; i++)); do
        t0=$(now); n=$("$@"); t1=$(now)
        times+="$(echo "$t1 - $t0" | bc -l)"$'\n'
    done
    echo "$(printf '%s' "$times" | median) ${n:-?}"
}

# expected count from the oracle file: the start-position line of engine-tests/perft/<variant>.epd
epd_count() {
    local f="$EPD_DIR/$1.epd" d=$2
    [ -f "$f" ] || return 0
    grep -v '^#' "$f" | grep -i 'id "start position' | head -1 | grep -o ";D$d [0-9]*" | awk '{print $2}'
}

rate() {   # nodes seconds -> Mnodes/s
    awk -v n="$1" -v s="$2" 'BEGIN { if (n+0 > 0 && s+0 > 0) printf "%.2f", n / s / 1e6; else print "n/a" }'
}
net() {    # t startup -> t - startup (at least 1 ms)
    awk -v t="$1" -v s="$2" 'BEGIN { d = t - s; if (d < 0.001) d = 0.001; printf "%.3f", d }'
}

have_sako=1
if [ ! -x "$SAKO" ]; then
    have_sako=0
    echo "NOTE: sako binary not found at '$SAKO' (set SAKO=..., or cargo build --release); timing Fairy-Stockfish only." >&2
fi
have_fsf=1
if [ -z "$FSF" ] || [ ! -x "$FSF" ]; then
    have_fsf=0
    echo "NOTE: fairy-stockfish not found (apt-get install fairy-stockfish; binary in /usr/games)." >&2
fi
command -v bc >/dev/null || { echo "needs bc" >&2; exit 2; }
if [ "$have_fsf" = 1 ] && [ ! -f "$INI" ]; then
    echo "NOTE: $INI not found (set PEERS=...): rows that need it are skipped for FSF." >&2
fi

# start-up times: per row, a depth-1 run of the same variant (same ini) is timed the same way
printf 'Fairy-Stockfish: %s   runs per measurement: %s (median)\n' "$("$FSF" quit 2>/dev/null | head -1)" "$RUNS"
printf '%-10s %5s %12s %12s %9s %9s %9s %9s %7s  %s\n' variant depth sako_nodes fsf_nodes sako_s fsf_s sako_Mn/s fsf_Mn/s ratio "note"
status=0
for row in $ALL_ROWS; do
    IFS=: read -r name depth fv needini <<<"$row"
    [ "${QUICK:-0}" = 1 ] && depth=$((depth - 2))
    case " $ROWS " in *" $name "*) ;; *) continue ;; esac
    note=""
    s_nodes="-"; s_t="-"; s_rate="-"
    f_nodes="n/a"; f_t="n/a"; f_rate="n/a"; ratio="n/a"
    sako_up=n/a; fsf_up=n/a
    if [ "$have_sako" = 1 ]; then
        read -r sako_up _ < <(time_runs sako_perft "$name" 1)
        read -r t n < <(time_runs sako_perft "$name" "$depth")
        s_nodes=$n; s_t=$(net "$t" "$sako_up"); s_rate=$(rate "$n" "$s_t")
    fi
    if [ "$fv" = "-" ]; then
        note="FSF 11.1 cannot play $name (no custom pieces: perft 1 = 8, not 30); pyffish is no fair timing"
    elif [ "$have_fsf" = 1 ] && { [ "$needini" = 0 ] || [ -f "$INI" ]; }; then
        read -r fsf_up _ < <(time_runs fsf_perft "$fv" "$needini" 1)
        read -r t n < <(time_runs fsf_perft "$fv" "$needini" "$depth")
        f_nodes=$n; f_t=$(net "$t" "$fsf_up"); f_rate=$(rate "$n" "$f_t")
        if [ "$have_sako" = 1 ]; then
            ratio=$(awk -v f="$f_t" -v s="$s_t" 'BEGIN { printf "%.2f", f / s }')
        fi
    fi
    # node-count check: against FSF, else against the oracle file
    ref=$f_nodes; refname=fsf
    if ! [[ "$ref" =~ ^[0-9]+$ ]]; then ref=$(epd_count "$name" "$depth"); refname="$name.epd"; fi
    if [ "$s_nodes" != "-" ] && [ -n "$ref" ]; then
        if [ "$s_nodes" != "$ref" ]; then
            note="MISMATCH: sako $s_nodes vs $refname $ref; $note"; status=1
        else
            note="nodes agree with $refname; $note"
        fi
    fi
    printf '%-10s %5s %12s %12s %9s %9s %9s %9s %7s  %s\n' "$name" "$depth" "$s_nodes" "$f_nodes" \
        "$s_t" "$f_t" "$s_rate" "$f_rate" "$ratio" "${note%; } [start-up s: sako ${sako_up}, fsf ${fsf_up}]"
done
exit $status
