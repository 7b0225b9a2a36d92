#!/usr/bin/env bash
# Runs the real XBoard (4.9.1, Debian) under Xvfb with two sako engines, one game per variant,
# lets a few moves be played and saves a screenshot of the board and the move list per variant.
#
# usage:  engine-tests/xboard/run_xboard_games.sh [VARIANT ...]      (default: all nine games)
#
# environment:
#   SAKO       the engine binary (default: target/release/sako, built with cargo if missing)
#   OUT        work folder with the logs of every run (default: /tmp/sako-xboard)
#   SHOTS      where the screenshots go (default: docs/screenshots in the repository)
#   VTIMEOUT   seconds allowed per variant (default: 30)
#
# Exit status: 0 if every variant ran cleanly; 1 if XBoard or sako did not start, an engine
# died, too few moves were played in time, a screenshot is missing, or a log shows an error, an
# illegal move, a false claim or a time loss (details on stderr and in $OUT/<variant>/, where the
# screenshot of a failed game is kept as shot.png; only clean games go to $SHOTS); 2 for
# missing tools.
#
# Each variant gets its own Xvfb (free display chosen by Xvfb itself with -displayfd), its own
# $HOME (so XBoard's settings file is not touched) and its own XBoard; the script stops only the
# processes it started, by their ids.
set -u
export LC_ALL=C.UTF-8
export PATH="$PATH:/usr/games"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/sako-xboard}
SHOTS=${SHOTS:-$ROOT/docs/screenshots}
VTIMEOUT=${VTIMEOUT:-30}
ALL="normal chancellor chancellorx kingsleap great historia shatarhia shatar chesquerque"
VARIANTS=${*:-$ALL}
MAXPNG=${MAXPNG:-250000}   # bytes

log() { printf '%s\n' "$*" >&2; }

# ---------------------------------------------------------------- tools
need_install=
for c in xboard Xvfb import convert xdotool xwininfo; do
  command -v "$c" >/dev/null 2>&1 || need_install=1
done
if [ -n "$need_install" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing xboard xvfb imagemagick xdotool x11-utils ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y xboard xvfb imagemagick xdotool x11-utils >/dev/null 2>&1 ||
      { apt-get update >/dev/null 2>&1 &&
        apt-get install -y xboard xvfb imagemagick xdotool x11-utils >/dev/null 2>&1; }
  fi
  for c in xboard Xvfb import convert xdotool xwininfo; do
    command -v "$c" >/dev/null 2>&1 || { log "missing command: $c (apt-get install xboard xvfb imagemagick xdotool x11-utils)"; exit 2; }
  done
fi

# ---------------------------------------------------------------- engine
if [ -z "${SAKO:-}" ]; then
  SAKO=$ROOT/target/release/sako
  if [ ! -x "$SAKO" ]; then
    log "building sako (cargo build --release) ..."
    (cd "$ROOT" && cargo build --release -q) || { log "cargo build failed"; exit 1; }
  fi
fi
[ -x "$SAKO" ] || { log "no engine binary: $SAKO"; exit 1; }
mkdir -p "$OUT" "$SHOTS" || exit 2
# A private copy, so that a rebuild of target/ during the run cannot swap the binary mid-game.
cp "$SAKO" "$OUT/sako.new.$$" && mv -f "$OUT/sako.new.$$" "$OUT/sako" || exit 2
ENGINE=$OUT/sako
printf 'xboard\nprotover 2\nping 7\nquit\n' | timeout 5 "$ENGINE" 2>/dev/null | grep -q '^pong 7' ||
  { log "sako does not answer 'ping' at all: $SAKO"; exit 1; }

# ---------------------------------------------------------------- per-variant settings
# legality: XBoard's own legality test (on only for the games it can referee, see
#           engine-tests/protocol/xboard-notes.md); plies: engine moves before the screenshot;
# open:     moves typed into XBoard's move type-in box (as a human would) before the engines
#           take over; used for the Hia gate, which sako does not choose in the first moves.
settings() {
  LEGAL=false; PLIES=12; OPEN=
  case $1 in
    normal)      LEGAL=true ;;
    chancellor|chancellorx|kingsleap) LEGAL=true; PLIES=14 ;;
    great)       PLIES=14 ;;
    historia)    PLIES=9 ;;            # deployment in progress: 5 White and 4 Black drops
    shatarhia)   PLIES=7; OPEN="e1d2h" ;;   # White's king gates the Hia, then sako plays on
    shatar)      PLIES=12 ;;
    chesquerque) PLIES=14 ;;
    *) return 1 ;;
  esac
}

# ---------------------------------------------------------------- helpers
STARTED=()      # pids this script started and has not stopped yet
stop_pid() {    # stop one process we started: TERM, then KILL after 2 s
  local p=$1 i
  kill -0 "$p" 2>/dev/null || return 0
  kill "$p" 2>/dev/null
  for i in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || return 0; sleep 0.2; done
  kill -9 "$p" 2>/dev/null
}
cleanup() { local p; for p in "${STARTED[@]}"; do stop_pid "$p"; done; STARTED=(); }
trap 'cleanup; exit 130' INT TERM
trap cleanup EXIT

moves_played() { grep -cE '^[0-9]+ <(first |second): move ' "$1" 2>/dev/null; }
# "ok" once the variant's screenshot condition holds
ready() { [ "$(moves_played "$1")" -ge "$PLIES" ]; }
# XBoard logs "usermove" and the move as two writes: "123 >first : usermove 123 >first : e1d2h"
sent_move() {   # sent_move DEBUGFILE ENGINE(first|second) MOVE
  grep -qE "^[0-9]+ >$2 ?: usermove [0-9]+ >$2 ?: $3\$" "$1" 2>/dev/null
}
# the engines XBoard runs (its children named like the engine; XBoard also runs aplay for sounds)
live_children() {
  ps -o pid=,stat=,comm= --ppid "$1" 2>/dev/null |
    awk -v e="$(basename "$ENGINE" | cut -c1-15)" '$2 !~ /^Z/ && $3 == e {print $1}' | tr '\n' ' '
}
game_over() { grep -qE '^GameEnds\([1-9]' "$1" 2>/dev/null; }

# capture MAIN and MOVES windows side by side into $1; prints nothing
capture() {
  local dst=$1 tmp=$2
  import -display "$DISP" -window "$MAINW" "$tmp/main.png" 2>>"$tmp/import.log" || return 1
  if [ -n "$MOVESW" ]; then
    import -display "$DISP" -window "$MOVESW" "$tmp/moves.png" 2>>"$tmp/import.log" || return 1
    convert "$tmp/main.png" "$tmp/moves.png" -background '#d9d9d9' -gravity north +append \
      -strip "$dst" || return 1
  else
    convert "$tmp/main.png" -strip "$dst" || return 1
  fi
  # keep it under 250 KB: first a palette, then smaller sizes
  local pct
  for pct in 100 90 80 70 60; do
    [ "$(stat -c %s "$dst")" -lt "$MAXPNG" ] && return 0
    convert "$tmp/main.png" ${MOVESW:+"$tmp/moves.png"} -background '#d9d9d9' -gravity north \
      +append -resize "$pct%" -strip -colors 255 "PNG8:$dst" || return 1
  done
  [ "$(stat -c %s "$dst")" -lt "$MAXPNG" ]
}

# ---------------------------------------------------------------- one variant
run_variant() {   # run_variant NAME ; sets FAILMSG on failure
  local v=$1 d=$OUT/$1 t0 xvfb xb i n
  FAILMSG=
  settings "$v" || { FAILMSG="unknown variant $v"; return 1; }
  rm -rf "$d"; mkdir -p "$d/home"
  t0=$(date +%s.%N)

  # Xvfb picks a free display and writes its number to the fd given by -displayfd
  : > "$d/display"
  Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$d/display" >"$d/xvfb.log" 2>&1 &
  xvfb=$!; STARTED+=("$xvfb")
  for i in $(seq 1 50); do [ -s "$d/display" ] && break; sleep 0.1; done
  n=$(tr -dc 0-9 <"$d/display")
  [ -n "$n" ] || { FAILMSG="Xvfb did not start (see $d/xvfb.log)"; return 1; }
  DISP=:$n
  export DISPLAY=$DISP

  local MODE=TwoMachines
  [ -n "$OPEN" ] && MODE=EditGame     # typed moves first, then Mode > Two Machines (Ctrl+T)
  # Two sakos: first = White, second = Black. Each logs warnings to its own file.
  (
    cd "$d" || exit 1
    export HOME=$d/home DISPLAY=$DISP
    exec xboard -variant "$v" \
      -fcp "$ENGINE --log-file $d/sako-white.log" -fd "$d" -fn "sako-white" \
      -scp "$ENGINE --log-file $d/sako-black.log" -sd "$d" -sn "sako-black" \
      -mode "$MODE" -testLegality "$LEGAL" \
      -tc 0:20 -mps 40 -xponder -autoCallFlag true \
      -saveSettingsOnExit false -size medium -x 0 -y 0 -xanimate \
      -moveHistoryUp true -moveHistoryX 700 -moveHistoryY 0 -moveHistoryW 240 -moveHistoryH 560 \
      -engineOutputUp false -evalGraphUp false -xexit -xpopup \
      -debug -nameOfDebugFile "$d/xboard.debug"
  ) >"$d/xboard.out" 2>&1 &
  xb=$!; STARTED+=("$xb")

  local dbg=$d/xboard.debug deadline
  deadline=$(( $(date +%s) + VTIMEOUT - 4 ))
  # 1. both engines up (feature done=1) and the main window shown
  MAINW=; MOVESW=
  if [ -n "$OPEN" ]; then
    # EditGame: only the first engine runs (in force mode) until Two Machines is chosen
    for i in $(seq 1 100); do
      kill -0 "$xb" 2>/dev/null || { FAILMSG="xboard exited at start (see $d/xboard.out)"; return 1; }
      if grep -qE '^[0-9]+ <first : pong' "$dbg" 2>/dev/null; then
        MAINW=$(xdotool search --onlyvisible --name '^xboard: ' 2>/dev/null | head -1)
        [ -n "$MAINW" ] && break
      fi
      sleep 0.1
    done
    [ -n "$MAINW" ] || { FAILMSG="XBoard or sako did not start within 10 s (no 'pong' from the first engine or no window; see $dbg)"; return 1; }
    local m ok
    for m in $OPEN; do
      # a printable key on the board opens XBoard's move type-in box
      xdotool mousemove --window "$MAINW" 200 300 windowfocus --sync "$MAINW" >/dev/null 2>&1
      xdotool type --delay 60 "$m" >/dev/null 2>&1
      sleep 0.3
      xdotool key Return >/dev/null 2>&1
      ok=
      for i in $(seq 1 30); do sent_move "$dbg" first "$m" && { ok=1; break; }; sleep 0.1; done
      [ -n "$ok" ] || { FAILMSG="XBoard did not send the typed move $m to sako (see $dbg)"; return 1; }
    done
    sleep 0.3
    xdotool key ctrl+t >/dev/null 2>&1     # Mode > Two Machines
    MAINW=
  fi
  for i in $(seq 1 100); do
    kill -0 "$xb" 2>/dev/null || { FAILMSG="xboard exited at start (see $d/xboard.out)"; return 1; }
    if grep -q '<first : feature done=1' "$dbg" 2>/dev/null &&
       grep -q '<second: feature done=1' "$dbg" 2>/dev/null; then
      MAINW=$(xdotool search --onlyvisible --name ' vs\. ' 2>/dev/null | head -1)
      [ -n "$MAINW" ] && break
    fi
    sleep 0.1
  done
  [ -n "$MAINW" ] || { FAILMSG="XBoard or sako did not start within 10 s (no 'feature done=1' from both engines or no game window; see $dbg)"; return 1; }
  for m in $OPEN; do
    sent_move "$dbg" second "$m" ||
      { FAILMSG="the second engine was not given the typed move $m (see $dbg)"; return 1; }
  done
  # the Move list window, placed right of the board (no window manager under Xvfb)
  MOVESW=$(xdotool search --name '^Move list$' 2>/dev/null | head -1)
  local geo w h
  geo=$(xdotool getwindowgeometry "$MAINW" 2>/dev/null | sed -n 's/.*Geometry: //p')
  w=${geo%x*}; h=${geo#*x}
  if [ -n "$MOVESW" ] && [ -n "$w" ]; then
    xdotool windowsize "$MOVESW" 250 "$h" windowmove "$MOVESW" $((w + 6)) 0 2>/dev/null
  fi
  xdotool mousemove 1270 1010 2>/dev/null   # no tooltip over the board

  # 2. wait for the moves
  local engines LATE=
  until ready "$dbg"; do
    kill -0 "$xb" 2>/dev/null || { FAILMSG="xboard exited during the game (see $dbg)"; return 1; }
    engines=$(live_children "$xb")
    [ "$(echo $engines | wc -w)" -eq 2 ] ||
      { FAILMSG="an engine exited during the game (running: ${engines:-none}; see $dbg)"; return 1; }
    game_over "$dbg" && { log "  $v: the game ended after $(moves_played "$dbg") moves"; break; }
    [ "$(date +%s)" -lt "$deadline" ] || { LATE="only $(moves_played "$dbg") of $PLIES moves were played in ${VTIMEOUT} s"; break; }
    sleep 0.05
  done

  # 3. freeze the game (SIGSTOP both engines, so that no move arrives while capturing), let
  #    XBoard draw the last move, take the screenshot, let the engines go again
  local shot=$d/shot.png
  engines=$(live_children "$xb")
  [ "$(echo $engines | wc -w)" -eq 2 ] ||
    { FAILMSG="expected 2 engine processes under xboard, found: ${engines:-none} (see $dbg)"; return 1; }
  for i in $engines; do kill -STOP "$i" 2>/dev/null; done
  sleep 0.6
  SHOT_PLIES=$(moves_played "$dbg")
  rm -f "$shot"
  capture "$shot.tmp" "$d" || { FAILMSG="screenshot failed (see $d/import.log)"; return 1; }
  mv "$shot.tmp" "$shot"
  xwininfo -root -tree >"$d/windows.txt" 2>&1
  for i in $engines; do kill -CONT "$i" 2>/dev/null; done

  # 4. stop XBoard (it takes the engines with it), then Xvfb; engines left over are stopped too
  stop_pid "$xb"
  for i in $engines; do stop_pid "$i"; done
  stop_pid "$xvfb"
  STARTED=()

  # 5. what happened
  grep -E '^[0-9]+ <(first |second): move ' "$dbg" | sed -E 's/^[0-9]+ <(first |second): move //' |
    head -n "$SHOT_PLIES" | tr '\n' ' ' | sed "s/^/${OPEN:+(typed: $OPEN) }/; s/ \$//" >"$d/moves.txt"
  echo >>"$d/moves.txt"
  grep -nE -i 'illegal|error|panick|exited|failed to start|false .*claim|crash|abort|disconnect|tellusererror|killed|segmentation|on time|time forfeit' \
    "$dbg" "$d/xboard.out" "$d"/sako-*.log 2>/dev/null |
    grep -vE 'accepted|ALSA lib|aplay: ' >"$d/problems.txt"
  [ -s "$shot" ] || { FAILMSG="no screenshot"; return 1; }
  printf '%s %.1f\n' "$v" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{print b-a}')" >>"$OUT/times.txt"
  [ -z "$LATE" ] || { FAILMSG="$LATE (screenshot: $shot)"; return 1; }
  if [ -s "$d/problems.txt" ]; then
    FAILMSG="problems in the logs:"$'\n'"$(sed 's/^/    /' "$d/problems.txt" | head -20)"
    FAILMSG+=$'\n'"  screenshot of the failed game: $shot"
    return 1
  fi
  cp "$shot" "$SHOTS/$v.png" || { FAILMSG="cannot write $SHOTS/$v.png"; return 1; }
  return 0
}

# ---------------------------------------------------------------- main
: >"$OUT/times.txt"
T0=$(date +%s)
failed=0
for v in $VARIANTS; do
  log "== $v"
  if run_variant "$v"; then
    log "  ok: $SHOTS/$v.png ($(stat -c %s "$SHOTS/$v.png") bytes) after $SHOT_PLIES moves: $(cat "$OUT/$v/moves.txt")"
  else
    cleanup
    failed=1
    log "  FAILED: $FAILMSG"
    [ -f "$OUT/$v/moves.txt" ] && log "  moves: $(cat "$OUT/$v/moves.txt")"
  fi
done
log "total $(( $(date +%s) - T0 )) s; logs in $OUT"
exit $failed
