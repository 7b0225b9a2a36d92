#!/usr/bin/env python3
"""A `sako match` PGN of standard chess read back by python-chess.

Usage: read_match_pgn.py SAKO_BINARY PGN

Every game must read without errors (python-chess keeps a game's unreadable or illegal
moves in `game.errors`), have as many mainline moves as its PlyCount tag, and give back
the same SAN text when python-chess writes its moves again. Prints one line per game and
`pgn: all games read` at the end; exits with status 1 on the first problem.
"""

import re
import sys

import chess
import chess.pgn


def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def written_moves(text):
    """The move words of one game's movetext as sako wrote them."""
    body = re.sub(r"\{[^}]*\}", " ", text.split("\n\n", 1)[-1])
    words = [w for w in body.split() if not re.fullmatch(r"\d+\.+|1-0|0-1|1/2-1/2|\*", w)]
    return words


def main():
    path = sys.argv[2]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    chunks = [c for c in re.split(r"\n(?=\[Event )", text) if c.strip()]
    with open(path, encoding="utf-8") as f:
        games = 0
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                break
            if game.errors:
                fail(f"game {games + 1}: {game.errors}")
            board = game.board()
            sans = []
            for move in game.mainline_moves():
                sans.append(board.san(move))
                board.push(move)
            plies = int(game.headers.get("PlyCount", "-1"))
            if len(sans) != plies:
                fail(f"game {games + 1}: {len(sans)} moves, PlyCount {plies}")
            if sans != written_moves(chunks[games]):
                fail(f"game {games + 1}: python-chess writes {sans}")
            print(f"game {games + 1}: {plies} plies, {game.headers.get('Result')}")
            games += 1
    if games == 0 or games != len(chunks):
        fail(f"{games} games read of {len(chunks)}")
    print("pgn: all games read")


if __name__ == "__main__":
    main()
