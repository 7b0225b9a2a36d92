//! The real cutechess-cli as the client, in standard chess: sako against itself over UCI
//! and over XBoard, against Fairy-Stockfish 11.1 (UCI) and Fairy-Max (XBoard) where they
//! are installed, with clocks (`tc=`), a fixed time per move (`st=`), `-repeat`,
//! `-pgnout`, `-recover`, `-draw`/`-resign` adjudication and `-concurrency 2`.
//!
//! cutechess-cli is looked for in `$CUTECHESS`, then `<repo>/../shared/peers/bin/
//! cutechess-cli` (the build of 1.5.1 the project keeps next to the worktrees), then
//! `cutechess-cli` on `PATH`; it needs Qt 6 (Debian: `libqt6core6`). Without a working
//! binary every test fails when `CI` is set and otherwise passes with a visible
//! `cutechess::<test> SKIPPED ...` line (see `common::peer_missing`).
//!
//! Every case checks: the match finishes and every game has a result; no game ends with
//! sako making an illegal move, losing on time, disconnecting, stalling, crashing or
//! forfeiting by a wrong claim; every PGN game replays move by move (the SAN is read with
//! shakmaty, each move is then played by sako's rules core); and a game sako's rules say is
//! over has the result cutechess recorded, while a game cutechess ended by the rules (mate,
//! stalemate, repetition, fifty moves, material) is over by sako's rules too.
//!
//! cutechess-cli's default `timemargin` is 0: one scheduler delay of a few milliseconds on
//! a loaded machine forfeits a game at `st=0.1`. The cases play at 2+0.05 or `st=0.2` and
//! give both engines `timemargin=150`, so that a loss on time here means a real overstep
//! rather than a busy CI host (with 1+0.02 and 100 ms, a run beside an engine match on the
//! same two cores lost games on time; the fast-control reliability counts are a separate,
//! longer run).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;
use std::sync::Mutex;

use sako::matches::pgn::{parse_pgn, PgnGame};
use sako::Game;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Position};

use crate::common;

use common::{fresh_temp_dir, sako_bin, words};

/// One cutechess-cli at a time: the cases are short, and the machine may be busy.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Game end reasons that are a fault of the side they name (or, for the draws, of one of
/// the engines).
const FAULTS: [&str; 9] = [
    "illegal move",
    "loses on time",
    "disconnects",
    "stalls",
    "crash",
    "forfeits",
    "Draw by timeout",
    "Draw by disconnection",
    "Draw by stalled connection",
];

/// Reasons that mean cutechess ended the game by the rules of chess.
const BY_RULES: [&str; 5] = [
    "mates",
    "Draw by stalemate",
    "Draw by 3-fold repetition",
    "Draw by fifty moves rule",
    "Draw by insufficient mating material",
];

fn executable(p: &Path) -> bool {
    p.is_file()
}

/// The cutechess-cli binary, if one is found and starts (`--version`); otherwise
/// [`common::peer_missing`] (a failure in CI).
fn cutechess(test: &str) -> Option<PathBuf> {
    let full = format!("cutechess::{test}");
    let mut candidates = Vec::new();
    if let Some(p) = std::env::var_os("CUTECHESS") {
        candidates.push(PathBuf::from(p));
    }
    candidates
        .push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peers/bin/cutechess-cli"));
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join("cutechess-cli")));
    }
    let Some(found) = candidates.into_iter().find(|p| executable(p)) else {
        common::peer_missing(
            &full,
            "cutechess-cli (not in $CUTECHESS, <repo>/../shared/peers/bin/cutechess-cli or PATH)",
        );
        return None;
    };
    match Command::new(&found).arg("--version").output() {
        Ok(out) if out.status.success() => Some(found),
        Ok(out) => {
            common::peer_missing(
                &full,
                &format!(
                    "cutechess-cli: {} does not run (missing libqt6core6?): {}",
                    found.display(),
                    String::from_utf8_lossy(&out.stderr).trim()
                ),
            );
            None
        }
        Err(e) => {
            common::peer_missing(
                &full,
                &format!("cutechess-cli: cannot start {}: {e}", found.display()),
            );
            None
        }
    }
}

/// A peer engine from Debian's packages, or [`common::peer_missing`].
fn peer(test: &str, name: &str) -> Option<PathBuf> {
    let p = Path::new("/usr/games").join(name);
    if p.exists() {
        Some(p)
    } else {
        common::peer_missing(&format!("cutechess::{test}"), &p.display().to_string());
        None
    }
}

/// The text after the last ", " of the game's last comment: cutechess writes the end
/// reason there (`{+M1/5 0.003s, Black mates}`, `{Draw by adjudication: ...}`).
fn end_reason(g: &PgnGame) -> String {
    let last = g.comments.last().map(String::as_str).unwrap_or("");
    last.rsplit(", ").next().unwrap_or("").trim().to_string()
}

/// Runs cutechess-cli with `args` (a `-pgnout` file is added) and checks the games as the
/// module comment says; returns the games and cutechess's output.
fn play(test: &str, cc: &Path, args: &str, games: usize) -> (Vec<PgnGame>, String) {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = fresh_temp_dir(&format!("cutechess-{test}"));
    let pgn = dir.join("games.pgn");
    let mut argv = words(args);
    argv.extend(["-pgnout".to_string(), pgn.display().to_string()]);
    let out = Command::new(cc)
        .args(&argv)
        .current_dir(&dir)
        .output()
        .expect("run cutechess-cli");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let shown = format!("cutechess-cli {}\n{stdout}\n{stderr}", argv.join(" "));
    assert!(out.status.success(), "{shown}");
    assert!(stdout.contains("Finished match"), "{shown}");
    assert_eq!(
        stdout.matches("Finished game").count(),
        games,
        "games finished: {shown}"
    );
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    let parsed = parse_pgn(&text).expect("parse pgn");
    assert_eq!(parsed.len(), games, "{text}");
    for g in &parsed {
        check_game(g, &text);
    }
    let _ = std::fs::remove_dir_all(&dir);
    (parsed, stdout)
}

/// One PGN game: result, reason, replay and consistency with sako's rules.
fn check_game(g: &PgnGame, text: &str) {
    assert!(
        ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()),
        "no result: {text}"
    );
    let reason = end_reason(g);
    let white = g.tag("White").unwrap_or("");
    let black = g.tag("Black").unwrap_or("");
    eprintln!(
        "{white} vs {black}: {} {{{reason}}} after {} plies",
        g.result,
        g.moves.len()
    );
    if let Some(fault) = FAULTS.iter().find(|f| reason.contains(*f)) {
        let culprits: Vec<&str> = if reason.starts_with("White") {
            vec![white]
        } else if reason.starts_with("Black") {
            vec![black]
        } else {
            vec![white, black]
        };
        assert!(
            !culprits.iter().any(|n| n.starts_with("sako")),
            "sako's fault ({fault}): {reason}\n{text}"
        );
        eprintln!("note: a peer's fault, not sako's: {white} vs {black}: {reason}");
    }
    if let Some(n) = g.tag("PlyCount") {
        assert_eq!(n.parse::<usize>().ok(), Some(g.moves.len()), "{text}");
    }
    // The SAN through shakmaty, every move through sako's rules core.
    let mut pos: Chess = match g.tag("FEN") {
        Some(fen) => Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position(CastlingMode::Standard).ok())
            .unwrap_or_else(|| panic!("shakmaty refuses the FEN tag {fen}: {text}")),
        None => Chess::default(),
    };
    let mut game = Game::new("normal", g.tag("FEN")).expect("start");
    for san in &g.moves {
        let m = SanPlus::from_str(san)
            .ok()
            .and_then(|s| s.san.to_move(&pos).ok())
            .unwrap_or_else(|| panic!("SAN {san} does not read: {text}"));
        let uci = m.to_uci(CastlingMode::Standard).to_string();
        game.play(&uci)
            .unwrap_or_else(|e| panic!("sako refuses {san} ({uci}): {e}\n{text}"));
        pos.play_unchecked(m);
    }
    let over = game.outcome().map(|o| o.result.pgn().to_string());
    if let Some(r) = &over {
        assert_eq!(
            r, &g.result,
            "sako's rules end the game differently: {text}"
        );
    }
    if BY_RULES.iter().any(|r| reason.contains(r)) {
        assert_eq!(
            over.as_deref(),
            Some(g.result.as_str()),
            "cutechess ended the game by the rules ({reason}), sako's rules do not: {text}"
        );
    }
}

fn sako_uci(name: &str) -> String {
    format!(
        "-engine name={name} cmd={} arg=uci proto=uci",
        sako_bin().display()
    )
}

fn sako_xboard(name: &str) -> String {
    format!(
        "-engine name={name} cmd={} arg=xboard proto=xboard",
        sako_bin().display()
    )
}

#[test]
fn sako_vs_sako_uci_clock_repeat_recover() {
    let test = "sako_vs_sako_uci_clock_repeat_recover";
    let Some(cc) = cutechess(test) else { return };
    play(
        test,
        &cc,
        &format!(
            "{} {} -each tc=2+0.05 timemargin=150 -variant standard -games 2 -repeat \
             -recover -maxmoves 40",
            sako_uci("sako-a"),
            sako_uci("sako-b")
        ),
        2,
    );
}

/// cutechess-cli sends XBoard `st` in whole seconds (`st 0` for 0.2 s) followed by
/// `time`/`otim` holding the move time in centiseconds; sako's XBoard side plays on that clock.
#[test]
fn sako_uci_vs_sako_xboard_movetime() {
    let test = "sako_uci_vs_sako_xboard_movetime";
    let Some(cc) = cutechess(test) else { return };
    play(
        test,
        &cc,
        &format!(
            "{} {} -each st=0.2 timemargin=150 -variant standard -games 2 -repeat \
             -maxmoves 30",
            sako_uci("sako-uci"),
            sako_xboard("sako-xboard")
        ),
        2,
    );
}

#[test]
fn sako_vs_fairy_stockfish_uci_adjudication() {
    let test = "sako_vs_fairy_stockfish_uci_adjudication";
    let Some(cc) = cutechess(test) else { return };
    let Some(fsf) = peer(test, "fairy-stockfish") else {
        return;
    };
    play(
        test,
        &cc,
        &format!(
            "{} -engine name=fsf cmd={} proto=uci -each tc=2+0.05 timemargin=150 \
             -variant standard -games 2 -repeat -recover -maxmoves 60 \
             -draw movenumber=20 movecount=4 score=10 -resign movecount=3 score=500",
            sako_uci("sako"),
            fsf.display()
        ),
        2,
    );
}

#[test]
fn sako_xboard_vs_fairymax() {
    let test = "sako_xboard_vs_fairymax";
    let Some(cc) = cutechess(test) else { return };
    let Some(fm) = peer(test, "fairymax") else {
        return;
    };
    play(
        test,
        &cc,
        &format!(
            "{} -engine name=fairymax cmd={} proto=xboard -each tc=2+0.05 timemargin=150 \
             -variant standard -games 2 -repeat -recover -maxmoves 40",
            sako_xboard("sako"),
            fm.display()
        ),
        2,
    );
}

#[test]
fn sako_concurrency_two() {
    let test = "sako_concurrency_two";
    let Some(cc) = cutechess(test) else { return };
    let (_, stdout) = play(
        test,
        &cc,
        &format!(
            "{} {} -each tc=2+0.05 timemargin=150 -variant standard -games 2 -repeat \
             -concurrency 2 -maxmoves 30 -draw movenumber=15 movecount=3 score=20",
            sako_uci("sako-uci"),
            sako_xboard("sako-xboard")
        ),
        2,
    );
    assert!(stdout.contains("Started game 2 of 2"), "{stdout}");
}

/// The long reliability runs (`scripts/reliability`) leave cutechess-cli PGNs of sako
/// against itself; with `SAKO_CUTECHESS_PGN` naming such files (separated by `:`) every
/// game is checked as above, and no game may end by a fault of either side, both being
/// sako. Without the variable the case makes its own: two short cutechess-cli games of
/// sako against itself (UCI against XBoard, `st=0.2`), so it always checks something.
#[test]
fn reliability_pgns_replay() {
    let test = "reliability_pgns_replay";
    let Ok(files) = std::env::var("SAKO_CUTECHESS_PGN") else {
        let Some(cc) = cutechess(test) else { return };
        let (games, _) = play(
            test,
            &cc,
            &format!(
                "{} {} -each st=0.2 timemargin=150 -variant standard -games 2 -repeat \
                 -maxmoves 20",
                sako_uci("sako-a"),
                sako_xboard("sako-b")
            ),
            2,
        );
        for g in &games {
            let reason = end_reason(g);
            assert!(
                !FAULTS.iter().any(|f| reason.contains(f)),
                "a game of sako against itself ends by a fault: {reason}"
            );
        }
        return;
    };
    for file in files.split(':').filter(|f| !f.is_empty()) {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let games = parse_pgn(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!games.is_empty(), "{file}: no games");
        for g in &games {
            let reason = end_reason(g);
            assert!(
                !FAULTS.iter().any(|f| reason.contains(f)),
                "{file}: a game ends by a fault: {reason}"
            );
            check_game(g, &text);
        }
        eprintln!("{file}: {} games replayed, no fault", games.len());
    }
}
