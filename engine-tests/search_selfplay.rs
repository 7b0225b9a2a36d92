//! Self-play sanity: for every variant, 20 fast games of sako against itself (a few
//! random opening plies for variety, then small fixed-depth searches) must finish with
//! legal moves only and with a result that the rules core (`Game::outcome`) gives.
//! Also: `stop` ends an unlimited search promptly, and Lazy SMP with two threads
//! returns a legal move.

use crate::common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use sako::engine::eval::Eval;
use sako::engine::search::SearchOptions;
use sako::engine::time::Limits;
use sako::engine::tt::Tt;
use sako::rules::variant::all_variants;
use sako::Game;

const GAMES: usize = 20;
/// Far more plies than any game lasts under the n-move rules with these searches; a
/// game this long means the end rules are not working.
const MAX_PLIES: usize = 3000;

fn play_games(variant: &str, seed: u64) -> Vec<String> {
    let eval = Eval::embedded(variant).expect("tables");
    let tt = Tt::new(1);
    let mut rng = common::Rng::new(seed);
    let mut results = Vec::new();
    for g in 0..GAMES {
        let mut game = Game::new(variant, None).expect("start position");
        tt.clear();
        let random_plies = 2 + rng.below(5);
        let mut plies = 0;
        let outcome = loop {
            if let Some(o) = game.outcome() {
                break o;
            }
            assert!(
                plies < MAX_PLIES,
                "{variant} game {g}: no end after {plies} plies"
            );
            let legal = game.legal_moves();
            let m = if plies < random_plies {
                legal[rng.below(legal.len())].clone()
            } else {
                let stop = AtomicBool::new(false);
                let opts = SearchOptions::new(
                    Limits {
                        depth: Some(2),
                        nodes: Some(4000),
                        ..Limits::default()
                    },
                    &tt,
                    &eval,
                    &stop,
                );
                let r = game.search(&opts, &mut |_| {}).expect("search");
                r.best.unwrap_or_else(|| {
                    panic!(
                        "{variant} game {g}: no move though the game goes on: {}",
                        game.fen()
                    )
                })
            };
            assert!(
                legal.contains(&m),
                "{variant} game {g}: illegal move {m} at {}",
                game.fen()
            );
            game.play(&m).expect("legal move plays");
            plies += 1;
        };
        results.push(format!("{} after {plies} plies", outcome.line()));
    }
    results
}

#[test]
fn every_variant_plays_twenty_games_to_a_rules_result() {
    let names: Vec<&'static str> = all_variants().iter().map(|v| v.name).collect();
    let all: Vec<(String, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = names
            .chunks(names.len().div_ceil(2))
            .enumerate()
            .map(|(k, chunk)| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .enumerate()
                        .map(|(i, v)| (v.to_string(), play_games(v, 1 + (k * 10 + i) as u64)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    });
    assert_eq!(all.len(), names.len());
    for (v, results) in &all {
        assert_eq!(results.len(), GAMES, "{v}");
        for r in results {
            assert!(
                r.starts_with("1-0 {") || r.starts_with("0-1 {") || r.starts_with("1/2-1/2 {"),
                "{v}: {r}"
            );
        }
        println!("{v}: {}", results.join("; "));
    }
}

#[test]
fn stop_ends_an_infinite_search_promptly_with_two_threads() {
    let mut game = Game::new("great", None).expect("start");
    let eval = Eval::embedded("great").expect("tables");
    let tt = Tt::new(4);
    let stop = AtomicBool::new(false);
    let opts = SearchOptions {
        threads: 2,
        ..SearchOptions::new(
            Limits {
                infinite: true,
                ..Limits::default()
            },
            &tt,
            &eval,
            &stop,
        )
    };
    let legal = game.legal_moves();
    let result = std::thread::scope(|s| {
        let h = s.spawn(|| game.search(&opts, &mut |_| {}).expect("search"));
        std::thread::sleep(Duration::from_millis(200));
        let asked = Instant::now();
        stop.store(true, Ordering::Relaxed);
        let r = h.join().expect("search thread");
        // Not a timing assertion on speed: a search that ignored the flag would run
        // to the maximum depth, minutes at least.
        assert!(asked.elapsed() < Duration::from_secs(30));
        r
    });
    let best = result.best.expect("a move");
    assert!(legal.contains(&best), "{best}");
}

#[test]
fn timed_search_returns_a_legal_move_within_its_clock() {
    for v in ["historia", "chesquerque", "shatarhia"] {
        let mut game = Game::new(v, None).expect("start");
        let eval = Eval::embedded(v).expect("tables");
        let tt = Tt::new(4);
        let stop = AtomicBool::new(false);
        let opts = SearchOptions {
            threads: 2,
            ..SearchOptions::new(
                Limits {
                    time_left: Some(200),
                    moves_to_go: Some(40),
                    ..Limits::default()
                },
                &tt,
                &eval,
                &stop,
            )
        };
        let r = game.search(&opts, &mut |_| {}).expect("search");
        let best = r.best.expect("a move");
        assert!(game.legal_moves().contains(&best), "{v}: {best}");
    }
}
