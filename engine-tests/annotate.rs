//! `sako annotate`: games of every family, made by `sako match` here, annotated at a
//! small node count and read back with the PGN reader: every move legal, a score on
//! every move, the `Variant`/`FEN` tags kept, one SVG per game that is XML with a
//! drawn line. A hung queen is judged `??` (NAG 4) with a better line; a broken game
//! in the middle of a file is reported with its number and the others are written;
//! an unreadable file or a bad flag exits 2.
//!
//! After the SAN branch lands, `every_family_reads_back` should also annotate an
//! XBoard-style SAN game (`Game::play` reads SAN then).

use std::path::Path;
use std::process::{Command, Output};

use sako::annotate::{annotate_text, Judgement, Options};
use sako::engine::time::Limits;
use sako::matches::pgn::{parse_pgn, PgnGame};
use sako::Game;

use crate::common::{self, fresh_temp_dir, run_match, sako_bin, words};

/// One game per family (the chancellor and shatar families in full).
const VARIANTS: [&str; 9] = [
    "normal",
    "chancellor",
    "chancellorx",
    "kingsleap",
    "great",
    "historia",
    "shatarhia",
    "shatar",
    "chesquerque",
];

fn annotate(args: &str) -> Output {
    Command::new(sako_bin())
        .arg("annotate")
        .args(words(args))
        .output()
        .expect("run sako annotate")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// A short game of `variant` by `sako match`, from its first opening.
fn match_game(variant: &str, dir: &Path) -> String {
    let pgn = dir.join(format!("{variant}.pgn"));
    let sako = sako_bin();
    let args = words(&format!(
        "-engine name=A cmd={} arg=uci proto=uci option.Hash=4 \
         -engine name=B cmd={} arg=uci proto=uci option.Hash=4 \
         -each nodes=300 timeout=60 -variant {variant} -games 1 -maxmoves 8 \
         -openings file={} format=epd order=sequential -pgnout {}",
        sako.display(),
        sako.display(),
        common::data_path(&format!("openings/{variant}.epd")).display(),
        pgn.display()
    ));
    run_match(&args);
    std::fs::read_to_string(&pgn).expect("match PGN")
}

/// `+0.35/18`, `-M3/7`: a value and a depth.
fn is_score_comment(c: &str) -> bool {
    let Some((value, depth)) = c.split_once('/') else {
        return false;
    };
    let pawns = |v: &str| {
        v.split_once('.').is_some_and(|(a, b)| {
            a.parse::<u32>().is_ok() && b.len() == 2 && b.parse::<u32>().is_ok()
        })
    };
    let value_ok = match value.strip_prefix(['+', '-']) {
        Some(v) => v
            .strip_prefix('M')
            .map_or_else(|| pawns(v), |m| m.parse::<u32>().is_ok()),
        None => false,
    };
    value_ok && depth.parse::<u32>().is_ok()
}

/// Replays `g` (every move legal) and checks a score comment on every move.
fn check_annotated(g: &PgnGame, variant: &str, source: &PgnGame) {
    let ctx = format!("{variant}: {:?}", g.moves);
    assert_eq!(g.tag("Variant").unwrap_or("normal"), variant, "{ctx}");
    assert_eq!(g.tag("FEN"), source.tag("FEN"), "{ctx}");
    assert!(
        g.tag("Annotator").is_some_and(|a| a.starts_with("sako ")),
        "{ctx}"
    );
    assert_eq!(g.moves, source.moves, "{ctx}");
    assert!(!g.moves.is_empty(), "{ctx}");
    let mut game = Game::new(variant, g.tag("FEN")).expect("start position");
    for m in &g.moves {
        game.play(m).unwrap_or_else(|e| panic!("{ctx}: {m}: {e}"));
    }
    assert!(g.comments.len() >= g.moves.len(), "{ctx}: {:?}", g.comments);
    for c in &g.comments[..g.moves.len()] {
        assert!(is_score_comment(c), "{ctx}: comment {c:?}");
    }
    assert_eq!(g.result, source.result, "{ctx}");
}

/// The SVG parses as XML, has labels and draws the game's line: a polyline through
/// the start and every move (`plies + 1` points).
fn check_svg(path: &Path, plies: usize) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let doc =
        roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let has = |name: &str| doc.descendants().any(|n| n.tag_name().name() == name);
    let line = doc.descendants().any(|n| {
        n.tag_name().name() == "polyline"
            && n.attribute("points")
                .is_some_and(|p| p.split_whitespace().count() == plies + 1)
    });
    assert!(line, "{}: no line of {plies} moves", path.display());
    assert!(has("text"), "{}: no labels", path.display());
}

#[test]
fn every_family_reads_back() {
    let dir = fresh_temp_dir("annotate-families");
    let input: String = VARIANTS.iter().map(|v| match_game(v, &dir)).collect();
    let source = parse_pgn(&input).expect("match PGN parses");
    assert_eq!(source.len(), VARIANTS.len());
    let (pgn_in, pgn_out, svg) = (dir.join("in.pgn"), dir.join("out.pgn"), dir.join("svg"));
    std::fs::write(&pgn_in, &input).expect("write input");
    let out = annotate(&format!(
        "--in {} --out {} --svg-dir {} --nodes 400 --threads 2 --hash 4",
        pgn_in.display(),
        pgn_out.display(),
        svg.display()
    ));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("annotated 9 games"),
        "{}",
        stderr(&out)
    );
    let text = std::fs::read_to_string(&pgn_out).expect("annotated PGN");
    let games = parse_pgn(&text).expect("annotated PGN parses");
    assert_eq!(games.len(), VARIANTS.len(), "{text}");
    for (i, (g, variant)) in games.iter().zip(VARIANTS).enumerate() {
        check_annotated(g, variant, &source[i]);
        check_svg(&svg.join(format!("game-{}.svg", i + 1)), g.moves.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

const HUNG_QUEEN: &str = "[Event \"blunder\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
                          1. e2e4 d7d5 2. d1g4 c8g4 0-1\n";

#[test]
fn a_hung_queen_is_a_blunder() {
    let opts = Options {
        threads: 1,
        hash_mb: 4,
        ..Options::new(Limits::nodes(3000))
    };
    let (games, skipped) = annotate_text(HUNG_QUEEN, &opts, &|_| {}).expect("annotates");
    assert!(skipped.is_empty(), "{skipped:?}");
    let judged: Vec<Option<Judgement>> = games[0].notes.iter().map(|n| n.judgement).collect();
    assert_eq!(judged[2], Some(Judgement::Blunder), "{:?}", games[0].notes);
    assert_eq!(judged[3], None, "taking the queen is no mistake");
    assert!(judged[..2].iter().all(|j| j.is_none()), "{judged:?}");
    let better = games[0].notes[2].better.as_ref().expect("a better line");
    assert!(
        !better.moves.is_empty() && better.moves[0] != "Qg4",
        "{better:?}"
    );

    // Through the command line: `$4` after the move, then the better line.
    let dir = fresh_temp_dir("annotate-blunder");
    let (pgn_in, pgn_out) = (dir.join("in.pgn"), dir.join("out.pgn"));
    std::fs::write(&pgn_in, HUNG_QUEEN).expect("write input");
    let out = annotate(&format!(
        "--in {} --out {} --nodes 3000 --threads 1",
        pgn_in.display(),
        pgn_out.display()
    ));
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&pgn_out).expect("annotated PGN");
    assert!(text.contains("2. Qg4 $4 {-"), "{text}");
    assert!(text.contains("} ( 2. "), "{text}");
    assert!(!text.contains("e4 $") && !text.contains("Bxg4 $"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_game_is_reported_and_the_others_written() {
    let dir = fresh_temp_dir("annotate-broken");
    let (pgn_in, pgn_out) = (dir.join("in.pgn"), dir.join("out.pgn"));
    let text = "[Event \"one\"]\n\n1. e2e4 e7e5 *\n\n\
                [Event \"two\"]\n\n1. e2e4 e7e5 2. e1e3 *\n\n\
                [Event \"three\"]\n[Variant \"shatar\"]\n\n1. g1f3 *\n";
    std::fs::write(&pgn_in, text).expect("write input");
    let out = annotate(&format!(
        "--in {} --out {} --nodes 300 --threads 2",
        pgn_in.display(),
        pgn_out.display()
    ));
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("sako: skipped game 2: move 2. (e1e3) is not legal"),
        "{err}"
    );
    assert!(err.contains("skipped 1"), "{err}");
    let games = parse_pgn(&std::fs::read_to_string(&pgn_out).expect("out")).expect("parses");
    let events: Vec<_> = games.iter().map(|g| g.tag("Event")).collect();
    assert_eq!(events, [Some("one"), Some("three")]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_and_flags_exit_2() {
    let dir = fresh_temp_dir("annotate-bad");
    let missing = dir.join("missing.pgn");
    let out = annotate(&format!(
        "--in {} --out {}",
        missing.display(),
        dir.join("o").display()
    ));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("sako: cannot read"),
        "{}",
        stderr(&out)
    );
    let pgn_in = dir.join("in.pgn");
    std::fs::write(&pgn_in, HUNG_QUEEN).expect("write input");
    for flags in ["--nodes 0", "--variant nonsense", "--depth 3 --nodes 5"] {
        let out = annotate(&format!(
            "--in {} --out {} {flags}",
            pgn_in.display(),
            dir.join("o").display()
        ));
        assert_eq!(out.status.code(), Some(2), "{flags}: {}", stderr(&out));
        assert!(
            !stderr(&out).contains("panicked"),
            "{flags}: {}",
            stderr(&out)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
