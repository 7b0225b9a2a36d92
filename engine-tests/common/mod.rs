//! Helpers shared by the integration tests.
//!
//! Peers (cutechess-cli, /usr/games/fairy-stockfish, /usr/games/fairymax, python-chess)
//! that a test needs but cannot find go through [`peer_missing`]: with `CI` set (non-empty,
//! not `false`/`0`) the test fails with `missing peer: ...`; otherwise it passes but
//! writes a banner to the process's real standard error (not captured by the harness, so
//! plain `cargo test` shows it) whose line begins with the test's full name and
//! `SKIPPED`, e.g. `cutechess::sako_concurrency_two SKIPPED cutechess::sako_concurrency_two:
//! cutechess-cli (...)`. A Rust
//! test cannot rename itself, so that line is how "the test's name says it skipped".
#![allow(dead_code)]

pub mod process;

use std::io::Write;
use std::path::PathBuf;

/// True when the environment variable `CI` is set to something other than ``, `false`
/// or `0`.
pub fn in_ci() -> bool {
    std::env::var("CI")
        .map(|v| {
            let v = v.trim();
            !v.is_empty() && v != "false" && v != "0"
        })
        .unwrap_or(false)
}

/// A peer `what` that `test` (its name within its module, e.g. `cutechess::foo`) needs is
/// missing. In CI this is a failure (panics with `missing peer: <what> (CI is set, so
/// this is a failure)`); elsewhere it writes `<test> SKIPPED <test>: <what>` in a banner
/// straight to the process's standard error, which the test harness does not capture.
/// The caller then returns (the test passes).
pub fn peer_missing(test: &str, what: &str) {
    if in_ci() {
        panic!("missing peer: {what} (CI is set, so this is a failure)");
    }
    let banner = "=".repeat(78);
    // std::io::stderr() is the real file descriptor 2: eprintln! is captured by the
    // harness, a direct write is not.
    let _ = writeln!(
        std::io::stderr(),
        "\n{banner}\n{test} SKIPPED {test}: {what}\n{banner}\n"
    );
}

/// A small deterministic generator (xorshift64*), so every run plays the same games.
pub struct Rng(u64);

impl Rng {
    /// Seeded generator (seed 0 is replaced by a constant).
    pub fn new(seed: u64) -> Rng {
        Rng(if seed == 0 {
            0x9E37_79B9_7F4A_7C15
        } else {
            seed
        })
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items`, drawn uniformly (as `items[self.below(items.len())]`).
    pub fn pick(&mut self, items: &[&str]) -> String {
        items[self.below(items.len())].to_string()
    }
}

/// Path of a file under `engine-tests/`.
pub fn data_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests")
        .join(rel)
}

/// The sako binary built for these tests.
pub fn sako_bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_sako"))
}

/// An empty directory under the system's temporary directory, unique to this test
/// process and `name`.
pub fn fresh_temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sako-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Runs `sako ARGS` with `script` on its standard input and returns what it printed.
pub fn converse(args: &[&str], script: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(sako_bin())
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("sako {args:?}: {e}"));
    if let Some(mut input) = child.stdin.take() {
        input.write_all(script.as_bytes()).expect("write to sako");
    }
    let out = child.wait_with_output().expect("sako's output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The words of `s` as owned strings (command-line arguments).
pub fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// Runs `sako match ARGS` and returns its standard output; fails the test on a
/// non-zero exit, showing the arguments, standard error and output.
pub fn run_match(args: &[String]) -> String {
    let out = std::process::Command::new(sako_bin())
        .arg("match")
        .args(args)
        .output()
        .expect("run sako match");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "sako match {} failed: {}\n{stdout}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}
