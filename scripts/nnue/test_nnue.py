#!/usr/bin/env python3
"""Tests of the trainer's tools on a tiny synthetic data set (about a minute on one core).

    cd scripts/nnue && ~/venv-nnue/bin/python -m unittest test_nnue -v

The format tests need numpy only; the training tests run train.py (JAX) for one short
epoch each; the engine test also needs a built sako (target/release/sako or
target/debug/sako, or the path in $SAKO) and is skipped without one.
"""

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import nnuefmt

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PY = sys.executable
CHESS = ["--games", "normal", "--types", "6", "--squares", "64"]


def run(args, **kw):
    """Runs a script of this directory; its output, or a failure with the output."""
    p = subprocess.run([PY] + args, cwd=HERE, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise AssertionError(f"{args[0]} failed:\n{p.stdout}\n{p.stderr}")
    return p.stdout + p.stderr


def max_diff(net, features):
    """evaluate.py's largest |float_cp - int_cp| over every position of `features`."""
    out = run(["evaluate.py", net, features, "--first", "0"])
    m = re.search(r"max \|float_cp - int_cp\| = ([0-9.]+)", out)
    if not m or "overflowed" in out:
        raise AssertionError(out[-2000:])
    return float(m.group(1))


def val_loss_at_start(out):
    return float(re.search(r"epoch 0: val loss ([0-9.]+)", out).group(1))


def random_net(rng, H=16, O=8, A=nnuefmt.SCRELU, D=4):
    F = nnuefmt.num_inputs(6, 64)
    return nnuefmt.Net("normal", 6, 64, 8, H,
                       rng.integers(-60, 61, (F, H)), rng.integers(-50, 151, H),
                       rng.integers(-127, 128, (O, 2 * H)), rng.integers(-20000, 20000, O),
                       A, O, D)


class Format(unittest.TestCase):
    """Net files of both versions, written and read back; malformed ones refused."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="nnue-test-")
        self.rng = np.random.default_rng(5)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_version_2_round_trip(self):
        net = random_net(self.rng)
        path = os.path.join(self.dir, "v2.nnue")
        nnuefmt.write_net(path, net)
        with open(path, "rb") as f:
            data = f.read()
        self.assertEqual(struct.unpack_from("<I", data, 8)[0], 2)
        back = nnuefmt.read_net(path)
        self.assertEqual((back.A, back.O, back.D, back.version()), (1, 8, 4, 2))
        for name in ("W1", "B1", "W2", "B2"):
            np.testing.assert_array_equal(getattr(back, name), getattr(net, name))

    def test_one_clipped_bucket_is_version_1(self):
        net = random_net(self.rng, O=1, A=nnuefmt.CRELU, D=4)
        path = os.path.join(self.dir, "v1.nnue")
        nnuefmt.write_net(path, net)
        back = nnuefmt.read_net(path)
        self.assertEqual((back.version(), back.O, back.D), (1, 1, 1))
        np.testing.assert_array_equal(back.W2, net.W2)

    def test_malformed_version_2_files_are_refused(self):
        path = os.path.join(self.dir, "bad.nnue")
        nnuefmt.write_net(path, random_net(self.rng))
        with open(path, "rb") as f:
            good = f.read()
        at = 16 + len("normal") + 16
        cases = [((0, 2), "activation code 2"), ((1, 0), "0 output buckets"),
                 ((1, 17), "17 output buckets"), ((2, 0), "bucket divisor 0"),
                 ((1, 7), "bytes, a net with")]
        for (word, value), message in cases:
            bad = bytearray(good)
            struct.pack_into("<I", bad, at + 4 * word, value)
            with open(path, "wb") as f:
                f.write(bad)
            with self.assertRaisesRegex(nnuefmt.FormatError, message):
                nnuefmt.read_net(path)
        with open(path, "wb") as f:
            f.write(good[:-1])
        with self.assertRaisesRegex(nnuefmt.FormatError, "bytes, a net with"):
            nnuefmt.read_net(path)


class Training(unittest.TestCase):
    """train.py's bucket and activation flags, and evaluate.py on what it writes."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="nnue-train-test-")
        cls.data = os.path.join(cls.dir, "syn.bin")
        run(["make_synthetic.py", "--out", cls.data, "--positions", "3000", "--seed", "3"])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def train(self, name, *flags):
        out = os.path.join(self.dir, name)
        log = run(["train.py", "--data", self.data, "--out", out, *CHESS, "--hidden", "16",
                   "--epochs", "1", "--batch", "256", "--progress", "0", *flags])
        return out, log

    def test_defaults_write_version_1(self):
        path, _ = self.train("v1.nnue")
        net = nnuefmt.read_net(path)
        self.assertEqual((net.version(), net.A, net.O), (1, nnuefmt.CRELU, 1))
        self.assertLess(max_diff(path, self.data), 1.0)

    def test_screlu_with_eight_buckets_writes_version_2(self):
        path, log = self.train("v2.nnue", "--output-buckets", "8", "--bucket-divisor", "4",
                               "--activation", "screlu")
        self.assertIn("output buckets (n // 4, at most 7)", log)
        net = nnuefmt.read_net(path)
        self.assertEqual((net.version(), net.A, net.O, net.D), (2, nnuefmt.SCRELU, 8, 4))
        self.assertEqual(net.W2.shape, (8, 32))
        self.assertLess(max_diff(path, self.data), 1.0)

    def test_a_version_1_net_starts_every_bucket_with_its_function(self):
        old, _ = self.train("old.nnue")
        common = ["--init-net", old, "--lr", "1e-9"]
        _, one = self.train("one.nnue", *common)
        path, many = self.train("many.nnue", *common, "--output-buckets", "4",
                                "--bucket-divisor", "5")
        self.assertAlmostEqual(val_loss_at_start(one), val_loss_at_start(many), places=6)
        net = nnuefmt.read_net(path)
        self.assertEqual((net.version(), net.O, net.D), (2, 4, 5))
        # Every bucket is still (within the tiny learning rate) the old output layer.
        first = nnuefmt.read_net(old)
        self.assertLessEqual(int(np.abs(net.W2 - first.W2[0]).max()), 1)

    def test_a_narrower_net_is_widened_without_changing_its_function(self):
        old, _ = self.train("narrow.nnue")
        common = ["--init-net", old, "--lr", "1e-9"]
        _, same = self.train("same.nnue", *common)
        path, wide = self.train("wide.nnue", *common, "--hidden", "24")
        self.assertIn("16 hidden units widened to 24", wide)
        self.assertAlmostEqual(val_loss_at_start(same), val_loss_at_start(wide), places=6)
        net, first = nnuefmt.read_net(path), nnuefmt.read_net(old)
        self.assertEqual(net.H, 24)
        # The old units keep their weights (within the tiny learning rate), the new ones
        # start with zero output weights in both halves.
        self.assertLessEqual(int(np.abs(net.W1[:, :16] - first.W1).max()), 1)
        w2 = net.W2[0]
        self.assertLessEqual(int(np.abs(w2[:16] - first.W2[0][:16]).max()), 1)
        self.assertLessEqual(int(np.abs(w2[24:40] - first.W2[0][16:]).max()), 1)
        self.assertLessEqual(int(np.abs(w2[16:24]).max()) + int(np.abs(w2[40:]).max()), 2)
        with self.assertRaisesRegex(AssertionError, "H may grow, not shrink"):
            self.train("narrower.nnue", "--init-net", path, "--hidden", "16")


class Engine(unittest.TestCase):
    """evaluate.py's integer evaluation of a version-2 net is the engine's, exactly."""

    def test_engine_and_evaluate_agree_on_real_positions(self):
        sako = os.environ.get("SAKO") or next(
            (p for p in (os.path.join(ROOT, "target", d, "sako") for d in ("release", "debug"))
             if os.path.exists(p)), None)
        if not sako:
            self.skipTest("no sako binary (build it or set $SAKO)")
        with tempfile.TemporaryDirectory(prefix="nnue-engine-test-") as d:
            with open(os.path.join(ROOT, "engine-tests/data/normal.txt")) as f:
                lines = [l for l in f.read().split("\n") if l.strip()][:60]
            data, feats = os.path.join(d, "pos.txt"), os.path.join(d, "pos.bin")
            with open(data, "w") as f:
                f.write("\n".join(lines) + "\n")
            subprocess.run([sako, "nnue-features", "--variant", "normal", "--data", data,
                            "--out", feats], check=True, capture_output=True)
            for act in (nnuefmt.CRELU, nnuefmt.SCRELU):
                net = os.path.join(d, f"v2-{act}.nnue")
                rng = np.random.default_rng(9 + act)
                nnuefmt.write_net(net, random_net(rng, H=32, A=act, D=5))
                self.check(sako, net, feats, lines)

    def check(self, sako, net, feats, lines):
        ours = [int(l.split()[3]) for l in
                run(["evaluate.py", net, feats, "--first", "0"]).splitlines()
                if not l.startswith("#")]
        script = f"uci\nsetoption name EvalFile value {net}\n" + "".join(
            f"position fen {l.split('|')[0].strip()}\neval\n" for l in lines) + "quit\n"
        out = subprocess.run([sako, "uci"], input=script, capture_output=True,
                             text=True, timeout=120).stdout
        engine = [int(m) for m in re.findall(r"info string eval (-?\d+) cp", out)]
        self.assertEqual(len(engine), len(lines), out[-2000:])
        self.assertEqual(engine, ours, net)
        # The positions (20 to 32 pieces, divisor 5) fall into several buckets.
        used = set(nnuefmt.read_net(net).bucket(nnuefmt.FeatureSet([feats]).n).tolist())
        self.assertGreaterEqual(len(used), 2, used)

if __name__ == "__main__":
    unittest.main()
