//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod process;

use std::path::PathBuf;

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
