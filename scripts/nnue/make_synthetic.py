#!/usr/bin/env python3
"""Write a SAKOFEAT file of random positions, for testing the trainer without the engine.

Each position has 2-32 pieces of random colours and types on distinct squares, and now and
then a few pieces in hand. Its score comes from a hidden linear teacher that values every
piece by its type and by its square seen from its owner's side (so the score changes sign
when the board is mirrored and the colours swapped), plus a small tempo for the side to
move and some noise; the result is drawn from the score. A network can therefore learn the
teacher, and its loss should fall. With --royal-type R each side has exactly one piece of
type R on the board, on a random square, and no other piece of that type (on the board or in
hand), as a king: every view then has exactly one own royal input, for king buckets.

    make_synthetic.py --out FILE.bin --types 6 --squares 64 --positions 20000 --seed 1
"""

import argparse
import math
import struct
import sys

import numpy as np

from nnuefmt import FEAT_MAGIC, FEAT_VERSION, K_HAND, num_inputs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="feature file to write")
    ap.add_argument("--types", type=int, default=6, help="piece types T (default 6)")
    ap.add_argument("--squares", type=int, default=64, help="squares N (default 64)")
    ap.add_argument("--files", type=int, default=None,
                    help="board files (default: the square root of N when N is a square)")
    ap.add_argument("--positions", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-pieces", type=int, default=2)
    ap.add_argument("--max-pieces", type=int, default=32)
    ap.add_argument("--hand-share", type=float, default=0.1,
                    help="share of positions with pieces in hand (default 0.1)")
    ap.add_argument("--royal-type", type=int, default=None, metavar="R",
                    help="give each side exactly one piece of type R, on the board (default: "
                         "every type drawn at random, kings included)")
    args = ap.parse_args()

    T, N, K = args.types, args.squares, K_HAND
    files = args.files
    if files is None:
        r = math.isqrt(N)
        if r * r != N:
            sys.exit(f"N = {N} is not a square: give --files")
        files = r
    if N % files:
        sys.exit(f"--files {files} does not divide N = {N}")
    ranks = N // files
    F = num_inputs(T, N, K)
    if F > 65535:
        sys.exit(f"F = {F} does not fit the file's 16-bit inputs")
    lo, hi = args.min_pieces, min(args.max_pieces, N)
    if not 1 <= lo <= hi:
        sys.exit("bad piece counts")
    royal = args.royal_type
    if royal is not None:
        if not 0 <= royal < T or T < 2:
            sys.exit(f"--royal-type {royal}: want a type below T = {T}, and T >= 2")
        lo = max(lo, 2)
        if lo > hi:
            sys.exit("bad piece counts: two royal pieces need two squares")

    rng = np.random.default_rng(args.seed)
    # The hidden teacher, values in centipawns from the owner's point of view.
    base = rng.uniform(20.0, 200.0, size=T)
    psq = rng.normal(0.0, 30.0, size=(T, N))
    value = base[:, None] + psq  # value[t, s] for a piece on s seen from its owner's side
    hand_value = base[:, None] * rng.uniform(0.6, 1.2, size=(T, K))  # k-th piece in hand
    tempo = 15.0

    sq = np.arange(N)
    mirror = (ranks - 1 - sq // files) * files + sq % files

    out = bytearray(struct.pack("<8sII", FEAT_MAGIC, FEAT_VERSION, F))
    counts = {0: 0, 1: 0, 2: 0}
    scores = []
    for _ in range(args.positions):
        n_board = int(rng.integers(lo, hi + 1))
        squares = rng.choice(N, size=n_board, replace=False)
        colour = rng.integers(0, 2, size=n_board)  # 0 White, 1 Black
        ptype = rng.integers(0, T, size=n_board)
        if royal is not None:
            colour, ptype = with_royals(rng, colour, ptype, royal, T)
        white_view, black_view = [], []
        score = 0.0
        for s, c, t in zip(squares, colour, ptype):
            s, c, t = int(s), int(c), int(t)
            # White's view: own pieces (White's) r = 0, square as is.
            white_view.append(((c * T) + t) * N + s)
            # Black's view: own pieces (Black's) r = 0, rank mirrored.
            black_view.append((((1 - c) * T) + t) * N + int(mirror[s]))
            score += value[t, s] if c == 0 else -value[t, int(mirror[s])]
        if rng.random() < args.hand_share:
            for _g in range(int(rng.integers(1, 3))):
                c = int(rng.integers(0, 2))
                t = int(rng.integers(0, T))
                if t == royal:
                    continue  # royal pieces stay on the board
                held = int(rng.integers(1, 4))
                if any(v >= 2 * T * N and (v - 2 * T * N) // K == c * T + t for v in white_view):
                    continue  # that (colour, type) already has a hand
                for k in range(1, min(held, K) + 1):
                    white_view.append(2 * T * N + (c * T + t) * K + (k - 1))
                    black_view.append(2 * T * N + ((1 - c) * T + t) * K + (k - 1))
                    score += hand_value[t, k - 1] * (1 if c == 0 else -1)
        stm = int(rng.integers(0, 2))
        score += tempo if stm == 0 else -tempo
        score += rng.normal(0.0, 25.0)
        score = int(max(-32000, min(32000, round(score))))
        # Result from the score: more draws near equality, else White wins with
        # probability sigmoid(score / 400).
        p_white = 1.0 / (1.0 + math.exp(-score / 400.0))
        p_draw = 0.5 * (1.0 - abs(2.0 * p_white - 1.0))
        u = rng.random()
        if u < p_draw:
            result = 1
        elif rng.random() < p_white:
            result = 2
        else:
            result = 0
        counts[result] += 1
        scores.append(score)
        n = len(white_view)
        out += struct.pack("<BBhH", stm, result, score, n)
        out += struct.pack(f"<{n}H", *white_view)
        out += struct.pack(f"<{n}H", *black_view)

    with open(args.out, "wb") as f:
        f.write(out)
    sc = np.array(scores)
    print(f"{args.out}: {args.positions} positions, F = {F} (T = {T}, N = {N}, K = {K}), "
          f"{len(out)} bytes; results B/D/W {counts[0]}/{counts[1]}/{counts[2]}, "
          f"score mean {sc.mean():.0f} sd {sc.std():.0f}")


def with_royals(rng, colour, ptype, royal, T):
    """Colours and types of a position's board pieces made into exactly one royal piece per
    side, the first two pieces (their squares are random already); the others are drawn
    from the other types."""
    colour, ptype = colour.copy(), ptype.copy()
    colour[:2] = (0, 1)
    ptype[:2] = royal
    others = rng.integers(0, T - 1, size=len(ptype) - 2)
    ptype[2:] = np.where(others >= royal, others + 1, others)
    return colour, ptype


if __name__ == "__main__":
    main()
