#!/usr/bin/env python3
"""Perft oracle for the crosswise Chancellor Chess setup (docs/rules/chancellor.md section 4, variant B,
decision C-3), written for sako on top of pyffish and the `paulowichx` section of
engine-tests/peers/variants.ini.

Fairy-Stockfish can only castle a d8 king in Chess960 style (king to c8/g8), which is not our
rule. So Black's castling rights are REMOVED from the FEN handed to pyffish and this script adds
Black's castling itself, exactly as the rules table says:
  k (h-side): king d8->f8, Chancellor h8->e8; e8 f8 g8 empty; d8 e8 f8 not attacked
  q (a-side): king d8->b8, Queen a8->c8;      b8 c8 empty;    d8 c8 b8 not attacked
and the king must not be attacked after the move. Black's rights are tracked here: both lost
when the black king moves, `k` when anything moves from or to h8, `q` from or to a8.
White's castling (king on e1, chess squares) is Fairy-Stockfish's own and equals ours.
"Attacked" = the black king placed on that square (removed from d8) is in check, asked with
pyffish gives_check; "not attacked after" likewise on the position after castling.

usage: chancellorx_pyffish.py 'FEN' DEPTH [variants.ini]   (FEN in our form, e.g. ... w KQkq - 0 1)
"""
import os, sys, time
try:
    import pyffish as sf
except ImportError:  # reported in main(), after --help
    sf = None

V = 'paulowichx'
FILES = 'abcdefgh'


def board_of(fen):
    sq = {}
    for r, row in enumerate(fen.split()[0].split('/')):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                sq[FILES[f] + str(8 - r)] = ch
                f += 1
    return sq


def placement(sq):
    rows = []
    for r in range(8, 0, -1):
        row, empty = '', 0
        for f in FILES:
            p = sq.get(f + str(r))
            if p is None:
                empty += 1
            else:
                row += (str(empty) if empty else '') + p
                empty = 0
        rows.append(row + (str(empty) if empty else ''))
    return '/'.join(rows)


def black_in_check(sq, rest_fields):
    """rest_fields = fields 2.. of a FEN; side to move forced to black."""
    f = rest_fields[:]
    f[0] = 'b'
    return sf.gives_check(V, placement(sq) + ' ' + ' '.join(f), [])


CASTLES = {'k': ('f8', 'h8', 'e8', 'c', ('e8', 'f8', 'g8'), ('e8', 'f8')),
           'q': ('b8', 'a8', 'c8', 'q', ('b8', 'c8'), ('c8', 'b8'))}


def black_castles(fen, rights):
    """Children FENs (Fairy-Stockfish form) of Black's castling moves in position fen (Black to move)."""
    sq = board_of(fen)
    fields = fen.split()[1:]
    out = []
    if sq.get('d8') != 'k':
        return out
    for flag in 'kq':
        if not rights[flag]:
            continue
        kto, pfrom, pto, piece, empty, safe = CASTLES[flag]
        if sq.get(pfrom) != piece or any(s in sq for s in empty):
            continue
        if black_in_check(sq, fields):
            continue
        ok = True
        for s in safe:
            t = dict(sq); del t['d8']; t[s] = 'k'
            if black_in_check(t, fields):
                ok = False
                break
        if not ok:
            continue
        t = dict(sq); del t['d8']; del t[pfrom]; t[kto] = 'k'; t[pto] = piece
        if black_in_check(t, fields):
            continue
        white = ''.join(c for c in fields[1] if c.isupper()) or '-'
        child = [ 'w', white, '-', str(int(fields[3]) + 1), str(int(fields[4]) + 1)]
        out.append(placement(t) + ' ' + ' '.join(child))
    return out


def update(rights, m, black_king):
    frm, to = m[:2], m[2:4]
    r = dict(rights)
    if frm == black_king:
        r['k'] = r['q'] = False
    if 'h8' in (frm, to):
        r['k'] = False
    if 'a8' in (frm, to):
        r['q'] = False
    return r


def perft(root, path, side, bk, rights, depth):
    """root FEN + move path (pyffish replays it); side to move; Black king square; Black rights."""
    moves = sf.legal_moves(V, root, path)
    extra = []
    if side == 'b' and (rights['k'] or rights['q']):
        extra = black_castles(sf.get_fen(V, root, path) if path else root, rights)
    if depth == 1:
        return len(moves) + len(extra)
    other = 'w' if side == 'b' else 'b'
    total = 0
    for m in moves:
        bk2 = m[2:4] if side == 'b' and m[:2] == bk else bk
        total += perft(root, path + [m], other, bk2, update(rights, m, bk), depth - 1)
    none = {'k': False, 'q': False}
    for child in extra:
        total += perft(child, [], 'w', board_king(child), none, depth - 1)
    return total


def board_king(fen):
    return next(s for s, p in board_of(fen).items() if p == 'k')


def convert(fen):
    """Our FEN -> (pyffish FEN without Black's castling letters, Black's rights)."""
    p = fen.split()
    rights = {'k': 'k' in p[2], 'q': 'q' in p[2]}
    white = ''.join(c for c in p[2] if c.isupper()) or '-'
    return ' '.join([p[0], p[1], white] + p[3:]), rights


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
    ffen, rights = convert(fen)
    for d in range(1, depth + 1):
        t = time.time()
        print(d, perft(ffen, [], ffen.split()[1], board_king(ffen), rights, d), round(time.time() - t, 2), flush=True)


if __name__ == '__main__':
    main()
