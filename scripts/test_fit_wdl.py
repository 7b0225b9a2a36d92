#!/usr/bin/env python3
"""Tests of scripts/fit-wdl (numpy, jax and optax: the trainer's environment).

    cd scripts && python3 -m unittest test_fit_wdl -v
"""

import importlib.machinery
import importlib.util
import os
import struct
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
_loader = importlib.machinery.SourceFileLoader("fit_wdl", os.path.join(HERE, "fit-wdl"))
_spec = importlib.util.spec_from_loader("fit_wdl", _loader)
fit_wdl = importlib.util.module_from_spec(_spec)
_loader.exec_module(fit_wdl)

# A chess position: kings, four pawns a side, a white rook (normal's types: P N B R Q K).
BOARD = "4k3/pppp4/8/8/8/8/4PPPP/R3K3"
PIECES = {0: (3, 0), 4: (5, 0), 12: (0, 0), 13: (0, 0), 14: (0, 0), 15: (0, 0),
          48: (0, 1), 49: (0, 1), 50: (0, 1), 51: (0, 1), 60: (5, 1)}  # square: (type, colour)
# The true model of the synthetic data: a and b by ply, in centipawns.
TRUE_A = (150.0, 250.0)  # a(ply) = 150 + 250 * ply / 200
TRUE_B = (70.0, 50.0)


def true_ab(ply):
    t = ply / 200.0
    return TRUE_A[0] + TRUE_A[1] * t, TRUE_B[0] + TRUE_B[1] * t


def synthetic(n, seed=3):
    """n positions (side, White's score, ply, White's result 0/1/2) drawn from the model."""
    rng = np.random.default_rng(seed)
    side = rng.integers(0, 2, n)
    ply = rng.integers(20, 201, n)
    ply += (ply % 2) != side  # the ply's parity is the side to move
    stm_score = rng.uniform(-700, 700, n).round()
    a, b = true_ab(ply)
    win, draw, _ = fit_wdl.probabilities(a, b, stm_score)
    u = rng.uniform(size=n)
    stm = np.where(u < win, 0, np.where(u < win + draw, 1, 2))  # 0 won, 1 draw, 2 lost
    white_result = np.where(side == 0, 2 - stm, stm)
    white_score = np.where(side == 0, stm_score, -stm_score)
    return side, white_score.astype(int), ply, white_result


def write_text(path, rows):
    with open(path, "w") as f:
        for side, score, ply, result in zip(*rows):
            full = ply // 2 + 1
            res = {2: "1", 1: "0.5", 0: "0"}[int(result)]
            f.write(f"{BOARD} {'wb'[side]} - - 0 {full} | {score} | {res}\n")


def record(side, score, ply, result):
    """One SAKODATA record of BOARD (docs/datagen.md, "Binary format")."""
    occ = sum(1 << sq for sq in PIECES)
    packed = 0
    for k, sq in enumerate(sorted(PIECES)):
        t, c = PIECES[sq]
        packed |= (2 * t + c) << (5 * k)
    body = occ.to_bytes(16, "little") + packed.to_bytes(28, "little") + bytes(20)
    full = ply // 2 + 1
    body += struct.pack("<BBBBIHHhH", side, result, 255, 0, 0, 0, full, score, 0)
    assert len(body) == 80
    return body


def write_binary(path, rows):
    head = b"SAKODATA" + struct.pack("<II", 1, 80) + b"normal".ljust(16, b"\0")
    with open(path, "wb") as f:
        f.write(head)
        for side, score, ply, result in zip(*rows):
            f.write(record(int(side), int(score), int(ply), int(result)))


class Reading(unittest.TestCase):
    def test_both_formats_read_the_same(self):
        rows = synthetic(500)
        with tempfile.TemporaryDirectory() as d:
            text, binary = os.path.join(d, "x.txt"), os.path.join(d, "x.bin")
            write_text(text, rows)
            write_binary(binary, rows)
            t = fit_wdl.positions(text, "normal")
            b = fit_wdl.positions(binary, "normal")
        for key in fit_wdl.INPUTS + ("score", "outcome"):
            np.testing.assert_array_equal(t[key], b[key], err_msg=key)
        side, score, ply, result = rows
        # scores turned to the side to move, results too, the ply from the full-move number
        np.testing.assert_array_equal(t["score"], np.where(side == 0, score, -score))
        self.assertTrue(np.all((t["outcome"] == 0) == np.where(side == 0, result == 2, result == 0)))
        np.testing.assert_array_equal(t["ply"], ply)
        # normal.txt: P 88, R 508; the kings count for neither input
        letters, values = fit_wdl.piece_values("normal")
        want = 8 * values[letters.index("P")] + values[letters.index("R")]
        np.testing.assert_array_equal(t["material"], np.full(500, want))
        np.testing.assert_array_equal(t["pieces"], np.full(500, 9))

    def test_wrong_variant_and_bad_line_refused(self):
        rows = synthetic(10)
        with tempfile.TemporaryDirectory() as d:
            binary = os.path.join(d, "x.bin")
            write_binary(binary, rows)
            with self.assertRaisesRegex(fit_wdl.WdlError, "records of normal, not shatar"):
                fit_wdl.positions(binary, "shatar")
            text = os.path.join(d, "x.txt")
            with open(text, "w") as f:
                f.write(f"{BOARD} w - - 0 1 | 12 | 2\n")
            with self.assertRaisesRegex(fit_wdl.WdlError, "x.txt:1: not a datagen line"):
                fit_wdl.positions(text, "normal")


class Fitting(unittest.TestCase):
    def test_fit_recovers_the_model(self):
        rows = synthetic(60000)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "x.bin")
            write_binary(path, rows)
            data = fit_wdl.positions(path, "normal")
        model, losses, const = fit_wdl.fit_family(data, ["ply", "none"], degree=1, steps=2000)
        self.assertEqual(model["input"], "ply")
        self.assertLess(losses["ply"], losses["none"])
        self.assertLess(losses["ply"], const)
        for ply in (40, 100, 180):
            x = fit_wdl.scaled(np.array([ply], dtype=float), model["lo"], model["hi"])
            a = fit_wdl.poly(model["a"], x)[0]
            b = fit_wdl.poly(model["b"], x)[0]
            ta, tb = true_ab(ply)
            self.assertAlmostEqual(a, ta, delta=0.08 * ta, msg=f"a at ply {ply}")
            self.assertAlmostEqual(b, tb, delta=0.10 * tb, msg=f"b at ply {ply}")
        # the calibration table sees every position once, in buckets of the score
        rows = fit_wdl.calibration(model, data)
        self.assertEqual(sum(n for _, n, _, _ in rows), len(data["score"]))
        line = fit_wdl.model_line("normal", ["normal"], model)
        self.assertRegex(line, r"^normal games=normal input=ply lo=\d+ hi=\d+ a=\S+,\S+ b=\S+,\S+$")


if __name__ == "__main__":
    unittest.main()
