//! Standard chess against shakmaty, an independent move generator: legal move lists,
//! check, and game end compared on more than 10,000 positions reached by random play
//! from the start and from the classic perft positions.

use crate::common;

use common::Rng;
use sako::Game;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

const STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
];

fn shakmaty_moves(pos: &Chess) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort();
    v
}

/// Board, side and castling fields (the en-passant field conventions differ).
fn fen_prefix(fen: &str) -> String {
    fen.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

#[test]
fn legal_moves_match_shakmaty_on_random_games() {
    let mut rng = Rng::new(2026);
    let mut positions = 0usize;
    let mut game_no = 0;
    while positions < 12_000 {
        let start = STARTS[game_no % STARTS.len()];
        game_no += 1;
        let mut ours = Game::new("normal", Some(start)).expect("our FEN");
        let mut theirs: Chess = Fen::from_ascii(start.as_bytes())
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position");
        for _ply in 0..200 {
            let a = ours.legal_moves();
            let b = shakmaty_moves(&theirs);
            assert_eq!(a, b, "move lists differ at {}", ours.fen());
            assert_eq!(
                ours.in_check(),
                theirs.is_check(),
                "check differs at {}",
                ours.fen()
            );
            assert_eq!(
                fen_prefix(&ours.fen()),
                fen_prefix(&Fen::from_position(&theirs, EnPassantMode::Legal).to_string()),
            );
            assert!(ours.key_is_consistent(), "key drift at {}", ours.fen());
            positions += 1;
            if a.is_empty() {
                let line = ours.result_line();
                if theirs.is_checkmate() {
                    assert!(line.ends_with("mates}"), "{line} at {}", ours.fen());
                } else {
                    assert_eq!(line, "1/2-1/2 {Stalemate}");
                }
                break;
            }
            if theirs.is_insufficient_material() {
                // shakmaty's rule is "no sequence can mate"; ours is FIDE's short list,
                // a subset of it.
                let line = ours.result_line();
                if line != "*" {
                    assert_eq!(line, "1/2-1/2 {Insufficient material}");
                }
                break;
            }
            let pick = &a[rng.below(a.len())];
            ours.play(pick).expect("our own legal move");
            let m = theirs
                .legal_moves()
                .into_iter()
                .find(|m| m.to_uci(CastlingMode::Standard).to_string() == *pick)
                .expect("same move in shakmaty");
            theirs.play_unchecked(m);
        }
    }
    assert!(positions >= 10_000);
}
