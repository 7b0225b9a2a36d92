//! Draw offers (`draw`): the engine accepts (by sending `offer draw`, as the protocol
//! says) when the position is drawn by the rules or a recent search at a real depth
//! scores it near 0; otherwise it says nothing, which declines. An offer that comes
//! while the engine thinks about its move is answered when the move is found, just
//! before the `move` line.

use super::{Mode, Xboard};
use crate::engine::search::Score;
use crate::game::Game;
use crate::rules::position::outcome::GameResult;

/// Largest score (centipawns, either sign) that a search may give a drawn position.
pub(super) const DRAW_MARGIN_CP: i32 = 15;
/// Shallowest completed depth whose score is trusted for a draw offer.
pub(super) const DRAW_MIN_DEPTH: u32 = 8;
/// How many plies back a search still counts as recent.
const RECENT_PLIES: usize = 2;

/// True when a search that completed `depth` with `score` says the game is drawn.
pub(super) fn score_says_drawn(depth: u32, score: Score) -> bool {
    depth >= DRAW_MIN_DEPTH && matches!(score, Score::Cp(cp) if cp.abs() <= DRAW_MARGIN_CP)
}

/// The newest completed depth of a search and the positions it speaks for.
#[derive(Clone, Debug)]
pub(super) struct SearchView {
    /// The root's key first; a ponder search adds the position before the expected move.
    keys: Vec<u64>,
    depth: u32,
    score: Score,
}

impl SearchView {
    /// A view of a search of the positions `keys` that completed `depth` with `score`.
    pub(super) fn new(keys: Vec<u64>, depth: u32, score: Score) -> SearchView {
        SearchView { keys, depth, score }
    }

    /// True when the search was on `game`'s position or one at most two plies before it.
    fn is_recent(&self, game: &Game) -> bool {
        let mut g = game.clone();
        for back in 0..=RECENT_PLIES {
            if self.keys.contains(&g.key()) {
                return true;
            }
            if back < RECENT_PLIES && !g.undo() {
                break;
            }
        }
        false
    }

    /// True when the view is recent for `game` and says drawn.
    pub(super) fn says_drawn(&self, game: &Game) -> bool {
        score_says_drawn(self.depth, self.score) && self.is_recent(game)
    }
}

impl Xboard {
    /// `draw`: accept at once when the position is drawn, wait for the running search
    /// when the engine is thinking about its move, else decline silently.
    pub(super) fn draw_offered(&mut self) {
        if self.game_over || self.mode == Mode::Analyzing {
            return;
        }
        if self.position_is_drawn() {
            self.out("offer draw");
        } else if self.mode == Mode::Thinking {
            self.draw_pending = true;
        }
    }

    /// True when the rules end the game drawn now or a recent search says drawn.
    fn position_is_drawn(&mut self) -> bool {
        if let Some(o) = self.s.game.outcome() {
            return o.result == GameResult::Draw;
        }
        let view = self.search_view.lock().ok().and_then(|v| v.clone());
        view.is_some_and(|v| v.says_drawn(&self.s.game))
    }

    /// Just before the engine's move: accepts an offer made while it thought, if the
    /// search's final score says drawn.
    pub(super) fn answer_pending_draw(&mut self, depth: u32, score: Score) {
        if std::mem::take(&mut self.draw_pending) && score_says_drawn(depth, score) {
            self.out("offer draw");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_real_depth_near_zero_is_a_draw() {
        assert!(score_says_drawn(DRAW_MIN_DEPTH, Score::Cp(0)));
        assert!(score_says_drawn(20, Score::Cp(-DRAW_MARGIN_CP)));
        assert!(!score_says_drawn(DRAW_MIN_DEPTH - 1, Score::Cp(0)));
        assert!(!score_says_drawn(20, Score::Cp(DRAW_MARGIN_CP + 1)));
        assert!(!score_says_drawn(20, Score::Mate(3)));
    }

    #[test]
    fn a_search_speaks_for_two_plies_after_its_root() {
        let mut game = Game::new("normal", None).expect("start position");
        let view = SearchView::new(vec![game.key()], 10, Score::Cp(0));
        assert!(view.says_drawn(&game));
        for (m, recent) in [("e2e4", true), ("e7e5", true), ("g1f3", false)] {
            game.play(m).expect("legal move");
            assert_eq!(view.says_drawn(&game), recent, "after {m}");
        }
    }
}
