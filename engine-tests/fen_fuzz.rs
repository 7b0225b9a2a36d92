//! Malformed and mutated FENs and moves never panic: every input is either accepted
//! (and then the position works: moves, perft, a FEN that reads back the same) or
//! rejected with an error.

use crate::common;

use common::Rng;
use sako::rules::variant::all_variants;
use sako::Game;

const ALPHABET: &[u8] = b"pnbrqkcehgmwsaPNBRQKCEHGMWSA0123456789/[]- wbKQkq";

fn mutate(rng: &mut Rng, fen: &str) -> String {
    let mut bytes = fen.as_bytes().to_vec();
    let edits = 1 + rng.below(3);
    for _ in 0..edits {
        let pick = ALPHABET[rng.below(ALPHABET.len())];
        match rng.below(3) {
            0 if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes[i] = pick;
            }
            1 => {
                let i = rng.below(bytes.len() + 1);
                bytes.insert(i, pick);
            }
            _ if !bytes.is_empty() => {
                let i = rng.below(bytes.len());
                bytes.remove(i);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn mutated_fens_are_accepted_or_rejected_never_panic() {
    let mut rng = Rng::new(77);
    let mut accepted = 0;
    for v in all_variants() {
        for _ in 0..1500 {
            let fen = mutate(&mut rng, v.start_fen);
            if let Ok(mut game) = Game::new(v.name, Some(&fen)) {
                accepted += 1;
                let moves = game.legal_moves();
                let _ = game.perft(2, 1);
                let _ = game.result_line();
                let written = game.fen();
                let again = Game::new(v.name, Some(&written))
                    .unwrap_or_else(|e| panic!("our own FEN {written} rejected: {e}"));
                assert_eq!(again.fen(), written);
                if let Some(m) = moves.first() {
                    game.play(m).expect("listed move plays");
                    assert!(game.undo());
                    assert_eq!(game.fen(), written);
                }
            }
        }
    }
    assert!(accepted > 100, "too few mutations accepted: {accepted}");
}

/// Every garbage move is rejected with an error and leaves the position as it was.
/// (`e2e4 ` with a trailing space is not garbage: `Game::play` trims it and plays e2e4.)
#[test]
fn garbage_moves_are_errors() {
    for v in all_variants() {
        let mut game = Game::new(v.name, None).expect("start");
        let before = game.fen();
        for bad in [
            "", "e2", "e2e", "e2e9x", "a1a1", "k@e4", "Z@a1", "@", "e2e4qq", "j9j8", "i9a1",
            "e1g1", "0-0", "ü", "e1f2h", "a1a2x",
        ] {
            let r = game.play(bad);
            assert!(
                r.is_err(),
                "{}: garbage move '{bad}' accepted: {}",
                v.name,
                game.fen()
            );
            assert_eq!(game.fen(), before, "{} after '{bad}'", v.name);
        }
    }
}
