#!/usr/bin/env python3
"""Evaluate positions of a SAKOFEAT file with a .nnue net, two ways, to cross-check the engine.

    evaluate.py NET.nnue FILE.bin [--first N]

One line per position: `index stm float_cp int_cp`, where stm is 0 (White) or 1 (Black),
both evaluations are for the side to move, float_cp uses the dequantised weights in floating
point (400*y) and int_cp the engine's integer arithmetic: 16-bit accumulators
B1 + sum of W1 rows, clamped to 0..255, an i32 sum B2 + sum W2*clamp, then *400 and
divided by 255*64 truncating toward zero (Rust's `/` on i32). Overflows of the 16- and
32-bit steps wrap as in a release build and are reported on stderr.
"""

import argparse
import sys

import numpy as np

import nnuefmt
from nnuefmt import QA, QB


def wrap(x, bits):
    half = 1 << (bits - 1)
    return (x + half) % (1 << bits) - half


def trunc_div(a, b):
    """Integer division truncating toward zero, as Rust's `/` on integers."""
    q = np.abs(a) // abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def main():
    ap = argparse.ArgumentParser(description="Evaluate feature-file positions with a net.")
    ap.add_argument("net")
    ap.add_argument("features")
    ap.add_argument("--first", type=int, default=10,
                    help="positions to evaluate from the start of the file (0: all)")
    args = ap.parse_args()

    try:
        net = nnuefmt.read_net(args.net)
        feats = nnuefmt.FeatureSet([args.features])
    except (nnuefmt.FormatError, OSError) as e:
        sys.exit(f"error: {e}")
    if feats.F != net.F:
        sys.exit(f"the net has F = {net.F} (T = {net.T}, N = {net.N}, K = {net.K}), "
                 f"the feature file F = {feats.F}")
    print(f"# net {args.net}: games {net.games}, T = {net.T}, N = {net.N}, K = {net.K}, "
          f"H = {net.H}", file=sys.stderr)

    count = feats.count if args.first <= 0 else min(args.first, feats.count)
    H = net.H
    W1 = np.vstack([net.W1, np.zeros((1, H), np.int64)])  # row F: padding
    W1f, B1f, W2f, B2f = nnuefmt.dequantise(net)
    W1f = np.vstack([W1f, np.zeros((1, H))])
    overflows = {"i16 accumulator": 0, "i32 sum": 0, "i32 product": 0}
    max_diff = 0.0
    chunk = 4096
    for a in range(0, count, chunk):
        idx = np.arange(a, min(count, a + chunk))
        width = max(int(feats.n[idx].max()), 1)
        us, them = feats.gather(idx, width)

        # Float: dequantised weights, clamp to [0, 1].
        fus = np.clip(B1f + W1f[us].sum(axis=1), 0.0, 1.0)
        fthem = np.clip(B1f + W1f[them].sum(axis=1), 0.0, 1.0)
        y = B2f + fus @ W2f[:H] + fthem @ W2f[H:]
        float_cp = 400.0 * y

        # Integer: as the engine.
        sums = []
        for view in (us, them):
            exact = net.B1 + W1[view].sum(axis=1)
            acc = wrap(exact, 16)
            overflows["i16 accumulator"] += int(np.any(acc != exact, axis=1).sum())
            sums.append(np.clip(acc, 0, QA))
        exact = net.B2 + sums[0] @ net.W2[:H] + sums[1] @ net.W2[H:]
        total = wrap(exact, 32)
        overflows["i32 sum"] += int((total != exact).sum())
        exact = total * 400
        prod = wrap(exact, 32)
        overflows["i32 product"] += int((prod != exact).sum())
        int_cp = trunc_div(prod, QA * QB)

        max_diff = max(max_diff, float(np.abs(float_cp - int_cp).max()))
        stm = feats.stm[idx]
        print("\n".join(f"{i} {s} {f:.2f} {c}"
                        for i, s, f, c in zip(idx, stm, float_cp, int_cp)))
    print(f"# {count} positions, max |float_cp - int_cp| = {max_diff:.3f}", file=sys.stderr)
    for k, v in overflows.items():
        if v:
            print(f"# warning: {v} positions overflowed the {k} (wrapped)", file=sys.stderr)


if __name__ == "__main__":
    main()
