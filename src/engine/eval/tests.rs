//! Tests of the static evaluation.

use super::*;
use crate::rules::compile::BoardWidth;

fn eval_of(variant: &str, fen: &str) -> i32 {
    let id = variant_id(variant).unwrap();
    let ev = Eval::embedded(variant).unwrap();
    if all_variants()[id].geometry.squares() <= 64 {
        let pos = Position::<u64>::from_fen(u64::rules(id), fen).unwrap();
        ev.evaluate(&pos)
    } else {
        let pos = Position::<u128>::from_fen(u128::rules(id), fen).unwrap();
        ev.evaluate(&pos)
    }
}

/// The trace's linear model, evaluated with the evaluation's own parameters.
fn linear(ev: &Eval, t: &Trace) -> f64 {
    let p = ev.params();
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &t.features {
        mg += c as f64 * p[i as usize].mg as f64;
        eg += c as f64 * p[i as usize].eg as f64;
    }
    mg * t.mg_weight as f64 + eg * t.eg_weight as f64
}

fn check_traces<B: BoardWidth>(ev: &Eval, variant: &str) {
    for pos in random_positions::<B>(variant, 300, 7) {
        let t = ev.trace(&pos);
        let white = if pos.side() == Color::White {
            ev.evaluate(&pos)
        } else {
            -ev.evaluate(&pos)
        };
        assert_eq!(t.white_score, white);
        // Integer division rounds each term; a few centipawns of slack per term.
        let gap = (linear(ev, &t) - white as f64).abs();
        assert!(
            gap <= 12.0,
            "{variant} {}: trace {} vs eval {white}",
            pos.fen(),
            linear(ev, &t)
        );
    }
}

#[test]
fn traces_reproduce_the_evaluation_in_every_variant() {
    for def in all_variants() {
        // Every parameter non-zero, so that every term shows in the comparison.
        let tables = EvalTables::embedded(def).unwrap();
        let layout = Layout::of(&tables);
        let mut params = layout.flatten(&tables);
        for (i, p) in params.iter_mut().enumerate() {
            p.mg += (i % 7) as i32 - 3;
            p.eg += (i % 5) as i32 - 2;
        }
        let ev = Eval::from_params(&tables, layout, params);
        if def.geometry.squares() <= 64 {
            check_traces::<u64>(&ev, def.name);
        } else {
            check_traces::<u128>(&ev, def.name);
        }
    }
}

#[test]
fn the_pawn_cache_gives_the_evaluation() {
    let ev = Eval::embedded("normal").unwrap();
    let mut cache = PawnCache::<u64>::new();
    for pos in random_positions::<u64>("normal", 500, 11) {
        assert_eq!(ev.evaluate_cached(&pos, &mut cache), ev.evaluate(&pos));
    }
}

/// Random games from the start with the evaluation's square weights installed:
/// after every move and every take-back, the evaluation that reads the kept sum
/// equals the one that adds the pieces up.
fn check_kept_sums<B: BoardWidth>(ev: &Eval, variant: &str, seed: u64) {
    let id = variant_id(variant).unwrap();
    let rules = B::rules(id);
    let mut next = test_rng(seed);
    let scratch = |pos: &Position<B>| {
        let mut plain = pos.clone();
        plain.set_square_weights(None);
        ev.evaluate(&plain)
    };
    for _ in 0..20 {
        let mut pos = Position::<B>::from_fen(rules, rules.def.start_fen).unwrap();
        pos.set_square_weights(Some(ev.square_weights()));
        let mut played = Vec::new();
        let mut seen = Vec::new();
        for _ in 0..120 {
            let mut list = crate::rules::moves::MoveList::new();
            pos.generate_legal(&mut list);
            if list.as_slice().is_empty() || pos.outcome().is_some() {
                break;
            }
            let m = list.as_slice()[next(list.as_slice().len())];
            pos.make(m);
            played.push(m);
            let kept = ev.evaluate(&pos);
            assert_eq!(kept, scratch(&pos), "{variant} {}", pos.fen());
            seen.push(kept);
        }
        while let Some(m) = played.pop() {
            assert_eq!(seen.pop(), Some(ev.evaluate(&pos)), "{variant}");
            pos.unmake(m);
            assert_eq!(ev.evaluate(&pos), scratch(&pos), "{variant} {}", pos.fen());
        }
    }
}

#[test]
fn kept_square_sums_give_the_evaluation_in_every_variant() {
    for (i, def) in all_variants().iter().enumerate() {
        let ev = Eval::embedded(def.name).unwrap();
        if def.geometry.squares() <= 64 {
            check_kept_sums::<u64>(&ev, def.name, 3 + i as u64);
        } else {
            check_kept_sums::<u128>(&ev, def.name, 3 + i as u64);
        }
    }
}

#[test]
fn another_evaluations_weights_are_not_read() {
    // A position carrying one table's weights, evaluated with other numbers.
    let tables = EvalTables::embedded(&all_variants()[variant_id("normal").unwrap()]).unwrap();
    let layout = Layout::of(&tables);
    let mut params = layout.flatten(&tables);
    for p in params.iter_mut() {
        p.mg += 5;
    }
    let other = Eval::from_params(&tables, layout, params);
    let ev = Eval::embedded("normal").unwrap();
    for mut pos in random_positions::<u64>("normal", 50, 5) {
        let plain = other.evaluate(&pos);
        pos.set_square_weights(Some(ev.square_weights()));
        assert_eq!(other.evaluate(&pos), plain);
    }
}

#[test]
fn start_positions_are_nearly_level() {
    for def in all_variants() {
        let e = eval_of(def.name, def.start_fen);
        assert!(e.abs() < 60, "{}: {e}", def.name);
    }
}

#[test]
fn evaluation_is_colour_symmetric() {
    // The same position with colours swapped and the board mirrored scores the same
    // for the side to move.
    let a = eval_of(
        "normal",
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    );
    let b = eval_of(
        "normal",
        "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4",
    );
    assert_eq!(a, b);
}

#[test]
fn extra_material_is_good() {
    let e = eval_of("normal", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    assert!(e > 700, "{e}");
    let e = eval_of("normal", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1");
    assert!(e < -700, "{e}");
}
