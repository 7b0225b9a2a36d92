#!/usr/bin/env python3
"""Guarded perft oracle for Shatar with the Hia (docs/rules/shatar-hia.md), written for sako on top of
pyffish and the `shatarhia` section of engine-tests/peers/variants.ini.

That section differs from our rules in (a) optional gating, (b) the Hia's field of influence,
(c) "the Hia never attacks a king" (Fairy-Stockfish's Hia, a plain R2B2 piece, checks, pins and
guards squares next to a king).  This script
  * makes gating compulsory: while a side has its Hia in hand, a king move WITHOUT the gating
    suffix is removed from Fairy-Stockfish's list (only the gated twin is kept);
  * does NOT model (b) and (c).  Instead, before generating the moves of a position, it STOPS
    WITH AN ERROR if (b) or (c) could change that position's legal-move list.  Our rules only
    take moves or attacks away from Fairy-Stockfish's (the field stops sliders, the Hia attacks
    no king, the placed Hia blocks a line), so the cases are:
      - a king within 3 squares (king distance) of an enemy Hia;
      - a rook, Berse, bishop or Hia of the side to move standing in the enemy Hia's field, or
        with a ray that reaches an EMPTY square of that field and could continue beyond it;
      - an enemy rook, Berse or bishop standing in our Hia's field, or lined up with our king
        across a square of our Hia's field with at most one piece in between (one move can open
        such a line), or lined up that way with an empty line to a square the king could step to;
      - a king with its Hia in hand and an enemy slider behind it on a line from one of its
        destination squares (the Hia placed on the vacated square blocks that line for us), or an
        enemy slider standing in, or lined up with a destination across, the field the new Hia
        will have, with no other piece in between.
So every number it prints is exact for our rules; where it cannot be sure it prints nothing.
Also, Fairy-Stockfish's bare-king adjudication (Robado, an extinction rule) would make its move
generator return no moves for a bare side; our perft counts them, so a derived section with the
extinction rule switched off is used.

FEN conversion (ours -> Fairy-Stockfish): Berse Q/q -> J/j, Hia H/h -> U/u, holdings [Hh] ->
[Uu], and the S-chess gating flag E/e is set for a side holding its Hia with its king on e1/e8
(a side holding its Hia with the king elsewhere cannot be expressed: error).

usage: shatarhia_pyffish.py 'FEN' DEPTH [variants.ini]
"""
import os, sys, time
try:
    import pyffish as sf
except ImportError:  # reported in main(), after --help
    sf = None

V = 'shatarhiaperft'
SECTION = '\n[shatarhiaperft:shatarhia]\nextinctionValue = none\n'
FILES = 'abcdefgh'


class NotExpressible(Exception):
    pass


def board_of(fen):
    sq = {}
    for r, row in enumerate(fen.split()[0].split('[')[0].split('/')):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                sq[(f, 7 - r)] = ch
                f += 1
    return sq


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def white(p):
    return p.isupper()


def sqname(s):
    return FILES[s[0]] + str(s[1] + 1)


def field(s):
    return {(s[0] + df, s[1] + dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)}


def dirs_of(kind):
    return {'R': ORTH, 'J': ORTH, 'B': DIAG, 'U': ORTH + DIAG}.get(kind, ())


def guard(sq, side, gating):
    """Raise NotExpressible wherever the Hia's field, its harmlessness to kings or the blocking
    placed Hia could change the legal-move list of the side to move (see the docstring)."""
    us_white = side == 'w'
    hias = [(s, p) for s, p in sq.items() if p in 'Uu']
    king = next(s for s, p in sq.items() if p == ('K' if us_white else 'k'))
    # 1. a king near an enemy Hia (Hia checks, pins, guarded squares next to a king)
    for hs, hp in hias:
        for s, p in sq.items():
            if p in 'Kk' and white(p) != white(hp) and max(abs(s[0] - hs[0]), abs(s[1] - hs[1])) <= 3:
                raise NotExpressible('king near an enemy Hia')
    # 2. our sliders against the enemy Hia's field (pseudo-legal moves)
    for hs, hp in hias:
        if white(hp) == us_white:
            continue
        zone = field(hs)
        for s, p in sq.items():
            if white(p) != us_white or p.upper() not in 'RJBU':
                continue
            if s in zone:
                raise NotExpressible('slider standing in an enemy Hia field')
            rng = 2 if p.upper() == 'U' else 8
            for df, dr in dirs_of(p.upper()):
                f, r = s
                for step in range(1, rng + 1):
                    f, r = f + df, r + dr
                    if not on(f, r) or (f, r) in sq:
                        break
                    if (f, r) in zone and step < rng and on(f + df, r + dr):
                        raise NotExpressible('slider ray through an enemy Hia field')
    # 3. enemy sliders whose attack on our king (now or after one move: at most one blocker can
    #    leave a line) would cross our own Hia's field
    zone = set()
    for hs, hp in hias:
        if white(hp) == us_white:
            zone |= field(hs)
    if zone:
        targets = [king] + [t for t in field(king) if on(*t)]
        for s, p in sq.items():
            if white(p) == us_white or p.upper() not in 'RJB':
                continue
            if s in zone:
                raise NotExpressible('enemy slider standing in our Hia field')
            for t in targets:
                df, dr = t[0] - s[0], t[1] - s[1]
                n = max(abs(df), abs(dr))
                if n < 2:
                    continue
                if not ((df == 0 or dr == 0) and p.upper() in 'RJ' or abs(df) == abs(dr) and p.upper() == 'B'):
                    continue
                between = [(s[0] + df // n * i, s[1] + dr // n * i) for i in range(1, n)]
                blockers = sum(1 for b in between if b in sq and b != king)
                if t != king and (t in sq and white(sq[t]) == us_white):
                    continue            # the king cannot step onto its own piece
                if any(b in zone for b in between) and blockers <= (1 if t == king else 0):
                    raise NotExpressible('enemy line to our king crosses our Hia field')
    # 4. gating: the placed Hia blocks lines through the vacated square, and its field (the squares
    #    around the vacated square) already stops enemy sliders aiming at the king's destination
    if gating:
        newzone = field(king)
        for t in field(king):
            if not on(*t):
                continue
            for s, p in sq.items():
                if white(p) == us_white or p.upper() not in 'RJB':
                    continue
                df, dr = t[0] - s[0], t[1] - s[1]
                n = max(abs(df), abs(dr))
                if n < 2 or not ((df == 0 or dr == 0) and p.upper() in 'RJ' or abs(df) == abs(dr) and p.upper() == 'B'):
                    continue
                between = [(s[0] + df // n * i, s[1] + dr // n * i) for i in range(1, n)]
                if t in sq and white(sq[t]) == us_white:
                    continue            # the king cannot go there
                if any(b in sq and b != king for b in between):
                    continue            # blocked by another piece either way
                if s in newzone or any(b in newzone for b in between):
                    raise NotExpressible('enemy slider line to a gating king move crosses the new Hia field')
            df, dr = king[0] - t[0], king[1] - t[1]
            f, r = king
            while True:
                f, r = f + df, r + dr
                if not on(f, r):
                    break
                p = sq.get((f, r))
                if p is None:
                    continue
                if white(p) != us_white and (p.upper() in 'RJ' and (df == 0 or dr == 0) or
                                             p.upper() == 'B' and df != 0 and dr != 0):
                    raise NotExpressible('slider behind the square a gating king leaves')
                break


def hia_in_hand(fen, side):
    b = fen.split()[0]
    hand = b[b.index('[') + 1:b.index(']')] if '[' in b else ''
    return ('U' if side == 'w' else 'u') in hand


def perft(fen, depth):
    sq = board_of(fen)
    side = fen.split()[1]
    gating = hia_in_hand(fen, side)
    guard(sq, side, gating)
    moves = sf.legal_moves(V, fen, [])
    if gating:
        kname = sqname(next(s for s, p in sq.items() if p == ('K' if side == 'w' else 'k')))
        plain = [m for m in moves if m.startswith(kname) and len(m) == 4]
        gated = [m for m in moves if m.startswith(kname) and len(m) == 5]
        if sorted(plain) != sorted(m[:4] for m in gated):
            raise NotExpressible('gated and plain king moves differ')
        moves = [m for m in moves if m not in plain]
    if depth == 1:
        return len(moves)
    return sum(perft(sf.get_fen(V, fen, [m]), depth - 1) for m in moves)


def convert(fen):
    p = fen.split()
    board = p[0].translate(str.maketrans('QqHh', 'JjUu'))
    hand = board[board.index('[') + 1:board.index(']')] if '[' in board else ''
    sq = board_of(p[0])
    flags = ''
    for side, hia, king, home in (('w', 'U', 'K', (4, 0)), ('b', 'u', 'k', (4, 7))):
        if hia in hand:
            if sq.get(home) != king:
                raise NotExpressible('Hia in hand but king not on its start square')
            flags += 'E' if side == 'w' else 'e'
    if '[' not in board:
        board += '[]'
    return ' '.join([board, p[1], flags or '-'] + p[3:])


def load(ini=None):
    if ini is None:
        here = os.path.dirname(os.path.abspath(__file__))
        peers = os.environ.get('PEERS', os.path.join(here, '..', '..', 'peers'))
        ini = os.path.join(peers, 'variants.ini')
    if not os.path.isfile(ini):
        sys.exit(f'{ini} not found: pass the variants.ini path or set PEERS to its folder')
    sf.load_variant_config(open(ini).read() + SECTION)


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (['-h'], ['--help']) else 2)
    if sf is None:
        sys.exit('pyffish is not installed (pip install pyffish): this oracle cannot run')
    fen, depth = sys.argv[1], int(sys.argv[2])
    load(sys.argv[3] if len(sys.argv) > 3 else None)
    ffen = convert(fen)
    for d in range(1, depth + 1):
        t = time.time()
        try:
            n = perft(ffen, d)
        except NotExpressible as e:
            print(d, 'STOP', e, flush=True)
            return 1
        print(d, n, round(time.time() - t, 2), flush=True)


if __name__ == '__main__':
    sys.exit(main())
