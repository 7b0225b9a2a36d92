"""Tests of relabel.py against a scripted UCI engine (standard library only)."""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RELABEL = os.path.join(HERE, "relabel.py")

# A UCI engine whose score is a function of the FEN: the count of its letters 'p' minus
# its letters 'P', for the side to move (so a White-relative score can be checked);
# `bestmove (none)` for a FEN with no White king, a mate score for one with no Black
# queen. It first prints a lowerbound line that must be ignored, and records the
# options and variant it was given in $FAKE_LOG.
FAKE = textwrap.dedent("""\
    import os, sys
    log = open(os.environ["FAKE_LOG"], "a")
    fen = ""
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "uci":
            print("id name fake"); print("uciok", flush=True)
        elif w[0] == "isready":
            print("readyok", flush=True)
        elif w[0] == "setoption":
            log.write(line)
            log.flush()
        elif w[0] == "position":
            fen = " ".join(w[2:])
        elif w[0] == "go":
            board, side = fen.split()[0], fen.split()[1]
            white = board.count("p") - board.count("P")
            stm = white if side == "w" else -white
            print(f"info depth 1 score cp 999 lowerbound nodes 1")
            if "K" not in board:
                print("bestmove (none)", flush=True)
            elif "q" not in board:
                print("info depth 2 score mate 3 nodes 5"); print("bestmove a1a2", flush=True)
            else:
                print(f"info depth 2 score cp {stm * 10} nodes {w[2]}")
                print("bestmove a1a2", flush=True)
        elif w[0] == "quit":
            break
""")

LINES = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -23 | 0.5\n",
    "rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR w KQkq - 0 1 | 700 | 0\n",      # +8 p: cp 80 for White
    "rnbqkbnr/pppppppp/8/8/8/8/8/RNBQKBNR b KQkq - 0 1 | 700 | 0\n",      # Black to move: -80, White +80
    "rnbqkbnr/8/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1 | 5 | 1\n",          # no White king: left out
    "rnb1kbnr/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 5 | 1\n",        # mate score: left out
    "not a position\n",
    "rnbqkbnr/pp6/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 3 | 0.5\n",   # -6 p: cp -60
]


def expected(lines, weight=1.0):
    out = []
    for line in lines:
        parts = [p.strip() for p in line.split("|")]
        if len(parts) != 3:
            continue
        fen, old, result = parts[0], int(parts[1]), parts[2]
        board = fen.split()[0]
        if "K" not in board or "q" not in board:
            continue
        white = (board.count("p") - board.count("P")) * 10
        out.append(f"{fen} | {round(weight * white + (1 - weight) * old)} | {result}\n")
    return out


class RelabelTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.fake = os.path.join(d, "fake.py")
        with open(self.fake, "w") as f:
            f.write(FAKE)
        self.log = os.path.join(d, "fake.log")
        self.inp = os.path.join(d, "in.txt")
        self.out = os.path.join(d, "out.txt")

    def tearDown(self):
        self.dir.cleanup()

    def run_relabel(self, lines, *extra):
        with open(self.inp, "w") as f:
            f.writelines(lines)
        return subprocess.run(
            [sys.executable, RELABEL, "--in", self.inp, "--out", self.out,
             "--engine", sys.executable, "--engine-arg", self.fake, "--nodes", "77",
             "--chunk", "2", *extra],
            env={**os.environ, "FAKE_LOG": self.log}, capture_output=True, text=True)

    def output(self):
        with open(self.out) as f:
            return f.readlines()

    def test_scores_are_the_engines_for_white_and_results_stay(self):
        r = self.run_relabel(LINES, "--jobs", "2", "--option", "VariantPath=/x/v.ini",
                             "--variant", "paulowich")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.output(), expected(LINES))
        self.assertEqual([l.split(" | ")[1] for l in self.output()], ["0", "80", "80", "-60"])
        self.assertIn("left out 1 mate scores, 1 without a score, 1 malformed", r.stderr)
        with open(self.log) as f:
            sent = f.read().splitlines()
        self.assertEqual(sent[:2], ["setoption name VariantPath value /x/v.ini",
                                    "setoption name UCI_Variant value paulowich"])

    def test_the_white_relative_sign(self):
        r = self.run_relabel(LINES[1:3])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([l.split(" | ")[1] for l in self.output()], ["80", "80"])

    def test_weight_blends_with_the_old_score(self):
        r = self.run_relabel(LINES, "--weight", "0.25")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.output(), expected(LINES, 0.25))
        self.assertEqual(self.output()[1].split(" | ")[1], str(round(0.25 * 80 + 0.75 * 700)))

    def test_a_resumed_run_writes_nothing_twice_and_loses_nothing(self):
        r = self.run_relabel(LINES[:4])
        self.assertEqual(r.returncode, 0, r.stderr)
        # a chunk written after the last progress record (a run stopped mid-write)
        with open(self.out, "a") as f:
            f.write("half a chunk that the progress file does not cover\n")
        r = self.run_relabel(LINES)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.output(), expected(LINES))
        with open(self.out + ".progress") as f:
            self.assertEqual(int(f.read().split()[0]), len(LINES))

    def test_an_engine_that_cannot_start_is_an_error_not_a_traceback(self):
        with open(self.inp, "w") as f:
            f.writelines(LINES)
        r = subprocess.run([sys.executable, RELABEL, "--in", self.inp, "--out", self.out,
                            "--engine", "/nonexistent/engine"], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("error: cannot start /nonexistent/engine", r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    def test_an_engine_that_dies_mid_run_keeps_the_finished_chunks(self):
        dying = os.path.join(self.dir.name, "dying.py")
        with open(dying, "w") as f:
            f.write(FAKE.replace('elif w[0] == "go":',
                                 'elif w[0] == "go" and "pp6" in fen:\n'
                                 '        sys.exit(1)\n'
                                 '    elif w[0] == "go":'))
        with open(self.inp, "w") as f:
            f.writelines(LINES)
        r = subprocess.run([sys.executable, RELABEL, "--in", self.inp, "--out", self.out,
                            "--engine", sys.executable, "--engine-arg", dying, "--chunk", "2"],
                           env={**os.environ, "FAKE_LOG": self.log}, capture_output=True,
                           text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("the engine exited", r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(self.output(), expected(LINES[:6]))
        r = self.run_relabel(LINES)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.output(), expected(LINES))


if __name__ == "__main__":
    unittest.main()
