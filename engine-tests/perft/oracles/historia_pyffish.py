#!/usr/bin/env python3
"""Perft oracle for Historia Sako (docs/rules/historia.md) written for sako on top of pyffish and the
`historia` section of engine-tests/peers/variants.ini, with the deployment rule made exact.

variants.ini cannot promise that Fairy-Stockfish's dropOppositeColoredBishop is the same as our
bishop-colour rule (NOT EXPRESSED (b) there). So in every position where the side to move still
has pieces in hand this script builds the list of drops itself from section 4.1 (drops forced
while the hand is not empty; empty square of the own 12-square zone; the exact bishop-colour test
of item 4) and counts THAT list. When the side to move is in check (only possible in hand-made
positions) a drop must also leave the king safe: there the drop is kept iff Fairy-Stockfish also
lists it (Fairy-Stockfish decides king safety). Board moves (movement phase: pieces, promotion on
the 7th rank to E/N/B) are Fairy-Stockfish's.
Every disagreement between our drop list and Fairy-Stockfish's (outside check) is counted and
printed at the end ("fsf-disagreements: N"); 0 means pyffish alone gives the same numbers.

usage: historia_pyffish.py 'FEN' DEPTH [variants.ini]
"""
import os, sys, time
try:
    import pyffish as sf
except ImportError:  # reported in main(), after --help
    sf = None

V = 'historia'
FILES = 'abcdefgh'
ZONE = {'w': ['a1', 'b1', 'c1', 'd1', 'e1', 'f1', 'g1', 'h1', 'e2', 'f2', 'g2', 'h2'],
        'b': ['a8', 'b8', 'c8', 'd8', 'e8', 'f8', 'g8', 'h8', 'a7', 'b7', 'c7', 'd7']}
disagreements = 0


def dark(s):
    return (FILES.index(s[0]) + int(s[1]) - 1) % 2 == 0


def parse(fen):
    head = fen.split()[0]
    board, hand = (head.split('[') + [''])[:2]
    hand = hand.rstrip(']')
    sq = {}
    for r, row in enumerate(board.split('/')):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                sq[FILES[f] + str(8 - r)] = ch
                f += 1
    return sq, hand


def our_drops(sq, hand, side):
    mine = (lambda c: c.isupper()) if side == 'w' else (lambda c: c.islower())
    held = sorted({c.upper() for c in hand if mine(c)})
    hB = sum(1 for c in hand if mine(c) and c.upper() == 'B')
    bishops = [s for s, p in sq.items() if mine(p) and p.upper() == 'B']
    empty = [s for s in ZONE[side] if s not in sq]
    out = []
    for t in empty:
        rest = [s for s in empty if s != t]
        has = {True: any(dark(s) for s in rest), False: any(not dark(s) for s in rest)}
        for piece in held:
            if piece == 'B':
                ok = not any(dark(b) == dark(t) for b in bishops) and (hB - 1 < 1 or has[not dark(t)])
            elif hB == 0:
                ok = True
            elif hB == 2:
                if bishops:
                    raise ValueError('two bishops in hand and bishops on the board: not a Historia position')
                ok = has[True] and has[False]
            elif len(bishops) == 1:
                ok = has[not dark(bishops[0])]
            elif not bishops:
                ok = True
            else:
                raise ValueError('one bishop in hand and two on the board: rule undefined')
            if ok:
                out.append(piece + '@' + t)
    return out


def moves_of(root, path):
    global disagreements
    fsf = sf.legal_moves(V, root, path)
    fen = sf.get_fen(V, root, path) if path else root
    sq, hand = parse(fen)
    side = fen.split()[1]
    if not any((c.isupper() if side == 'w' else c.islower()) for c in hand):
        return fsf
    ours = our_drops(sq, hand, side)
    if sf.gives_check(V, root, path):
        return [m for m in ours if m in fsf]
    if sorted(ours) != sorted(fsf):
        disagreements += 1
        print('disagree', fen, 'ours-only', sorted(set(ours) - set(fsf)), 'fsf-only',
              sorted(set(fsf) - set(ours)), file=sys.stderr)
    return ours


def perft(root, path, depth):
    moves = moves_of(root, path)
    if depth == 1:
        return len(moves)
    return sum(perft(root, path + [m], depth - 1) for m in moves)


def load(ini=None):
    if ini is None:
        here = os.path.dirname(os.path.abspath(__file__))
        peers = os.environ.get('PEERS', os.path.join(here, '..', '..', 'peers'))
        ini = os.path.join(peers, 'variants.ini')
    if not os.path.isfile(ini):
        sys.exit(f'{ini} not found: pass the variants.ini path or set PEERS to its folder')
    sf.load_variant_config(open(ini).read())


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (['-h'], ['--help']) else 2)
    if sf is None:
        sys.exit('pyffish is not installed (pip install pyffish): this oracle cannot run')
    fen, depth = sys.argv[1], int(sys.argv[2])
    load(sys.argv[3] if len(sys.argv) > 3 else None)
    for d in range(1, depth + 1):
        t = time.time()
        print(d, perft(fen, [], d), round(time.time() - t, 2), flush=True)
    print('fsf-disagreements:', disagreements)


if __name__ == '__main__':
    main()
