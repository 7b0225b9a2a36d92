#!/usr/bin/env python3
"""Evaluate positions of a SAKOFEAT file with a .nnue net, two ways, to cross-check the engine.

    evaluate.py NET.nnue FILE.bin [--first N]

One line per position: `index stm float_cp int_cp`, where stm is 0 (White) or 1 (Black),
both evaluations are for the side to move, float_cp uses the dequantised weights in floating
point (S*y, S the output scale: 400 before version 4) and int_cp the engine's integer arithmetic, with the output bucket
min(n // D, O - 1) of the position's n active inputs: 16-bit accumulators B1 + sum of W1
rows (of a version-3 net, the rows of the view's king bucket), clamped to v = 0..255; with
the clipped ReLU an i32 sum B2 + sum W2*v, then *S and divided by 255*64; with the
squared one, per view an i32 sum of wrap16(v*W2)*v, then
(both views + 255*B2)*S divided by 255*255*64; divisions truncate toward zero (Rust's
`/`). A version-5 net's material factor f(n) (in 1/1024) then multiplies those centipawns,
divided by 1024 (truncating again); the float evaluation is multiplied by f(n)/1024.
Overflows of the 16- and 32-bit steps wrap as in a release build and are reported on stderr.
"""

import argparse
import sys

import numpy as np

import nnuefmt
from nnuefmt import QA, QB, SCRELU


def wrap(x, bits):
    half = 1 << (bits - 1)
    return (x + half) % (1 << bits) - half


def trunc_div(a, b):
    """Integer division truncating toward zero, as Rust's `/` on integers."""
    q = np.abs(a) // abs(b)
    return np.where((a < 0) != (b < 0), -q, q)


def batches(net, feats, positions, chunk=4096):
    """The positions with the indices `positions` (a numpy array) in chunks of `chunk`:
    (indices, us, them, output buckets), with the active inputs of each view padded as
    `FeatureSet.gather` pads them."""
    for a in range(0, len(positions), chunk):
        idx = positions[a:a + chunk]
        width = max(int(feats.n[idx].max()), 1)
        us, them = feats.gather(idx, width)
        yield idx, us, them, net.bucket(feats.n[idx])


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
    act = "screlu" if net.A == SCRELU else "crelu"
    kings = f", R = {net.R}, KB = {net.KB}" if net.KB > 1 else ""
    print(f"# net {args.net}: version {net.version()}, games {net.games}, T = {net.T}, "
          f"N = {net.N}, K = {net.K}, H = {net.H}, {act}, O = {net.O}, D = {net.D}{kings}",
          file=sys.stderr)

    count = feats.count if args.first <= 0 else min(args.first, feats.count)
    overflows = {"i16 accumulator": 0, "i16 product": 0, "i32 sum": 0, "i32 product": 0}
    max_diff = 0.0
    for idx, us, them, bucket in batches(net, feats, np.arange(count)):
        float_cp = float_eval(net, us, them, bucket, feats.n[idx])
        int_cp = int_eval(net, us, them, bucket, overflows, feats.n[idx])
        max_diff = max(max_diff, float(np.abs(float_cp - int_cp).max()))
        stm = feats.stm[idx]
        print("\n".join(f"{i} {s} {f:.2f} {c}"
                        for i, s, f, c in zip(idx, stm, float_cp, int_cp)))
    print(f"# {count} positions, max |float_cp - int_cp| = {max_diff:.3f}", file=sys.stderr)
    for k, v in overflows.items():
        if v:
            print(f"# warning: {v} positions overflowed the {k} (wrapped)", file=sys.stderr)


def rows(net, view):
    """The W1 rows of a view's inputs (padded with F): input i of a view in king bucket k
    is row k*F + i (k = 0 before version 3); padding becomes row KB*F, which the callers
    add as zeros."""
    k = net.king_buckets(view)
    return np.where(view < net.F, view + (k * net.F)[:, None], net.KB * net.F)


def float_eval(net, us, them, bucket, n=None):
    """S*y with the dequantised weights and the float activation; with `n` (active inputs
    per position), times the material factor / 1024 of a version-5 net."""
    H = net.H
    W1f, B1f, W2f, B2f = nnuefmt.dequantise(net)
    W1f = np.vstack([W1f, np.zeros((1, H))])  # row KB*F: padding
    w2 = W2f[bucket]
    y = B2f[bucket]
    for view, half in ((us, slice(0, H)), (them, slice(H, 2 * H))):
        act = np.clip(B1f + W1f[rows(net, view)].sum(axis=1), 0.0, 1.0)
        if net.A == SCRELU:
            act = act * act
        y = y + (act * w2[:, half]).sum(axis=1)
    factor = 1.0 if n is None else net.material_factor(n) / nnuefmt.MATERIAL_UNIT
    return float(net.S) * y * factor


def int_eval(net, us, them, bucket, overflows, n=None):
    """The engine's integer evaluation; counts the positions where a step wrapped. With `n`
    (active inputs per position) a version-5 net's material factor is applied as the engine
    does (to the centipawns, then divided by 1024, truncating); without, the output as it is."""
    f = np.full(len(bucket), nnuefmt.MATERIAL_UNIT, np.int64) if n is None \
        else net.material_factor(n)
    unit = nnuefmt.MATERIAL_UNIT
    H = net.H
    W1 = np.vstack([net.W1, np.zeros((1, H), np.int64)])  # row KB*F: padding
    w2 = net.W2[bucket]
    total = np.zeros(len(bucket), np.int64)
    for view, half in ((us, slice(0, H)), (them, slice(H, 2 * H))):
        exact = net.B1 + W1[rows(net, view)].sum(axis=1)
        acc = wrap(exact, 16)
        overflows["i16 accumulator"] += int(np.any(acc != exact, axis=1).sum())
        v = np.clip(acc, 0, QA)
        if net.A == SCRELU:
            exact = v * w2[:, half]
            p = wrap(exact, 16)
            overflows["i16 product"] += int(np.any(p != exact, axis=1).sum())
            exact = (p * v).sum(axis=1)
            part = wrap(exact, 32)
            overflows["i32 sum"] += int((part != exact).sum())
            total += part
        else:
            total += (v * w2[:, half]).sum(axis=1)
    if net.A == SCRELU:
        # The engine adds in 64 bits: only the 32-bit view sums can wrap.
        cp = trunc_div((total + net.B2[bucket] * QA) * net.S, QA * QA * QB)
        return trunc_div(cp * f, unit)
    exact = net.B2[bucket] + total
    total = wrap(exact, 32)
    overflows["i32 sum"] += int((total != exact).sum())
    exact = total * net.S
    prod = wrap(exact, 32)
    overflows["i32 product"] += int((prod != exact).sum())
    return trunc_div(trunc_div(prod, QA * QB) * f, unit)


if __name__ == "__main__":
    main()
