//! The command-line contract: subcommand names, flags, output formats, exit codes, and
//! bad input answered with exit status 2 and a one-line error (never a panic).

mod common;

use std::process::{Command, Output};

fn sako(args: &[&str]) -> Output {
    Command::new(common::sako_bin())
        .args(args)
        .output()
        .expect("run sako")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_nodes_searched_last() {
    let o = sako(&["perft", "--variant", "normal", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("Nodes searched: 8902"));
}

#[test]
fn perft_divide_lists_root_moves() {
    let o = sako(&["perft", "--variant", "chancellor", "2", "--divide"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(rows.len(), 22, "{out}"); // 21 moves + the Nodes line
    assert!(rows.contains(&"a1b3: 21"));
    assert_eq!(out.lines().last(), Some("Nodes searched: 441"));
}

#[test]
fn perft_with_fen_moves_and_threads() {
    let o = sako(&[
        "perft",
        "--variant",
        "great",
        "--moves",
        "e2e3 e7e6",
        "--threads",
        "2",
        "3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Nodes searched: "));
}

#[test]
fn moves_are_sorted_and_in_engine_notation() {
    let o = sako(&["moves", "--variant", "historia"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 72);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"E@b1") && lines.contains(&"K@h2"));
    let o = sako(&["moves", "--variant", "shatarhia", "--moves", "e2e3 e7e6"]);
    assert!(stdout(&o).lines().any(|l| l == "e1e2h"));
}

#[test]
fn result_reports_mate_and_ongoing_games() {
    let o = sako(&["result", "--variant", "normal"]);
    assert_eq!(stdout(&o).trim(), "*");
    let o = sako(&["result", "--moves", "f2f3 e7e5 g2g4 d8h4"]);
    assert_eq!(stdout(&o).trim(), "0-1 {Black mates}");
}

#[test]
fn variants_lists_every_game_with_its_board() {
    let o = sako(&["variants"]);
    let out = stdout(&o);
    let names: Vec<&str> = out
        .lines()
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    for v in [
        "normal",
        "chancellor",
        "chancellorx",
        "kingsleap",
        "great",
        "historia",
        "shatarhia",
        "shatar",
        "chesquerque",
    ] {
        assert!(names.contains(&v), "{v} missing in {out}");
    }
    assert!(out.contains("great 10x8 "));
    assert!(out.contains("chesquerque 9x9 "));
}

fn assert_clean_error(args: &[&str], needle: &str) {
    let o = sako(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line expected: {err}");
    assert!(err.contains(needle), "{needle} not in {err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn bad_input_is_a_one_line_error_with_status_2() {
    assert_clean_error(&["perft", "--variant", "nosuch", "1"], "unknown variant");
    assert_clean_error(
        &["moves", "--fen", "rnbqkbnr/pppppppp/8/8 w - - 0 1"],
        "bad FEN",
    );
    assert_clean_error(&["moves", "--fen", "xyz"], "bad FEN");
    // King's Leap rights: K, Q or a file letter only (chancellor.md §5, C-9).
    assert_clean_error(
        &[
            "moves",
            "--variant",
            "kingsleap",
            "--fen",
            "4k3/8/8/8/8/8/8/4K3 w Z - 0 1",
        ],
        "bad castling letter 'Z'",
    );
    assert_clean_error(&["result", "--moves", "e2e5"], "illegal move 'e2e5'");
    assert_clean_error(&["result", "--moves", "e2e4 zz"], "unparsable move 'zz'");
    assert_clean_error(
        &["moves", "--variant", "normal", "--moves", "j2j4"],
        "unparsable",
    );
    assert_clean_error(
        &["moves", "--variant", "historia", "--moves", "P@a1"],
        "illegal move",
    );
}
