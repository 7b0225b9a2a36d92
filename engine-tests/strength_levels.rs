//! Strength levels through the game facade (`Game::search_at_level`): a weak level
//! plays legal moves, searches fewer nodes than full strength, plays a move other than
//! the best line sometimes at the lowest level, and never leaves its queen en prise in
//! simple positions at middle levels.

use std::sync::atomic::AtomicBool;

use sako::engine::eval::Eval;
use sako::engine::search::SearchOptions;
use sako::engine::strength::{LevelParams, LevelTable};
use sako::engine::time::Limits;
use sako::engine::tt::Tt;
use sako::game::Game;
use sako::rules::variant::all_variants;

fn level(variant: &str, elo: u32) -> LevelParams {
    let table = LevelTable::built_in();
    table
        .params(variant, elo)
        .unwrap_or_else(|| panic!("no rows for {variant}"))
}

/// The move `level` plays in `fen` with `seed`, and the nodes searched (a fresh table
/// each time: the search is repeatable).
fn play(variant: &str, fen: Option<&str>, level: &LevelParams, seed: u64) -> (String, u64) {
    let mut game = Game::new(variant, fen).unwrap_or_else(|e| panic!("{e}"));
    let eval = Eval::embedded(variant).unwrap_or_else(|e| panic!("{e}"));
    let tt = Tt::new(4);
    let stop = AtomicBool::new(false);
    let opts = SearchOptions::new(Limits::movetime(20_000), &tt, &eval, &stop);
    let r = game
        .search_at_level(&opts, level, seed, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    (r.best.unwrap_or_default(), r.nodes)
}

#[test]
fn weak_levels_play_legal_moves_in_every_variant_with_fewer_nodes() {
    for v in all_variants() {
        let weak = level(v.name, 1200);
        let mut game = Game::new(v.name, None).unwrap_or_else(|e| panic!("{e}"));
        let legal = game.legal_moves();
        for seed in 0..4 {
            let (mv, nodes) = play(v.name, None, &weak, seed);
            assert!(legal.contains(&mv), "{}: {mv} is not legal", v.name);
            assert!(
                nodes < 2 * weak.nodes.max(5000) + 2000,
                "{}: {nodes}",
                v.name
            );
        }
        let eval = Eval::embedded(v.name).unwrap_or_else(|e| panic!("{e}"));
        let tt = Tt::new(4);
        let stop = AtomicBool::new(false);
        let opts = SearchOptions::new(Limits::depth(12), &tt, &eval, &stop);
        let full = game
            .search(&opts, &mut |_| {})
            .unwrap_or_else(|e| panic!("{e}"));
        let (_, weak_nodes) = play(v.name, None, &weak, 0);
        assert!(
            weak_nodes * 4 < full.nodes,
            "{}: {weak_nodes} vs {}",
            v.name,
            full.nodes
        );
    }
}

#[test]
fn the_lowest_level_plays_other_moves_than_the_best_line() {
    let low = level("normal", 800);
    let best_only = LevelParams {
        margin: 0,
        ..low.clone()
    };
    let fens: Vec<String> = std::fs::read_to_string("engine-tests/openings/normal.epd")
        .unwrap_or_else(|e| panic!("{e}"))
        .lines()
        .take(12)
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .collect();
    let mut differ = 0;
    let mut total = 0;
    for fen in &fens {
        let fen = format!("{fen} 0 1");
        let (best, _) = play("normal", Some(&fen), &best_only, 0);
        for seed in 0..4 {
            let (mv, _) = play("normal", Some(&fen), &low, seed);
            total += 1;
            differ += usize::from(mv != best);
        }
    }
    assert!(
        differ * 4 > total,
        "{differ} of {total} differ from the best line"
    );
}

/// Positions where the side to move's queen is attacked by a pawn: one queen move
/// (or a few) saves it; the engine must never leave it.
const QUEEN_EN_PRISE: &[&str] = &[
    "rnb1kbnr/pppp1ppp/8/4p3/3q4/2P5/PP1PPPPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkb1r/ppp2ppp/5n2/3pp3/4Q3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
    "rnbqkbnr/pppp1p1p/6p1/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 1",
    "rnb1kbnr/pp1ppppp/8/q1p5/1P6/8/P1PPPPPP/RNBQKBNR b KQkq - 0 1",
    "4k3/8/8/8/2p5/3Q4/8/4K3 w - - 0 1",
    "4k3/8/8/8/8/1n6/PP6/Q3K3 w - - 0 1",
    "q3k3/pp6/1N6/8/8/8/8/4K3 b - - 0 1",
];

#[test]
fn middle_levels_never_leave_the_queen_en_prise() {
    for elo in [1400, 1600, 2000] {
        let lv = level("normal", elo);
        for fen in QUEEN_EN_PRISE {
            let mut game = Game::new("normal", Some(fen)).unwrap_or_else(|e| panic!("{e}"));
            let eval = Eval::embedded("normal").unwrap_or_else(|e| panic!("{e}"));
            for seed in 0..6 {
                let (mv, _) = play("normal", Some(fen), &lv, seed);
                let loss = game.material_loss(&mv, &eval).unwrap_or(i32::MAX);
                assert!(loss < 500, "{elo} {fen}: {mv} loses {loss}");
            }
        }
    }
}

/// `EvalTables DIR` also reads `DIR/levels.txt`: a table with other labels changes the
/// `UCI_Elo` range, and a broken one is refused with the table in force kept.
#[test]
fn an_eval_tables_folder_brings_its_own_level_table() {
    let root = crate::common::fresh_temp_dir("level-folder");
    let (good, broken) = (root.join("good"), root.join("broken"));
    for dir in [&good, &broken] {
        std::fs::create_dir_all(dir).expect("dir");
        let normal =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("eval-tables/normal.txt");
        std::fs::copy(&normal, dir.join("normal.txt")).expect("copy normal.txt");
    }
    let rows = "level * 1000 300 1 8 250 120 400\nlevel * 3000 40000 10 3 35 18 80\n";
    std::fs::write(good.join("levels.txt"), rows).expect("write");
    std::fs::write(broken.join("levels.txt"), "level * 1000 300 one\n").expect("write");
    let out = crate::common::converse(
        &["uci"],
        &format!(
            "uci\nsetoption name UCI_Elo value 3000\nsetoption name EvalTables value {}\n\
         setoption name UCI_Elo value 3000\nsetoption name EvalTables value {}\n\
         setoption name UCI_Elo value 900\nsetoption name UCI_Elo value 3000\nisready\nquit\n",
            good.display(),
            broken.display()
        ),
    );
    let refused: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("Error (bad value for UCI_Elo)"))
        .collect();
    // 3000 before the folder (800..2800), 900 after it (1000..3000); the broken folder is
    // refused, so the second 3000 is still accepted.
    assert_eq!(refused.len(), 2, "{out}");
    assert!(refused[0].contains("800 to 2800"), "{out}");
    assert!(refused[1].contains("1000 to 3000"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("Error") && l.contains("levels.txt")),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
}
