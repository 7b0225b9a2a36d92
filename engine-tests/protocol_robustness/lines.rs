//! The random, truncated and malformed lines the robustness tests send: FENs, moves,
//! numbers, commands of the wrong arity, junk bytes, bursts and very long lines.

use crate::common::Rng;
use sako::rules::variant::all_variants;
/// A random variant name of the engine's list.
pub(super) fn random_variant(rng: &mut Rng) -> &'static str {
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
pub(super) fn random_move(rng: &mut Rng) -> String {
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
pub(super) fn random_fen(rng: &mut Rng) -> String {
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

/// A small positive number, or a silly one: negative, fractional, not a number, or at and
/// past the limits of the integer types.
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
        "inf",
        "-inf",
        "1e308",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "-9223372036854775808",
        "18446744073709551615",
        "18446744073709551616",
        "+5",
        "0x10",
        "١٢",
    ];
    if rng.below(4) == 0 {
        odd[rng.below(odd.len())].to_string()
    } else {
        (rng.below(3000)).to_string()
    }
}

/// A number for a setting whose valid values cost memory (`Hash`, `memory`): small, or
/// invalid (negative, fractional, past `u64`), never a large valid size, so that the fuzz
/// does not allocate gigabytes.
fn size_number(rng: &mut Rng) -> String {
    rng.pick(&[
        "1",
        "2",
        "8",
        "16",
        "0",
        "-5",
        "x",
        "",
        "1.5",
        "99999999999999999999999",
        "-9223372036854775808",
    ])
}

/// An XBoard command with too few or too many arguments.
fn xboard_wrong_arity(rng: &mut Rng) -> String {
    rng.pick(&[
        "usermove",
        "usermove e2e4 e7e5",
        "level",
        "level 40",
        "level 40 5",
        "level 1 2 3 4",
        "level 40 5 0 extra",
        "st",
        "st 1 2",
        "sd",
        "sd 3 4",
        "time",
        "time 100 200",
        "otim",
        "setboard",
        "variant",
        "variant normal extra",
        "memory",
        "memory 8 8",
        "cores",
        "cores 1 1",
        "holding",
        "holding [Q]",
        "holding [Q] [q] [x]",
        "exclude",
        "include",
        "option",
        "lift",
        "put",
        "protover",
        "result",
        "new extra",
        "force now",
        "go go",
        "? ?",
        "undo 5",
        "analyze now",
    ])
}

/// A UCI command with too few or too many arguments.
fn uci_wrong_arity(rng: &mut Rng) -> String {
    rng.pick(&[
        "position",
        "position startpos e2e4",
        "position fen",
        "position fen moves",
        "position startpos moves moves",
        "position startpos startpos",
        "position fen startpos",
        "setoption",
        "setoption name",
        "setoption name Hash",
        "setoption name Hash value",
        "setoption name Hash value 1 2",
        "setoption name UCI_Variant",
        "setoption name UCI_Variant value",
        "setoption name UCI_Variant value normal extra",
        "setoption value 5 name Hash",
        "go wtime",
        "go wtime btime",
        "go depth 2 depth",
        "go movestogo",
        "go nodes nodes 5",
        "go searchmoves",
        "go ponder ponder",
        "go infinite infinite",
        "stop now",
        "isready now",
        "ucinewgame 1",
        "ponderhit 1",
        "uci uci",
    ])
}

/// A line of XBoard's search controls with short limits, so the searches that the other
/// lines start end soon.
fn xboard_short_limit(rng: &mut Rng) -> String {
    rng.pick(&[
        "st 0.01", "st 0.02", "st 0.05", "sd 1", "sd 2", "sd 3", "time 5", "time 20", "otim 5",
    ])
}

/// One XBoard line (never `quit`).
pub(super) fn xboard_line(rng: &mut Rng) -> Vec<u8> {
    let v = random_variant(rng);
    let line = match rng.below(46) {
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
        26 => format!("memory {}", size_number(rng)),
        27 => format!(
            "cores {}",
            ["1", "2", "0", "x", "4", "-1", "1e3"][rng.below(7)]
        ),
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
        40 | 41 => xboard_wrong_arity(rng),
        42 | 43 => xboard_short_limit(rng),
        44 => format!(
            "ping {}",
            [
                "",
                "x",
                "-1",
                "99999999999999999999999",
                "1 2 3",
                "pong",
                "ping 7"
            ][rng.below(7)]
        ),
        45 => format!(
            "{} {}",
            ["sd", "st", "time", "otim", "protover"][rng.below(5)],
            number(rng)
        ),
        _ => String::from_utf8_lossy(&junk_bytes(rng, 0, 30)).into_owned(),
    };
    line.into_bytes()
}

/// One UCI line (never `quit`).
pub(super) fn uci_line(rng: &mut Rng) -> Vec<u8> {
    let v = random_variant(rng);
    let moves = |rng: &mut Rng| -> String {
        (0..rng.below(8))
            .map(|_| random_move(rng))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let line = match rng.below(38) {
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
        25 => format!("setoption name Hash value {}", size_number(rng)),
        26 => format!(
            "setoption name Threads value {}",
            ["1", "2", "3", "0", "x", "8", "-1", "18446744073709551616"][rng.below(8)]
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
        34 => uci_wrong_arity(rng),
        35 => format!(
            "go {} {}",
            [
                "depth",
                "nodes",
                "movetime",
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
                "mate"
            ][rng.below(9)],
            number(rng)
        ),
        36 => {
            // A variant name of random bytes.
            let mut l = b"setoption name UCI_Variant value ".to_vec();
            l.extend(junk_bytes(rng, 1, 20));
            return l;
        }
        37 => format!(
            "setoption name {} value {}",
            // (not Threads: a valid huge number would run every later search on 256)
            ["MultiPV", "Move Overhead", "Ponder", "UCI_Chess960"][rng.below(4)],
            number(rng)
        ),
        _ => String::from_utf8_lossy(&junk_bytes(rng, 0, 30)).into_owned(),
    };
    line.into_bytes()
}

/// A burst of search starts and stops: `go`, `stop`, `force`, `?` and moves in quick
/// succession, with short limits so the searches end on their own too.
pub(super) fn burst(rng: &mut Rng, uci: bool) -> Vec<Vec<u8>> {
    let pool: &[&str] = if uci {
        &[
            "go depth 1",
            "go depth 2",
            "go nodes 500",
            "go movetime 10",
            "go infinite",
            "go ponder",
            "ponderhit",
            "stop",
            "stop",
            "isready",
            "position startpos",
            "position startpos moves e2e4",
            "ucinewgame",
        ]
    } else {
        &[
            "go",
            "go",
            "force",
            "?",
            "?",
            "st 0.01",
            "sd 1",
            "new",
            "usermove e2e4",
            "usermove e7e5",
            "playother",
            "analyze",
            "exit",
            "undo",
            "remove",
            "ping 0",
        ]
    };
    (0..2 + rng.below(8))
        .map(|_| pool[rng.below(pool.len())].as_bytes().to_vec())
        .collect()
}

/// A very long line: junk, a huge FEN, or a long legal move list (knights back and forth).
pub(super) fn long_line(rng: &mut Rng, uci: bool) -> Vec<u8> {
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
