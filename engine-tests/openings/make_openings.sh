#!/usr/bin/env bash
# Writes engine-tests/openings/<variant>.epd: balanced start positions for sako match.
#
# Each position is the start position plus random legal plies (seeded), kept when
# sako's own search to depth 8 scores it within +/-50 centipawns; `ce` in each line is
# that score for the side to move. Historia's file holds complete random deployments
# (20 plies: every piece dropped, randomly but legally) and half-deployed positions
# (8 plies). The same seeds write the same files: run this script again after a change
# to the rules or the evaluation and commit the result.
#
# Usage: engine-tests/openings/make_openings.sh [variant ...]   (default: every variant)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
SAKO=target/release/sako
OUT=engine-tests/openings
DEPTH=8
MARGIN=50
COUNT=100

variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  mapfile -t variants < <("$SAKO" variants | cut -d' ' -f1)
fi

gen() { # variant seed plies count
  "$SAKO" openings --variant "$1" --seed "$2" --plies "$3" --count "$4" \
    --depth "$DEPTH" --margin "$MARGIN"
}

for v in "${variants[@]}"; do
  tmp="$OUT/$v.epd.tmp"
  if [ "$v" = historia ]; then
    { gen "$v" 1 20 "$COUNT"; gen "$v" 2 8 $((COUNT / 2)); } > "$tmp"
  else
    gen "$v" 1 8 "$COUNT" > "$tmp"
  fi
  mv "$tmp" "$OUT/$v.epd"
  echo "$OUT/$v.epd: $(wc -l < "$OUT/$v.epd") positions"
done
