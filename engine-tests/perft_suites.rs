//! Perft suites (engine-tests/perft/<variant>.epd): every position's leaf counts, each
//! from an independent oracle named in the file, must equal ours. Counts above the node
//! budget (SAKO_PERFT_LIMIT, default 5,000,000) are skipped to keep the suite fast;
//! `SAKO_PERFT_LIMIT=0` runs everything.

use crate::common;

use sako::Game;

fn limit() -> u64 {
    match std::env::var("SAKO_PERFT_LIMIT") {
        Ok(v) => match v.parse::<u64>() {
            Ok(0) => u64::MAX,
            Ok(n) => n,
            Err(_) => 5_000_000,
        },
        Err(_) => 5_000_000,
    }
}

/// (fen, [(depth, count)]) per line.
fn parse_epd(text: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut counts = Vec::new();
        for p in parts {
            let p = p.trim();
            if let Some(rest) = p.strip_prefix('D') {
                let mut w = rest.split_whitespace();
                if let (Some(d), Some(n)) = (w.next(), w.next()) {
                    if let (Ok(d), Ok(n)) = (d.parse(), n.parse()) {
                        counts.push((d, n));
                        continue;
                    }
                }
                panic!("malformed depth field '{p}' in: {line}");
            }
        }
        assert!(!counts.is_empty(), "no counts in: {line}");
        out.push((fen, counts));
    }
    out
}

fn run_suite(variant: &str) {
    let path = common::data_path(&format!("perft/{variant}.epd"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let entries = parse_epd(&text);
    assert!(!entries.is_empty(), "{variant}: empty suite");
    let limit = limit();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (fen, counts) in &entries {
        let mut game = match Game::new(variant, Some(fen)) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("FEN rejected ({e}): {fen}"));
                continue;
            }
        };
        for &(depth, expected) in counts {
            if expected > limit {
                continue;
            }
            let got = game.perft(depth, 2);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{fen} depth {depth}: got {got}, expected {expected}"
                ));
            }
        }
    }
    assert!(checked > 0, "{variant}: nothing checked");
    assert!(failures.is_empty(), "{variant}:\n{}", failures.join("\n"));
}

#[test]
fn normal() {
    run_suite("normal");
}
#[test]
fn chancellor() {
    run_suite("chancellor");
}
#[test]
fn chancellorx() {
    run_suite("chancellorx");
}
#[test]
fn kingsleap() {
    run_suite("kingsleap");
}
#[test]
fn great() {
    run_suite("great");
}
#[test]
fn historia() {
    run_suite("historia");
}
#[test]
fn shatar() {
    run_suite("shatar");
}
#[test]
fn shatarhia() {
    run_suite("shatarhia");
}
#[test]
fn chesquerque() {
    run_suite("chesquerque");
}
