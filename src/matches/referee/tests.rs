//! Tests of the referee: move spelling, clocks, comments.

use super::*;
use crate::matches::engine::EngineScore;

#[test]
fn canonical_spelling() {
    let mut g = Game::new("historia", None).expect("start");
    assert_eq!(canonical_move(&mut g, "k@e1").as_deref(), Some("K@e1"));
    assert_eq!(canonical_move(&mut g, "K@e5"), None);
    let mut g = Game::new("shatarhia", None).expect("start");
    g.play_all("e2e3 e7e6").expect("moves");
    assert_eq!(canonical_move(&mut g, "e1e2").as_deref(), Some("e1e2h"));
    assert_eq!(canonical_move(&mut g, "zz"), None);
}

#[test]
fn clocks() {
    let mut c = Clock::new(&TimeControl::Clock {
        moves: 2,
        base_ms: 1000,
        inc_ms: 100,
    });
    assert_eq!(c.limit_ms(), Some(1000));
    assert_eq!(c.moves_to_go(), Some(2));
    c.charge(300);
    assert_eq!(c.remaining_ms, 800);
    assert_eq!(c.moves_to_go(), Some(1));
    c.charge(300);
    assert_eq!(c.remaining_ms, 1600);
    let st = Clock::new(&TimeControl::PerMove(50));
    assert_eq!(st.limit_ms(), Some(50));
}

#[test]
fn comments() {
    let m = PlayedMove {
        text: "e2e4".into(),
        score: Some(EngineScore::Cp(23)),
        depth: Some(12),
        time_ms: Some(810),
    };
    assert_eq!(m.comment().as_deref(), Some("+0.23/12 0.81s"));
    assert_eq!(comment_safe("a {b}"), "a (b)");
}
