//! `sako tune`: on the committed sample data of every variant it lowers the loss and
//! writes a table that `--eval-tables` reads back (and that tuning again from it, with
//! no epochs, writes unchanged); bad input exits with status 2, never a panic.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{fresh_temp_dir, sako_bin};
use sako::rules::variant::all_variants;

fn sako(args: &[&str]) -> Output {
    Command::new(sako_bin())
        .args(args)
        .output()
        .expect("run sako")
}

fn sample(variant: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/data")
        .join(format!("{variant}.txt"))
}

/// The number after `label` in `text` (e.g. "loss 0.0812 -> 0.0777").
fn losses(stdout: &str) -> (f64, f64) {
    let last = stdout.lines().last().unwrap_or("");
    let tail = last
        .split("loss ")
        .nth(1)
        .unwrap_or_else(|| panic!("no loss in: {last}"));
    let mut parts = tail.trim_end_matches(')').split(" -> ");
    let before = parts.next().unwrap().trim().parse().unwrap();
    let after = parts.next().unwrap().trim().parse().unwrap();
    (before, after)
}

/// The table without its `# Tuned` header lines.
fn body(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("# Tuned"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_variant_tunes_and_its_table_reads_back() {
    let dir = fresh_temp_dir("tune-all");
    let again = dir.join("again");
    std::fs::create_dir_all(&again).unwrap();
    for def in all_variants() {
        let v = def.name;
        let data = sample(v);
        let out = dir.join(format!("{v}.txt"));
        let o = sako(&[
            "tune",
            "--variant",
            v,
            "--data",
            data.to_str().unwrap(),
            "--epochs",
            "30",
            "--out",
            out.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{v}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(stdout.contains("epoch 30 loss"), "{v}: {stdout}");
        let (before, after) = losses(&stdout);
        assert!(after < before, "{v}: loss {before} -> {after}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.lines().nth(1).unwrap().starts_with("# Tuned by: "),
            "{v}"
        );
        // The engine plays with the tuned table.
        let a = sako(&[
            "analyze",
            "--variant",
            v,
            "--depth",
            "3",
            "--eval-tables",
            dir.to_str().unwrap(),
        ]);
        assert!(
            a.status.success(),
            "{v}: {}",
            String::from_utf8_lossy(&a.stderr)
        );
        assert!(
            String::from_utf8_lossy(&a.stdout).contains("bestmove"),
            "{v}"
        );
        // Tuning from the tuned table with no epochs writes the same numbers.
        let out2 = again.join(format!("{v}.txt"));
        let o = sako(&[
            "tune",
            "--variant",
            v,
            "--data",
            data.to_str().unwrap(),
            "--epochs",
            "0",
            "--eval-tables",
            dir.to_str().unwrap(),
            "--out",
            out2.to_str().unwrap(),
        ]);
        assert!(
            o.status.success(),
            "{v}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(body(&out2), body(&out), "{v}: the table did not round-trip");
    }
}

#[test]
fn held_parameters_do_not_move() {
    let dir = fresh_temp_dir("tune-hold");
    let out = dir.join("normal.txt");
    let data = sample("normal");
    let o = sako(&[
        "tune",
        "--data",
        data.to_str().unwrap(),
        "--epochs",
        "20",
        "--params",
        "value",
        "--hold",
        "value:Q",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let normal = &all_variants()[0];
    let builtin = sako::engine::eval::tables::EvalTables::embedded(normal).unwrap();
    let tuned = sako::engine::eval::tables::parse(normal, &text, "t").unwrap();
    let (knight, queen) = (1, 4);
    let value = |t: &sako::engine::eval::tables::EvalTables, p: usize| t.pieces[p].value;
    assert_eq!(
        value(&tuned, queen),
        value(&builtin, queen),
        "the queen was held"
    );
    assert_ne!(
        value(&tuned, knight),
        value(&builtin, knight),
        "the knight was free"
    );
    // Only values were free: the square tables are the built-in ones.
    for t in 0..builtin.pieces.len() {
        assert_eq!(builtin.pieces[t].pst, tuned.pieces[t].pst);
    }
}

#[test]
fn bad_input_exits_2_without_a_panic() {
    let dir = fresh_temp_dir("tune-bad");
    let out = dir.join("t.txt");
    let out = out.to_str().unwrap();
    let garbage = dir.join("garbage.txt");
    std::fs::write(&garbage, "not a line\nx | y | z\n8/8/8 w - - | 1 | 1\n").unwrap();
    let good = sample("normal");
    let cases: Vec<Vec<&str>> = vec![
        vec![
            "tune",
            "--variant",
            "nochess",
            "--data",
            good.to_str().unwrap(),
            "--out",
            out,
        ],
        vec!["tune", "--data", "/no/such/file", "--out", out],
        vec!["tune", "--data", garbage.to_str().unwrap(), "--out", out],
        vec![
            "tune",
            "--data",
            good.to_str().unwrap(),
            "--params",
            "nonsense",
            "--out",
            out,
        ],
        vec![
            "tune",
            "--data",
            good.to_str().unwrap(),
            "--lambda",
            "2",
            "--out",
            out,
        ],
        vec![
            "tune",
            "--data",
            good.to_str().unwrap(),
            "--out",
            "/no/such/dir/t.txt",
        ],
        vec![
            "tune",
            "--data",
            good.to_str().unwrap(),
            "--eval-tables",
            "/no/such/dir",
            "--out",
            out,
        ],
    ];
    for args in cases {
        let o = sako(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            err.starts_with("sako: ") || err.contains("error:"),
            "{args:?}: {err}"
        );
    }
}
