#!/usr/bin/env python3
"""Perft oracle for Shatar without the Hia (docs/rules/shatar-hia.md), written for sako: Debian's
fairy-stockfish 11.1 built-in `shatar`, run through UCI `go perft`, with ONE change: its bare-king
adjudication (Robado, an "extinction" rule in Fairy-Stockfish) is switched off in a derived
variant section, because Fairy-Stockfish's move generator returns NO moves once a side has only
its king, while our perft counts every legal move regardless of adjudication (docs/rules/README.md).
Everything else is Fairy-Stockfish's shatar: Berse RF (letter J there, Q in our FENs: translated
here), promotion to Berse only, no double step, no castling, knight-only mate kept in the list.

usage: shatar_fsf11.py 'FEN' DEPTH        (FEN in our letters; a '[]' holdings bracket is ignored)
environment: FSF = fairy-stockfish binary (default: PATH, then /usr/games/fairy-stockfish)
"""
import os, re, shutil, subprocess, sys, tempfile, time

SECTION = '[shatarperft:shatar]\nextinctionValue = none\n'


def fsf_binary():
    return os.environ.get('FSF') or shutil.which('fairy-stockfish') or '/usr/games/fairy-stockfish'


def convert(fen):
    p = fen.split()
    board = p[0].split('[')[0]
    hand = p[0][len(board):]
    if hand not in ('', '[]') or 'H' in board or 'h' in board:
        raise SystemExit('position has a Hia: not plain shatar')
    return ' '.join([board.translate(str.maketrans('Qq', 'Jj'))] + p[1:])


def perft(ini, fen, depth):
    p = subprocess.Popen([fsf_binary()], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    p.stdin.write('uci\nsetoption name VariantPath value %s\nsetoption name UCI_Variant value shatarperft\n'
                  'position fen %s\ngo perft %d\n' % (ini, fen, depth))
    p.stdin.flush()
    for line in p.stdout:
        m = re.match(r'Nodes searched: (\d+)', line)
        if m:
            p.stdin.write('quit\n'); p.stdin.flush(); p.wait()
            return int(m.group(1))
    raise SystemExit('no perft output')


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (['-h'], ['--help']) else 2)
    fsf = fsf_binary()
    if not (os.path.isfile(fsf) or shutil.which(fsf)):
        sys.exit(f'fairy-stockfish not found ({fsf}; apt-get install fairy-stockfish, or set FSF): '
                 'this oracle cannot run')
    fen, depth = convert(sys.argv[1]), int(sys.argv[2])
    with tempfile.NamedTemporaryFile('w', suffix='.ini', delete=False) as f:
        f.write(SECTION)
        ini = f.name
    try:
        for d in range(1, depth + 1):
            t = time.time()
            print(d, perft(ini, fen, d), round(time.time() - t, 2), flush=True)
    finally:
        os.unlink(ini)


if __name__ == '__main__':
    main()
