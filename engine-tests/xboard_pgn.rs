//! sako's PGNs as XBoard reads them (docs/xboard.md, "sako's PGNs in XBoard"; the real
//! XBoard run is scripts/xboard-load-pgn): a `sako match` game of every engine-defined
//! game carries `[VariantMen]` (the `piece` lines sako sends after `variant V`),
//! `[FEN]` (the start position in XBoard's form, the kings' files in the castling
//! field) and `[SetUp "1"]`, and its FEN reads back in sako as the start; chess and
//! Great Shatranj, which XBoard knows, keep a plain PGN; `sako annotate` adds the tags to
//! a game that lacks them. Chesquerque's SAN names every piece's origin and writes
//! castling as the king's move, reads back through the openings and annotate readers
//! to the same moves, and the old `O-O-O`/`O-O` and XBoard's `O-O` still read.

use sako::annotate::pgn_out::write_game;
use sako::annotate::source::read_games;
use sako::annotate::{annotate_text, Options};
use sako::engine::time::Limits;
use sako::matches::openings::load_path;
use sako::matches::pgn::{parse_pgn, PgnGame};
use sako::rules::variant::all_variants;
use sako::Game;

use crate::common::{converse, fresh_temp_dir, run_match, words};

const SAKO: &str = env!("CARGO_BIN_EXE_sako");

/// Each engine-defined game: its `[VariantMen]` and its start FEN as XBoard reads it
/// (worked out on XBoard 4.9.1, docs/xboard.md).
const XBOARD_FORM: [(&str, &str, &str); 7] = [
    (
        "chancellor",
        "C:RN;K:KisO2",
        "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQEkqe - 0 1",
    ),
    (
        "chancellorx",
        "C:RN;K:KisO2",
        "qnbkrbnc/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQEkqd - 0 1",
    ),
    (
        "kingsleap",
        "C:RN;K:KimD",
        "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQEkqe - 0 1",
    ),
    (
        "historia",
        "Q:BW;E:FvW;P:mfWcfF",
        "8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee] w - - 0 1",
    ),
    (
        "shatarhia",
        "Q:RF;H:Q2;K:K;P:mfWcfF",
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR[Hh] w Ee - 0 1",
    ),
    (
        "shatar",
        "Q:RF;K:K;P:mfWcfF",
        "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 1",
    ),
    (
        "chesquerque",
        "K:KisO3",
        "rnbqkabnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQEkqe - 0 1",
    ),
];

/// One short `sako match` game of `variant` (depth 1, `plies` plies, an opening file
/// if given), its PGN text.
fn one_game(variant: &str, name: &str, plies: usize, opening: Option<&str>) -> String {
    let dir = fresh_temp_dir(&format!("xboard-pgn-{variant}-{name}"));
    let pgn = dir.join("games.pgn");
    let mut args = format!(
        "-engine name=A cmd={SAKO} proto=xboard depth=1 -engine name=B cmd={SAKO} \
         proto=xboard depth=1 -variant {variant} -games 1 -maxmoves {} -pgnout {}",
        plies.div_ceil(2),
        pgn.display()
    );
    if let Some(line) = opening {
        let book = dir.join("opening.pgn");
        let text = format!("[Variant \"{variant}\"]\n\n{line} *\n");
        std::fs::write(&book, text).expect("write the opening");
        let n = line
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .count();
        args += &format!(" -openings file={} format=pgn plies={n}", book.display());
    }
    run_match(&words(&args));
    let text = std::fs::read_to_string(&pgn).expect("PGN written");
    let _ = std::fs::remove_dir_all(&dir);
    text
}

/// The `piece` lines sako sends XBoard after `variant V`, as `LETTER:BETZA;...`.
fn piece_lines(variant: &str) -> String {
    let script = format!("xboard\nprotover 2\nvariant {variant}\nping 1\nquit\n");
    let out = converse(&[], &script);
    out.lines()
        .filter_map(|l| l.strip_prefix("piece "))
        .map(|l| l.replacen("& ", ":", 1))
        .collect::<Vec<_>>()
        .join(";")
}

fn only_game(text: &str) -> PgnGame {
    let mut games = parse_pgn(text).expect("PGN parses");
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

#[test]
fn match_pgns_carry_xboards_tags_for_engine_defined_games() {
    for (variant, men, fen) in XBOARD_FORM {
        let text = one_game(variant, "tags", 4, None);
        let g = only_game(&text);
        assert_eq!(g.tag("Variant"), Some(variant), "{text}");
        assert_eq!(g.tag("VariantMen"), Some(men), "{text}");
        assert_eq!(piece_lines(variant), men, "{variant}: the piece lines sent");
        assert_eq!(g.tag("FEN"), Some(fen), "{text}");
        assert_eq!(g.tag("SetUp"), Some("1"), "{text}");
        // The tags follow [Variant], as XBoard writes them.
        let at = |t: &str| text.find(&format!("[{t} ")).expect("tag");
        assert!(at("Variant") < at("VariantMen") && at("VariantMen") < at("FEN"));
        // sako reads XBoard's FEN as its own start position, and the moves after it.
        let start = Game::new(variant, None).expect("start").fen();
        let mut game = Game::new(variant, Some(fen)).expect("XBoard's FEN reads");
        assert_eq!(game.fen(), start, "{variant}");
        for m in &g.moves {
            game.play(m).expect("the moves replay");
        }
    }
    // The games XBoard knows keep a plain PGN: no FEN from their start.
    for variant in ["normal", "great"] {
        let g = only_game(&one_game(variant, "plain", 2, None));
        for t in ["VariantMen", "FEN", "SetUp"] {
            assert_eq!(g.tag(t), None, "{variant}: {t}");
        }
    }
    // Every engine-defined game is in the table above.
    let defined = all_variants().iter().filter(|d| d.xboard.is_some()).count();
    assert_eq!(defined, XBOARD_FORM.len());
}

/// White castles to the h-side (`e1h1`), Black to the b-side (`e9b9`).
const CASTLINGS: &str = "1. h2h3 a8a7 2. h1g3 b8b7 3. g1h2 b9c7 4. f2f3 a7a6 5. f1e3 c9b8 \
                         6. e1h1 d8d6 7. a2a3 d9d7 8. a3a4 e9b9";

#[test]
fn chesquerque_pgns_name_every_origin_and_read_back() {
    let text = one_game("chesquerque", "san", 24, Some(CASTLINGS));
    let g = only_game(&text);
    let coords: Vec<&str> = CASTLINGS
        .split_whitespace()
        .filter(|w| !w.ends_with('.'))
        .collect();
    assert_eq!(g.moves[10], "Ke1h1", "{text}");
    assert_eq!(g.moves[15], "Ke9b9", "{text}");
    assert_eq!(g.moves[2], "Nh1g3", "{text}");
    // Every piece move names its origin square: letter, file, rank, [x], square.
    for m in &g.moves {
        let core = m.trim_end_matches(['+', '#']).replace('x', "");
        let piece = core.starts_with(|c: char| c.is_ascii_uppercase());
        assert!(!m.starts_with("O-O"), "{m}");
        if piece {
            let b = core.as_bytes();
            assert!(
                core.len() == 5 && b[1].is_ascii_lowercase() && b[2].is_ascii_digit(),
                "{m} has no origin square"
            );
        }
    }
    // The openings reader and annotate's reader replay it to the same moves.
    let dir = fresh_temp_dir("xboard-pgn-chesquerque-read");
    let file = dir.join("game.pgn");
    std::fs::write(&file, &text).expect("write");
    let book = load_path(&file, "chesquerque").expect("the openings reader reads it");
    assert_eq!(book[0].moves[..coords.len()], coords[..]);
    let read = read_games(&text, "chesquerque");
    let source = read[0].as_ref().expect("annotate reads it");
    assert_eq!(source.moves[..coords.len()], coords[..]);
    assert_eq!(source.moves.len(), g.moves.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chesquerque_reads_old_and_xboards_castling_words() {
    let both = Some("r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K3R w KQkq - 0 1");
    let mut g = Game::new("chesquerque", both).expect("FEN");
    // Written now: the king's move.
    assert_eq!(g.san("e1h1").expect("legal"), "Ke1h1");
    assert_eq!(g.san("e1b1").expect("legal"), "Ke1b1");
    assert_eq!(g.coordinates("Ke1h1").expect("reads"), "e1h1");
    assert_eq!(g.coordinates("Kb1").expect("reads"), "e1b1");
    // What sako wrote before: O-O-O for e1b1, O-O for e1h1.
    assert_eq!(g.coordinates("O-O-O").expect("reads"), "e1b1");
    assert_eq!(g.coordinates("O-O").expect("reads"), "e1h1");
    // XBoard writes both castlings `O-O`: with only the b-side legal it is that one.
    let b_only = Some("r3k3r/ppppppppp/9/9/9/9/9/PPPPPPPPP/R3K2NR w KQkq - 0 1");
    let mut g = Game::new("chesquerque", b_only).expect("FEN");
    assert_eq!(g.coordinates("O-O").expect("reads"), "e1b1");
    assert_eq!(g.coordinates("O-O-O").expect("reads"), "e1b1");
    // Chess keeps its words: a king's move text is no castling there.
    let chess = Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let mut c = Game::new("normal", chess).expect("FEN");
    assert_eq!(c.san("e1g1").expect("legal"), "O-O");
    assert!(c.coordinates("Kg1").is_err());
    let mut c = Game::new("normal", Some("r3k2r/8/8/8/8/8/8/R3K1NR w KQkq - 0 1")).expect("FEN");
    assert!(c.coordinates("O-O").is_err(), "no fallback in chess");
}

#[test]
fn annotate_adds_xboards_tags() {
    let old = "[Event \"old\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\
               [Variant \"chancellor\"]\n\n1. e4 e5 *\n";
    let opts = Options {
        threads: 1,
        hash_mb: 4,
        variant: "chancellor".to_string(),
        ..Options::new(Limits::nodes(200))
    };
    let (games, skipped) = annotate_text(old, &opts, &|_| {}).expect("annotates");
    assert!(skipped.is_empty(), "{skipped:?}");
    let text = write_game(&games[0], &opts.limits);
    let g = only_game(&text);
    assert_eq!(g.tag("VariantMen"), Some("C:RN;K:KisO2"), "{text}");
    assert_eq!(g.tag("FEN"), Some(XBOARD_FORM[0].2), "{text}");
    assert_eq!(g.tag("SetUp"), Some("1"), "{text}");
    assert_eq!(g.tag("Event"), Some("old"), "{text}");
}

#[test]
fn kings_leap_reads_xboards_castling_word_for_the_sideways_leap() {
    // XBoard writes the sideways leap e8g8 as `O-O` (the game has no castling): the
    // word reads as the leap towards its side.
    let fen = Some("4k3/8/8/8/8/8/8/4K3 b KQkq - 0 1");
    let mut g = Game::new("kingsleap", fen).expect("FEN");
    assert_eq!(g.san("e8g8").expect("the leap"), "Kg8");
    assert_eq!(g.coordinates("O-O").expect("reads"), "e8g8");
    assert_eq!(g.coordinates("O-O-O").expect("reads"), "e8c8");
    // After the king moved there is no leap either: the word stays illegal.
    let moved = Some("3k4/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(Game::new("kingsleap", moved)
        .expect("FEN")
        .coordinates("O-O")
        .is_err());
}
