//! Thinking output: the `ply score time nodes pv` lines of every search, the record
//! of its newest depth for `.` (`stat01`) and for draw offers.

use std::sync::Arc;

use super::draw::SearchView;
use super::{Mode, Xboard};
use crate::engine::search::{Score, SearchInfo};

/// XBoard's thinking-output score: centipawns, or ±(100000 + moves) for mates.
fn xboard_score(score: Score) -> i64 {
    match score {
        Score::Cp(c) => c as i64,
        Score::Mate(m) if m > 0 => 100_000 + m as i64,
        Score::Mate(m) => -100_000 + m as i64,
    }
}

/// The `ply score time nodes pv` line.
fn thinking_line(info: &SearchInfo) -> String {
    format!(
        "{} {} {} {} {}",
        info.depth,
        xboard_score(info.score),
        info.time_ms / 10,
        info.nodes,
        info.pv.join(" ")
    )
}

impl Xboard {
    /// The thinking-output printer of a search whose root is the first of `keys` (the
    /// others are positions it stands for in draw offers); with `guess` (pondering) every
    /// PV starts with the expected opponent move.
    pub(super) fn printer(
        &self,
        guess: Option<String>,
        keys: Vec<u64>,
    ) -> Box<dyn FnMut(&SearchInfo) + Send> {
        let out = self.s.out.clone();
        let post = self.post || self.mode == Mode::Analyzing;
        let last = Arc::clone(&self.last_info);
        let view = Arc::clone(&self.search_view);
        Box::new(move |info: &SearchInfo| {
            let mut info = info.clone();
            if let Some(g) = &guess {
                info.pv.insert(0, g.clone());
            }
            if info.multipv <= 1 {
                if let Ok(mut v) = view.lock() {
                    *v = Some(SearchView::new(keys.clone(), info.depth, info.score));
                }
            }
            // Recorded before it is printed: a `.` sent on seeing the line finds it.
            let line = thinking_line(&info);
            if let Ok(mut l) = last.lock() {
                *l = Some(info);
            }
            if post {
                out.line(&line);
            }
        })
    }

    /// `.` in analysis: `stat01: time nodes depth moves-left total-moves current-move`.
    pub(super) fn stat(&self) {
        if self.mode != Mode::Analyzing {
            return;
        }
        if let Ok(l) = self.last_info.lock() {
            if let Some(info) = l.as_ref() {
                let total = self.s.game.clone().legal_moves().len();
                self.out(&format!(
                    "stat01: {} {} {} {} {} {}",
                    info.time_ms / 10,
                    info.nodes,
                    info.depth,
                    0,
                    total,
                    info.pv.first().cloned().unwrap_or_default()
                ));
            }
        }
    }
}
