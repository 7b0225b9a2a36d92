//! Hand-worked rules positions (engine-tests/rules/<variant>.txt): legal and illegal
//! moves, exact move counts and result lines, each derived from the written rules.

use crate::common;

use sako::Game;

struct Case {
    id: String,
    fen: String,
    moves: String,
    legal: Vec<String>,
    illegal: Vec<String>,
    count: Option<usize>,
    result: Option<String>,
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in text.split("\n\n") {
        let mut case = Case {
            id: String::new(),
            fen: String::new(),
            moves: String::new(),
            legal: Vec::new(),
            illegal: Vec::new(),
            count: None,
            result: None,
        };
        let mut any = false;
        for line in block.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                panic!("malformed line: {line}");
            };
            let value = value.trim();
            any = true;
            let words = || value.split_whitespace().map(String::from).collect();
            match key.trim() {
                "id" => case.id = value.to_string(),
                "fen" => case.fen = value.to_string(),
                "moves" => case.moves = value.to_string(),
                "legal" => case.legal = words(),
                "illegal" => case.illegal = words(),
                "count" => case.count = Some(value.parse().expect("count")),
                "result" => case.result = Some(value.to_string()),
                "why" => {}
                other => panic!("unknown key {other}"),
            }
        }
        if any {
            assert!(!case.fen.is_empty(), "case {} has no fen", case.id);
            cases.push(case);
        }
    }
    cases
}

fn check_variant(variant: &str) {
    let path = common::data_path(&format!("rules/{variant}.txt"));
    let text = std::fs::read_to_string(&path).expect("rules file");
    let cases = parse_cases(&text);
    assert!(cases.len() >= 10, "{variant}: only {} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let mut game = match Game::new(variant, Some(&c.fen)) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{}: FEN rejected: {e}", c.id));
                continue;
            }
        };
        if let Err(e) = game.play_all(&c.moves) {
            failures.push(format!("{}: moves rejected: {e}", c.id));
            continue;
        }
        let list = game.legal_moves();
        for m in &c.legal {
            if !list.contains(m) {
                failures.push(format!("{}: {m} should be legal; have {list:?}", c.id));
            }
        }
        for m in &c.illegal {
            if list.contains(m) {
                failures.push(format!("{}: {m} should be illegal", c.id));
            }
        }
        if let Some(n) = c.count {
            if list.len() != n {
                failures.push(format!(
                    "{}: {} moves, expected {n}: {list:?}",
                    c.id,
                    list.len()
                ));
            }
        }
        if let Some(r) = &c.result {
            let line = game.result_line();
            if &line != r {
                failures.push(format!("{}: result {line}, expected {r}", c.id));
            }
        }
    }
    assert!(failures.is_empty(), "{variant}:\n{}", failures.join("\n"));
}

#[test]
fn normal() {
    check_variant("normal");
}
#[test]
fn chancellor() {
    check_variant("chancellor");
}
#[test]
fn chancellorx() {
    check_variant("chancellorx");
}
#[test]
fn kingsleap() {
    check_variant("kingsleap");
}
#[test]
fn great() {
    check_variant("great");
}
#[test]
fn historia() {
    check_variant("historia");
}
#[test]
fn shatarhia() {
    check_variant("shatarhia");
}
#[test]
fn shatar() {
    check_variant("shatar");
}
#[test]
fn chesquerque() {
    check_variant("chesquerque");
}
