//! Protocol robustness: thousands of random, truncated and malformed lines fed to
//! `sako xboard` and `sako uci` (bad FENs, moves off the board, drops of pieces not in
//! hand, commands out of order, binary junk, very long lines, `go` while searching,
//! `usermove` in analysis, variant switches mid-search), interleaved with `ping N`
//! (XBoard) / `isready` (UCI). The engine must answer every ping within a few seconds,
//! never print `panicked` on standard error, and exit with status 0 after `quit`.
//! Deterministic: every run sends the same lines (the seed is printed on failure);
//! `SAKO_FUZZ_SEED=N` replaces the seeds of the two random-line tests to explore more.

mod common;

use common::process::SakoProcess;
use common::Rng;
use sako::rules::variant::all_variants;
use std::collections::{BTreeMap, VecDeque};
use std::io::Write;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the engine may take to answer a ping.
const PING_TIMEOUT: Duration = Duration::from_secs(5);
/// Lines of the conversation shown when something fails.
const LOG_TAIL: usize = 400;

/// A random variant name of the engine's list.
fn random_variant(rng: &mut Rng) -> &'static str {
    let all = all_variants();
    all[rng.below(all.len())].name
}

/// Start FENs and a few middle-game or special positions of every variant.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
    "8/4P2k/8/8/8/8/P7/K7 w - - 0 1",
    "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1",
    "qnbkrbnc/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQkq - 0 1",
    "c3k2q/8/8/8/8/8/8/C3K2Q w KQkq - 0 1",
    "wnegkmhenw/pppppppppp/10/10/10/10/PPPPPPPPPP/WNEGKMHENW w - - 0 1",
    "4k4w/2P7/10/10/10/10/10/4K5[G] w - - 0 1",
    "4k4w/2P7/10/10/10/10/10/4K5[SSSSSSSSSsssssssss] w - - 0 1",
    "8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee] w - - 0 1",
    "rnbqkbnr/1e2pppp/pppp4/8/8/4PPPP/PPPP1E1E/RNBQKBNR[e] b - - 0 10",
    "k7/8/1K6/8/3N4/8/8/8[] w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR[Hh] w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3[Hh] w - - 0 1",
    "kr6/2K5/8/8/8/8/8/1Q6[h] w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 1",
    "kb6/p7/8/8/8/8/2B5/6K1 w - - 0 1",
    "rnbqkabnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1",
    "r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1",
    "4k4/1P7/9/9/9/9/9/9/4K4 w - - 0 1",
];

/// Moves that are legal somewhere (so that games make progress between the junk).
const COMMON_MOVES: &[&str] = &[
    "e2e4", "e7e5", "d2d4", "d7d5", "g1f3", "b8c6", "e2e3", "e7e6", "K@e1", "k@e8", "K@d1", "Q@d8",
    "E@b1", "e@a8", "e1d2h", "e8d7h", "e1d2", "e8d7", "e1f2", "e1g1", "e8g8", "e1c1", "e1b1",
    "e9h9", "e1e3", "e8e6", "c7c8", "c7c8g", "c7c8s", "b8b9a", "e7e8n", "a1a8", "j2j3", "i2i4",
    "a7a8c", "d8f8", "d8b8",
];

/// A random square, sometimes off every board (10th/11th file, rank 0 or 10+).
fn square(rng: &mut Rng) -> String {
    let files = "abcdefghijkl";
    let span = if rng.below(5) == 0 { 12 } else { 9 };
    let f = files.as_bytes()[rng.below(span)] as char;
    let r = if rng.below(6) == 0 {
        [0, 10, 11, 99][rng.below(4)]
    } else {
        1 + rng.below(9)
    };
    format!("{f}{r}")
}

/// A random move text: board moves with odd suffixes, drops of any letter, junk.
fn random_move(rng: &mut Rng) -> String {
    match rng.below(10) {
        0..=3 => COMMON_MOVES[rng.below(COMMON_MOVES.len())].to_string(),
        4..=6 => {
            let suffixes = [
                "", "", "", "q", "n", "c", "a", "g", "s", "h", "e", "k", "p", "x", "Q",
            ];
            format!(
                "{}{}{}",
                square(rng),
                square(rng),
                suffixes[rng.below(suffixes.len())]
            )
        }
        7 | 8 => {
            let pieces = "KQRBNEPHCAGSMWkqrbnephcagsmwxZ";
            let p = pieces.as_bytes()[rng.below(pieces.len())] as char;
            format!("{p}@{}", square(rng))
        }
        _ => {
            let junk = [
                "", "@", "e2", "e2e", "@@e4", "0000", "O-O", "e2-e4", "Nf3", "e2e4+", "--",
            ];
            junk[rng.below(junk.len())].to_string()
        }
    }
}

/// A FEN: a good one, one of another variant, or a mutated one.
fn random_fen(rng: &mut Rng) -> String {
    let fen = FENS[rng.below(FENS.len())].to_string();
    match rng.below(6) {
        0..=2 => fen,
        3 => {
            // truncated
            let cut = rng.below(fen.len() + 1);
            fen[..cut].to_string()
        }
        4 => {
            // characters replaced
            let alphabet = b"pnbrqkPNBRQKehEHcCaAgGsSwWmMxX0123456789/[]- wbKQkq@";
            let mut bytes = fen.into_bytes();
            for _ in 0..1 + rng.below(4) {
                let i = rng.below(bytes.len());
                bytes[i] = alphabet[rng.below(alphabet.len())];
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => {
            let odd = [
                "8/8/8/8/8/8/8/8 w - - 0 1",
                "k7/8/8/8/8/8/8/7K w - - 0 1",
                "K7/8/8/8/8/8/8/7K w - - 0 1",
                "kK6/8/8/8/8/8/8/8 w - - 0 1",
                "99999999999999999999/8/8/8/8/8/8/8 w - - 0 1",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[KKKKKKKKKKKKKKKKKKKKKKKKKKKK] w - - 0 1",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 -5 x",
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 99999999999999999999 1",
                "pppppppp/8/8/8/8/8/8/PPPPPPPP w - - 0 1",
                "4k3/8/8/8/8/8/8/4K2R[ w - - 0 1",
                "4k3/8/8/8/8/8/8/4K2R] w - - 0 1",
                "",
                "/////////",
                "[]",
            ];
            odd[rng.below(odd.len())].to_string()
        }
    }
}

/// `min` to `min + spread - 1` random bytes without a newline (invalid UTF-8, NUL, CR,
/// control characters).
fn junk_bytes(rng: &mut Rng, min: usize, spread: usize) -> Vec<u8> {
    let len = min + rng.below(spread);
    (0..len)
        .map(|_| loop {
            let b = (rng.next_u64() & 0xff) as u8;
            if b != b'\n' {
                break b;
            }
        })
        .collect()
}

/// A small positive number, or a silly one.
fn number(rng: &mut Rng) -> String {
    let odd = [
        "-1",
        "0",
        "x",
        "",
        "1e9",
        "99999999999999999999999",
        "3.5",
        "-0",
        "NaN",
    ];
    if rng.below(4) == 0 {
        odd[rng.below(odd.len())].to_string()
    } else {
        (rng.below(3000)).to_string()
    }
}

/// One XBoard line (never `quit`).
fn xboard_line(rng: &mut Rng) -> Vec<u8> {
    let v = random_variant(rng);
    let line = match rng.below(40) {
        0 => "new".to_string(),
        1 => "force".to_string(),
        2 => "go".to_string(),
        3 => "playother".to_string(),
        4 => format!("variant {v}"),
        5 => format!(
            "variant {}",
            ["foo", "", "NORMAL", "crazyhouse", "great shatranj"][rng.below(5)]
        ),
        6..=10 => format!("usermove {}", random_move(rng)),
        11 => random_move(rng),
        12 => format!("setboard {}", random_fen(rng)),
        13 => "analyze".to_string(),
        14 => "exit".to_string(),
        15 => ".".to_string(),
        16 => "?".to_string(),
        17 => "undo".to_string(),
        18 => "remove".to_string(),
        19 => format!("sd {}", 1 + rng.below(5)),
        20 => format!("sd {}", number(rng)),
        21 => format!(
            "st {}",
            ["0.05", "0.1", "0.02", "x", "0", "-3", "1e-9"][rng.below(7)]
        ),
        22 => format!(
            "level {} {} {}",
            number(rng),
            ["0:05", "1", "0:1", "x:y", ":", "5:"][rng.below(6)],
            number(rng)
        ),
        23 => format!("time {}", number(rng)),
        24 => format!("otim {}", number(rng)),
        25 => format!(
            "holding [{}] [{}]",
            ["", "Q", "KQRRBBNNEE", "H", "XYZ", "[["][rng.below(6)],
            ["", "q", "kqrrbbnnee", "h", "]]"][rng.below(5)]
        ),
        26 => format!("memory {}", [1, 2, 8, 16, 0][rng.below(5)]),
        27 => format!("cores {}", ["1", "2", "0", "x"][rng.below(4)]),
        28 => format!("exclude {}", random_move(rng)),
        29 => format!("include {}", ["all", "e2e4", "K@e1"][rng.below(3)]),
        30 => "exclude all".to_string(),
        31 => format!(
            "result {}",
            ["1-0 {x}", "*", "0-1", "1/2-1/2 {y}", ""][rng.below(5)]
        ),
        32 => [
            "post", "nopost", "hard", "easy", "random", "computer", "draw", "hint", "bk", "white",
            "black",
        ][rng.below(11)]
        .to_string(),
        33 => format!(
            "option {}",
            [
                "Clear Hash",
                "Eval tables=",
                "Eval tables=/nonexistent/dir",
                "Nope=1",
                "=",
                ""
            ][rng.below(6)]
        ),
        34 => format!("{} {}", ["lift", "put", "hover"][rng.below(3)], square(rng)),
        35 => format!("protover {}", number(rng)),
        36 => [
            "uci",
            "isready",
            "go infinite",
            "position startpos",
            "stop",
            "accepted ping",
            "rejected x",
            "name x y z",
            "rating 10 20",
            "ics -",
        ][rng.below(10)]
        .to_string(),
        37 => {
            // a truncated command
            let full = format!("setboard {}", FENS[rng.below(FENS.len())]);
            full[..rng.below(full.len())].to_string()
        }
        38 => return junk_bytes(rng, 1, 200),
        _ => String::from_utf8_lossy(&junk_bytes(rng, 0, 30)).into_owned(),
    };
    line.into_bytes()
}

/// One UCI line (never `quit`).
fn uci_line(rng: &mut Rng) -> Vec<u8> {
    let v = random_variant(rng);
    let moves = |rng: &mut Rng| -> String {
        (0..rng.below(8))
            .map(|_| random_move(rng))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let line = match rng.below(34) {
        0 => "ucinewgame".to_string(),
        1 | 2 => format!("setoption name UCI_Variant value {v}"),
        3 => format!(
            "setoption name UCI_Variant value {}",
            ["chess", "", "foo", "CHESS", "great shatranj"][rng.below(5)]
        ),
        4..=7 => format!("position startpos moves {}", moves(rng)),
        8 | 9 => format!("position fen {} moves {}", random_fen(rng), moves(rng)),
        10 => format!("position fen {}", random_fen(rng)),
        11 => format!(
            "position {}",
            [
                "",
                "startpos",
                "moves e2e4",
                "fen",
                "sideways",
                "startpos moves"
            ][rng.below(6)]
        ),
        12..=14 => format!("go depth {}", 1 + rng.below(5)),
        15 => format!("go nodes {}", rng.below(20000)),
        16 => format!("go movetime {}", rng.below(100)),
        17 => format!(
            "go wtime {} btime {} winc {} binc {}",
            number(rng),
            number(rng),
            number(rng),
            number(rng)
        ),
        18 => "go infinite".to_string(),
        19 => format!("go ponder wtime {} btime {}", number(rng), number(rng)),
        20 => "stop".to_string(),
        21 => "ponderhit".to_string(),
        22 => format!("go perft {}", rng.below(4)),
        23 => format!(
            "go {}",
            [
                "",
                "depth",
                "depth x",
                "mate 2",
                "movestogo 0",
                "searchmoves",
                "searchmoves zz e2e4",
                "infinite depth 2",
                "perft",
                "perft -1",
                "nodes 0"
            ][rng.below(11)]
        ),
        24 => format!(
            "setoption name MultiPV value {}",
            ["1", "2", "3", "0", "500", "x"][rng.below(6)]
        ),
        25 => format!(
            "setoption name Hash value {}",
            ["1", "2", "16", "0", "x", "-5"][rng.below(6)]
        ),
        26 => format!(
            "setoption name Threads value {}",
            ["1", "2", "3", "0", "x"][rng.below(5)]
        ),
        27 => format!(
            "setoption {}",
            [
                "name",
                "",
                "name Clear Hash",
                "name Move Overhead value 99999999",
                "name Ponder value maybe",
                "name EvalTables value /nonexistent",
                "name EvalTables value <empty>",
                "value 3",
                "name  value "
            ][rng.below(9)]
        ),
        28 => [
            "d",
            "uci",
            "isready",
            "debug on",
            "register later",
            "xboard",
            "protover 2",
            "new",
            "usermove e2e4",
            "ping 3",
        ][rng.below(10)]
        .to_string(),
        29 => {
            let full = format!("position fen {} moves e2e4", FENS[rng.below(FENS.len())]);
            full[..rng.below(full.len())].to_string()
        }
        30 => return junk_bytes(rng, 1, 200),
        _ => String::from_utf8_lossy(&junk_bytes(rng, 0, 30)).into_owned(),
    };
    line.into_bytes()
}

/// A very long line: junk, a huge FEN, or a long legal move list (knights back and forth).
fn long_line(rng: &mut Rng, uci: bool) -> Vec<u8> {
    match rng.below(3) {
        0 => junk_bytes(rng, 50_000, 150_000),
        1 => {
            let shuffle = " g1f3 g8f6 f3g1 f6g8".repeat(2_000);
            if uci {
                format!("position startpos moves{shuffle}").into_bytes()
            } else {
                format!("usermove{shuffle}").into_bytes()
            }
        }
        _ => {
            let mut s = String::from(if uci { "position fen " } else { "setboard " });
            s.push_str(&"rnbqkbnr/".repeat(10_000));
            s.into_bytes()
        }
    }
}

struct Engine {
    process: SakoProcess,
    log: Arc<Mutex<VecDeque<String>>>,
    /// Output lines counted by their first word (`move`, `Illegal`, `bestmove`...).
    kinds: Arc<Mutex<BTreeMap<String, usize>>>,
}

fn push_log(log: &Mutex<VecDeque<String>>, text: String) {
    let mut l = log.lock().unwrap();
    if l.len() >= LOG_TAIL {
        l.pop_front();
    }
    l.push_back(text);
}

/// Shows a sent line: printable text, at most 200 characters, bytes escaped.
fn shown(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]);
    let mut s: String = text
        .chars()
        .map(|c| if c.is_control() { '·' } else { c })
        .collect();
    if bytes.len() > 200 {
        s += &format!("... ({} bytes)", bytes.len());
    }
    s
}

impl Engine {
    fn spawn(args: &[&str]) -> Engine {
        let log = Arc::new(Mutex::new(VecDeque::new()));
        let kinds = Arc::new(Mutex::new(BTreeMap::new()));
        let out_log = Arc::clone(&log);
        let out_kinds = Arc::clone(&kinds);
        let process = SakoProcess::spawn(args, move |line: &str| {
            push_log(&out_log, format!("< {}", shown(line.as_bytes())));
            let word = line.split_whitespace().next().unwrap_or("");
            let word = if !word.is_empty() && word.chars().all(|c| c.is_ascii_digit()) {
                "(thinking)"
            } else {
                word
            };
            *out_kinds
                .lock()
                .unwrap()
                .entry(word.to_string())
                .or_insert(0) += 1;
        });
        Engine {
            process,
            log,
            kinds,
        }
    }

    /// The output seen so far, counted by first word.
    fn summary(&self) -> String {
        let k = self.kinds.lock().unwrap();
        let keep = [
            "move",
            "bestmove",
            "Illegal",
            "Error",
            "info",
            "(thinking)",
            "tellusererror",
            "stat01:",
            "1-0",
            "0-1",
            "1/2-1/2",
            "Nodes",
            "highlight",
        ];
        keep.iter()
            .filter_map(|w| k.get(*w).map(|n| format!("{w} {n}")))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn report(&self, what: &str, seed: u64) -> String {
        let log: Vec<String> = self.log.lock().unwrap().iter().cloned().collect();
        let err = self.process.stderr.lock().unwrap();
        let err_tail = &err[err.len().saturating_sub(4000)..];
        format!(
            "{what} (seed {seed:#x})\n--- last {} lines of the conversation ---\n{}\n--- stderr (tail) ---\n{err_tail}\n--- end ---",
            log.len(),
            log.join("\n")
        )
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        push_log(&self.log, format!("> {}", shown(bytes)));
        let Some(stdin) = self.process.stdin.as_mut() else {
            return Err("standard input is closed".into());
        };
        stdin
            .write_all(bytes)
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    /// Waits for the line `reply`, skipping others.
    fn wait_for(&mut self, reply: &str, timeout: Duration) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.process.lines.recv_timeout(left) {
                Ok(l) if l == reply => return Ok(()),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "no '{reply}' within {:.0} s: the engine hangs",
                        timeout.as_secs_f64()
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("the engine closed its output before '{reply}'"))
                }
            }
        }
    }
}

/// Feeds `count` random lines to `sako <protocol>` with a ping every few lines.
fn fuzz(protocol: &str, seed: u64, count: usize, budget: Duration) {
    let uci = protocol == "uci";
    let mut rng = Rng::new(seed);
    let mut engine = Engine::spawn(&[protocol]);
    let started = Instant::now();
    let mut ping = 0u64;
    let fail = |engine: &Engine, what: String| -> ! { panic!("{}", engine.report(&what, seed)) };
    let handshake: &[&str] = if uci {
        &["uci", "isready"]
    } else {
        &["xboard", "protover 2"]
    };
    for h in handshake {
        if let Err(e) = engine.send(h.as_bytes()) {
            fail(&engine, e);
        }
    }
    let mut sent = 0;
    let mut next_ping = 1;
    while sent < count {
        let line = if rng.below(300) == 0 {
            long_line(&mut rng, uci)
        } else if uci {
            uci_line(&mut rng)
        } else {
            xboard_line(&mut rng)
        };
        if let Err(e) = engine.send(&line) {
            fail(&engine, e);
        }
        sent += 1;
        next_ping -= 1;
        if next_ping == 0 || sent == count {
            next_ping = 1 + rng.below(8);
            ping += 1;
            let (cmd, reply) = if uci {
                ("isready".to_string(), "readyok".to_string())
            } else {
                (format!("ping {ping}"), format!("pong {ping}"))
            };
            let mut r = engine
                .send(cmd.as_bytes())
                .and_then(|_| engine.wait_for(&reply, PING_TIMEOUT));
            if r.is_err() && !uci {
                // A ping that arrives while the engine thinks about its own move is answered
                // after the move (engine-intf); random `time`/`level` lines can make that
                // think long. An interface would send `?` (move now): so do we, once.
                r = engine
                    .send(b"?")
                    .and_then(|_| engine.wait_for(&reply, PING_TIMEOUT));
            }
            if let Err(e) = r {
                fail(&engine, format!("after {sent} lines: {e}"));
            }
            if engine.process.panicked() {
                fail(&engine, format!("after {sent} lines: the engine panicked"));
            }
            if started.elapsed() > budget {
                // A slow machine: stop early rather than time out the suite.
                eprintln!(
                    "{protocol}: stopped after {sent} of {count} lines ({:.0} s budget)",
                    budget.as_secs_f64()
                );
                break;
            }
        }
    }
    if let Err(e) = engine.send(b"quit") {
        fail(&engine, e);
    }
    let status = match engine.process.wait_exit(Duration::from_secs(10)) {
        Ok(s) => s,
        Err(e) => fail(&engine, e),
    };
    std::thread::sleep(Duration::from_millis(50));
    if engine.process.panicked() {
        fail(&engine, "the engine panicked".into());
    }
    if !status.success() {
        fail(&engine, format!("exit status {status} after quit"));
    }
    eprintln!(
        "{protocol}: {sent} lines, {ping} pings answered, {:.1} s; output: {}",
        started.elapsed().as_secs_f64(),
        engine.summary()
    );
}

/// The seed: `SAKO_FUZZ_SEED` if set, else `default`.
fn seed(default: u64) -> u64 {
    match std::env::var("SAKO_FUZZ_SEED") {
        Ok(s) => s
            .parse()
            .unwrap_or_else(|_| panic!("SAKO_FUZZ_SEED must be a number, not '{s}'")),
        Err(_) => default,
    }
}

#[test]
fn xboard_survives_random_input() {
    fuzz("xboard", seed(0x5A4B_0001), 10_000, Duration::from_secs(25));
}

#[test]
fn uci_survives_random_input() {
    fuzz("uci", seed(0x5A4B_0002), 10_000, Duration::from_secs(25));
}

#[test]
fn xboard_variant_switches_and_analysis_while_searching() {
    // Targeted: a search or an analysis is always running when the next command comes.
    let mut engine = Engine::spawn(&["xboard"]);
    let seed = 0x5A4B_0003;
    let mut rng = Rng::new(seed);
    let fail = |engine: &Engine, what: String| -> ! { panic!("{}", engine.report(&what, seed)) };
    let mut ping = 0;
    for l in ["xboard", "protover 2", "new", "post"] {
        if let Err(e) = engine.send(l.as_bytes()) {
            fail(&engine, e);
        }
    }
    for round in 0..150 {
        let v = random_variant(&mut rng);
        let script: Vec<String> = match round % 5 {
            0 => vec![
                "analyze".into(),
                format!("usermove {}", random_move(&mut rng)),
                format!("variant {v}"),
                "analyze".into(),
                format!("usermove {}", random_move(&mut rng)),
                "undo".into(),
            ],
            1 => vec![
                format!("variant {v}"),
                "st 5".into(),
                "go".into(),
                format!("variant {}", random_variant(&mut rng)),
                "go".into(),
                "?".into(),
            ],
            2 => vec![
                "new".into(),
                "st 5".into(),
                "usermove e2e4".into(),
                "usermove e7e5".into(),
                "go".into(),
                "go".into(),
                "force".into(),
            ],
            3 => vec![
                "analyze".into(),
                format!("setboard {}", random_fen(&mut rng)),
                "exclude all".into(),
                "include all".into(),
                ".".into(),
                "remove".into(),
                "exit".into(),
            ],
            _ => vec![
                format!("variant {v}"),
                "analyze".into(),
                format!("holding [{}] []", ["Q", "", "H"][rng.below(3)]),
                "memory 4".into(),
                "cores 2".into(),
                "new".into(),
            ],
        };
        for l in script {
            if let Err(e) = engine.send(l.as_bytes()) {
                fail(&engine, e);
            }
        }
        ping += 1;
        let r = engine
            .send(format!("ping {ping}").as_bytes())
            .and_then(|_| engine.wait_for(&format!("pong {ping}"), PING_TIMEOUT));
        if let Err(e) = r {
            fail(&engine, format!("round {round}: {e}"));
        }
    }
    if let Err(e) = engine.send(b"quit") {
        fail(&engine, e);
    }
    match engine.process.wait_exit(Duration::from_secs(10)) {
        Ok(s) if s.success() => {}
        Ok(s) => fail(&engine, format!("exit status {s}")),
        Err(e) => fail(&engine, e),
    }
    std::thread::sleep(Duration::from_millis(50));
    if engine.process.panicked() {
        fail(&engine, "the engine panicked".into());
    }
}

#[test]
fn uci_go_while_searching_and_variant_switches() {
    let mut engine = Engine::spawn(&["uci"]);
    let seed = 0x5A4B_0004;
    let mut rng = Rng::new(seed);
    let fail = |engine: &Engine, what: String| -> ! { panic!("{}", engine.report(&what, seed)) };
    for l in ["uci", "setoption name MultiPV value 2"] {
        if let Err(e) = engine.send(l.as_bytes()) {
            fail(&engine, e);
        }
    }
    for round in 0..150 {
        let v = random_variant(&mut rng);
        let script: Vec<String> = match round % 4 {
            0 => vec![
                "go infinite".into(),
                "go infinite".into(),
                format!("setoption name UCI_Variant value {v}"),
                "go depth 30".into(),
                "position startpos moves e2e4".into(),
                "go ponder".into(),
                "ponderhit".into(),
            ],
            1 => vec![
                format!("setoption name UCI_Variant value {v}"),
                "go infinite".into(),
                "ucinewgame".into(),
                "go movetime 5000".into(),
                "setoption name Hash value 2".into(),
                "stop".into(),
                "stop".into(),
            ],
            2 => vec![
                "go ponder".into(),
                format!(
                    "position fen {} moves {}",
                    random_fen(&mut rng),
                    random_move(&mut rng)
                ),
                "go infinite".into(),
                "go perft 2".into(),
                "ponderhit".into(),
            ],
            _ => vec![
                "go infinite".into(),
                "setoption name Threads value 2".into(),
                "go depth 40".into(),
                "setoption name MultiPV value 3".into(),
                "go infinite".into(),
                "stop".into(),
            ],
        };
        for l in script {
            if let Err(e) = engine.send(l.as_bytes()) {
                fail(&engine, e);
            }
        }
        let r = engine
            .send(b"isready")
            .and_then(|_| engine.wait_for("readyok", PING_TIMEOUT));
        if let Err(e) = r {
            fail(&engine, format!("round {round}: {e}"));
        }
    }
    if let Err(e) = engine.send(b"quit") {
        fail(&engine, e);
    }
    match engine.process.wait_exit(Duration::from_secs(10)) {
        Ok(s) if s.success() => {}
        Ok(s) => fail(&engine, format!("exit status {s}")),
        Err(e) => fail(&engine, e),
    }
    std::thread::sleep(Duration::from_millis(50));
    if engine.process.panicked() {
        fail(&engine, "the engine panicked".into());
    }
}
