//! Networks through the front ends: `sako nnue-features` on the sample data of every
//! variant writes records the trainer can read; a network file evaluates and searches
//! through UCI (`EvalFile`, `Use NNUE`, `eval`), XBoard (`option EvalFile=`) and the
//! command line (`--net`); a missing or broken file gets an error naming it and the
//! engine keeps its previous evaluation and goes on serving.

use crate::common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::process::SakoProcess;
use common::{fresh_temp_dir, sako_bin, Rng};
use sako::engine::nnue::{Activation, NetFile, DEFAULT_OUTPUT_SCALE};
use sako::rules::position::accumulator::HAND_INPUTS;
use sako::rules::variant::{all_variants, variant_id};

/// A network of small random weights for the games `games` (all of one shape).
fn random_net(games: &[&str], width: usize, seed: u64) -> NetFile {
    let def = &all_variants()[variant_id(games[0]).unwrap()];
    let (types, squares) = (def.pieces.len(), def.geometry.squares());
    let inputs = 2 * types * (squares + HAND_INPUTS);
    let mut rng = Rng::new(seed);
    let mut small = |n: usize| rng.below(2 * n + 1) as i16 - n as i16;
    NetFile {
        games: games.iter().map(|g| g.to_string()).collect(),
        types,
        squares,
        hand: HAND_INPUTS,
        width,
        kings: None,
        columns: (0..inputs * width).map(|_| small(40)).collect(),
        bias: (0..width).map(|_| small(60)).collect(),
        activation: Activation::ClippedRelu,
        buckets: 1,
        divisor: 1,
        out_weights: (0..2 * width).map(|_| small(100)).collect(),
        out_bias: vec![0],
        output_scale: DEFAULT_OUTPUT_SCALE,
        material_scale: None,
    }
}

fn write_net(dir: &Path, name: &str, net: &NetFile) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, net.to_bytes()).unwrap();
    path
}

/// Sends `script` to `sako ARGS` and collects lines until one starts with `until`
/// (or 60 s pass).
fn session(args: &[&str], script: &str, until: &str) -> Vec<String> {
    let mut sako = SakoProcess::spawn(args, |_| {});
    let stdin = sako.stdin.as_mut().expect("stdin");
    stdin.write_all(script.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut out = Vec::new();
    while let Ok(line) = sako
        .lines
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        let done = line.starts_with(until);
        out.push(line);
        if done {
            break;
        }
    }
    assert!(
        !sako.panicked(),
        "sako panicked: {}",
        sako.stderr.lock().unwrap()
    );
    out
}

#[test]
fn features_of_every_variants_sample_data_are_well_formed() {
    let dir = fresh_temp_dir("nnue-features");
    for def in all_variants() {
        let data = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("engine-tests/data")
            .join(format!("{}.txt", def.name));
        let lines = std::fs::read_to_string(&data).unwrap().lines().count();
        let out = dir.join(format!("{}.bin", def.name));
        let o = Command::new(sako_bin())
            .args(["nnue-features", "--variant", def.name, "--data"])
            .arg(&data)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{}: {}",
            def.name,
            String::from_utf8_lossy(&o.stderr)
        );
        let b = std::fs::read(&out).unwrap();
        assert_eq!(&b[..8], b"SAKOFEAT");
        let f = u32::from_le_bytes([b[12], b[13], b[14], b[15]]) as usize;
        let (t, n) = (def.pieces.len(), def.geometry.squares());
        assert_eq!(f, 2 * t * (n + HAND_INPUTS), "{}", def.name);
        let (mut at, mut records) = (16, 0);
        while at < b.len() {
            let (stm, result) = (b[at], b[at + 1]);
            assert!(stm <= 1 && result <= 2, "{}", def.name);
            let count = u16::from_le_bytes([b[at + 4], b[at + 5]]) as usize;
            assert!((2..=64).contains(&count), "{}: {count} inputs", def.name);
            at += 6;
            for i in 0..2 * count {
                let input = u16::from_le_bytes([b[at + 2 * i], b[at + 2 * i + 1]]) as usize;
                assert!(input < f, "{}: input {input} of {f}", def.name);
            }
            at += 4 * count;
            records += 1;
        }
        assert_eq!(at, b.len(), "{}: a record runs past the end", def.name);
        assert_eq!(records, lines, "{}: one record per line", def.name);
    }
}

/// The `eval` answer's evaluation source, from `info string eval N cp ... (SOURCE)`.
fn eval_lines(out: &[String]) -> Vec<String> {
    out.iter()
        .filter(|l| l.starts_with("info string eval "))
        .cloned()
        .collect()
}

#[test]
fn uci_evaluates_with_a_network_file_and_keeps_it_when_a_bad_one_comes() {
    let dir = fresh_temp_dir("nnue-uci");
    for variant in ["normal", "great", "historia"] {
        let good = write_net(
            &dir,
            &format!("{variant}.nnue"),
            &random_net(&[variant], 16, 1),
        );
        let bytes = std::fs::read(&good).unwrap();
        let truncated = dir.join("truncated.nnue");
        std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
        let other = write_net(&dir, "shatar.nnue", &random_net(&["shatar"], 16, 2));
        let script = format!(
            "uci\nsetoption name UCI_Variant value {variant}\nposition startpos\neval\n\
             setoption name EvalFile value {good}\nposition startpos\neval\n\
             setoption name EvalFile value {truncated}\neval\n\
             setoption name EvalFile value /nonexistent/x.nnue\neval\n\
             setoption name EvalFile value {other}\neval\n\
             setoption name EvalFile value {good}\nsetoption name Use NNUE value false\neval\n\
             setoption name Use NNUE value true\nposition startpos\ngo depth 4\n",
            good = good.display(),
            truncated = truncated.display(),
            other = other.display(),
        );
        let out = session(&[] as &[&str], &script, "bestmove");
        let mut evals = eval_lines(&out);
        assert_eq!(evals.len(), 6, "{variant}: {out:?}");
        // The game's own evaluation before any file: its built-in net or its tables.
        let default = evals.remove(0);
        assert!(
            default.ends_with("(tables)") || default.contains("(network built-in "),
            "{variant}: {default}"
        );
        let with_net = format!("(network {})", good.display());
        assert!(evals[0].ends_with(&with_net), "{variant}: {}", evals[0]);
        // The truncated and the missing file are refused, named, and change nothing.
        assert!(out
            .iter()
            .any(|l| l.starts_with("info string Error: net file")
                && l.contains("truncated.nnue")
                && l.contains("truncated")));
        assert!(out
            .iter()
            .any(|l| l.contains("/nonexistent/x.nnue") && l.contains("cannot read")));
        assert_eq!(evals[1], evals[0], "{variant}");
        assert_eq!(evals[2], evals[0], "{variant}");
        // A good file for another game is kept for that game; this one goes back to its
        // own evaluation (a built-in net where the game has one, else its tables).
        assert!(
            out.iter().any(|l| l.contains("shatar.nnue is for shatar;")),
            "{variant}: {out:?}"
        );
        assert_eq!(evals[3], default, "{variant}");
        assert!(evals[4].ends_with("(tables)"), "{variant}: {}", evals[4]);
        let best = out.last().unwrap();
        assert!(
            best.starts_with("bestmove ") && !best.contains("(none)"),
            "{variant}: {best}"
        );
    }
}

#[test]
fn xboard_takes_a_network_file_option() {
    let dir = fresh_temp_dir("nnue-xboard");
    let good = write_net(&dir, "normal.nnue", &random_net(&["normal"], 16, 3));
    let script = format!(
        "xboard\nprotover 2\noption EvalFile=/nonexistent/y.nnue\noption EvalFile={}\n\
         new\nsd 3\ne2e4\n",
        good.display()
    );
    let out = session(&["xboard"], &script, "move ");
    assert!(out
        .iter()
        .any(|l| l == "feature option=\"EvalFile -file \""));
    assert!(out
        .iter()
        .any(|l| l.starts_with("tellusererror net file /nonexistent/y.nnue")));
    assert!(out.iter().any(|l| l.starts_with("# evaluation: network")));
    assert!(out.last().unwrap().starts_with("move "));
}

#[test]
fn the_command_line_reads_a_network_file() {
    let dir = fresh_temp_dir("nnue-cli");
    let good = write_net(
        &dir,
        "chess.nnue",
        &random_net(&["normal", "chancellor"], 16, 4),
    );
    let analyze = Command::new(sako_bin())
        .args(["analyze", "--depth", "4", "--net"])
        .arg(&good)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&analyze.stdout);
    assert!(
        analyze.status.success() && text.contains("bestmove "),
        "{text}"
    );
    // A net for chess does not fit chancellor chess's seven piece types.
    let o = Command::new(sako_bin())
        .args(["bench", "--depth", "2", "--net"])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("chess.nnue") && err.contains("does not fit"),
        "{err}"
    );
    let fine = write_net(&dir, "normal.nnue", &random_net(&["normal"], 16, 5));
    let o = Command::new(sako_bin())
        .args(["bench", "--depth", "2", "--net"])
        .arg(&fine)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let off = Command::new(sako_bin())
        .args(["analyze", "--depth", "3", "--net", "off"])
        .output()
        .unwrap();
    assert!(off.status.success() && String::from_utf8_lossy(&off.stdout).contains("bestmove "));
    let missing = Command::new(sako_bin())
        .args(["analyze", "--depth", "2", "--net", "/nonexistent/z.nnue"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/z.nnue"));
}

#[test]
fn a_version_2_network_file_evaluates_and_searches() {
    let dir = fresh_temp_dir("nnue-v2");
    let mut net = random_net(&["normal"], 16, 6);
    let mut rng = Rng::new(7);
    net.activation = Activation::SquaredClippedRelu;
    net.buckets = 8;
    net.divisor = 4;
    net.out_weights = (0..8 * 2 * 16)
        .map(|_| rng.below(201) as i16 - 100)
        .collect();
    net.out_bias = (0..8).map(|b| b * 1000).collect();
    let good = write_net(&dir, "v2.nnue", &net);
    // The same net with every output bias 3000 higher: its evaluation must move.
    let mut shifted_net = net.clone();
    shifted_net.out_bias = net.out_bias.iter().map(|b| b + 3000).collect();
    let shifted = write_net(&dir, "v2-shifted.nnue", &shifted_net);
    let script = format!(
        "uci\nsetoption name EvalFile value {good}\nposition startpos\neval\n\
         setoption name EvalFile value {shifted}\neval\n\
         setoption name Use NNUE value false\neval\n\
         setoption name Use NNUE value true\nsetoption name EvalFile value {good}\n\
         position startpos\ngo depth 5\n",
        good = good.display(),
        shifted = shifted.display(),
    );
    let out = session(&[] as &[&str], &script, "bestmove");
    let evals = eval_lines(&out);
    assert_eq!(evals.len(), 3, "{out:?}");
    assert!(evals[0].contains("v2.nnue"), "{}", evals[0]);
    assert!(evals[1].contains("v2-shifted.nnue"), "{}", evals[1]);
    assert!(evals[2].ends_with("(tables)"), "{}", evals[2]);
    let cp = |l: &str| -> i32 {
        l.strip_prefix("info string eval ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no centipawns in {l}"))
    };
    let (with_net, with_shifted, tables) = (cp(&evals[0]), cp(&evals[1]), cp(&evals[2]));
    // The net decides the evaluation: a higher output bias scores higher, and neither
    // is the tables' score.
    assert!(with_shifted > with_net, "{evals:?}");
    assert_ne!(with_net, tables, "{evals:?}");
    assert_ne!(with_shifted, tables, "{evals:?}");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    // A version-2 header with 17 buckets is refused and named.
    let mut bytes = std::fs::read(&good).unwrap();
    let at = 8 + 4 + 4 + "normal".len() + 16 + 4;
    bytes[at..at + 4].copy_from_slice(&17u32.to_le_bytes());
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, &bytes).unwrap();
    let o = Command::new(sako_bin())
        .args(["analyze", "--depth", "2", "--net"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("bad.nnue") && err.contains("17 output buckets"),
        "{err}"
    );
}
