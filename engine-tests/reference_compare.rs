//! The engine's bitboard move generator against the slow reference generators in
//! `engine-tests/reference/` (which share no code with it) for the games no outside
//! oracle can play: Chesquerque, and Shatar with the Hia's field and gating. Both sides
//! play the same random games; at every position the legal move lists, the check status
//! and the reference's reading of our FEN must agree.

use crate::common;
use crate::reference;

use common::Rng;
use sako::Game;

/// What the comparison needs from a reference generator.
trait Reference: Sized {
    fn from_fen(fen: &str) -> Result<Self, String>;
    fn moves(&self) -> Vec<String>;
    fn play(&self, mv: &str) -> Result<Self, String>;
    fn in_check(&self) -> bool;
}

impl Reference for reference::chesquerque::Pos {
    fn from_fen(fen: &str) -> Result<Self, String> {
        Self::from_fen(fen)
    }
    fn moves(&self) -> Vec<String> {
        self.legal_moves()
    }
    fn play(&self, mv: &str) -> Result<Self, String> {
        self.play(mv)
    }
    fn in_check(&self) -> bool {
        self.in_check()
    }
}

impl Reference for reference::shatar::Pos {
    fn from_fen(fen: &str) -> Result<Self, String> {
        Self::from_fen(fen)
    }
    fn moves(&self) -> Vec<String> {
        self.legal_moves()
    }
    fn play(&self, mv: &str) -> Result<Self, String> {
        self.play(mv)
    }
    fn in_check(&self) -> bool {
        self.in_check()
    }
}

/// Runs random games until `min_positions` positions were compared.
fn compare<P: Reference>(variant: &str, starts: &[&str], min_positions: usize, seed: u64) {
    let from_fen = P::from_fen;
    let moves = P::moves;
    let play = P::play;
    let in_check = P::in_check;
    let mut rng = Rng::new(seed);
    let mut positions = 0;
    let mut game_no = 0;
    while positions < min_positions {
        let start = starts[game_no % starts.len()];
        game_no += 1;
        let mut ours = Game::new(variant, Some(start)).expect("our FEN");
        let mut theirs = from_fen(start).expect("reference FEN");
        for _ in 0..250 {
            let a = ours.legal_moves();
            let b = moves(&theirs);
            assert_eq!(a, b, "{variant}: move lists differ at {}", ours.fen());
            assert_eq!(
                ours.in_check(),
                in_check(&theirs),
                "check differs at {}",
                ours.fen()
            );
            let reread = from_fen(&ours.fen()).expect("reference reads our FEN");
            assert_eq!(
                moves(&reread),
                a,
                "our FEN loses information: {}",
                ours.fen()
            );
            positions += 1;
            if a.is_empty() {
                break;
            }
            let pick = a[rng.below(a.len())].clone();
            ours.play(&pick).expect("listed move");
            theirs = play(&theirs, &pick).expect("reference plays the move");
        }
    }
}

#[test]
fn chesquerque_matches_reference() {
    use reference::chesquerque::Pos;
    compare::<Pos>(
        "chesquerque",
        &[
            "rnbqkabnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKABNR w KQkq - 0 1",
            "r3k3r/ppp1p1ppp/2n1b1n2/3p1p3/9/3P1P3/2N1B1N2/PPP1P1PPP/R3K3R w KQkq - 0 1",
            "r3k3r/9/9/9/9/9/9/3n5/R3K3R w KQkq - 0 1",
        ],
        12_000,
        11,
    );
}

#[test]
fn shatar_with_hia_matches_reference() {
    use reference::shatar::Pos;
    compare::<Pos>(
        "shatarhia",
        &[
            "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR[Hh] w - - 0 1",
            "r3k2r/ppp2ppp/2nqbn2/3pp3/3PP3/2NQBN2/PPP2PPP/R3K2R[Hh] w - - 0 1",
            "4k3/8/8/3h4/8/8/3H4/R3K2R w - - 0 1",
            "r3k3/1b6/8/8/3Hh3/8/8/4K2Q w - - 0 1",
        ],
        12_000,
        12,
    );
}

#[test]
fn shatar_without_hia_matches_reference() {
    use reference::shatar::Pos;
    compare::<Pos>(
        "shatar",
        &["rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w - - 0 1"],
        4_000,
        13,
    );
}
