#!/usr/bin/env python3
"""Re-score `sako datagen` text positions with another UCI engine's search (for example
the newest Fairy-Stockfish), keeping each position's game result: a second judge's labels
for the same positions.

Usage:
    relabel.py --in DATA.txt --out OUT.txt --engine CMD [--engine-arg ARG]...
               [--option NAME=VALUE]... [--variant NAME] [--nodes N] [--jobs J]
               [--chunk K] [--weight W]

DATA.txt is the text format of docs/datagen.md (`FEN | score | result`; `sako
datagen-convert` turns a binary file into it). Each line is searched with `position fen
FEN` and `go nodes N`; the engine's last exact score (centipawns, side to move) becomes
W times it plus (1 - W) times the old score, for White, in OUT's line. Positions the
engine scores as a mate or cannot score (no legal move, `bestmove (none)`) are left out,
as `sako datagen` leaves out mate scores. `--option` lines are sent in the order given,
before `UCI_Variant` (so `--option VariantPath=FILE --variant paulowich` works).

Resumable: after every chunk of K input lines OUT.progress holds the input lines done and
OUT's length; a run started again cuts OUT back to that length and goes on from there,
so a stopped run loses at most the chunks in flight and writes nothing twice. J engines
search at once, and the chunks are written in input order.
"""

import argparse
import os
import queue
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

MATE = 32000


class EngineError(Exception):
    """The engine died, or answered outside the UCI protocol."""


class Engine:
    """One UCI engine process, set up once and asked for one score at a time."""

    def __init__(self, argv, options, variant):
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except OSError as e:
            raise EngineError(f"cannot start {argv[0]}: {e}") from e
        self.send("uci")
        self.wait_for("uciok")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        if variant:
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"the engine stopped reading: {e}") from e

    def read(self):
        line = self.proc.stdout.readline()
        if not line:
            raise EngineError("the engine exited")
        return line.strip()

    def wait_for(self, word):
        while True:
            if self.read().split()[:1] == [word]:
                return

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")

    def score(self, fen, nodes):
        """The search's last exact score of FEN for the side to move: ('cp', n),
        ('mate', n), or None (no score, no move)."""
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        last = None
        while True:
            words = self.read().split()
            if words[:1] == ["bestmove"]:
                return None if len(words) < 2 or words[1] == "(none)" else last
            if words[:1] == ["info"]:
                last = parse_score(words) or last

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()


def parse_score(words):
    """('cp'|'mate', n) from an `info` line's words, or None without an exact score."""
    if "score" not in words or "lowerbound" in words or "upperbound" in words:
        return None
    i = words.index("score")
    try:
        return (words[i + 1], int(words[i + 2])) if words[i + 1] in ("cp", "mate") else None
    except (IndexError, ValueError):
        return None


def parse_line(line):
    """(fen, score, result) of a data line, or None for one that is not a position."""
    parts = [p.strip() for p in line.split("|")]
    if len(parts) != 3 or len(parts[0].split()) < 2:
        return None
    try:
        return parts[0], int(parts[1]), parts[2]
    except ValueError:
        return None


def relabel_chunk(engines, lines, nodes, weight):
    """The output lines of a chunk and its counts (kept, mate, none, malformed)."""
    engine = engines.get()
    try:
        engine.new_game()
        out, counts = [], [0, 0, 0, 0]
        for line in lines:
            rec = parse_line(line)
            if rec is None:
                counts[3] += 1
                continue
            fen, old, result = rec
            got = engine.score(fen, nodes)
            if got is None:
                counts[2] += 1
            elif got[0] == "mate":
                counts[1] += 1
            else:
                white = got[1] if fen.split()[1] == "w" else -got[1]
                new = round(weight * white + (1 - weight) * old)
                out.append(f"{fen} | {max(-MATE, min(MATE, new))} | {result}\n")
                counts[0] += 1
        return out, counts
    finally:
        engines.put(engine)


def read_progress(path):
    """(input lines done, output bytes) from a progress file, (0, 0) without one."""
    try:
        with open(path) as f:
            done, size = (int(x) for x in f.read().split())
        return done, size
    except FileNotFoundError:
        return 0, 0
    except ValueError as e:
        raise SystemExit(f"error: {path} is not a progress file ({e}); delete it and OUT to start over")


def write_progress(path, done, size):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"{done} {size}\n")
    os.replace(tmp, path)


def chunks(path, skip, size):
    """The input's lines after the first SKIP, in lists of SIZE."""
    with open(path) as f:
        for _ in range(skip):
            if not f.readline():
                return
        batch = []
        for line in f:
            batch.append(line)
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--in", dest="inp", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--engine", required=True)
    ap.add_argument("--engine-arg", action="append", default=[])
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--variant")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=256)
    ap.add_argument("--weight", type=float, default=1.0)
    a = ap.parse_args(argv)
    if a.nodes < 1 or a.jobs < 1 or a.chunk < 1 or not 0 <= a.weight <= 1:
        ap.error("--nodes, --jobs and --chunk must be at least 1, --weight in [0, 1]")
    options = []
    for o in a.option:
        name, eq, value = o.partition("=")
        if not eq or not name:
            ap.error(f"--option {o!r} is not NAME=VALUE")
        options.append((name, value))
    if not os.path.isfile(a.inp):
        ap.error(f"no input file {a.inp}")

    progress = a.out + ".progress"
    done, size = read_progress(progress)
    with open(a.out, "a+b") as f:
        if f.seek(0, 2) < size:
            raise SystemExit(f"error: {a.out} is shorter than {progress} says; delete both to start over")
        f.truncate(size)

    argv_engine = [a.engine] + a.engine_arg
    try:
        started = [Engine(argv_engine, options, a.variant) for _ in range(a.jobs)]
    except EngineError as e:
        raise SystemExit(f"error: {e}") from e
    engines = queue.Queue()
    for e in started:
        engines.put(e)
    totals = [0, 0, 0, 0]
    try:
        with ThreadPoolExecutor(a.jobs) as pool, open(a.out, "ab") as out:
            pending = []
            for batch in chunks(a.inp, done, a.chunk):
                pending.append((len(batch), pool.submit(relabel_chunk, engines, batch, a.nodes, a.weight)))
                while len(pending) > 2 * a.jobs or (pending and pending[0][1].done()):
                    done = flush(pending.pop(0), out, progress, done, totals)
            while pending:
                done = flush(pending.pop(0), out, progress, done, totals)
    except EngineError as e:
        raise SystemExit(f"error: {e} (the output holds {done} input lines; run again to resume)") from e
    finally:
        for e in started:
            e.close()
    print(f"relabel: {done} input lines done; this run kept {totals[0]}, left out {totals[1]} "
          f"mate scores, {totals[2]} without a score, {totals[3]} malformed lines", file=sys.stderr)


def flush(item, out, progress, done, totals):
    """Writes a finished chunk, then the progress that covers it."""
    n, future = item
    lines, counts = future.result()
    out.write("".join(lines).encode())
    out.flush()
    os.fsync(out.fileno())
    for i, c in enumerate(counts):
        totals[i] += c
    write_progress(progress, done + n, out.tell())
    return done + n


if __name__ == "__main__":
    main()
