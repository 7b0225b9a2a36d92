//! Real clients: python-chess (`pip install chess`) drives sako as a UCI engine
//! (`SimpleEngine.popen_uci`) and as an XBoard engine (`popen_xboard`) through full games
//! of standard chess, checking every move on its own board, the clocks and the results,
//! analyses with MultiPV, and reads back a `sako match` PGN written in SAN. The scripts live in `engine-tests/python/`; each gets the
//! binary's path as its first argument and exits 0 on success.
//!
//! When `python3 -c "import chess"` fails, the tests fail if `CI` is set (CI installs
//! python-chess into `.ci/venv`, so a missing one there is a broken install step) and
//! otherwise pass with a visible `python_clients::<test> SKIPPED ...` line written
//! straight to standard error (see `common::peer_missing`).

use crate::common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a script may run before it is killed: generous, as a game may run to
/// play_games.py's 2000-ply safety cap (see there).
const SCRIPT_LIMIT: Duration = Duration::from_secs(480);

/// True when python3 can import python-chess; otherwise says so loudly.
fn python_chess_available(test: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess, chess.engine"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !ok {
        common::peer_missing(
            &format!("python_clients::{test}"),
            "python-chess (`python3 -c \"import chess\"` failed; install it with \
             `python3 -m pip install chess`, as .ci/run does into .ci/venv)",
        );
    }
    ok
}

/// Runs `engine-tests/python/<script> <sako> <args...>`; panics with its output on
/// failure, a non-zero exit or a run over the time limit.
fn run_script(script: &str, args: &[&str]) -> String {
    let path = common::data_path(&format!("python/{script}"));
    let bin = common::sako_bin();
    let mut child = Command::new("python3")
        .arg(&path)
        .arg(&bin)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run python3 {}: {e}", path.display()));
    // Read both pipes on threads so that a chatty script never blocks.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out_pipe, &mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err_pipe, &mut s);
        s
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if started.elapsed() > SCRIPT_LIMIT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("waiting for {script}: {e}"),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let shown = format!(
        "python3 {} {} {}\n--- stdout ---\n{stdout}--- stderr ---\n{stderr}--- end ---",
        path.display(),
        bin.display(),
        args.join(" ")
    );
    match status {
        None => panic!(
            "{script} ran over {} s and was killed\n{shown}",
            SCRIPT_LIMIT.as_secs()
        ),
        Some(s) if !s.success() => panic!("{script} failed ({s})\n{shown}"),
        Some(_) => {}
    }
    // Print what was played (shown with --nocapture).
    println!("{shown}");
    stdout
}

#[test]
fn python_chess_plays_full_games_over_uci() {
    if !python_chess_available("python_chess_plays_full_games_over_uci") {
        return;
    }
    let out = run_script("play_games.py", &["uci"]);
    assert!(out.contains("uci: all games legal and finished"), "{out}");
    assert_eq!(out.matches(" plies, ").count(), 4, "four games: {out}");
}

#[test]
fn python_chess_plays_full_games_over_xboard() {
    if !python_chess_available("python_chess_plays_full_games_over_xboard") {
        return;
    }
    let out = run_script("play_games.py", &["xboard"]);
    assert!(
        out.contains("xboard: all games legal and finished"),
        "{out}"
    );
    assert_eq!(out.matches(" plies, ").count(), 4, "four games: {out}");
}

#[test]
fn python_chess_analyses_with_multipv() {
    if !python_chess_available("python_chess_analyses_with_multipv") {
        return;
    }
    let out = run_script("analyse.py", &[]);
    assert!(out.contains("analysis: ok"), "{out}");
}

#[test]
fn python_chess_reads_a_san_match_pgn() {
    if !python_chess_available("python_chess_reads_a_san_match_pgn") {
        return;
    }
    let dir = common::fresh_temp_dir("python-match-pgn");
    let pgn = dir.join("games.pgn");
    let sako = common::sako_bin();
    let sako = sako.display();
    common::run_match(&common::words(&format!(
        "-engine cmd={sako} arg=uci proto=uci -engine cmd={sako} arg=uci proto=uci \
         -each nodes=300 -variant normal -games 2 -pgnout {}",
        pgn.display()
    )));
    let out = run_script("read_match_pgn.py", &[&pgn.display().to_string()]);
    assert!(out.contains("pgn: all games read"), "{out}");
    assert_eq!(out.matches(" plies, ").count(), 2, "two games: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}
