//! Pondering (`hard` / `easy`): after its own move the engine searches the position
//! after the reply it expects (the `hint`), on the opponent's time, with no limit. The
//! thinking output of that search starts each PV with the expected move. Whatever move
//! comes, the ponder search stops without a `move` line and the real move is answered by
//! a fresh search on the engine's clock, as UCI `ponderhit` does: after a ponder hit the
//! transposition table already holds the search of this very position, so the answer
//! comes fast and deep. A `#` comment line says whether the move was the expected one.

use super::{Mode, Xboard};
use crate::engine::time::Limits;

impl Xboard {
    /// `hard` (pondering on) or `easy` (off; a running ponder search stops).
    pub(super) fn set_ponder(&mut self, on: bool) {
        self.ponder = on;
        if !on && self.mode == Mode::Pondering {
            self.stop_thinking();
        }
    }

    /// After the engine's move: ponders on the expected reply, when pondering is on, the
    /// engine plays a side, the game goes on and a reply is known.
    pub(super) fn start_ponder(&mut self) {
        if !self.ponder || self.force || self.game_over || self.mode != Mode::Idle {
            return;
        }
        if self.engine_side != Some(self.s.game.side_to_move().flip()) {
            return;
        }
        let Some(guess) = self.hint.clone() else {
            return;
        };
        let real = self.s.game.clone();
        if self.s.game.play(&guess).is_err() || self.s.game.outcome().is_some() {
            self.s.game = real;
            return;
        }
        self.mode = Mode::Pondering;
        let keys = vec![self.s.game.key(), real.key()];
        let on_info = self.printer(Some(guess.clone()), keys);
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        // The search works on its own copy: the game goes back to the real position.
        self.s.start_search(limits, 1, Vec::new(), on_info);
        self.s.game = real;
        self.ponder_guess = Some(guess);
    }

    /// The opponent's move `text` arrived: stops the ponder search (if one runs) and
    /// says whether `text` was the expected move.
    pub(super) fn end_ponder(&mut self, text: &str) {
        if self.mode != Mode::Pondering {
            return;
        }
        self.s.stop_search();
        self.mode = Mode::Idle;
        let Some(guess) = self.ponder_guess.take() else {
            return;
        };
        if self.same_move(&guess, text) {
            self.out(&format!("# ponder hit {text}"));
        } else {
            self.out(&format!("# ponder miss {text} (expected {guess})"));
        }
    }

    /// True when the move texts `a` and `b` lead to the same position.
    fn same_move(&self, a: &str, b: &str) -> bool {
        let after = |m: &str| {
            let mut g = self.s.game.clone();
            g.play(m).ok().map(|_| g.key())
        };
        after(a).is_some_and(|k| after(b) == Some(k))
    }
}
