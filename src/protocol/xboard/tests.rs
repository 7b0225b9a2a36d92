//! Tests of the XBoard front end.

use super::*;

#[test]
fn xboard_castling_letters_mean_both_castlings_in_chancellor_games() {
    let start = "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w Qq - 0 1";
    assert_eq!(
        from_xboard_fen("chancellor", start),
        "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1"
    );
    let x = "qnbkrbnc/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w Qk - 0 1";
    assert_eq!(
        from_xboard_fen("chancellorx", x),
        "qnbkrbnc/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1"
    );
    let normal = "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1";
    assert_eq!(from_xboard_fen("normal", normal), normal);
}
