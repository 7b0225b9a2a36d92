//! `sako match` against deliberately broken engines (small shell scripts): one plays an
//! illegal move, one crashes, one never answers `go`, one stops answering altogether,
//! one makes false result claims over XBoard. Each foul must cost that engine the
//! game, be written into the PGN with its reason, and the match must go on (with
//! `-recover` for the engines that die). Also: the SPRT stops a one-sided match early,
//! and without `-recover` a crash ends the match after that game; and `sako match`
//! without arguments is bad input (the usage on standard error, exit status 2).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sako::matches::pgn::parse_pgn;
use sako::Game;

use crate::common;

use common::{fresh_temp_dir, run_match, words};

const SAKO: &str = env!("CARGO_BIN_EXE_sako");

/// Writes an executable `/bin/sh` script.
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).expect("write script");
    let mut perm = std::fs::metadata(&path).expect("stat").permissions();
    perm.set_mode(0o755);
    std::fs::set_permissions(&path, perm).expect("chmod");
    path
}

/// A UCI engine whose answer to `go` is `on_go` (shell commands).
fn uci_script(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    script(
        dir,
        name,
        &format!(
            r#"while read -r cmd rest; do
  case "$cmd" in
    uci) echo "id name {name}"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) {on_go} ;;
    quit) exit 0 ;;
  esac
done
"#
        ),
    )
}

/// Plays `games` games of sako (first engine) against `broken` and returns the PGN
/// games and standard output. `each` sets the broken engine's limits; sako keeps
/// its own lenient ones (a small node limit, a long move time), so that a loaded
/// machine cannot make it forfeit.
fn match_against(
    dir: &Path,
    broken: &str,
    broken_proto: &str,
    each: &str,
    games: usize,
    extra: &str,
) -> (Vec<sako::matches::pgn::PgnGame>, String) {
    let pgn = dir.join("games.pgn");
    let args = words(&format!(
        "-engine name=sako cmd={SAKO} arg=uci proto=uci st=30 nodes=1000 timemargin=5000 timeout=60 \
         -engine name=broken cmd={broken} proto={broken_proto} \
         -each {each} -variant normal -games {games} -pgnout {} {extra}",
        pgn.display()
    ));
    let out = run_match(&args);
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let parsed = parse_pgn(&text).expect("PGN parses");
    // Whatever happened, the moves in the PGN are legal.
    for g in &parsed {
        let mut game = Game::new("normal", g.tag("FEN")).expect("start");
        for m in &g.moves {
            game.play(m).expect("legal move in the PGN");
        }
    }
    (parsed, out)
}

/// True when the broken engine lost game `g`.
fn broken_lost(g: &sako::matches::pgn::PgnGame) -> bool {
    (g.tag("White") == Some("broken") && g.result == "0-1")
        || (g.tag("Black") == Some("broken") && g.result == "1-0")
}

#[test]
fn illegal_moves_forfeit() {
    let dir = fresh_temp_dir("broken-illegal");
    let engine = uci_script(&dir, "illegal", r#"echo "bestmove e2e5""#);
    let (games, out) = match_against(&dir, &engine.display().to_string(), "uci", "st=0.1", 2, "");
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(broken_lost(g), "{out}");
        assert_eq!(g.tag("Termination"), Some("illegal move"));
        let reason = g.comments.last().expect("reason");
        assert!(
            reason.contains("makes an illegal move: e2e5 in position "),
            "{reason}"
        );
    }
    assert!(out.contains("broken: 2 illegal moves"), "{out}");
    assert!(out.contains("Score of sako vs broken: 2 - 0 - 0"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn crashes_are_recovered_with_recover() {
    let dir = fresh_temp_dir("broken-crash");
    let engine = uci_script(&dir, "crash", "exit 3");
    let (games, out) = match_against(
        &dir,
        &engine.display().to_string(),
        "uci",
        "st=0.1",
        3,
        "-recover",
    );
    assert_eq!(games.len(), 3, "{out}");
    for g in &games {
        assert!(broken_lost(g), "{out}");
        assert_eq!(g.tag("Termination"), Some("abandoned"));
        assert!(g.comments.last().is_some_and(|c| c.contains("exited")));
    }
    assert!(out.contains("broken: 3 crashes"), "{out}");
    assert!(out.trim_end().ends_with("Finished match"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_crash_without_recover_stops_the_match() {
    let dir = fresh_temp_dir("broken-crash-stop");
    let engine = uci_script(&dir, "crash", "exit 3");
    let (games, out) = match_against(&dir, &engine.display().to_string(), "uci", "st=0.1", 4, "");
    assert_eq!(games.len(), 1, "{out}");
    assert!(out.contains("stopping the match"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn silence_loses_on_time() {
    let dir = fresh_temp_dir("broken-silent");
    // Answers isready, never bestmove.
    let engine = uci_script(&dir, "silent", ":");
    let (games, out) = match_against(
        &dir,
        &engine.display().to_string(),
        "uci",
        "st=0.2 timemargin=50",
        2,
        "",
    );
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(broken_lost(g), "{out}");
        assert_eq!(g.tag("Termination"), Some("time forfeit"));
        assert!(g
            .comments
            .last()
            .is_some_and(|c| c.ends_with("loses on time")));
    }
    assert!(out.contains("broken: 2 time losses"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_hung_engine_is_killed_and_restarted() {
    let dir = fresh_temp_dir("broken-hang");
    // After the first `go` it reads on but answers nothing, not even isready.
    let engine = script(
        &dir,
        "hang",
        r#"hung=0
while read -r cmd rest; do
  [ "$hung" = 1 ] && continue
  case "$cmd" in
    uci) echo "id name hang"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) hung=1 ;;
    quit) exit 0 ;;
  esac
done
"#,
    );
    let (games, out) = match_against(
        &dir,
        &engine.display().to_string(),
        "uci",
        "nodes=1000 timeout=1",
        2,
        "-recover",
    );
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(broken_lost(g), "{out}");
        assert_eq!(g.tag("Termination"), Some("stalled connection"));
        assert!(g.comments.last().is_some_and(|c| c.contains("stalls")));
    }
    assert!(out.contains("broken: 2 stalls"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn false_claims_lose_over_xboard() {
    let dir = fresh_temp_dir("broken-claim");
    let engine = script(
        &dir,
        "claimer",
        r#"while read -r cmd rest; do
  case "$cmd" in
    protover) echo 'feature myname="claimer" usermove=1 setboard=1 ping=1 done=1' ;;
    ping) echo "pong $rest" ;;
    go|usermove) echo '1/2-1/2 {Draw by repetition}' ;;
    quit) exit 0 ;;
  esac
done
"#,
    );
    let (games, out) = match_against(
        &dir,
        &engine.display().to_string(),
        "xboard",
        "st=0.1",
        2,
        "",
    );
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(broken_lost(g), "{out}");
        assert_eq!(g.tag("Termination"), Some("rules infraction"));
        assert!(
            g.comments
                .last()
                .is_some_and(|c| c.contains("false result claim: 1/2-1/2 (Draw by repetition)")),
            "{:?}",
            g.comments
        );
    }
    assert!(out.contains("broken: 2 false claims"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_a_one_sided_match() {
    let dir = fresh_temp_dir("broken-sprt");
    let engine = uci_script(&dir, "illegal", r#"echo "bestmove a1a1""#);
    let (games, out) = match_against(
        &dir,
        &engine.display().to_string(),
        "uci",
        "nodes=500",
        200,
        "-sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -concurrency 2",
    );
    assert!(out.contains("H1 was accepted"), "{out}");
    assert!(games.len() < 60, "{} games", games.len());
    assert!(out.contains("SPRT: llr "), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_arguments_is_bad_input() {
    let out = std::process::Command::new(SAKO)
        .arg("match")
        .output()
        .expect("run sako match");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "exit 0; stderr: {stderr}");
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("usage: sako match"), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
