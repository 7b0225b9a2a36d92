//! Self-check of the reference move generators in `engine-tests/reference/`.
//!
//! Every expected move list below was worked out by hand from the rules in
//! `rules/chesquerque.md` and `rules/shatar-hia.md`; the comments say how.

use crate::reference;

use reference::{chesquerque, shatar};

/// The legal moves of the piece on `from`, e.g. all moves starting with "d4".
fn from_square(moves: &[String], from: &str) -> Vec<String> {
    moves
        .iter()
        .filter(|m| m.starts_with(from))
        .cloned()
        .collect()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn cq(fen: &str) -> chesquerque::Pos {
    chesquerque::Pos::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sh(fen: &str) -> shatar::Pos {
    shatar::Pos::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Asserts the moves of the piece on `from` in a Chesquerque position.
fn cq_piece(fen: &str, from: &str, expected: &[&str]) {
    let moves = cq(fen).legal_moves();
    assert_eq!(
        from_square(&moves, from),
        strings(expected),
        "{fen} ({from})"
    );
}

/// Asserts the complete legal move list of a Shatar position.
fn sh_all(fen: &str, expected: &[&str]) {
    assert_eq!(sh(fen).legal_moves(), strings(expected), "{fen}");
}

/// Asserts the moves of the piece on `from` in a Shatar position.
fn sh_piece(fen: &str, from: &str, expected: &[&str]) {
    let moves = sh(fen).legal_moves();
    assert_eq!(
        from_square(&moves, from),
        strings(expected),
        "{fen} ({from})"
    );
}

// ----- Chesquerque -------------------------------------------------------------------

const CQ_START: &str = "rnbqkabnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1";

#[test]
fn chesquerque_start_position() {
    // Spec section 4: only pawn moves, nine single and nine double steps.
    let pos = cq(CQ_START);
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 18);
    assert!(moves.iter().all(|m| m.as_bytes()[1] == b'2'));
    assert_eq!(pos.perft(1), 18);
    assert_eq!(pos.perft(2), 324);
    assert!(!pos.in_check());
    assert_eq!(pos.to_fen(), CQ_START);
}

#[test]
fn chesquerque_pawn_on_d_point_h6_captures_diagonally() {
    // h6 is a D-point (8+6 even): straight ahead only onto an empty point (h7 is
    // occupied), captures on the two forward diagonals g7 and i7.
    cq_piece(
        "4k4/9/6rbn/7P1/9/9/9/9/4K4 w - - 0 1",
        "h6",
        &["h6g7", "h6i7"],
    );
}

#[test]
fn chesquerque_pawn_on_o_point_b5_moves_and_captures_straight() {
    // b5 is an O-point: the pawn captures straight ahead (b6), never diagonally (a6, c6).
    cq_piece("4k4/9/9/nnn6/1P7/9/9/9/4K4 w - - 0 1", "b5", &["b5b6"]);
    // With b6 empty it simply steps there.
    cq_piece("4k4/9/9/n1n6/1P7/9/9/9/4K4 w - - 0 1", "b5", &["b5b6"]);
}

#[test]
fn chesquerque_pawns_f2_d_point_and_c2_o_point() {
    // f2 (D): single and double step, diagonal captures e3 and g3.
    // c2 (O): single and double step; black pawns on b3/d3 cannot be taken diagonally.
    let fen = "4k4/9/9/9/9/9/1p1pp1p2/2P2P3/4K4 w - - 0 1";
    cq_piece(fen, "f2", &["f2e3", "f2f3", "f2f4", "f2g3"]);
    cq_piece(fen, "c2", &["c2c3", "c2c4"]);
    // The white king (e1, D-point) cannot go to d2: attacked by the black pawns on d3
    // (O-point, attacks straight ahead) and e3 (D-point, attacks d2 and f2).
    cq_piece(fen, "e1", &["e1d1", "e1e2", "e1f1"]);
    // An enemy on c3: the O-point pawn captures it straight ahead and cannot double-step.
    let fen = "4k4/9/9/9/9/9/2p1p1p2/2P2P3/4K4 w - - 0 1";
    cq_piece(fen, "c2", &["c2c3"]);
}

#[test]
fn chesquerque_rook_c3_d_point_has_diagonal_step() {
    // Rook slides along rank 3 and the c-file plus one diagonal step (b2 b4 d2 d4).
    cq_piece(
        "4k4/9/9/9/9/9/2R6/9/4K4 w - - 0 1",
        "c3",
        &[
            "c3a3", "c3b2", "c3b3", "c3b4", "c3c1", "c3c2", "c3c4", "c3c5", "c3c6", "c3c7", "c3c8",
            "c3c9", "c3d2", "c3d3", "c3d4", "c3e3", "c3f3", "c3g3", "c3h3", "c3i3",
        ],
    );
}

#[test]
fn chesquerque_rook_f7_o_point_no_diagonal_step() {
    // Rook on an O-point: slides only; it captures the pawn on f8, no e6/g6/e8/g8.
    cq_piece(
        "4k4/5p3/5R3/9/9/9/9/9/4K4 w - - 0 1",
        "f7",
        &[
            "f7a7", "f7b7", "f7c7", "f7d7", "f7e7", "f7f1", "f7f2", "f7f3", "f7f4", "f7f5", "f7f6",
            "f7f8", "f7g7", "f7h7", "f7i7",
        ],
    );
}

#[test]
fn chesquerque_bishop_f3_o_point_orthogonal_steps_only() {
    cq_piece(
        "4k4/9/9/9/9/9/5B3/9/4K4 w - - 0 1",
        "f3",
        &["f3e3", "f3f2", "f3f4", "f3g3"],
    );
}

#[test]
fn chesquerque_bishop_c7_d_point_slides_to_h2() {
    // Orthogonal steps c6 c8 b7 d7; diagonal slides b8-a9, d8-e9, b6-a5, and
    // d6-e5-f4-g3-h2 (the own king on i1 ends that line).
    cq_piece(
        "8k/9/2B6/9/9/9/9/9/8K w - - 0 1",
        "c7",
        &[
            "c7a5", "c7a9", "c7b6", "c7b7", "c7b8", "c7c6", "c7c8", "c7d6", "c7d7", "c7d8", "c7e5",
            "c7e9", "c7f4", "c7g3", "c7h2",
        ],
    );
}

#[test]
fn chesquerque_knight_c4_o_point_orthogonal_then_diagonal() {
    // Via c5: b6 d6; via c3: b2 d2; via b4: a5 a3; via d4: e5 e3.
    cq_piece(
        "4k4/9/9/9/9/2N6/9/9/4K4 w - - 0 1",
        "c4",
        &[
            "c4a3", "c4a5", "c4b2", "c4b6", "c4d2", "c4d6", "c4e3", "c4e5",
        ],
    );
    // Lame: an own pawn on c5 blocks b6/d6, an enemy pawn on d4 blocks e5/e3 (and is not
    // captured: the knight never takes its first-step point).
    cq_piece(
        "4k4/9/9/9/2P6/2Np5/9/9/4K4 w - - 0 1",
        "c4",
        &["c4a3", "c4a5", "c4b2", "c4d2"],
    );
}

#[test]
fn chesquerque_knight_g7_d_point_diagonal_then_orthogonal() {
    // Via f8: e8 f9; via h8: i8 h9; via f6: e6 f5; via h6: i6 h5.
    cq_piece(
        "4k4/9/6N2/9/9/9/9/9/4K4 w - - 0 1",
        "g7",
        &[
            "g7e6", "g7e8", "g7f5", "g7f9", "g7h5", "g7h9", "g7i6", "g7i8",
        ],
    );
}

#[test]
fn chesquerque_archbishop_captures_its_blocker_but_cannot_jump() {
    // Archbishop d4 (D): W steps d3 d5 c4 e4; diagonal slides c5-b6-a7, e3-f2-g1, and up
    // to the black pawn e5 (captured by the bishop part); the own pawn c3 closes the
    // fourth diagonal. Knight part: via c5 -> b5 c6, via e3 -> f3 e2; via c3 and e5
    // blocked (no f5/e6 behind the capturable blocker, no b3/c2 behind the own pawn).
    cq_piece(
        "k8/9/9/9/4p4/3A5/2P6/9/8K w - - 0 1",
        "d4",
        &[
            "d4a7", "d4b5", "d4b6", "d4c4", "d4c5", "d4c6", "d4d3", "d4d5", "d4e2", "d4e3", "d4e4",
            "d4e5", "d4f2", "d4f3", "d4g1",
        ],
    );
}

#[test]
fn chesquerque_en_passant_g8g6_taken_by_h6g7() {
    // g8 is an O-point: its double step skips g7 (D), which becomes the e.p. target.
    let pos = cq("4k4/6p2/9/7P1/9/9/9/9/4K4 b - - 0 1");
    assert_eq!(
        from_square(&pos.legal_moves(), "g8"),
        strings(&["g8g6", "g8g7"])
    );
    let after = pos.play("g8g6").unwrap();
    assert_eq!(after.to_fen(), "4k4/9/9/6pP1/9/9/9/9/4K4 w - g7 0 2");
    assert_eq!(
        from_square(&after.legal_moves(), "h6"),
        strings(&["h6g7", "h6h7"])
    );
    let taken = after.play("h6g7").unwrap();
    assert_eq!(taken.to_fen(), "4k4/9/6P2/9/9/9/9/9/4K4 b - - 0 2");
    // The target lasts one move only.
    let later = after.play("e1e2").unwrap().play("e9e8").unwrap();
    assert_eq!(from_square(&later.legal_moves(), "h6"), strings(&["h6h7"]));
}

#[test]
fn chesquerque_double_step_from_d_point_sets_no_target() {
    // h2 is a D-point: h2h4 skips h3 (O-point), no e.p. target; e2e4 skips e3 (D).
    let pos = cq(CQ_START);
    assert_eq!(
        pos.play("h2h4").unwrap().to_fen(),
        "rnbqkabnr/ppppppppp/9/9/9/7P1/9/PPPPPPP1P/RNBQKABNR b KQkq - 0 1"
    );
    assert_eq!(
        pos.play("e2e4").unwrap().to_fen(),
        "rnbqkabnr/ppppppppp/9/9/9/4P4/9/PPPP1PPPP/RNBQKABNR b KQkq e3 0 1"
    );
}

#[test]
fn chesquerque_promotion_to_every_piece() {
    // b8 is a D-point: straight to the empty b9 or diagonally onto the rook on a9.
    let pos = cq("r3k4/1P7/9/9/9/9/9/9/4K4 w - - 0 1");
    assert_eq!(
        from_square(&pos.legal_moves(), "b8"),
        strings(&[
            "b8a9a", "b8a9b", "b8a9n", "b8a9q", "b8a9r", "b8b9a", "b8b9b", "b8b9n", "b8b9q",
            "b8b9r",
        ])
    );
    assert_eq!(
        pos.play("b8b9a").unwrap().to_fen(),
        "rA2k4/9/9/9/9/9/9/9/4K4 b - - 0 1"
    );
    assert!(pos.play("b8b9").is_err());
    assert!(pos.play("b8b9k").is_err());
}

#[test]
fn chesquerque_castling_example_of_section_3_1() {
    // Black knight d2 (D-point): reaches b1 through the empty c1, so O-O-O is illegal;
    // its path to f1 runs through e1 where the king stands, so O-O is legal.
    let pos = cq("r3k3r/9/9/9/9/9/9/3n5/R3K3R w KQkq - 0 1");
    let moves = pos.legal_moves();
    assert!(!moves.contains(&"e1b1".to_string()));
    assert!(moves.contains(&"e1h1".to_string()));
    let castled = pos.play("e1h1").unwrap();
    assert_eq!(castled.to_fen(), "r3k3r/9/9/9/9/9/9/3n5/R5RK1 b kq - 1 1");
    // The optional king-takes-rook spelling.
    assert_eq!(pos.play("e1i1").unwrap().to_fen(), castled.to_fen());
    assert!(pos.play("e1a1").is_err());
    // Black may castle on both sides.
    let black = cq("r3k3r/9/9/9/9/9/9/3n5/R3K3R b KQkq - 0 1");
    let moves = black.legal_moves();
    assert!(moves.contains(&"e9b9".to_string()));
    assert!(moves.contains(&"e9h9".to_string()));
    assert_eq!(
        black.play("e9b9").unwrap().to_fen(),
        "1kr5r/9/9/9/9/9/9/3n5/R3K3R w KQ - 1 2"
    );
}

#[test]
fn chesquerque_kings_diagonally_adjacent_on_o_points() {
    // e2 and d3 are O-points: the kings do not attack each other (legal position); the
    // white king steps only orthogonally, and d2/e3 are attacked by the black king.
    let pos = cq("9/9/9/9/9/9/3k5/4K4/9 w - - 0 1");
    assert!(!pos.in_check());
    assert_eq!(pos.legal_moves(), strings(&["e2e1", "e2f2"]));
}

#[test]
fn chesquerque_check_by_o_point_pawn_and_knight_block() {
    // Black pawn e2 is on an O-point (5+2 odd) and attacks e1 straight ahead.
    assert!(cq("4k4/9/9/9/9/9/9/4p4/4K4 w - - 0 1").in_check());
    // A black pawn on d2 (D-point) attacks c1/e1 diagonally: check as well.
    assert!(cq("4k4/9/9/9/9/9/9/3p5/4K4 w - - 0 1").in_check());
    // A knight check can be blocked on the knight's first-step point: the black knight
    // c2 (O-point) reaches e1 only through d2. The rook d5 blocks by going to d2; the
    // king may go to d2 itself (the knight's targets are b4 d4 a3 a1 e1 e3).
    let pos = cq("4k4/9/9/9/3R5/9/9/2n6/4K4 w - - 0 1");
    assert!(pos.in_check());
    assert_eq!(
        pos.legal_moves(),
        strings(&["d5d2", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
}

#[test]
fn chesquerque_double_check_blocked_on_one_point() {
    // Double check: the knight c2 (O-point) reaches e1 through d2, and the queen a5
    // (D-point) slides a5-b4-c3-d2-e1. Both lines run through d2, so unlike chess a
    // single interposition there (bishop c1-d2, rook d5-d2) answers both checks.
    // King: d2 is on the queen's diagonal, f2 holds a pawn; d1, e2, f1 are safe.
    let pos = cq("4k4/9/4p2r1/9/q2R4b/9/4P1A2/2n2P3/2B1K4 w - - 4 3");
    assert!(pos.in_check());
    assert_eq!(
        pos.legal_moves(),
        strings(&["c1d2", "d5d2", "e1d1", "e1e2", "e1f1"])
    );
}

#[test]
fn chesquerque_bad_input_is_rejected_without_panicking() {
    for bad in [
        "",
        "garbage",
        "9/9/9/9/9/9/9/9/9 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/4K4 x - - 0 1",
        "4k4/9/9/9/9/9/9/9/4K5 w - - 0 1",
        "4k4/9/9/9/9/9/9/9/4K4[Q] w - - 0 1",
        "4k4/9/9/9/9/9/9/9/4K4 w K - 0 1",
        "4k4/9/9/9/9/9/9/9/4K4 w - e3 0 1",
        "4k4/9/9/9/9/9/9/9/4K4 w - - x 1",
        "4k4/9/9/9/9/9/9/9/99999999999999999999K w - - 0 1",
        "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1 extra",
        "4k4/4R4/9/9/9/9/9/9/4K4 w - - 0 1",
    ] {
        assert!(chesquerque::Pos::from_fen(bad).is_err(), "{bad:?}");
    }
    // The last two fields are optional; an empty holdings bracket is accepted.
    assert_eq!(
        cq("4k4/9/9/9/9/9/9/9/4K4[] w - -").to_fen(),
        "4k4/9/9/9/9/9/9/9/4K4 w - - 0 1"
    );
    let pos = cq(CQ_START);
    for bad in ["", "e2", "e2e5", "e1e2", "z9z9", "e2e4q"] {
        assert!(pos.play(bad).is_err(), "{bad:?}");
    }
}

// ----- Shatar ------------------------------------------------------------------------

const SHATAR_START: &str = "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 1";
const SHATARHIA_START: &str = "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR[Hh] w - - 0 1";

#[test]
fn shatar_without_hia_matches_fairy_stockfish() {
    // Fairy-Stockfish's built-in `shatar` (peers README): 20 400 8426 177344.
    let pos = sh(SHATAR_START);
    assert_eq!(pos.to_fen(), SHATAR_START);
    let expected = [20, 400, 8426, 177344];
    for (depth, count) in (1..=4).zip(expected) {
        assert_eq!(pos.perft(depth), count, "depth {depth}");
    }
}

#[test]
fn shatarhia_start_position() {
    // Spec section 3: 20 moves (the king's only move e1d2 places the Hia), perft(2) = 400.
    let pos = sh(SHATARHIA_START);
    assert_eq!(pos.to_fen(), SHATARHIA_START);
    assert_eq!(pos.perft(1), 20);
    assert_eq!(pos.perft(2), 400);
    let moves = pos.legal_moves();
    assert!(moves.contains(&"e1d2h".to_string()));
    assert!(!moves.contains(&"e1d2".to_string()));
    // `e1d2` is accepted as input for the gating move.
    let gated = pos.play("e1d2").unwrap();
    assert_eq!(
        gated.to_fen(),
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPPKPPPP/RNBQHBNR[h] b - - 1 1"
    );
    assert_eq!(pos.play("e1d2h").unwrap(), gated);
    // After both kings moved the bracket stays, empty.
    assert_eq!(
        gated.play("e8d7h").unwrap().to_fen(),
        "rnbqhbnr/pppkpppp/8/3p4/3P4/8/PPPKPPPP/RNBQHBNR[] w - - 2 2"
    );
    // `h` on a non-king move is rejected.
    assert!(pos.play("e2e3h").is_err());
}

#[test]
fn shatarhia_hia_in_hand_for_one_side_only() {
    // Only Black holds its Hia: White's king move has no suffix, Black's has.
    let pos = sh("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR[h] w - - 0 1");
    let moves = pos.legal_moves();
    assert!(moves.contains(&"e1d2".to_string()));
    assert!(!moves.contains(&"e1d2h".to_string()));
    let after = pos.play("e1d2").unwrap();
    assert_eq!(
        after.to_fen(),
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPPKPPPP/RNBQ1BNR[h] b - - 1 1"
    );
    assert!(after.legal_moves().contains(&"e8d7h".to_string()));
    assert!(after
        .play("e8d7")
        .unwrap()
        .to_fen()
        .contains("RNBQ1BNR[] w"));
}

#[test]
fn shatarhia_stop_rule() {
    // Black Hia d4: its field is c3 d3 e3 c4 e4 c5 d5 e5. The white rook a4 slides right
    // b4, c4 and must stop on c4 (first field square); it cannot reach or take the Hia.
    // The a-file is free. King h1: g1 g2 h2 (a Hia never attacks a king).
    sh_all(
        "7k/8/8/8/R2h4/8/8/7K w - - 0 1",
        &[
            "a4a1", "a4a2", "a4a3", "a4a5", "a4a6", "a4a7", "a4a8", "a4b4", "a4c4", "h1g1", "h1g2",
            "h1h2",
        ],
    );
}

#[test]
fn shatarhia_adjacency_rule() {
    // White rook e4 stands in the black Hia's field (next to d4): one square only, in any
    // rook direction, capturing the Hia allowed.
    sh_all(
        "7k/8/8/8/3hR3/8/8/7K w - - 0 1",
        &["e4d4", "e4e3", "e4e5", "e4f4", "h1g1", "h1g2", "h1h2"],
    );
    // A Berse on c5 (in the field): rook part one square (b5 c4 c6 d5), diagonal steps
    // unaffected (b4 b6 d6, and d4 capturing the Hia).
    sh_piece(
        "7k/8/8/2Q5/3h4/8/8/7K w - - 0 1",
        "c5",
        &[
            "c5b4", "c5b5", "c5b6", "c5c4", "c5c6", "c5d4", "c5d5", "c5d6",
        ],
    );
}

#[test]
fn shatarhia_hia_two_step_through_its_middle() {
    // White Hia d4, black Hia f2 (field e1 f1 g1 e2 g2 e3 f3 g3), black pawn d5, own pawn
    // e5. North: captures d5, cannot pass. North-east: own pawn, nothing. South-east:
    // e3 is in the black Hia's field, so the Hia stops there (cannot take f2 at distance
    // 2). The other five lines give two squares each.
    sh_piece(
        "7k/8/8/3pP3/3H4/8/5h2/K7 w - - 0 1",
        "d4",
        &[
            "d4b2", "d4b4", "d4b6", "d4c3", "d4c4", "d4c5", "d4d2", "d4d3", "d4d5", "d4e3", "d4e4",
            "d4f4",
        ],
    );
}

#[test]
fn shatarhia_two_opposing_adjacent_hias() {
    // Each Hia stands in the other's field: one square only, and each may take the other.
    let white = "7k/8/8/4h3/3H4/8/8/K7 w - - 0 1";
    sh_piece(
        white,
        "d4",
        &[
            "d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4e5",
        ],
    );
    let black = "7k/8/8/4h3/3H4/8/8/K7 b - - 0 1";
    sh_piece(
        black,
        "e5",
        &[
            "e5d4", "e5d5", "e5d6", "e5e4", "e5e6", "e5f4", "e5f5", "e5f6",
        ],
    );
}

#[test]
fn shatarhia_gating_rescues_the_king() {
    // White king e1 in check from the rook e8, Hia in hand; a second black rook on f7.
    // The Hia lands on e1, its field is d1 d2 e2 f1 f2:
    // - d1, d2: off both files, legal;
    // - e2: the e8 rook reaches e2 (a field square may be the last square), illegal;
    // - f1: the f7 rook must stop on f2 (field), so f1 is safe: legal only thanks to the
    //   new Hia (spec 4.3 example);
    // - f2: reached by the f7 rook, illegal.
    let pos = sh("4r2k/5r2/8/8/8/8/8/4K3[Hh] w - - 0 1");
    assert!(pos.in_check());
    assert_eq!(pos.legal_moves(), strings(&["e1d1h", "e1d2h", "e1f1h"]));
    let after = pos.play("e1f1").unwrap();
    assert_eq!(after.to_fen(), "4r2k/5r2/8/8/8/8/8/4HK2[h] b - - 1 1");
    assert!(pos.play("e1e2h").is_err());
}

#[test]
fn shatarhia_pins_only_through_the_field() {
    // White Hia e4 between its king e1 and the black rook e8. Wherever the Hia goes, the
    // rook's line e7-e6-e5-... is cut as soon as it meets the Hia's new field. Squares
    // next to the e-file (d- and f-files) or on it keep the field on the file: legal.
    // Two squares away (c2 c4 c6 g2 g4 g6) leave the file open: illegal.
    sh_all(
        "k3r3/8/8/8/4H3/8/8/4K3 w - - 0 1",
        &[
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e4d3", "e4d4", "e4d5", "e4e2", "e4e3", "e4e5",
            "e4e6", "e4f3", "e4f4", "e4f5",
        ],
    );
    // The white Hia d6 puts e7 in its field: the black rook e8 stops there, so the knight
    // e3 is not pinned and has all eight moves.
    sh_piece(
        "k3r3/8/3H4/8/8/4N3/8/4K3 w - - 0 1",
        "e3",
        &[
            "e3c2", "e3c4", "e3d1", "e3d5", "e3f1", "e3f5", "e3g2", "e3g4",
        ],
    );
    // An enemy Hia never pins: rook e3 between its king e1 and the black Hia e5 moves
    // freely, but its upward slide stops on e4 (field of e5).
    sh_piece(
        "k7/8/8/4h3/8/4R3/8/4K3 w - - 0 1",
        "e3",
        &[
            "e3a3", "e3b3", "e3c3", "e3d3", "e3e2", "e3e4", "e3f3", "e3g3", "e3h3",
        ],
    );
}

#[test]
fn shatarhia_hia_and_kings() {
    // A Hia gives no check and a king may stand next to it or on its targets.
    let pos = sh("8/8/4k3/8/4H3/8/8/K7 b - - 0 1");
    assert!(!pos.in_check());
    assert_eq!(
        pos.legal_moves(),
        strings(&["e6d5", "e6d6", "e6d7", "e6e5", "e6e7", "e6f5", "e6f6", "e6f7"])
    );
    // The Hia never captures a king (e4e6 missing although e5 is empty).
    let pos = sh("8/8/4k3/8/4H3/8/8/K7 w - - 0 1");
    let moves = pos.legal_moves();
    assert!(moves.contains(&"e4e5".to_string()));
    assert!(!moves.contains(&"e4e6".to_string()));
    // A king may capture an undefended Hia ...
    assert!(sh("8/8/8/4k3/4H3/8/8/K7 b - - 0 1")
        .legal_moves()
        .contains(&"e5e4".to_string()));
    // ... but not one defended by the rook h4 (which also covers f4).
    sh_all(
        "8/8/8/4k3/4H2R/8/8/K7 b - - 0 1",
        &["e5d4", "e5d5", "e5d6", "e5e6", "e5f5", "e5f6"],
    );
    // Unless that rook stands in the field of a black Hia (g5): then it reaches only g4,
    // h3 and h5, and e4/f4 are safe for the black king.
    sh_piece(
        "8/8/8/4k1h1/4H2R/8/8/K7 b - - 0 1",
        "e5",
        &[
            "e5d4", "e5d5", "e5d6", "e5e4", "e5e6", "e5f4", "e5f5", "e5f6",
        ],
    );
}

#[test]
fn shatar_pawns_and_promotion() {
    // No double step; promotion only to the Berse; captures diagonally forward.
    let pos = sh("1r2k3/P7/8/8/8/8/4P3/4K3 w - - 0 1");
    let moves = pos.legal_moves();
    assert_eq!(from_square(&moves, "a7"), strings(&["a7a8q", "a7b8q"]));
    assert_eq!(from_square(&moves, "e2"), strings(&["e2e3"]));
    assert_eq!(
        pos.play("a7b8q").unwrap().to_fen(),
        "1Q2k3/8/8/8/8/8/4P3/4K3 b - - 0 1"
    );
    assert!(pos.play("a7a8").is_err());
    assert!(pos.play("a7a8r").is_err());
}

#[test]
fn shatar_bad_input_is_rejected_without_panicking() {
    for bad in [
        "",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[HH] w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3[H w - - 0 1",
        "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
        "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 -1",
        "4k3/8/8/8/8/8/8/999999999999999999999999K3 w - - 0 1",
    ] {
        assert!(shatar::Pos::from_fen(bad).is_err(), "{bad:?}");
    }
    // Castling letters (XBoard virginity letters) and missing counters are tolerated.
    assert_eq!(
        sh("4k3/8/8/8/8/8/8/4K3[Hh] w Ee -").to_fen(),
        "4k3/8/8/8/8/8/8/4K3[Hh] w - - 0 1"
    );
}

#[test]
fn shatarhia_double_check_answered_by_the_field() {
    // White king e1 checked by the rook e8 and the bishop a5 (via b4-c3-d2). The Hia b1
    // answers both by moving to d1 (field c1 c2 d2 e1 e2: the rook stops on e2, the bishop
    // on d2) or to d3 via c2 (field c2-e4 holds c3 d2 e2 e3 e4). Hia to c2 or b2 only
    // cuts the diagonal. King: e2 (rook file) and d2 (diagonal) are attacked.
    sh_all(
        "4r2k/8/8/b7/8/8/8/1H2K3 w - - 0 1",
        &["b1d1", "b1d3", "e1d1", "e1f1", "e1f2"],
    );
}
