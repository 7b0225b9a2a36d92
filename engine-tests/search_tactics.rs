//! Tactics: every position in `engine-tests/tactics/<variant>.epd` is searched to a
//! fixed depth and the engine's move must be one of the position's `bm` moves (and
//! none of its `am` moves).
//!
//! EPD lines: four FEN fields (holdings in brackets after the board), then operations
//! separated by `;`: `bm` (best moves, coordinate notation), `am` (moves to avoid),
//! `dm N` (the side to move wins in N moves: checkmate, a stalemate win, a bare-king
//! win...), `acd D` (search depth, default 6), `id`, `c0` (why). For `dm` positions
//! the test also checks, by brute force over the rules core alone (move generation
//! and `Game::outcome`, no search), that the engine's move and every `bm` move force a
//! win in N moves, and that no other move does: the file's answer is proved, not
//! trusted.

use crate::common;

use std::sync::atomic::AtomicBool;

use sako::engine::eval::Eval;
use sako::engine::search::SearchOptions;
use sako::engine::time::Limits;
use sako::engine::tt::Tt;
use sako::rules::position::outcome::GameResult;
use sako::rules::position::Color;
use sako::rules::variant::all_variants;
use sako::Game;

struct Case {
    line: usize,
    fen: String,
    bm: Vec<String>,
    am: Vec<String>,
    dm: Option<u32>,
    depth: u32,
    id: String,
}

fn parse(variant: &str) -> Vec<Case> {
    let path = common::data_path(&format!("tactics/{variant}.epd"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(words.len() > 4, "{variant}.epd:{}: too short", i + 1);
        let fen = words[..4].join(" ");
        let ops = words[4..].join(" ");
        let mut case = Case {
            line: i + 1,
            fen,
            bm: Vec::new(),
            am: Vec::new(),
            dm: None,
            depth: 6,
            id: String::new(),
        };
        for op in split_ops(&ops) {
            let op = op.trim();
            let op: &str = op;
            let (name, arg) = op.split_once(' ').unwrap_or((op, ""));
            let arg = arg.trim();
            match name {
                "bm" => case.bm = arg.split_whitespace().map(String::from).collect(),
                "am" => case.am = arg.split_whitespace().map(String::from).collect(),
                "dm" => case.dm = Some(arg.parse().expect("dm N")),
                "acd" => case.depth = arg.parse().expect("acd D"),
                "id" => case.id = arg.trim_matches('"').to_string(),
                "c0" | "" => {}
                other => panic!("{variant}.epd:{}: unknown operation {other}", i + 1),
            }
        }
        assert!(!case.bm.is_empty(), "{variant}.epd:{}: no bm", case.line);
        out.push(case);
    }
    out
}

/// Splits EPD operations at `;` outside double quotes.
fn split_ops(ops: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    for c in ops.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                cur.push(c);
            }
            ';' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// True when the side to move in `game` can force a win within `n` moves, by the
/// rules core alone.
fn wins_in(game: &mut Game, n: u32) -> bool {
    let me = game.side_to_move();
    game.legal_moves()
        .iter()
        .any(|m| move_wins_in(game, m, n, me))
}

fn move_wins_in(game: &mut Game, m: &str, n: u32, me: Color) -> bool {
    game.play(m).expect("legal move");
    let result = match game.outcome() {
        Some(o) => o.result == GameResult::win_for(me),
        None if n <= 1 => false,
        None => {
            let replies = game.legal_moves();
            replies.iter().all(|r| {
                game.play(r).expect("legal reply");
                let ok = match game.outcome() {
                    Some(o) => o.result == GameResult::win_for(me),
                    None => wins_in(game, n - 1),
                };
                game.undo();
                ok
            })
        }
    };
    game.undo();
    result
}

fn solve_variant(variant: &str) -> Vec<String> {
    let cases = parse(variant);
    assert!(
        cases.len() >= 10,
        "{variant}: only {} positions",
        cases.len()
    );
    let eval = Eval::embedded(variant).expect("tables");
    let tt = Tt::new(8);
    let mut failures = Vec::new();
    for case in &cases {
        let where_ = format!("{variant}.epd:{} ({})", case.line, case.id);
        let mut game = Game::new(variant, Some(&case.fen))
            .unwrap_or_else(|e| panic!("{where_}: bad FEN: {e}"));
        let legal = game.legal_moves();
        for m in case.bm.iter().chain(&case.am) {
            assert!(legal.contains(m), "{where_}: {m} is not legal");
        }
        if let Some(n) = case.dm {
            let me = game.side_to_move();
            let winners: Vec<String> = legal
                .iter()
                .filter(|m| move_wins_in(&mut game, m, n, me))
                .cloned()
                .collect();
            let mut bm = case.bm.clone();
            bm.sort();
            if winners != bm {
                failures.push(format!(
                    "{where_}: the moves that win in {n} are {winners:?}, the bm list is {bm:?}"
                ));
                continue;
            }
        }
        tt.clear();
        let stop = AtomicBool::new(false);
        let opts = SearchOptions::new(Limits::depth(case.depth), &tt, &eval, &stop);
        let r = game.search(&opts, &mut |_| {}).expect("search");
        let best = r.best.unwrap_or_default();
        if !case.bm.contains(&best) || case.am.contains(&best) {
            failures.push(format!(
                "{where_}: played {best} ({}), expected {:?}",
                r.score, case.bm
            ));
        }
    }
    failures
}

#[test]
fn tactics_are_solved_at_fixed_depth() {
    // SAKO_TACTICS=historia,great restricts the run to those files (while editing them).
    let only = std::env::var("SAKO_TACTICS").unwrap_or_default();
    let chosen: Vec<&str> = all_variants()
        .iter()
        .map(|def| def.name)
        .filter(|v| only.is_empty() || only.split(',').any(|o| o == *v))
        .collect();
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chosen
            .chunks(5)
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .flat_map(|v| solve_variant(v))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
