#!/usr/bin/env python3
"""Analysis through python-chess.

Usage: analyse.py SAKO_BINARY

UCI: analyse() with multipv=2 on the start position and a middle-game position (two
lines, different legal first moves, best first), a mate in one (score Mate(+1), PV
a1a8), analysis() streamed and stopped, engine options configured. XBoard: analyse() in
analysis mode, with a legal PV. Exits with status 1 on the first problem.
"""

import sys

import chess
import chess.engine


def fail(msg):
    print("FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def check_pv(board, info, what):
    pv = info.get("pv")
    if not pv:
        fail(f"{what}: no pv in {info}")
    b = board.copy()
    for m in pv:
        if m not in b.legal_moves:
            fail(f"{what}: illegal move {m.uci()} in pv {[x.uci() for x in pv]}")
        b.push(m)


def uci_multipv(binary):
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"], timeout=20)
    try:
        if "UCI_Variant" not in engine.options or "MultiPV" not in engine.options:
            fail(f"uci options missing: {sorted(engine.options)}")
        engine.configure({"Hash": 16, "Threads": 1})
        for fen in [
            chess.STARTING_FEN,
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        ]:
            board = chess.Board(fen)
            infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=2)
            if len(infos) != 2:
                fail(f"multipv=2 gave {len(infos)} lines for {fen}")
            for i, info in enumerate(infos):
                check_pv(board, info, f"multipv line {i + 1} of {fen}")
                if "score" not in info:
                    fail(f"multipv line {i + 1} has no score: {info}")
            first = [info["pv"][0] for info in infos]
            if first[0] == first[1]:
                fail(f"both multipv lines start with {first[0].uci()} in {fen}")
            s0 = infos[0]["score"].relative.score(mate_score=100000)
            s1 = infos[1]["score"].relative.score(mate_score=100000)
            if s0 < s1:
                fail(f"multipv lines out of order ({s0} < {s1}) in {fen}")
            print(f"multipv 2 {fen}: {first[0].uci()} {s0}, {first[1].uci()} {s1}")
        # Qxf7# is mate in one in the second position.
        board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        if info["pv"][0] != chess.Move.from_uci("h5f7") or info["score"].relative != chess.engine.Mate(1):
            fail(f"mate in one not found: {info}")
        print("mate in one:", info["pv"][0].uci(), info["score"])
        # Streamed analysis, stopped from here.
        with engine.analysis(chess.Board(), multipv=2) as analysis:
            seen = 0
            for info in analysis:
                if "pv" in info:
                    seen += 1
                if seen >= 6:
                    break
        if seen < 6:
            fail("streamed analysis gave too few lines")
        # The engine still answers after the stop.
        result = engine.play(chess.Board(), chess.engine.Limit(depth=3))
        if result.move not in chess.Board().legal_moves:
            fail(f"illegal move after analysis: {result.move}")
        print("uci analysis: ok")
    finally:
        engine.quit()


def xboard_analysis(binary):
    engine = chess.engine.SimpleEngine.popen_xboard([binary, "xboard"], timeout=20)
    try:
        board = chess.Board()
        board.push_uci("e2e4")
        info = engine.analyse(board, chess.engine.Limit(time=0.5))
        check_pv(board, info, "xboard analysis")
        if "score" not in info or "depth" not in info:
            fail(f"xboard analysis without score/depth: {info}")
        print("xboard analysis:", info["depth"], info["score"], info["pv"][0].uci())
        result = engine.play(board, chess.engine.Limit(time=0.1))
        if result.move not in board.legal_moves:
            fail(f"illegal move after analysis: {result.move}")
    finally:
        engine.quit()


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    uci_multipv(sys.argv[1])
    xboard_analysis(sys.argv[1])
    print("analysis: ok")


if __name__ == "__main__":
    main()
