//! SAN (standard algebraic notation) for every game: the round trip on random games of
//! every variant (every legal move's SAN reads back as that move, and writing it again
//! gives the same text), chess SAN equal to shakmaty's, and hand-worked cases for each
//! feature (drops, pool promotion, the Hia's placement, both castlings of the
//! chancellor games, Chesquerque's points, XBoard's disambiguation, `#` by the
//! variant's own end rule, the 10-file board), written from docs/rules/*.md.

use crate::common;

use common::Rng;
use sako::rules::variant::all_variants;
use sako::Game;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

/// The FENs of a variant's perft suite (start position, castling, promotion and drop
/// positions among them).
fn perft_fens(variant: &str) -> Vec<String> {
    let path = common::data_path(&format!("perft/{variant}.epd"));
    let text = std::fs::read_to_string(&path).expect("perft suite");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(';').next().map(|f| f.trim().to_string()))
        .collect()
}

/// Checks both round trips for every legal move of the position; returns the moves.
fn check_round_trip(game: &mut Game) -> Vec<String> {
    let moves = game.legal_moves();
    let mut seen = std::collections::HashSet::new();
    for m in &moves {
        let san = game
            .san(m)
            .unwrap_or_else(|e| panic!("no SAN for {m} at {}: {e}", game.fen()));
        let back = game
            .coordinates(&san)
            .unwrap_or_else(|e| panic!("{san} (for {m}) does not read at {}: {e}", game.fen()));
        assert_eq!(&back, m, "{san} reads as another move at {}", game.fen());
        let again = game.san(&san).expect("SAN of a SAN");
        assert_eq!(again, san, "SAN -> move -> SAN at {}", game.fen());
        assert!(
            seen.insert(san.clone()),
            "two moves written {san} at {}",
            game.fen()
        );
    }
    moves
}

/// Random games from each perft FEN of `variant`, at least `plies` plies in all.
fn random_round_trips(variant: &str, plies: usize, seed: u64) {
    let fens = perft_fens(variant);
    let mut rng = Rng::new(seed);
    let mut done = 0;
    let mut game_no = 0;
    while done < plies {
        let fen = &fens[game_no % fens.len()];
        game_no += 1;
        let mut game = Game::new(variant, Some(fen)).expect("perft FEN");
        for _ in 0..120 {
            let moves = check_round_trip(&mut game);
            done += 1;
            if moves.is_empty() || game.outcome().is_some() {
                break;
            }
            let m = &moves[rng.below(moves.len())];
            game.play(m).expect("legal");
        }
    }
}

#[test]
fn round_trip_on_random_games_of_every_variant() {
    for (i, v) in all_variants().iter().enumerate() {
        random_round_trips(v.name, 400, 71 + i as u64);
    }
}

#[test]
fn chess_san_equals_shakmaty() {
    let mut rng = Rng::new(71);
    let mut positions = 0;
    let fens = perft_fens("normal");
    let mut game_no = 0;
    while positions < 2_000 {
        let fen = &fens[game_no % fens.len()];
        game_no += 1;
        let mut ours = Game::new("normal", Some(fen)).expect("our FEN");
        let mut theirs: Chess = Fen::from_ascii(fen.as_bytes())
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position");
        for _ in 0..150 {
            let legal = theirs.legal_moves();
            if legal.is_empty() || ours.outcome().is_some() {
                break;
            }
            for m in &legal {
                let uci = m.to_uci(CastlingMode::Standard).to_string();
                let want = SanPlus::from_move(theirs.clone(), *m).to_string();
                assert_eq!(ours.san(&uci).expect("legal"), want, "at {}", ours.fen());
                assert_eq!(ours.coordinates(&want).expect("reads"), uci);
            }
            positions += 1;
            let m = legal[rng.below(legal.len())];
            ours.play(&m.to_uci(CastlingMode::Standard).to_string())
                .expect("legal");
            theirs.play_unchecked(m);
        }
    }
}

/// The SAN of `coord` in `variant` at `fen`, and the check that the SAN reads back.
fn san_at(variant: &str, fen: Option<&str>, coord: &str) -> String {
    let mut g = Game::new(variant, fen).expect("FEN");
    let san = g.san(coord).expect("legal move");
    assert_eq!(g.coordinates(&san).expect("reads back"), coord, "{san}");
    san
}

#[test]
fn drops() {
    // historia.md 6: a drop is the piece letter, `@`, the square, for both colours.
    let start = None;
    assert_eq!(san_at("historia", start, "K@e1"), "K@e1");
    let mut g = Game::new("historia", None).expect("start");
    g.play("k@e1").expect("a lowercase drop letter reads");
    assert_eq!(g.san("K@e8").expect("legal"), "K@e8");
    g.play("K@e8").expect("legal");
    assert_eq!(g.san("Q@d1").expect("legal"), "Q@d1");
}

#[test]
fn promotion_to_pool_pieces() {
    // great-shatranj.md: a pawn on the last rank becomes a Soldier or a piece from its
    // side's pool; the General (WDFA) on c8 or d8 checks the king on e8.
    let fen = Some("3mk5/2P7/10/10/10/10/10/4K5[G] w - - 0 1");
    assert_eq!(san_at("great", fen, "c7c8g"), "c8=G+");
    assert_eq!(san_at("great", fen, "c7c8s"), "c8=S");
    assert_eq!(san_at("great", fen, "c7d8g"), "cxd8=G+");
    // The Soldier moves as a king: on d8 it checks e8 too.
    assert_eq!(san_at("great", fen, "c7d8s"), "cxd8=S+");
    let mut g = Game::new("great", fen).expect("FEN");
    // Without a letter the promotion is the always available Soldier.
    assert_eq!(g.coordinates("c8").expect("reads"), "c7c8s");
    assert_eq!(g.coordinates("cxd8G").expect("reads"), "c7d8g");
    // No Minister in the pool: not a legal promotion.
    assert!(g.coordinates("c8=M").is_err());
}

#[test]
fn hia_placement() {
    // shatar-hia.md 5: the king's move that places the Hia on the square it leaves,
    // written `Kf2/H` (XBoard's gating form); without `/H` it still reads (compulsory).
    assert_eq!(san_at("shatarhia", None, "e1d2h"), "Kd2/H");
    let mut g = Game::new("shatarhia", None).expect("start");
    assert_eq!(g.coordinates("Kd2").expect("reads"), "e1d2h");
    assert_eq!(g.coordinates("Kd2/h").expect("reads"), "e1d2h");
}

#[test]
fn both_castlings_of_the_chancellor_games() {
    // chancellor.md 3: h-side with the Queen, a-side with the Chancellor.
    let a = Some("cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/C3K2Q w KQkq - 0 1");
    assert_eq!(san_at("chancellor", a, "e1g1"), "O-O");
    assert_eq!(san_at("chancellor", a, "e1c1"), "O-O-O");
    // chancellor.md 4, decisions.md: crosswise Black castles short (`O-O`, the partner
    // three files away) with the Queen d8b8, long with the Chancellor d8f8, as XBoard
    // writes wild castling.
    let b = Some("q2k3c/pppppppp/8/8/8/8/PPPPPPPP/C3K2Q b KQkq - 0 1");
    assert_eq!(san_at("chancellorx", b, "d8b8"), "O-O");
    assert_eq!(san_at("chancellorx", b, "d8f8"), "O-O-O");
    let mut g = Game::new("chancellorx", b).expect("FEN");
    assert_eq!(g.coordinates("0-0-0").expect("reads"), "d8f8");
    assert_eq!(g.coordinates("O-O+").expect("reads"), "d8b8");
    // King's Leap is a king move: `Kg1`, `Ke3`.
    let c = Some("cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/C3K2Q w KQkq - 0 1");
    assert_eq!(san_at("kingsleap", c, "e1g1"), "Kg1");
    assert_eq!(san_at("kingsleap", None, "e1e3"), "Ke3");
}

#[test]
fn chesquerque_points() {
    // chesquerque.md 5: points a1..i9; castling is written as the king's move, every
    // piece move with its origin (decisions.md: XBoard cannot be told the points).
    assert_eq!(san_at("chesquerque", None, "e2e4"), "e4");
    assert_eq!(san_at("chesquerque", None, "i2i3"), "i3");
    let castle = Some("r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R w KQkq - 0 1");
    assert_eq!(san_at("chesquerque", castle, "a1b1"), "Ra1b1");
    assert_eq!(san_at("chesquerque", castle, "e1h1"), "Ke1h1");
    assert_eq!(san_at("chesquerque", castle, "e1b1"), "Ke1b1");
    // d5 has no diagonals: its pawn captures straight ahead, written with the file.
    let straight = Some("4k4/9/9/3p5/3P5/9/9/9/4K4 w - - 0 1");
    assert_eq!(san_at("chesquerque", straight, "d5d6"), "dxd6");
}

#[test]
fn disambiguation_as_xboard_writes_it() {
    // The origin file when it is enough, else the rank, else both.
    let files = Some("4k3/8/8/3N4/8/8/8/1N2K3 w - - 0 1");
    assert_eq!(san_at("normal", files, "b1c3"), "Nbc3");
    assert_eq!(san_at("normal", files, "d5c3"), "Ndc3");
    let ranks = Some("4k3/8/8/6N1/8/8/8/4K1N1 w - - 0 1");
    assert_eq!(san_at("normal", ranks, "g1f3"), "N1f3");
    assert_eq!(san_at("normal", ranks, "g5f3"), "N5f3");
    // Queens a1, a3, c1 all reach b2: a3 shares the file, c1 the rank.
    let both = Some("4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1");
    assert_eq!(san_at("normal", both, "a1b2"), "Qa1b2");
    let mut g = Game::new("normal", files).expect("FEN");
    let e = g.coordinates("Nc3").expect_err("two knights reach c3");
    assert_eq!(e.to_string(), "ambiguous move 'Nc3'");
    assert_eq!(
        g.coordinates("Nc4")
            .expect_err("no knight reaches c4")
            .to_string(),
        "illegal move 'Nc4'"
    );
}

#[test]
fn mate_sign_follows_the_variant_end_rule() {
    // historia.md: a side with no legal move loses, in check or not; in chess the same
    // position is stalemate, no sign.
    let fen = Some("7k/5K2/8/6P1/8/8/8/8 w - - 0 1");
    assert_eq!(san_at("historia", fen, "g5g6"), "g6#");
    assert_eq!(san_at("normal", fen, "g5g6"), "g6");
    // shatar-hia.md: a mate by knights alone loses for the side that gives it: a check,
    // no mate sign; in chess the same move mates.
    let smothered = Some("6rk/6pp/8/4N3/8/8/8/K7 w - - 0 1");
    assert_eq!(san_at("shatar", smothered, "e5f7"), "Nf7+");
    assert_eq!(san_at("normal", smothered, "e5f7"), "Nf7#");
}

#[test]
fn ten_files() {
    // great-shatranj.md: the Woody (WD) jumps a1a3 and j1j3 over its pawn.
    assert_eq!(san_at("great", None, "j1j3"), "Wj3");
    assert_eq!(san_at("great", None, "a1a3"), "Wa3");
    assert_eq!(san_at("great", None, "j2j3"), "j3");
}

#[test]
fn common_variations_read() {
    let mut g = Game::new("normal", None).expect("start");
    for (text, coord) in [
        ("Nf3", "g1f3"),
        ("Nf3!?", "g1f3"),
        ("Ng1-f3", "g1f3"),
        ("Ng1f3", "g1f3"),
        ("e4", "e2e4"),
        ("e2e4", "e2e4"),
    ] {
        assert_eq!(g.coordinates(text).expect(text), coord, "{text}");
    }
    let promo = Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let mut g = Game::new("normal", promo).expect("FEN");
    for text in ["b8=Q", "b8Q", "b8q", "b8=Q+", "b8=q"] {
        assert_eq!(g.coordinates(text).expect(text), "b7b8q", "{text}");
    }
    // A promotion needs its letter in chess.
    assert!(g.coordinates("b8").is_err());
    for bad in [
        "", "Zz9", "N", "Nz3", "O-O-O-O", "K@", "e9", "x", "=Q", "Nf3/",
    ] {
        assert!(g.play(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn san_line_leaves_the_game_alone() {
    let mut g = Game::new("normal", None).expect("start");
    let line: Vec<String> = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let sans = g.san_line(&line).expect("legal line");
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]);
    assert_eq!(g.fen(), Game::new("normal", None).expect("start").fen());
    let bad: Vec<String> = vec!["e2e4".into(), "e2e4".into()];
    assert!(g.san_line(&bad).is_err());
    assert_eq!(g.fen(), Game::new("normal", None).expect("start").fen());
}

#[test]
fn openings_read_san_pgns() {
    let dir = common::fresh_temp_dir("san-openings");
    let book = dir.join("book.pgn");
    std::fs::write(
        &book,
        "[Variant \"shatarhia\"]\n\n1. Kd2/H Nc6 2. Nf3 Kd7 *\n\n\
         [Variant \"shatarhia\"]\n\n1. e3 Nc6! 2. Kd2 *\n",
    )
    .expect("write book");
    let openings =
        sako::matches::openings::load_path(&book, "shatarhia").expect("the SAN book loads");
    let moves: Vec<Vec<String>> = openings.into_iter().map(|o| o.moves).collect();
    assert_eq!(
        moves,
        [
            vec!["e1d2h", "b8c6", "g1f3", "e8d7h"],
            vec!["e2e3", "b8c6", "e1d2h"]
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
