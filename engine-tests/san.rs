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
                let want = SanPlus::from_move(theirs.clone(), m.clone()).to_string();
                assert_eq!(ours.san(&uci).expect("legal"), want, "at {}", ours.fen());
                assert_eq!(ours.coordinates(&want).expect("reads"), uci);
            }
            positions += 1;
            let m = legal[rng.below(legal.len())].clone();
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
