#!/usr/bin/env python3
"""Perft oracle for King's Leap Chess (docs/rules/chancellor.md section 5) WITH Chancellors, written
for sako on top of pyffish and the `kingsleap` section of engine-tests/peers/variants.ini.

That section approximates the leap by an initial non-capturing Dabbaba move of the king, which
Fairy-Stockfish offers whenever the king stands on e1/e8 (NOT EXPRESSED there: (a) first king
move only, (b) no hostile piece on the leapt-over square, (c) leapt-over square not attacked,
(d) not out of check).  Fairy-Stockfish's leap set is a superset of ours (target empty, king
safe afterwards), so this script keeps its move list and removes every leap that breaks (a)-(d):
  (a) the leap right is tracked here (and leaps from other squares of Fairy-Stockfish's
      doubleStepRegion, e.g. a king on e2 leaping to e4, are dropped): read from the castling field of OUR FEN (any uppercase
      letter = White has it, any lowercase = Black), lost when that side's king moves;
  (b) the leapt-over square is read from the board;
  (c) "attacked" = our king, put on the leapt-over square (and removed from e1/e8, any friendly
      piece there removed), would be in check (pyffish gives_check on that position);
  (d) in check = pyffish gives_check of the current position.
Every other rule is Fairy-Stockfish's paulowich game (promotion to Q C R B N, e.p.).

usage: kingsleap_pyffish.py 'FEN' DEPTH [variants.ini]
       (default ini: $PEERS/variants.ini, PEERS defaulting to <repo>/engine-tests/peers)
"""
import os, sys, time
try:
    import pyffish as sf
except ImportError:  # reported in main(), after --help
    sf = None

V = 'kingsleap'
LEAPS = {'w': ('e1', {'c1': 'd1', 'g1': 'f1', 'e3': 'e2'}),
         'b': ('e8', {'c8': 'd8', 'g8': 'f8', 'e6': 'e7'})}


def board_of(fen):
    """8x8 placement -> dict square -> piece letter."""
    sq = {}
    for r, row in enumerate(fen.split()[0].split('[')[0].split('/')):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                sq['abcdefgh'[f] + str(8 - r)] = ch
                f += 1
    return sq


def fen_of(sq, rest):
    rows = []
    for r in range(8, 0, -1):
        row, empty = '', 0
        for f in 'abcdefgh':
            p = sq.get(f + str(r))
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else '') + p
                empty = 0
        rows.append(row + (str(empty) if empty else ''))
    return '/'.join(rows) + ' ' + rest


def is_own(p, side):
    return p is not None and (p.isupper() == (side == 'w'))


def leap_ok(fen, side, target):
    home, leaps = LEAPS[side]
    middle = leaps[target]
    if sf.gives_check(V, fen, []):           # (d) in check
        return False
    sq = board_of(fen)
    mid = sq.get(middle)
    if mid is not None and not is_own(mid, side):   # (b) hostile piece leapt over
        return False
    test = dict(sq)
    king = test.pop(home)
    test.pop(middle, None)
    test[middle] = king
    rest = ' '.join(fen.split()[1:])
    if sf.gives_check(V, fen_of(test, rest), []):    # (c) leapt-over square attacked
        return False
    return True


def perft(root, path, side, kings, rights, depth):
    moves = sf.legal_moves(V, root, path)
    keep = []
    fen = None
    for m in moves:
        frm, to = m[:2], m[2:4]
        if frm == kings[side] and max(abs(ord(frm[0]) - ord(to[0])), abs(int(frm[1]) - int(to[1]))) == 2:
            # a king leap; Fairy-Stockfish also offers it from any square of its doubleStepRegion
            if frm != LEAPS[side][0] or to not in LEAPS[side][1] or not rights[side]:
                continue                            # (a) not from e1/e8, right lost or never had
            if fen is None:
                fen = sf.get_fen(V, root, path)
            if not leap_ok(fen, side, to):
                continue
        keep.append(m)
    if depth == 1:
        return len(keep)
    other = 'b' if side == 'w' else 'w'
    total = 0
    for m in keep:
        if m[:2] == kings[side]:
            k2 = dict(kings); k2[side] = m[2:4]
            r2 = dict(rights); r2[side] = False
        else:
            k2, r2 = kings, rights
        total += perft(root, path + [m], other, k2, r2, depth - 1)
    return total


def start(fen):
    parts = fen.split()
    sq = board_of(fen)
    kings = {'w': next(s for s, p in sq.items() if p == 'K'),
             'b': next(s for s, p in sq.items() if p == 'k')}
    rights = {'w': any(c.isupper() for c in parts[2]), 'b': any(c.islower() for c in parts[2])}
    return parts[1], kings, rights


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
    side, kings, rights = start(fen)
    for d in range(1, depth + 1):
        t = time.time()
        print(d, perft(fen, [], side, kings, rights, d), round(time.time() - t, 2), flush=True)


if __name__ == '__main__':
    main()
