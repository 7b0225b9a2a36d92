#!/usr/bin/env python3
"""Independent check of engine-tests/tactics/*.epd with Fairy-Stockfish (not part of the
test suite: it needs pyffish and the Debian fairy-stockfish, see engine-tests/peers/README.md).

* `dm N` positions: a brute-force search over pyffish's move generator and game-end
  rules (its own implementation of each game, from engine-tests/peers/variants.ini) lists every
  move that forces a win in N moves; that list must equal the position's bm list.
* other positions of chess, Paulowich's chess and Shatar: the Debian fairy-stockfish
  binary searches them (`go depth 14`) and must play one of the bm moves.
Positions that Fairy-Stockfish cannot express (Chesquerque, the Hia's field, the
crosswise castling, King's Leap details, Historia's exact drop rule, Great Shatranj's
bare-king rule details) are reported as SKIP with the reason.

usage: verify_fsf.py [VARIANT ...]
"""
import os, shutil, subprocess, sys
try:
    import pyffish as sf
except ImportError:
    sys.exit('pyffish is not installed (pip install pyffish): verify_fsf.py cannot run')

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.environ.get('PEERS', os.path.join(HERE, '..', 'peers'))
if not os.path.isfile(os.path.join(PEERS, 'variants.ini')):
    sys.exit(f'{PEERS}/variants.ini not found: set PEERS to the folder holding variants.ini')
sf.load_variant_config(open(os.path.join(PEERS, 'variants.ini')).read())

# our variant -> (pyffish variant, letter translation, reason to skip dm checks or None)
MAP = {
    'normal': ('chess', {}, None),
    'chancellor': ('paulowich', {}, None),
    'chancellorx': ('paulowichx', {}, None),
    'kingsleap': ('kingsleap', {}, None),
    'great': ('great', {}, None),
    'historia': ('historia', {}, None),
    'shatar': ('shatar', {'Q': 'J', 'q': 'j'}, None),
    'shatarhia': ('shatarhia', {'Q': 'J', 'q': 'j', 'H': 'U', 'h': 'U'.lower()}, None),
    'chesquerque': (None, {}, 'Fairy-Stockfish cannot express Chesquerque'),
}
# single positions whose point Fairy-Stockfish cannot express
SKIP = {
    'chancellorx.11': 'crosswise castling d8f8 (FSF uses chess960 castling squares)',
    'chancellorx.12': 'crosswise castling d8b8',
    'shatarhia.11': "the Hia's field of influence",
    'kingsleap.04': "FSF's king leap is approximate (imD)",
    'chancellorx.04': 'FSF plays this setup in chess960 mode and writes castling e1h1',
    'great.05': 'FSF models the promotion pool by piece counts (promotionLimit): it allows more '
                'promotion choices; our winners (pool G and S) are among its winners',
    'great.09': "FSF's shatranj claim rule makes a bare side to move lose at once when the "
                "other has two pieces (docs/rules/great-shatranj.md G-4 and section 7): it finds "
                "an extra win in two (g8h7) that takes three moves under our rules",
}


def tr(text, table):
    return ''.join(table.get(c, c) for c in text)


def fen_of(variant, epd_fen, table):
    board, side, castle, ep = epd_fen.split()[:4]
    fen = f'{tr(board, table)} {side} {castle} {ep} 0 1'
    return fen


def ended(v, fen, moves):
    """None while the game goes on, else the result for the side to move (+1/0/-1)."""
    legal = sf.legal_moves(v, fen, moves)
    end, res = sf.is_immediate_game_end(v, fen, moves)
    if end:
        return (res > 0) - (res < 0)
    if not legal:
        res = sf.game_result(v, fen, moves)
        return (res > 0) - (res < 0)
    return None


def wins_in(v, fen, moves, n):
    return any(move_wins(v, fen, moves, m, n) for m in sf.legal_moves(v, fen, moves))


def move_wins(v, fen, moves, m, n):
    after = moves + [m]
    e = ended(v, fen, after)
    if e is not None:
        return e < 0  # the opponent (to move) lost
    if n <= 1:
        return False
    for r in sf.legal_moves(v, fen, after):
        e2 = ended(v, fen, after + [r])
        if e2 is not None:
            if e2 <= 0:
                return False
            continue
        if not wins_in(v, fen, after + [r], n - 1):
            return False
    return True


def fsf_exe():
    exe = shutil.which('fairy-stockfish') or '/usr/games/fairy-stockfish'
    return exe if os.path.isfile(exe) else None


def fsf_bestmove(v, fen, depth=14):
    exe = fsf_exe()
    ini = os.path.join(PEERS, 'variants-fsf11.ini')
    cmds = f'uci\nsetoption name VariantPath value {ini}\nsetoption name UCI_Variant value {v}\n' \
           f'position fen {fen}\ngo depth {depth}\n'
    p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(cmds)
    p.stdin.flush()
    best = None
    for line in p.stdout:
        if line.startswith('bestmove'):
            best = line.split()[1]
            break
    p.stdin.write('quit\n')
    p.stdin.flush()
    p.wait()
    return best


def ops_of(rest):
    out, cur, q = [], '', False
    for c in rest:
        if c == '"':
            q = not q
        if c == ';' and not q:
            out.append(cur.strip()); cur = ''
        else:
            cur += c
    out.append(cur.strip())
    d = {}
    for o in out:
        if o:
            k, _, a = o.partition(' ')
            d[k] = a.strip().strip('"')
    return d


def main(variants):
    ok = bad = skip = 0
    for var in variants:
        v, table, why = MAP[var]
        for line in open(os.path.join(HERE, f'{var}.epd')):
            line = line.strip()
            if not line or line.startswith('#'):
                continue
            w = line.split()
            epd_fen, ops = ' '.join(w[:4]), ops_of(' '.join(w[4:]))
            pid = ops.get('id', '?')
            if why or pid in SKIP:
                print(f'SKIP {pid}: {why or SKIP[pid]}')
                skip += 1
                continue
            fen = fen_of(var, epd_fen, table)
            bm = sorted(tr(m, {'q': 'j'} if var.startswith('shatar') and len(m) == 5 else {}) for m in ops['bm'].split())
            if 'dm' in ops:
                n = int(ops['dm'])
                winners = sorted(m for m in sf.legal_moves(v, fen, []) if move_wins(v, fen, [], m, n))
                if var.startswith('shatar'):
                    winners = sorted(m[:4] + 'q' if len(m) == 5 and m[4] == 'j' else m for m in winners)
                    bm = sorted(ops['bm'].split())
                good = winners == bm
                print(f"{'OK  ' if good else 'BAD '} {pid}: dm {n}: fsf winners {winners}, bm {bm}")
            elif var in ('normal', 'chancellor', 'shatar') and fsf_exe() is None:
                print(f'SKIP {pid}: fairy-stockfish is not installed (apt-get install fairy-stockfish)')
                skip += 1
                continue
            elif var in ('normal', 'chancellor', 'shatar'):
                fv = {'normal': 'chess', 'chancellor': 'paulowich', 'shatar': 'shatar'}[var]
                best = fsf_bestmove(fv, fen)
                if var == 'shatar' and best and len(best) == 5 and best[4] == 'j':
                    best = best[:4] + 'q'
                good = best in ops['bm'].split()
                print(f"{'OK  ' if good else 'BAD '} {pid}: fairy-stockfish plays {best}, bm {ops['bm']}")
            else:
                print(f'SKIP {pid}: no dm and no searching Fairy-Stockfish for {var}')
                skip += 1
                continue
            ok += good
            bad += not good
    print(f'{ok} agree, {bad} disagree, {skip} skipped')
    return bad == 0


if __name__ == '__main__':
    sys.exit(0 if main(sys.argv[1:] or list(MAP)) else 1)
