//! UCI MultiPV order: `multipv 1` is the best line at every depth. For every variant,
//! from the start position and from the first opening of `engine-tests/openings/`,
//! `go depth 8` with MultiPV 3 must print, for each depth, lines numbered 1, 2, 3 ...
//! whose scores never increase.

use crate::common;

use std::io::Write;
use std::time::{Duration, Instant};

use common::process::SakoProcess;
use sako::rules::variant::all_variants;

/// A reported score as one comparable number: mates beyond every centipawn score,
/// nearer mates higher, being mated lowest.
fn score_value(words: &[&str]) -> Option<i64> {
    let i = words.iter().position(|&w| w == "score")?;
    let n: i64 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(n),
        "mate" if n > 0 => Some(1_000_000 - n),
        "mate" => Some(-1_000_000 - n),
        _ => None,
    }
}

fn value_after(words: &[&str], key: &str) -> Option<u32> {
    let i = words.iter().position(|&w| w == key)?;
    words.get(i + 1)?.parse().ok()
}

/// Runs `go depth 8` with MultiPV 3 on `position` and returns the `(depth, multipv,
/// score)` of every `info` line with a PV.
fn multipv_lines(variant: &str, position: &str) -> Vec<(u32, u32, i64)> {
    let mut sako = SakoProcess::spawn::<&str>(&[], |_| {});
    let commands = format!(
        "uci\nsetoption name UCI_Variant value {variant}\nsetoption name MultiPV value 3\n\
         isready\n{position}\ngo depth 8\n"
    );
    let stdin = sako.stdin.as_mut().expect("stdin");
    stdin.write_all(commands.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut out = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = sako
            .lines
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("{variant}: no bestmove within 120 s"));
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"bestmove") {
            break;
        }
        assert!(
            !line.starts_with("info string"),
            "{variant}: engine complained: {line}"
        );
        if words.first() != Some(&"info") || !words.contains(&"pv") {
            continue;
        }
        let depth = value_after(&words, "depth").expect("depth");
        let multipv = value_after(&words, "multipv").unwrap_or(1);
        let score = score_value(&words).unwrap_or_else(|| panic!("no score in {line}"));
        out.push((depth, multipv, score));
    }
    assert!(!sako.panicked(), "{variant}: panic");
    out
}

fn check_order(variant: &str, position: &str) {
    let lines = multipv_lines(variant, position);
    assert!(
        lines.iter().any(|&(d, _, _)| d == 8),
        "{variant}: depth 8 never reported ({position})"
    );
    let mut i = 0;
    while i < lines.len() {
        let depth = lines[i].0;
        let block: Vec<_> = lines[i..].iter().take_while(|l| l.0 == depth).collect();
        for (k, l) in block.iter().enumerate() {
            assert_eq!(
                l.1 as usize,
                k + 1,
                "{variant}: depth {depth} lines out of sequence ({position})"
            );
        }
        for pair in block.windows(2) {
            assert!(
                pair[0].2 >= pair[1].2,
                "{variant}: depth {depth}: multipv {} scores {} but multipv {} scores {} ({position})",
                pair[0].1,
                pair[0].2,
                pair[1].1,
                pair[1].2
            );
        }
        i += block.len();
    }
}

#[test]
fn multipv_lines_come_best_first_in_every_variant() {
    for v in all_variants() {
        check_order(v.name, "position startpos");
        let path = common::data_path(&format!("openings/{}.epd", v.name));
        let text = std::fs::read_to_string(&path).expect("openings file");
        let epd = text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .expect("an opening");
        let fen: Vec<&str> = epd.split_whitespace().take(4).collect();
        check_order(v.name, &format!("position fen {} 0 1", fen.join(" ")));
    }
}
