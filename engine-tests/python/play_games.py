#!/usr/bin/env python3
"""Full games of standard chess with sako driven by python-chess.

Usage: play_games.py SAKO_BINARY uci|xboard

Plays, over the chosen protocol:
  1. sako vs sako (two engine processes) on a real clock (1 s + 0.05 s per side),
     the clocks kept by this script: no side may lose on time;
  2. sako vs sako with pondering on (UCI: go ponder / ponderhit / stop; XBoard: hard),
     30 ms per move;
  3. sako vs a random mover (seeded), sako White, 20 ms per move;
  4. a random mover vs sako, sako Black, fixed depth.
Every engine move is checked to be legal on python-chess's board, and every game must
reach a result by the rules (mate, stalemate, insufficient material, 50-move rule or
threefold repetition as python-chess claims them) within MAX_PLIES. Prints one line per
game and exits with status 1 on the first problem.
"""

import random
import sys
import time

import chess
import chess.engine

# A safety cap, not a rule: the 50-move rule (claimed by python-chess) already ends every
# game, but a won-looking ending (rook against bishop, say) can run many hundred plies while
# the stronger side keeps making captures and pawn moves. 600 plies was hit once in CI by a
# legal, finished-by-the-rules-later game; 2000 plies at 30 ms a move stay under 90 s.
MAX_PLIES = 2000


def fail(msg, board=None):
    print("FAIL:", msg, file=sys.stderr)
    if board is not None:
        print("position:", board.fen(), file=sys.stderr)
        print("moves:", " ".join(m.uci() for m in board.move_stack), file=sys.stderr)
    sys.exit(1)


def open_engine(binary, protocol):
    if protocol == "uci":
        return chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=20)
    return chess.engine.SimpleEngine.popen_xboard([binary, "xboard"], timeout=20)


def finish(board, label, started):
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        fail(f"{label}: no result after {MAX_PLIES} plies", board)
    print(
        f"{label}: {board.result(claim_draw=True)} ({outcome.termination.name}) "
        f"after {len(board.move_stack)} plies, {time.time() - started:.1f} s"
    )


def engine_move(engine, board, limit, label, **kw):
    try:
        result = engine.play(board, limit, **kw)
    except chess.engine.EngineError as e:
        fail(f"{label}: engine error {e}", board)
    move = result.move
    if move is None:
        fail(f"{label}: no move (resigned={result.resigned})", board)
    if move not in board.legal_moves:
        fail(f"{label}: illegal move {move.uci()}", board)
    return move


def self_play_on_clock(binary, protocol):
    label = f"{protocol} sako-sako clock"
    white = open_engine(binary, protocol)
    black = open_engine(binary, protocol)
    board = chess.Board()
    clock = {chess.WHITE: 1.0, chess.BLACK: 1.0}
    inc = 0.05
    started = time.time()
    try:
        while board.outcome(claim_draw=True) is None and len(board.move_stack) < MAX_PLIES:
            engine = white if board.turn == chess.WHITE else black
            limit = chess.engine.Limit(
                white_clock=clock[chess.WHITE],
                black_clock=clock[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
            t0 = time.time()
            move = engine_move(engine, board, limit, label)
            spent = time.time() - t0
            left = clock[board.turn]
            clock[board.turn] -= spent
            if clock[board.turn] < 0:
                fail(f"{label}: {'White' if board.turn else 'Black'} lost on time: "
                     f"{spent:.3f} s spent on {move.uci()} with {left:.3f} s left", board)
            clock[board.turn] += inc
            board.push(move)
        finish(board, label, started)
    finally:
        white.quit()
        black.quit()


def self_play_pondering(binary, protocol):
    label = f"{protocol} sako-sako ponder"
    engines = {chess.WHITE: open_engine(binary, protocol), chess.BLACK: open_engine(binary, protocol)}
    board = chess.Board()
    limit = chess.engine.Limit(time=0.03)
    started = time.time()
    try:
        while board.outcome(claim_draw=True) is None and len(board.move_stack) < MAX_PLIES:
            move = engine_move(engines[board.turn], board, limit, label, ponder=True)
            board.push(move)
        finish(board, label, started)
    finally:
        for e in engines.values():
            e.quit()


def against_random(binary, protocol, sako_white, limit, seed):
    side = "White" if sako_white else "Black"
    label = f"{protocol} sako({side})-random"
    rng = random.Random(seed)
    engine = open_engine(binary, protocol)
    board = chess.Board()
    started = time.time()
    try:
        while board.outcome(claim_draw=True) is None and len(board.move_stack) < MAX_PLIES:
            if (board.turn == chess.WHITE) == sako_white:
                move = engine_move(engine, board, limit, label)
            else:
                move = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
            board.push(move)
        finish(board, label, started)
        outcome = board.outcome(claim_draw=True)
        if outcome.winner is not None and outcome.winner != sako_white:
            fail(f"{label}: sako lost to a random mover", board)
    finally:
        engine.quit()


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("uci", "xboard"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    binary, protocol = sys.argv[1], sys.argv[2]
    self_play_on_clock(binary, protocol)
    self_play_pondering(binary, protocol)
    against_random(binary, protocol, True, chess.engine.Limit(time=0.02), seed=1)
    against_random(binary, protocol, False, chess.engine.Limit(depth=3), seed=2)
    print(f"{protocol}: all games legal and finished")


if __name__ == "__main__":
    main()
