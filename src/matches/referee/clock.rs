//! The referee's chess clock for one engine.

use super::super::args::TimeControl;

/// A chess clock for one engine.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    pub(super) tc: TimeControl,
    pub(super) remaining_ms: i64,
    pub(super) moves_made: u32,
}

impl Clock {
    pub(super) fn new(tc: &TimeControl) -> Clock {
        let remaining_ms = match tc {
            TimeControl::Clock { base_ms, .. } => *base_ms as i64,
            _ => 0,
        };
        Clock {
            tc: tc.clone(),
            remaining_ms,
            moves_made: 0,
        }
    }

    /// Time allowed for the next move, if bounded.
    pub(super) fn limit_ms(&self) -> Option<i64> {
        match self.tc {
            TimeControl::Clock { .. } => Some(self.remaining_ms),
            TimeControl::PerMove(ms) => Some(ms as i64),
            TimeControl::Infinite => None,
        }
    }

    pub(super) fn moves_to_go(&self) -> Option<u32> {
        match self.tc {
            TimeControl::Clock { moves, .. } if moves > 0 => Some(moves - self.moves_made % moves),
            _ => None,
        }
    }

    /// Charges a move that took `ms`.
    pub(super) fn charge(&mut self, ms: u64) {
        if let TimeControl::Clock {
            moves,
            base_ms,
            inc_ms,
        } = self.tc
        {
            self.remaining_ms -= ms as i64;
            self.remaining_ms += inc_ms as i64;
            self.moves_made += 1;
            if moves > 0 && self.moves_made.is_multiple_of(moves) {
                self.remaining_ms += base_ms as i64;
            }
        }
    }
}
