#!/usr/bin/env python3
"""How the search scores of a feature file predict its game results, by material, and the
material-scale table a net file (version 5) carries to even that out.

    calibrate.py FILE.bin... [--group 4] [--alpha 0.5] [--min-positions 1000]
                 [--write NET.nnue OUT.nnue]

Positions are grouped by their active inputs per view `n` (pieces on the board and in
hand), `--group` counts to a group, the last group taking every count above it. In each
group the scale K (centipawns) whose `sigmoid(score / K)` best predicts the game result
(least log-loss; score and result from the side to move's view) is found on a grid of
5 cp. A small K means the group's scores understate how often they win; a large one that
they overstate it. In sako's chess self-play K falls from about 400 with a few pieces
left to 150 with all of them: an advantage of 100 cp wins far more often with the board
full than in an ending.

The table: for every count n, `f(n) = min(1, (K_top / K(n)) ** alpha)` in 1/1024, K(n)
interpolated between the groups' middles in log space (constant beyond the first and the
last), K_top the group with the most material. The engine multiplies a net's evaluation by
`f(n) / 1024` (docs/nnue.md, version 5), so scores with less material shrink towards what
they win; `alpha` 1 would make every group's scores predict results alike, 0 leaves the net
as it is. With `--write`, NET's table is replaced by this one and the net written to OUT
(every weight and the output scale unchanged).
"""

import argparse
import sys

import numpy as np

import nnuefmt

GRID = np.arange(50.0, 2000.0, 5.0)


def side_to_move_view(feats):
    """(scores, results in 0..1) from the side to move's view."""
    black = feats.stm == 1
    score = feats.score.astype(np.float64)
    result = feats.result.astype(np.float64) * 0.5
    return np.where(black, -score, score), np.where(black, 1.0 - result, result)


def best_k(score, result):
    """The K of GRID with the least mean log-loss of sigmoid(score / K) against result."""
    losses = []
    for k in GRID:
        p = np.clip(1.0 / (1.0 + np.exp(-score / k)), 1e-9, 1.0 - 1e-9)
        losses.append(-np.mean(result * np.log(p) + (1.0 - result) * np.log(1.0 - p)))
    return float(GRID[int(np.argmin(losses))])


def groups(n, size):
    """(low, high) inclusive count ranges of width `size`; the last runs to max(n)."""
    top = int(n.max())
    out = [(lo, lo + size - 1) for lo in range(0, top + 1, size)]
    if len(out) > 1 and out[-1][1] > top:
        out.pop()
    out[-1] = (out[-1][0], top)
    return out


def table(centres, ks, alpha, entries):
    """f(n) in 1/1024 for n = 0 .. entries - 1 (see the module documentation)."""
    log_k = np.interp(np.arange(entries), centres, np.log(ks))
    f = np.minimum((ks[-1] / np.exp(log_k)) ** alpha, 1.0)
    return [int(round(1024 * x)) for x in f]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="+", help="feature files (sako nnue-features)")
    ap.add_argument("--group", type=int, default=4, help="input counts per group")
    ap.add_argument("--alpha", type=float, default=0.5, help="share of the correction (log)")
    ap.add_argument("--min-positions", type=int, default=1000,
                    help="groups with fewer positions are left out of the table")
    ap.add_argument("--within", type=float, default=2000.0,
                    help="only positions whose |score| is below this (mates and wins left out)")
    ap.add_argument("--write", nargs=2, metavar=("NET", "OUT"),
                    help="write NET with this table to OUT")
    a = ap.parse_args()
    if a.group < 1 or not 0.0 <= a.alpha <= 4.0:
        sys.exit("error: --group must be at least 1 and --alpha between 0 and 4")
    try:
        feats = nnuefmt.FeatureSet(a.data, check_inputs=False)
    except (nnuefmt.FormatError, OSError) as e:
        sys.exit(f"error: {e}")
    if feats.count == 0:
        sys.exit("error: no positions")
    score, result = side_to_move_view(feats)
    keep = np.abs(score) < a.within
    n = feats.n.astype(np.int64)
    centres, ks = [], []
    print("inputs   positions   K (cp)   mean |score|")
    for lo, hi in groups(n[keep], a.group):
        sel = keep & (n >= lo) & (n <= hi)
        count = int(sel.sum())
        if count < a.min_positions:
            print(f"{lo:>2}-{hi:<3} {count:>11}   (too few: left out)")
            continue
        k = best_k(score[sel], result[sel])
        centres.append((lo + hi) / 2.0)
        ks.append(k)
        print(f"{lo:>2}-{hi:<3} {count:>11} {k:>8.0f} {np.abs(score[sel]).mean():>14.0f}")
    if not ks:
        sys.exit("error: no group has enough positions")
    entries = int(n.max()) + 1
    f = table(np.array(centres), np.array(ks), a.alpha, entries)
    print(f"all positions: K = {best_k(score[keep], result[keep]):.0f}")
    print(f"table (alpha {a.alpha}, n = 0 .. {entries - 1}, 1/1024): {f}")
    if a.write:
        try:
            net = nnuefmt.read_net(a.write[0])
            net.material = f
            nnuefmt.write_net(a.write[1], net)
        except (nnuefmt.FormatError, OSError, ValueError) as e:
            sys.exit(f"error: {e}")
        print(f"wrote {a.write[1]}: {a.write[0]} with this table (version {net.version()})")


if __name__ == "__main__":
    main()
