//! Self-check of the reference generators in `engine-tests/reference/`.

#[path = "reference/mod.rs"]
mod reference;

use reference::{chesquerque, shatar};

#[test]
fn quick() {
    let p = chesquerque::Pos::from_fen("rnbqkabnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1").unwrap();
    println!("{:?}", p.legal_moves());
    for d in 1..=4 { println!("cq {} {}", d, p.perft(d)); }
    let s = shatar::Pos::from_fen("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 1").unwrap();
    for d in 1..=4 { println!("sh {} {}", d, s.perft(d)); }
    let s = shatar::Pos::from_fen("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR[Hh] w - - 0 1").unwrap();
    for d in 1..=4 { println!("sh {} {}", d, s.perft(d)); }
}
