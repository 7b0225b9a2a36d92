#!/usr/bin/env python3
"""Independent perft oracle for King's Leap Chess (docs/rules/chancellor.md section 5), written for
sako on top of python-chess.  python-chess has no Chancellor, so:
  * the position must not contain a Chancellor (the FEN parser rejects 'C'/'c');
  * a promotion may only occur at the LAST ply of the count: there every queen promotion is
    counted twice (the extra one is the promotion to a Chancellor: it has the same legality,
    because legality only depends on the promotion square being occupied). A promotion at an
    earlier ply makes the script stop with an error instead of printing a wrong number.
Castling does not exist; the leap right is read from the castling field (any uppercase letter
= White has it, any lowercase = Black has it) and is lost when that king moves (step or leap).
The leap (e1->c1/g1/e3, e8->c8/g8/e6) is generated here, with every condition of section 5:
right kept, king on e1/e8, not in check, target empty, leapt-over square not holding an enemy
piece and not attacked, king not attacked after the leap.

usage: kingsleap_pychess.py 'FEN' DEPTH      (prints one line per depth 1..DEPTH)
"""
import sys, time
try:
    import chess
except ImportError:
    if sys.argv[1:2] in (['-h'], ['--help']):
        print(__doc__.strip())
        sys.exit(0)
    sys.exit('python-chess is not installed (pip install chess): this oracle cannot run')

LEAPS = {chess.WHITE: (chess.E1, ((chess.C1, chess.D1), (chess.G1, chess.F1), (chess.E3, chess.E2))),
         chess.BLACK: (chess.E8, ((chess.C8, chess.D8), (chess.G8, chess.F8), (chess.E6, chess.E7)))}


class Unsupported(Exception):
    pass


def leap_children(board, rights):
    us = board.turn
    if not rights[us]:
        return []
    home, leaps = LEAPS[us]
    if board.king(us) != home or board.is_check():
        return []
    out = []
    for target, middle in leaps:
        if board.piece_at(target) is not None:
            continue
        mid = board.piece_at(middle)
        if mid is not None and mid.color != us:
            continue
        if board.is_attacked_by(not us, middle):
            continue
        child = board.copy(stack=False)
        child.remove_piece_at(home)
        child.set_piece_at(target, chess.Piece(chess.KING, us))
        child.turn = not us
        child.ep_square = None
        child.halfmove_clock += 1
        if us == chess.BLACK:
            child.fullmove_number += 1
        if child.is_attacked_by(not us, target):
            continue
        out.append(child)
    return out


def perft(board, rights, depth):
    moves = list(board.legal_moves)
    leaps = leap_children(board, rights)
    if depth == 1:
        return len(moves) + len(leaps) + sum(1 for m in moves if m.promotion == chess.QUEEN)
    total = 0
    us = board.turn
    lost = dict(rights)
    lost[us] = False
    for m in moves:
        if m.promotion:
            raise Unsupported('promotion before the last ply (no Chancellor in python-chess)')
        king_moves = board.piece_type_at(m.from_square) == chess.KING
        board.push(m)
        total += perft(board, lost if king_moves else rights, depth - 1)
        board.pop()
    for child in leaps:
        total += perft(child, lost, depth - 1)
    return total


def parse(fen):
    parts = fen.split()
    board = chess.Board(fen)
    board.castling_rights = chess.BB_EMPTY
    field = parts[2] if len(parts) > 2 else '-'
    rights = {chess.WHITE: any(c.isupper() for c in field),
              chess.BLACK: any(c.islower() for c in field)}
    return board, rights


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        sys.exit(0 if sys.argv[1:2] in (['-h'], ['--help']) else 2)
    fen, depth = sys.argv[1], int(sys.argv[2])
    board, rights = parse(fen)
    for d in range(1, depth + 1):
        t = time.time()
        print(d, perft(board, rights, d), round(time.time() - t, 2), flush=True)


if __name__ == '__main__':
    main()
