#!/usr/bin/env python3
"""Tests of the trainer's tools on a tiny synthetic data set (about a minute on one core).

    cd scripts/nnue && ~/venv-nnue/bin/python -m unittest test_nnue -v

The format tests need numpy only; the training tests run train.py (JAX) for one short
epoch each; the engine tests also need a built sako (target/release/sako or
target/debug/sako, or the path in $SAKO) and are skipped without one (the version-3 test
also when that sako refuses version-3 nets).
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
# The chess8 preset, from its definition (the viewer's frame, square = rank*8 + file): back
# rank a-b 0, c-d 1, e-f 2, g-h 3; second rank a-d 4, e-h 5; ranks 3-8 a-d 6, e-h 7.
CHESS8 = [f // 2 if r == 0 else (4 if r == 1 else 6) + f // 4
          for r in range(8) for f in range(8)]


def run(args, **kw):
    """Runs a script of this directory; its output, or a failure with the output."""
    p = subprocess.run([PY] + args, cwd=HERE, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise AssertionError(f"{args[0]} failed:\n{p.stdout}\n{p.stderr}")
    return p.stdout + p.stderr


def sako_binary():
    """A built sako (target/release/sako or target/debug/sako, or $SAKO). Without one the
    test is skipped, except under CI (`CI` set), where a missing binary is a failure."""
    sako = os.environ.get("SAKO") or next(
        (p for p in (os.path.join(ROOT, "target", b, "sako") for b in ("release", "debug"))
         if os.path.exists(p)), None)
    if not sako:
        if os.environ.get("CI"):
            raise AssertionError("no sako binary under CI (build it or set $SAKO)")
        raise unittest.SkipTest("no sako binary (build it or set $SAKO)")
    return sako


def max_diff(net, features):
    """evaluate.py's largest |float_cp - int_cp| over every position of `features`."""
    out = run(["evaluate.py", net, features, "--first", "0"])
    m = re.search(r"max \|float_cp - int_cp\| = ([0-9.]+)", out)
    if not m or "overflowed" in out:
        raise AssertionError(out[-2000:])
    return float(m.group(1))


def val_loss_at_start(out):
    return float(re.search(r"epoch 0: val loss ([0-9.]+)", out).group(1))


def random_net(rng, H=16, O=8, A=nnuefmt.SCRELU, D=4, KB=1):
    """A chess net of random integers; with KB > 1 a version-3 one (royal type 5, the
    chess8 map)."""
    F = nnuefmt.num_inputs(6, 64)
    kings = (5, KB, CHESS8) if KB > 1 else (None, 1, None)
    return nnuefmt.Net("normal", 6, 64, 8, H,
                       rng.integers(-60, 61, (KB * F, H)), rng.integers(-50, 151, H),
                       rng.integers(-127, 128, (O, 2 * H)), rng.integers(-20000, 20000, O),
                       A, O, D, *kings)



class SakoDataTest(unittest.TestCase):
    """SAKODATA, sako datagen's binary records: written here per docs/datagen.md, read
    back, checked against sako's converter when a sako is built."""

    def write(self, path, records, variant=b"normal", version=1, cut=0):
        head = nnuefmt.DATA_MAGIC + struct.pack("<II", version, nnuefmt.DATA_RECORD)
        head += variant.ljust(16, b"\0")
        data = head + b"".join(records)
        with open(path, "wb") as f:
            f.write(data[:len(data) - cut])

    def record(self, pieces, side=0, result=2, score=-37, hand=None):
        """pieces: list of (square, code) in square order."""
        occ = sum(1 << sq for sq, _ in pieces)
        packed = sum(code << (5 * k) for k, (_, code) in enumerate(pieces))
        r = occ.to_bytes(16, "little") + packed.to_bytes(28, "little")
        r += bytes(hand or [0] * 20)
        r += bytes([side, result, 255, 0]) + struct.pack("<IHHhH", 0, 0, 1, score, 0)
        self.assertEqual(len(r), nnuefmt.DATA_RECORD)
        return r

    def test_records_read_back(self):
        # White king e1 (type 5: code 10), rook h1 (type 3: 6); black king e8 (11).
        recs = [self.record([(4, 10), (7, 6), (60, 11)]),
                self.record([(4, 10), (60, 11)], side=1, result=1, score=12)]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.bin")
            self.write(path, recs)
            variant, r = nnuefmt.read_sakodata(path)
            self.assertEqual((variant, len(r)), ("normal", 2))
            self.assertEqual(nnuefmt.decode_board(r[0]), {4: 10, 7: 6, 60: 11})
            self.assertEqual(list(r["side"]), [0, 1])
            scores, results = nnuefmt.sakodata_targets(r)
            self.assertEqual(list(scores), [-37.0, 12.0])
            self.assertEqual(list(results), [1.0, 0.5])
            self.write(path, recs, cut=5)
            with self.assertRaises(nnuefmt.FormatError):
                nnuefmt.read_sakodata(path)
            self.assertEqual(len(nnuefmt.read_sakodata(path, partial_ok=True)[1]), 1)
            self.write(path, recs, version=7)
            with self.assertRaises(nnuefmt.FormatError):
                nnuefmt.read_sakodata(path)
            with open(path, "wb") as f:
                f.write(b"4k3/8/8/8/8/8/8/4K2R w K - 0 1 | 0 | 0.5\n")
            with self.assertRaises(nnuefmt.FormatError):
                nnuefmt.read_sakodata(path)

    def test_sako_reads_what_python_writes_and_back(self):
        sako = sako_binary()
        with tempfile.TemporaryDirectory() as d:
            path, txt = os.path.join(d, "a.bin"), os.path.join(d, "a.txt")
            self.write(path, [self.record([(4, 10), (7, 6), (60, 11)])])
            subprocess.run([sako, "datagen-convert", "--in", path, "--out", txt], check=True,
                           capture_output=True)
            with open(txt) as f:
                self.assertEqual(f.read().strip(), "4k3/8/8/8/8/8/8/4K2R w - - 0 1 | -37 | 1")
            # And a file sako's datagen wrote reads here, its positions valid.
            out = os.path.join(d, "g.bin")
            subprocess.run([sako, "datagen", "--variant", "chancellor", "--format", "bin",
                            "--games", "1", "--nodes", "200", "--out", out], check=True,
                           capture_output=True)
            variant, r = nnuefmt.read_sakodata(out)
            self.assertEqual(variant, "chancellor")
            self.assertGreater(len(r), 0)
            for rec in r:
                board = nnuefmt.decode_board(rec)
                self.assertTrue(all(sq < 64 for sq in board))
                self.assertGreaterEqual(len(board), 2)
                self.assertEqual(rec["variant"], r[0]["variant"])


class TrainOnDatagen(unittest.TestCase):
    """train.py reads sako datagen's files (SAKODATA and text lines) through
    `sako nnue-features`, and reuses the features while a file keeps its size."""

    def test_train_reads_sakodata_and_text(self):
        sako = sako_binary()
        with tempfile.TemporaryDirectory() as d:
            data = os.path.join(d, "g.bin")
            subprocess.run([sako, "datagen", "--variant", "normal", "--format", "bin",
                            "--games", "2", "--nodes", "300", "--seed", "5", "--out", data],
                           check=True, capture_output=True)
            records = len(nnuefmt.read_sakodata(data)[1])
            text = os.path.join(d, "g.txt")
            subprocess.run([sako, "datagen-convert", "--in", data, "--out", text],
                           check=True, capture_output=True)
            feats = os.path.join(d, "feats")
            for source in (data, text):
                out = os.path.join(d, os.path.basename(source) + ".nnue")
                log = run(["train.py", "--data", source, "--out", out, *CHESS, "--hidden",
                           "8", "--epochs", "1", "--batch", "64", "--progress", "0",
                           "--sako", sako, "--feature-dir", feats],
                          env=dict(os.environ, JAX_PLATFORMS="cpu"))
                self.assertIn(f"data: {records} positions in 1 file(s)", log)
                self.assertEqual(nnuefmt.read_net(out).version(), 1)
            made = sorted(os.listdir(feats))
            self.assertEqual(len(made), 2, made)
            self.assertTrue(all(f.endswith(".feat") for f in made), made)
            # The same file again: its features are reused, not made anew.
            again = nnuefmt.feature_files([data], "normal", sako, feats, log=self.fail)
            self.assertEqual(os.path.dirname(again[0]), feats)

    def test_a_broken_datagen_file_is_refused(self):
        sako = sako_binary()
        with tempfile.TemporaryDirectory() as d:
            bad = os.path.join(d, "bad.txt")
            with open(bad, "w") as f:
                f.write("not a position | x | y\n")
            with self.assertRaises(nnuefmt.FormatError):
                nnuefmt.feature_files([bad], "normal", sako, d, log=lambda _m: None)


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


    def test_version_3_round_trip(self):
        for O, A in ((1, nnuefmt.CRELU), (8, nnuefmt.SCRELU)):
            net = random_net(self.rng, O=O, A=A, KB=8)
            path = os.path.join(self.dir, "v3.nnue")
            size = nnuefmt.write_net(path, net)
            with open(path, "rb") as f:
                data = f.read()
            at = 16 + len("normal") + 16
            self.assertEqual(struct.unpack_from("<I", data, 8)[0], 3)
            self.assertEqual(struct.unpack_from("<5I", data, at), (A, O, 4, 5, 8))
            self.assertEqual(list(data[at + 20:at + 84]), CHESS8)
            self.assertEqual(size, at + 84 + 2 * 8 * 864 * 16 + 2 * 16 + O * (4 * 16 + 4))
            back = nnuefmt.read_net(path)
            self.assertEqual((back.version(), back.A, back.O, back.R, back.KB), (3, A, O, 5, 8))
            np.testing.assert_array_equal(back.M, CHESS8)
            for name in ("W1", "B1", "W2", "B2"):
                np.testing.assert_array_equal(getattr(back, name), getattr(net, name))

    def test_quantise_of_king_buckets(self):
        F, H = 864, 8
        W1 = self.rng.normal(0, 0.1, (8 * F, H))
        args = ("normal", 6, 64, 8, W1, np.zeros(H), np.zeros(2 * H), 0.0)
        net = nnuefmt.quantise(*args, royal=5, king_map=CHESS8)
        self.assertEqual((net.version(), net.KB, net.R), (3, 8, 5))
        np.testing.assert_array_equal(net.W1, nnuefmt.round_half_away(W1 * nnuefmt.QA))
        with self.assertRaisesRegex(ValueError, "no bucket map"):
            nnuefmt.quantise(*args)
        with self.assertRaisesRegex(ValueError, "not a multiple of F"):
            nnuefmt.quantise("normal", 6, 64, 8, W1[:-1], *args[5:], royal=5,
                             king_map=CHESS8)
        with self.assertRaisesRegex(ValueError, "gives square 63 bucket 8"):
            nnuefmt.quantise(*args, royal=5, king_map=CHESS8[:-1] + [8])

    def test_king_bucket_of_a_view(self):
        F, own_king, their_king = 864, 5 * 64, 11 * 64
        views = np.array([
            [3, own_king + 6, F, F],                   # back rank g: bucket 3
            [their_king + 6, 0, F, F],                 # only the other's king: bucket 0
            [own_king + 40, own_king + 9, 20, F],      # two kings: the lower square, b2
            [F, F, F, F],                              # nothing
            [2 * 6 * 64 + 5 * 8, own_king + 63, F, F]])  # a king in hand is no square
        np.testing.assert_array_equal(nnuefmt.king_buckets(views, 5, 64, CHESS8),
                                      [3, 0, 4, 0, 7])

    def test_version_4_round_trip(self):
        for KB in (1, 8):
            net = random_net(self.rng, O=2, A=nnuefmt.CRELU, KB=KB)
            net.S = 361
            path = os.path.join(self.dir, f"v4-{KB}.nnue")
            nnuefmt.write_net(path, net)
            back = nnuefmt.read_net(path)
            self.assertEqual((back.version(), back.S, back.KB), (4, 361, KB))
            for name in ("W1", "B1", "W2", "B2"):
                np.testing.assert_array_equal(getattr(back, name), getattr(net, name))
            with open(path, "rb") as f:
                data = bytearray(f.read())
            at = 16 + len(b"normal") + 16 + 12
            for word, value in ((0, 0), (0, 10001), (1, 2)):
                bad = bytearray(data)
                struct.pack_into("<I", bad, at + 4 * word, value)
                bad_path = os.path.join(self.dir, "bad-v4.nnue")
                with open(bad_path, "wb") as f:
                    f.write(bad)
                with self.assertRaises(nnuefmt.FormatError):
                    nnuefmt.read_net(bad_path)

    def test_version_5_round_trip(self):
        for KB in (1, 8):
            net = random_net(self.rng, O=2, A=nnuefmt.CRELU, KB=KB)
            net.S, net.material = 361, [512 + 16 * n for n in range(33)]
            path = os.path.join(self.dir, f"v5-{KB}.nnue")
            nnuefmt.write_net(path, net)
            back = nnuefmt.read_net(path)
            self.assertEqual((back.version(), back.S, back.KB, back.material),
                             (5, 361, KB, net.material))
            np.testing.assert_array_equal(back.material_factor([0, 32, 40]), [512, 1024, 1024])
            with open(path, "rb") as f:
                data = bytearray(f.read())
            at = 16 + len(b"normal") + 16 + 12 + 8 + (8 + 64 if KB > 1 else 0)
            for fmt, off, value in (("<I", 0, 0), ("<I", 0, 513), ("<H", 4 + 2 * 7, 0),
                                    ("<H", 4 + 2 * 7, 4097)):
                bad = bytearray(data)
                struct.pack_into(fmt, bad, at + off, value)
                bad_path = os.path.join(self.dir, "bad-v5.nnue")
                with open(bad_path, "wb") as f:
                    f.write(bad)
                with self.assertRaises(nnuefmt.FormatError):
                    nnuefmt.read_net(bad_path)

    def test_malformed_version_3_files_are_refused(self):
        path = os.path.join(self.dir, "bad3.nnue")
        nnuefmt.write_net(path, random_net(self.rng, KB=8))
        with open(path, "rb") as f:
            good = f.read()
        at = 16 + len("normal") + 16 + 12  # R, then KB, then the map
        cases = [((0, 6), "royal type R = 6, not below T = 6"),
                 ((4, 0), "0 king buckets"), ((4, 65), "65 king buckets"),
                 ((4, 7), "the king bucket map gives square 20 bucket 7, KB = 7"),
                 ((4, 9), r"bytes, a net with .* KB = 9 .*\(cut short\)")]
        for (offset, value), message in cases:
            bad = bytearray(good)
            struct.pack_into("<I", bad, at + offset, value)
            self.refused(path, bad, message)
        bad = bytearray(good)
        bad[at + 8 + 17] = 8
        self.refused(path, bad, "gives square 17 bucket 8, KB = 8")
        self.refused(path, good[:at + 8 + 63], "cut in the header")
        self.refused(path, good[:-1], r"bytes, a net with .*\(cut short\)")
        self.refused(path, good + b"\0\0", r"bytes, a net with .*\(trailing bytes\)")

    def refused(self, path, data, message):
        """read_net refuses the bytes `data` with `message`."""
        with open(path, "wb") as f:
            f.write(data)
        with self.assertRaisesRegex(nnuefmt.FormatError, message):
            nnuefmt.read_net(path)


class Training(unittest.TestCase):
    """train.py's bucket and activation flags, and evaluate.py on what it writes."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="nnue-train-test-")
        cls.data = os.path.join(cls.dir, "syn.bin")
        run(["make_synthetic.py", "--out", cls.data, "--positions", "3000", "--seed", "3"])
        # Chess-shaped positions with one king (type 5) per side, for king buckets.
        cls.kings = os.path.join(cls.dir, "kings.bin")
        run(["make_synthetic.py", "--out", cls.kings, "--positions", "3000", "--seed", "4",
             "--royal-type", "5"])

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def train(self, name, *flags, data=None):
        """A one-epoch run of train.py writing `name`: (its path, its output)."""
        out = os.path.join(self.dir, name)
        log = run(["train.py", "--data", data or self.data, "--out", out, *CHESS,
                   "--hidden", "16", "--epochs", "1", "--batch", "256", "--progress", "0",
                   *flags])
        return out, log

    def test_defaults_write_version_1(self):
        path, _ = self.train("v1.nnue")
        net = nnuefmt.read_net(path)
        self.assertEqual((net.version(), net.A, net.O), (1, nnuefmt.CRELU, 1))
        self.assertLess(max_diff(path, self.data), 1.0)

    def test_match_scale_writes_the_reference_scale(self):
        first, _ = self.train("first.nnue")
        net = nnuefmt.read_net(first)
        net.W2, net.B2 = net.W2 * 3, net.B2 * 3
        ref = os.path.join(self.dir, "triple.nnue")
        nnuefmt.write_net(ref, net)
        path, log = self.train("scaled.nnue", "--init-net", first, "--lr", "1e-5",
                               "--match-scale", ref)
        self.assertRegex(log, r"scale: slope 0\.3[0-9]* on the reference")
        scaled = nnuefmt.read_net(path)
        # The scale goes into the file's field; the weights stay as trained (a tiny
        # learning rate moves them by at most a rounding step or two, never threefold).
        self.assertEqual(scaled.version(), 4)
        self.assertTrue(1100 <= scaled.S <= 1300, scaled.S)
        self.assertLessEqual(int(np.abs(scaled.W2.astype(np.int64)
                                        - nnuefmt.read_net(first).W2).max()), 2)
        out = run(["scale.py", path, ref, self.data, "--first", "0", "--within", "100000"])
        slope = float(re.search(r"slope ([0-9.]+)", out).group(1))
        self.assertAlmostEqual(slope, 1.0, delta=0.03)

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


    def test_king_buckets_write_version_3(self):
        path, log = self.train("kb.nnue", "--king-buckets", "chess8", "--mirror", "8",
                               data=self.kings)
        self.assertIn("king buckets chess8: KB = 8, royal type 5", log)
        net = nnuefmt.read_net(path)
        self.assertEqual((net.version(), net.R, net.KB, net.A, net.O), (3, 5, 8, 0, 1))
        np.testing.assert_array_equal(net.M, CHESS8)
        self.assertLess(max_diff(path, self.kings), 1.0)
        # The views of the data fall into every bucket.
        feats = nnuefmt.FeatureSet([self.kings])
        us, them = feats.gather(np.arange(feats.count), feats.max_n)
        self.assertEqual(set(net.king_buckets(us)) | set(net.king_buckets(them)), set(range(8)))

    def test_a_version_1_net_starts_king_buckets_with_its_function(self):
        old, _ = self.train("plain.nnue", data=self.kings)
        common = ["--init-net", old, "--lr", "1e-9"]
        _, plain = self.train("plain2.nnue", *common, data=self.kings)
        path, kb = self.train("kb1.nnue", *common, "--king-buckets", "chess8", data=self.kings)
        _, wide = self.train("kb1w.nnue", *common, "--king-buckets", "chess8", "--hidden", "24",
                             data=self.kings)
        self.assertAlmostEqual(val_loss_at_start(plain), val_loss_at_start(kb), places=6)
        self.assertAlmostEqual(val_loss_at_start(plain), val_loss_at_start(wide), places=6)
        # Every bucket starts as (and, with the tiny learning rate, stays) the old W1.
        net, first = nnuefmt.read_net(path), nnuefmt.read_net(old)
        self.assertEqual(net.version(), 3)
        self.assertLessEqual(int(np.abs(net.W1.reshape(8, 864, 16) - first.W1).max()), 1)

    def test_a_version_3_net_restarts_only_its_own_buckets(self):
        kb = ["--king-buckets", "chess8"]
        old, _ = self.train("kb3.nnue", *kb, data=self.kings)
        path, _ = self.train("kb3b.nnue", "--init-net", old, "--lr", "1e-9", *kb,
                             data=self.kings)
        first, net = nnuefmt.read_net(old), nnuefmt.read_net(path)
        self.assertLessEqual(int(np.abs(net.W1 - first.W1).max()), 1)
        refusals = [((), "8 king buckets, this run has no king buckets"),
                    ((*kb, "--royal-type", "4"), "royal type R = 5, this run has 4"),
                    (("--king-buckets", ",".join(["0"] * 63 + ["7"])),
                     r"another king bucket map \(square 2: bucket 1, this run's 0\)")]
        for flags, message in refusals:
            with self.assertRaisesRegex(AssertionError, message):
                self.train("kb3c.nnue", "--init-net", old, *flags, data=self.kings)
        ckpt = old[:-5] + ".ckpt.npz"
        with self.assertRaisesRegex(AssertionError, "8 king buckets, this run has no king"):
            self.train("kb3.nnue", "--resume", ckpt, "--epochs", "2", data=self.kings)

    def test_a_chess_net_starts_a_game_of_more_types_by_its_type_map(self):
        kb = ["--king-buckets", "chess8"]
        old, _ = self.train("chess-kb.nnue", *kb, data=self.kings)
        seven = os.path.join(self.dir, "seven.bin")
        run(["make_synthetic.py", "--out", seven, "--positions", "2000", "--seed", "5",
             "--types", "7", "--royal-type", "6"])
        ours = ["--types", "7", "--games", "chancellor", "--royal-type", "6", *kb]
        type_map = [0, 1, 2, 3, 4, 4, 5]
        path, log = self.train("chancellor-kb.nnue", *ours, "--init-net", old, "--lr", "1e-9",
                               "--init-types", ",".join(map(str, type_map)), data=seven)
        self.assertIn(f"started from the weights of {old}", log)
        first, net = nnuefmt.read_net(old), nnuefmt.read_net(path)
        self.assertEqual((net.T, net.R, net.KB), (7, 6, 8))
        # Every row of every bucket is the old row of its mapped type (within the tiny
        # learning rate): board rows (r*T + t)*N + s, then hand rows.
        a = first.W1.reshape(8, 2 * 6 * 72, 16).astype(np.int64)
        b = net.W1.reshape(8, 2 * 7 * 72, 16).astype(np.int64)
        for r in range(2):
            for t, s in enumerate(type_map):
                new, src = (r * 7 + t) * 64, (r * 6 + s) * 64
                self.assertLessEqual(int(np.abs(b[:, new:new + 64] - a[:, src:src + 64]).max()), 1)
                new, src = 2 * 7 * 64 + (r * 7 + t) * 8, 2 * 6 * 64 + (r * 6 + s) * 8
                self.assertLessEqual(int(np.abs(b[:, new:new + 8] - a[:, src:src + 8]).max()), 1)
        refusals = [("0,1,2,3,4,5", "has 6 entries; this run has T = 7"),
                    ("0,1,2,3,4,6,5", "names type 6; the init net has types 0 to 5"),
                    ("0,1,2,3,4,5,4", "royal type 6 starts from type 4, not the init net's"),
                    ("0,1,x", "not comma-separated type numbers")]
        for text, message in refusals:
            with self.assertRaisesRegex(AssertionError, message):
                self.train("bad-map.nnue", *ours, "--init-net", old, "--init-types", text,
                           data=seven)
        with self.assertRaisesRegex(AssertionError, "T = 6, N = 64"):
            self.train("no-map.nnue", *ours, "--init-net", old, data=seven)
        with self.assertRaisesRegex(AssertionError, "--init-types goes with --init-net"):
            self.train("no-net.nnue", "--init-types", "0,1,2,3,4,5")

    def test_bad_king_bucket_options_are_refused(self):
        cases = [(("--king-buckets", "chess8", "--squares", "80"), "chess8 is for 8x8 boards"),
                 (("--king-buckets", "chess8", "--mirror", "4"), "--mirror says 4"),
                 (("--king-buckets", "0,1,2"), "3 numbers, N = 64 wanted"),
                 (("--king-buckets", ",".join(["0"] * 64)), "one bucket only"),
                 (("--king-buckets", "chess8", "--royal-type", "6"), "--royal-type must be"),
                 (("--royal-type", "5"), "--royal-type goes with --king-buckets")]
        for flags, message in cases:
            with self.assertRaisesRegex(AssertionError, message):
                self.train("bad.nnue", *flags)


class Scale(unittest.TestCase):
    """scale.py: a net against itself has slope 1; with its output doubled, about 2."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="nnue-scale-test-")
        self.data = os.path.join(self.dir, "syn.bin")
        run(["make_synthetic.py", "--out", self.data, "--positions", "2000", "--seed", "6"])
        rng = np.random.default_rng(7)
        net = random_net(rng, H=16, O=1, A=nnuefmt.CRELU, D=1)
        self.ref = os.path.join(self.dir, "ref.nnue")
        nnuefmt.write_net(self.ref, net)
        net.W2, net.B2 = net.W2 * 2, net.B2 * 2
        self.double = os.path.join(self.dir, "double.nnue")
        nnuefmt.write_net(self.double, net)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def slope(self, net):
        out = run(["scale.py", net, self.ref, self.data, "--first", "0", "--within", "100000"])
        return float(re.search(r"slope ([0-9.]+)", out).group(1))

    def test_a_net_has_its_own_scale(self):
        self.assertEqual(self.slope(self.ref), 1.0)

    def test_write_changes_only_the_output_scale(self):
        out = os.path.join(self.dir, "scaled.nnue")
        log = run(["scale.py", self.ref, self.ref, self.data, "--write", "0.9", out])
        self.assertIn("output scale 400 -> 360, version 4", log)
        self.assertAlmostEqual(self.slope(out), 0.9, delta=0.01)
        back, ref = nnuefmt.read_net(out), nnuefmt.read_net(self.ref)
        np.testing.assert_array_equal(back.W2, ref.W2)

    def test_a_doubled_output_has_twice_the_scale(self):
        self.assertAlmostEqual(self.slope(self.double), 2.0, delta=0.01)

    def test_calibrate_writes_a_material_table_and_nothing_else(self):
        out = os.path.join(self.dir, "calibrated.nnue")
        log = run(["calibrate.py", self.data, "--min-positions", "50", "--write", self.ref,
                   out])
        table = [int(v) for v in re.search(r"table \(alpha 0.5, n = 0 \.\. \d+, 1/1024\): "
                                           r"\[([0-9, ]+)\]", log).group(1).split(",")]
        back, ref = nnuefmt.read_net(out), nnuefmt.read_net(self.ref)
        self.assertEqual((back.version(), back.material, back.S), (5, table, ref.S))
        self.assertTrue(all(1 <= v <= 1024 for v in table), table)
        self.assertEqual(table[-1], 1024)  # the group with the most material keeps its scale
        for name in ("W1", "B1", "W2", "B2"):
            np.testing.assert_array_equal(getattr(back, name), getattr(ref, name))
        # scale.py --write keeps the table.
        again = os.path.join(self.dir, "again.nnue")
        run(["scale.py", out, out, self.data, "--write", "0.9", again])
        self.assertEqual(nnuefmt.read_net(again).material, table)


class Engine(unittest.TestCase):
    """evaluate.py's integer evaluation of version-2 and version-3 nets is the engine's,
    exactly."""

    @classmethod
    def setUpClass(cls):
        cls.sako = sako_binary()
        cls.dir = tempfile.mkdtemp(prefix="nnue-engine-test-")
        with open(os.path.join(ROOT, "engine-tests/data/normal.txt")) as f:
            cls.lines = [l for l in f.read().split("\n") if l.strip()][:60]
        data, cls.feats = os.path.join(cls.dir, "pos.txt"), os.path.join(cls.dir, "pos.bin")
        with open(data, "w") as f:
            f.write("\n".join(cls.lines) + "\n")
        subprocess.run([cls.sako, "nnue-features", "--variant", "normal", "--data", data,
                        "--out", cls.feats], check=True, capture_output=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def test_engine_and_evaluate_agree_on_real_positions(self):
        for act in (nnuefmt.CRELU, nnuefmt.SCRELU):
            net = os.path.join(self.dir, f"v2-{act}.nnue")
            rng = np.random.default_rng(9 + act)
            nnuefmt.write_net(net, random_net(rng, H=32, A=act, D=5))
            self.check(self.sako, net, self.feats, self.lines)

    def test_engine_and_evaluate_agree_on_king_buckets(self):
        for act in (nnuefmt.CRELU, nnuefmt.SCRELU):
            net = os.path.join(self.dir, f"v3-{act}.nnue")
            rng = np.random.default_rng(19 + act)
            nnuefmt.write_net(net, random_net(rng, H=32, A=act, D=5, KB=8))
            self.skip_if_refused(net, 3)
            self.check(self.sako, net, self.feats, self.lines)
            # The positions put the side to move's king in more than one bucket.
            feats = nnuefmt.FeatureSet([self.feats])
            us, _ = feats.gather(np.arange(feats.count), feats.max_n)
            used = set(nnuefmt.read_net(net).king_buckets(us).tolist())
            self.assertGreaterEqual(len(used), 2, used)

    def test_engine_and_evaluate_agree_on_a_material_table(self):
        for act in (nnuefmt.CRELU, nnuefmt.SCRELU):
            net = os.path.join(self.dir, f"v5-{act}.nnue")
            rng = np.random.default_rng(29 + act)
            n = random_net(rng, H=32, A=act, D=5, KB=8)
            n.S, n.material = 361, [int(v) for v in rng.integers(300, 2000, 30)]
            nnuefmt.write_net(net, n)
            self.skip_if_refused(net, 5)
            self.check(self.sako, net, self.feats, self.lines)

    def skip_if_refused(self, net, version):
        """Skips the test when this sako refuses `net` (an older build, before `version`)."""
        script = f"uci\nsetoption name EvalFile value {net}\nquit\n"
        out = subprocess.run([self.sako, "uci"], input=script, capture_output=True,
                             text=True, timeout=60).stdout
        refusal = [l for l in out.splitlines() if "Error" in l]
        if refusal:
            self.skipTest(f"this sako refuses version-{version} nets: {refusal[0]}")

    def check(self, sako, net, feats, lines):
        """The engine's UCI `eval` of every line's position equals evaluate.py's int_cp."""
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
