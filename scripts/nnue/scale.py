#!/usr/bin/env python3
"""Compare the scale of two nets' evaluations on the positions of a feature file.

    scale.py NET.nnue REF.nnue FILE.bin [--first N] [--within CP]

Both nets evaluate the same positions with the engine's integer arithmetic (evaluate.py's
`int_eval`). Printed: the least-squares slope of NET's evaluation on REF's over the positions
REF scores within ±CP (how much larger NET's scores are: 1.10 means ten percent), their
correlation, each net's mean absolute evaluation, and the factor 1/slope that would bring
NET's output to REF's scale. A fine-tune whose slope has drifted from its parent's moves
every evaluation-based margin of the search (futility, null move, aspiration windows) that
was set with the parent's scale; see "Session 45" in docs/strength.md.
"""

import argparse
import sys

import numpy as np

import nnuefmt
from evaluate import batches, int_eval


def evaluations(net, feats, positions, chunk=4096):
    """The integer evaluations (side to move's view, centipawns) of the positions with the
    indices `positions` (a numpy array), in that order."""
    out = np.empty(len(positions), np.int64)
    overflows = {"i16 accumulator": 0, "i16 product": 0, "i32 sum": 0, "i32 product": 0}
    done = 0
    for idx, us, them, bucket in batches(net, feats, positions, chunk):
        out[done:done + len(idx)] = int_eval(net, us, them, bucket, overflows)
        done += len(idx)
    return out


def compare(ev, ref, within):
    """(slope, correlation, positions) of `ev` on `ref` where |ref| < within."""
    keep = np.abs(ref) < within
    x, y = ref[keep].astype(np.float64), ev[keep].astype(np.float64)
    if len(x) < 2 or np.var(x) == 0.0:
        raise ValueError(f"fewer than two distinct reference scores within ±{within} cp")
    slope = float(np.cov(x, y, bias=True)[0, 1] / np.var(x))
    return slope, float(np.corrcoef(x, y)[0, 1]), int(keep.sum())


def write_scaled(net, factor, out):
    """Writes `net` to `out` with its output scale times `factor` (a string)."""
    try:
        f = float(factor)
    except ValueError:
        sys.exit(f"error: --write factor {factor!r} is not a number")
    try:
        new = nnuefmt.rescaled(net.S, f)
    except ValueError as e:
        sys.exit(f"error: {e}")
    old, net.S = net.S, new
    try:
        nnuefmt.write_net(out, net)
    except OSError as e:
        sys.exit(f"error: {e}")
    print(f"wrote {out}: output scale {old} -> {new}, version {net.version()}")


def main():
    ap = argparse.ArgumentParser(description="Compare the scale of two nets' evaluations.")
    ap.add_argument("net")
    ap.add_argument("ref")
    ap.add_argument("features")
    ap.add_argument("--first", type=int, default=20000,
                    help="positions from the start of the file (0: all)")
    ap.add_argument("--write", nargs=2, metavar=("FACTOR", "OUT"),
                    help="also write NET to OUT with its output scale (centipawns per unit "
                         "of y) multiplied by FACTOR, rounded: a version-4 file unless the "
                         "result is 400; the weights are not touched")
    ap.add_argument("--within", type=int, default=1000,
                    help="compare where the reference scores within ± this many centipawns")
    args = ap.parse_args()
    if args.within <= 0:
        ap.error("--within must be positive")
    try:
        net, ref = nnuefmt.read_net(args.net), nnuefmt.read_net(args.ref)
        feats = nnuefmt.FeatureSet([args.features])
    except (nnuefmt.FormatError, OSError) as e:
        sys.exit(f"error: {e}")
    for path, n in ((args.net, net), (args.ref, ref)):
        if n.F != feats.F:
            sys.exit(f"{path} has F = {n.F}, the feature file F = {feats.F}")
    count = feats.count if args.first <= 0 else min(args.first, feats.count)
    positions = np.arange(count)
    ev, rv = evaluations(net, feats, positions), evaluations(ref, feats, positions)
    try:
        slope, corr, used = compare(ev, rv, args.within)
    except ValueError as e:
        sys.exit(f"error: {e}")
    print(f"positions {used} of {count} (reference within ±{args.within} cp)")
    print(f"slope {slope:.3f}  correlation {corr:.4f}  "
          f"mean |eval| {np.abs(ev).mean():.1f} (reference {np.abs(rv).mean():.1f})  "
          f"factor to the reference's scale {1.0 / slope:.4f}")
    if args.write:
        write_scaled(net, args.write[0], args.write[1])


if __name__ == "__main__":
    main()
