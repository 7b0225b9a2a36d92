//! `sako match` with sako on both sides: two games in every variant through each
//! protocol (UCI with a node limit, XBoard with a depth limit), from the openings
//! files, both colours. The PGN must replay legally with the rules core, every game
//! must end with a rules reason that the rules core confirms, and no engine may foul.
//! Also: the openings files themselves, a clocked match, and the SPRT stopping rule.

use std::path::Path;
use std::process::Command;

use sako::matches::openings::{epd_to_fen, load_path};
use sako::matches::pgn::{parse_pgn, PgnGame};
use sako::rules::variant::all_variants;
use sako::Game;

use crate::common;

use common::{fresh_temp_dir, run_match, words};

const SAKO: &str = env!("CARGO_BIN_EXE_sako");

/// Replays every game of the PGN with the rules core and checks its result.
fn check_pgn(path: &Path, variant: &str, games: usize) -> Vec<PgnGame> {
    let text = std::fs::read_to_string(path).expect("PGN written");
    let parsed = parse_pgn(&text).expect("PGN parses");
    assert_eq!(parsed.len(), games, "{text}");
    for (i, g) in parsed.iter().enumerate() {
        let ctx = format!("{variant} game {}", i + 1);
        if variant != "normal" {
            assert_eq!(g.tag("Variant"), Some(variant), "{ctx}");
        }
        let fen = g.tag("FEN");
        assert_eq!(
            fen.is_some(),
            g.tag("SetUp") == Some("1"),
            "{ctx}: FEN and SetUp"
        );
        let mut game = Game::new(variant, fen).unwrap_or_else(|e| panic!("{ctx}: FEN: {e}"));
        for m in &g.moves {
            assert!(
                game.outcome().is_none(),
                "{ctx}: move {m} after the game ended"
            );
            game.play(m)
                .unwrap_or_else(|e| panic!("{ctx}: illegal move {m} at {}: {e}", game.fen()));
        }
        assert_eq!(g.tag("Result"), Some(g.result.as_str()), "{ctx}");
        assert_eq!(
            g.tag("PlyCount").and_then(|p| p.parse::<usize>().ok()),
            Some(g.moves.len()),
            "{ctx}"
        );
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "TimeControl",
        ] {
            assert!(g.tag(tag).is_some(), "{ctx}: no {tag} tag");
        }
        let reason = g.comments.last().cloned().unwrap_or_default();
        assert!(!reason.is_empty(), "{ctx}: no reason");
        assert_ne!(g.result, "*", "{ctx}");
        if g.tag("Termination") == Some("normal") {
            let o = game.outcome().unwrap_or_else(|| {
                panic!("{ctx}: 'normal' end but the rules say the game goes on")
            });
            assert_eq!(
                (o.result.pgn(), o.reason.as_str()),
                (g.result.as_str(), reason.as_str()),
                "{ctx}"
            );
        }
        // Every engine move has a clock comment: `{+0.12/5 0.01s}`.
        let move_comments = g.comments.len() - 1;
        assert_eq!(move_comments, g.moves.len(), "{ctx}: one comment per move");
        assert!(
            g.comments[..move_comments].iter().all(|c| c.ends_with('s')),
            "{ctx}: {:?}",
            g.comments
        );
    }
    parsed
}

fn self_play(variant: &str, proto: &str) {
    let dir = fresh_temp_dir(&format!("match-{variant}-{proto}"));
    let pgn = dir.join("games.pgn");
    let limit = if proto == "uci" {
        "nodes=2000"
    } else {
        "depth=3"
    };
    let args = words(&format!(
        "-engine name=A cmd={SAKO} arg={proto} proto={proto} option.Hash=8 \
         -engine name=B cmd={SAKO} arg={proto} proto={proto} option.Hash=8 \
         -each {limit} timeout=60 -variant {variant} -games 2 -repeat \
         -openings file={} format=epd order=random -srand 11 -pgnout {}",
        common::data_path(&format!("openings/{variant}.epd")).display(),
        pgn.display()
    ));
    let out = run_match(&args);
    assert_eq!(out.matches("Finished game").count(), 2, "{out}");
    assert!(out.contains("Score of A vs B: "), "{out}");
    assert!(out.contains("Elo difference: "), "{out}");
    assert!(out.contains("fouls: A: none; B: none"), "{out}");
    assert!(out.trim_end().ends_with("Finished match"), "{out}");
    let games = check_pgn(&pgn, variant, 2);
    // Both colours from the same opening.
    assert_eq!(games[0].tag("White"), games[1].tag("Black"));
    assert_eq!(games[0].tag("FEN"), games[1].tag("FEN"));
    let _ = std::fs::remove_dir_all(&dir);
}

macro_rules! self_play_tests {
    ($($name:ident: $variant:literal,)*) => {
        $(
            #[test]
            fn $name() {
                self_play($variant, "uci");
                self_play($variant, "xboard");
            }
        )*
    };
}

self_play_tests! {
    selfplay_normal: "normal",
    selfplay_chancellor: "chancellor",
    selfplay_chancellorx: "chancellorx",
    selfplay_kingsleap: "kingsleap",
    selfplay_great: "great",
    selfplay_historia: "historia",
    selfplay_shatarhia: "shatarhia",
    selfplay_shatar: "shatar",
    selfplay_chesquerque: "chesquerque",
}

#[test]
fn every_variant_is_tested_and_has_openings() {
    for v in all_variants() {
        let path = common::data_path(&format!("openings/{}.epd", v.name));
        let book = load_path(&path, v.name).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(book.len() >= 50, "{}: only {} openings", v.name, book.len());
        let text = std::fs::read_to_string(&path).expect("read");
        let mut seen = std::collections::HashSet::new();
        for line in text.lines() {
            let fen = epd_to_fen(line).expect("EPD line");
            assert!(seen.insert(fen.clone()), "{}: duplicate {fen}", v.name);
            let mut g = Game::new(v.name, Some(&fen)).expect("legal position");
            assert!(g.outcome().is_none(), "{}: finished game {fen}", v.name);
            let ce: i32 = line
                .split("ce ")
                .nth(1)
                .and_then(|s| s.trim().trim_end_matches(';').parse().ok())
                .unwrap_or_else(|| panic!("{}: no ce in {line}", v.name));
            assert!(ce.abs() <= 50, "{}: unbalanced {line}", v.name);
        }
        if v.name == "historia" {
            // Complete deployments: every piece on the board, both hands empty.
            let complete = text.lines().filter(|l| l.contains("[]")).count();
            assert!(complete >= 50, "historia: {complete} complete deployments");
        }
    }
}

#[test]
fn clocked_match_has_no_time_losses() {
    let dir = fresh_temp_dir("match-clock");
    let pgn = dir.join("games.pgn");
    let args = words(&format!(
        "-engine cmd={SAKO} arg=uci proto=uci -engine cmd={SAKO} arg=xboard proto=xboard \
         -each tc=2+0.05 timemargin=500 -variant normal -games 2 -maxmoves 30 \
         -openings file={} format=epd order=sequential start=3 -pgnout {}",
        common::data_path("openings/normal.epd").display(),
        pgn.display()
    ));
    let out = run_match(&args);
    let last = out
        .lines()
        .rfind(|l| l.starts_with("Progress:"))
        .unwrap_or("");
    assert_eq!(last.matches(": none").count(), 2, "{out}");
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert!(text.contains("[TimeControl \"2+0.05\"]"), "{text}");
    for g in parse_pgn(&text).expect("parse") {
        assert_ne!(g.tag("Termination"), Some("time forfeit"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn adjudication_ends_games() {
    let dir = fresh_temp_dir("match-adjudication");
    let pgn = dir.join("games.pgn");
    // Every score is within 10000 cp of zero: the draw rule fires at move 10.
    let args = words(&format!(
        "-engine cmd={SAKO} arg=uci proto=uci -engine cmd={SAKO} arg=uci proto=uci \
         -each nodes=500 -variant chancellor -games 2 -draw movenumber=10 movecount=1 score=10000 \
         -pgnout {}",
        pgn.display()
    ));
    run_match(&args);
    let games = check_pgn(&pgn, "chancellor", 2);
    for g in games {
        assert_eq!(g.tag("Termination"), Some("adjudication"));
        assert_eq!(g.result, "1/2-1/2");
        assert!(g
            .comments
            .last()
            .is_some_and(|c| c.starts_with("Draw by adjudication")));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_and_bad_arguments() {
    let out = Command::new(SAKO)
        .args(["match", "-help"])
        .output()
        .expect("run");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("-engine OPTIONS"));
    let out = Command::new(SAKO)
        .args(["match", "-engine", "cmd=x", "st=1", "-variant", "nope"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant 'nope'"));
    let out = Command::new(SAKO)
        .args([
            "match",
            "-engine",
            "cmd=/nonexistent/engine",
            "st=1",
            "-engine",
            "cmd=x",
            "st=1",
        ])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot start"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pgn_openings_are_played_first() {
    let dir = fresh_temp_dir("match-pgn-openings");
    let book = dir.join("book.pgn");
    std::fs::write(
        &book,
        "[Variant \"historia\"]\n\n1. k@e1 K@e8 2. Q@d1 Q@d8 3. R@a1 *\n\n\
         [Variant \"historia\"]\n\n1. K@d1 K@d8 2. N@b1 *\n",
    )
    .expect("write book");
    let pgn = dir.join("games.pgn");
    let args = words(&format!(
        "-engine cmd={SAKO} arg=uci proto=uci -engine cmd={SAKO} arg=xboard proto=xboard \
         -each nodes=1500 depth=4 -variant historia -games 2 -rounds 2 -repeat \
         -openings file={} plies=4 order=sequential -pgnout {}",
        book.display(),
        pgn.display()
    ));
    let err = Command::new(SAKO)
        .arg("match")
        .args(&args)
        .output()
        .expect("run");
    // nodes= is refused for the XBoard engine: only depth is allowed there.
    assert_eq!(err.status.code(), Some(2));
    let args: Vec<String> = args.into_iter().filter(|a| a != "nodes=1500").collect();
    let out = run_match(&args);
    assert_eq!(out.matches("Finished game").count(), 4, "{out}");
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    let games = parse_pgn(&text).expect("parse");
    assert_eq!(games.len(), 4);
    for (i, g) in games.iter().enumerate() {
        // From the start position: the FEN tag XBoard needs is Historia's start.
        let start = Game::new("historia", None).expect("start").fen();
        let fen = g
            .tag("FEN")
            .map(|f| Game::new("historia", Some(f)).expect("FEN").fen());
        assert_eq!(fen, Some(start), "from the start position");
        let book_moves: &[&str] = if i < 2 {
            &["K@e1", "K@e8", "Q@d1", "Q@d8"]
        } else {
            &["K@d1", "K@d8", "N@b1"]
        };
        assert_eq!(&g.moves[..book_moves.len()], book_moves, "game {}", i + 1);
        let mut game = Game::new("historia", None).expect("start");
        for m in &g.moves {
            game.play(m).expect("legal");
        }
        // Opening moves carry no comment: one comment per engine move plus the reason.
        assert_eq!(g.comments.len(), g.moves.len() - book_moves.len() + 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lazy SMP oversubscribed: 8 threads per engine on whatever cores the machine has (two
/// in CI), over UCI (`Threads`) and XBoard (`cores`), at a fast clock. Every move must be
/// legal and on time, and no engine may crash; timings are not asserted otherwise.
#[test]
fn eight_threads_on_few_cores_play_legal_moves_on_time() {
    let dir = fresh_temp_dir("match-threads");
    let pgn = dir.join("games.pgn");
    let args = words(&format!(
        "-engine name=uci8 cmd={SAKO} arg=uci proto=uci option.Threads=8 option.Hash=16 \
         -engine name=xboard8 cmd={SAKO} arg=xboard proto=xboard option.Threads=8 option.Hash=16 \
         -each tc=2+0.05 timemargin=1000 -variant normal -games 2 -repeat -maxmoves 60 \
         -openings file={} format=epd order=sequential start=7 -pgnout {}",
        common::data_path("openings/normal.epd").display(),
        pgn.display()
    ));
    let out = run_match(&args);
    assert_eq!(out.matches("Finished game").count(), 2, "{out}");
    assert!(out.contains("fouls: uci8: none; xboard8: none"), "{out}");
    let games = check_pgn(&pgn, "normal", 2);
    for g in &games {
        // Not a time forfeit, an illegal move, a rules infraction, a crash or a stall.
        assert!(
            matches!(g.tag("Termination"), Some("normal" | "adjudication")),
            "{:?}\n{out}",
            g.tag("Termination")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
