#!/usr/bin/env python3
"""Perft oracle for Great Shatranj (docs/rules/great-shatranj.md), written for sako on top of pyffish
and the `great` section of engine-tests/peers/variants.ini, with two adaptations:

1. Promotion pools. Fairy-Stockfish limits promotions with promotionLimit (a type is allowed while
   fewer of it stand on the board than at the start); our rule allows the types in the pool of
   captured own pieces. The two agree exactly when every side's pool equals its initial set
   (2 W, 2 N, 2 E, 1 G, 1 M, 1 H) minus its pieces on the board, and this stays true after every
   move (a capture moves a piece from the board to the pool; a promotion the other way; Soldiers
   are unlimited in both). This script REFUSES a FEN whose pool is anything else, and strips the
   pool bracket before handing the FEN to pyffish.
2. Bare king. Fairy-Stockfish's extinction rule (the bare-king adjudication) makes its move
   generator return NO moves when a side is bare and the other is to move; our perft counts all
   legal moves regardless of adjudication. A derived section with the extinction rule switched
   off is used.

usage: great_pyffish.py 'FEN' DEPTH [variants.ini]
"""
import os, sys, time
try:
    import pyffish as sf
except ImportError:  # reported in main(), after --help
    sf = None

V = 'greatperft'
SECTION = '\n[greatperft:great]\nextinctionValue = none\nextinctionClaim = false\n'
INITIAL = {'W': 2, 'N': 2, 'E': 2, 'G': 1, 'M': 1, 'H': 1}


def convert(fen):
    p = fen.split()
    board, pool = (p[0].split('[') + [''])[:2]
    pool = pool.rstrip(']').replace('S', '').replace('s', '').replace('-', '')
    count = {}
    for ch in board:
        if ch.isalpha():
            count[ch] = count.get(ch, 0) + 1
    missing = ''
    for side in (str.upper, str.lower):
        for t, n in INITIAL.items():
            k = count.get(side(t), 0)
            if k > n:
                raise SystemExit('more %s on the board than at the start: pool rule not expressible' % side(t))
            missing += side(t) * (n - k)
    if sorted(pool) != sorted(missing):
        raise SystemExit('pool [%s] is not the set of missing pieces [%s]: not expressible' % (pool, missing))
    return ' '.join([board] + p[1:])


def perft(fen, path, depth):
    moves = sf.legal_moves(V, fen, path)
    if depth == 1:
        return len(moves)
    return sum(perft(fen, path + [m], depth - 1) for m in moves)


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (['-h'], ['--help']) else 2)
    if sf is None:
        sys.exit('pyffish is not installed (pip install pyffish): this oracle cannot run')
    fen, depth = convert(sys.argv[1]), int(sys.argv[2])
    if len(sys.argv) > 3:
        ini = sys.argv[3]
    else:
        here = os.path.dirname(os.path.abspath(__file__))
        peers = os.environ.get('PEERS', os.path.join(here, '..', '..', 'peers'))
        ini = os.path.join(peers, 'variants.ini')
    if not os.path.isfile(ini):
        sys.exit(f'{ini} not found: pass the variants.ini path or set PEERS to its folder')
    sf.load_variant_config(open(ini).read() + SECTION)
    for d in range(1, depth + 1):
        t = time.time()
        print(d, perft(fen, [], d), round(time.time() - t, 2), flush=True)


if __name__ == '__main__':
    main()
