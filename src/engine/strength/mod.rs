//! Strength levels: a weakened engine for weaker opponents (UCI `UCI_LimitStrength` +
//! `UCI_Elo` or `Skill Level`, the same as XBoard options).
//!
//! A level decides (a) how much the search sees: a node budget and a depth cap that
//! grow with the level, so weak levels also answer fast; and (b) which move is played:
//! the search reports several lines (MultiPV) and a move is drawn among those within a
//! margin of the best, weighted toward the better ones (`e^(-drop/temper)`), with a
//! random number seeded per game. A drawn move may never lose more material outright
//! (by static exchange) than the level allows beyond what the best move loses: a weak
//! level makes plausible mistakes, it does not hang its queen.
//!
//! The parameters per Elo label and game family are data (`eval-tables/levels.txt`,
//! [`table`]); full strength (Skill Level 20, LimitStrength off) is exactly the plain
//! search.

pub mod table;
#[cfg(test)]
mod tests;

use crate::engine::eval::Eval;
use crate::engine::search::{Score, SearchInfo, MATE};
use crate::engine::see::see_at_least;
use crate::engine::time::Limits;
use crate::rules::compile::BoardWidth;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::position::{piece_color, Color, Position, NO_PIECE};
pub use table::{LevelError, LevelTable, LEVELS_FILE};

/// The highest `Skill Level` (full strength).
pub const MAX_SKILL: u32 = 20;
/// The hard node limit of a weakened search is never below this, so that its first
/// depth (all its lines) is finished.
const MIN_HARD_NODES: u64 = 5000;

/// The strength options as the protocols set them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// `UCI_LimitStrength`: play at `elo`.
    pub limit: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `Skill Level`, 0 to 20 (20: full strength unless `limit`).
    pub skill: u32,
}

impl Strength {
    /// Full strength, with `elo` as the (unused) `UCI_Elo` value.
    pub fn full(elo: u32) -> Strength {
        Strength {
            limit: false,
            elo,
            skill: MAX_SKILL,
        }
    }

    /// The Elo to play at, `None` for full strength: `UCI_Elo` when `limit` is on, else
    /// the Skill Level spread evenly over the table's range (0: its lowest label).
    pub fn target_elo(&self, range: (u32, u32)) -> Option<u32> {
        if self.limit {
            Some(self.elo.clamp(range.0, range.1))
        } else if self.skill < MAX_SKILL {
            Some(range.0 + (range.1 - range.0) * self.skill / MAX_SKILL)
        } else {
            None
        }
    }

    /// The level's parameters for `variant`, `None` for full strength.
    pub fn params(&self, table: &LevelTable, variant: &str) -> Option<LevelParams> {
        let elo = self.target_elo(table.elo_range())?;
        table.params(variant, elo)
    }
}

/// One level: what the search may see and how the move is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelParams {
    /// The Elo label.
    pub elo: u32,
    /// Node budget per move: no new depth is started past it.
    pub nodes: u64,
    /// Deepest iteration (0: no cap).
    pub depth: u32,
    /// MultiPV lines to choose among.
    pub lines: usize,
    /// Centipawns below the best line a chosen move may score.
    pub margin: i32,
    /// Centipawns of score drop that make a line e times less likely.
    pub temper: i32,
    /// Centipawns of material a chosen move may lose beyond what the best move loses.
    pub loss: i32,
}

/// A line of the last finished depth, as the search reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The first move, in coordinate notation.
    pub mv: String,
    /// The expected reply, if any.
    pub reply: Option<String>,
    /// The line's score.
    pub score: Score,
}

impl LevelParams {
    /// `limits` with the level's depth cap and hard node limit (twice the budget, at
    /// least [`MIN_HARD_NODES`]).
    pub fn limits(&self, mut limits: Limits) -> Limits {
        if self.depth > 0 {
            limits.depth = Some(limits.depth.map_or(self.depth, |d| d.min(self.depth)));
        }
        let hard = (self.nodes.saturating_mul(2)).max(MIN_HARD_NODES);
        limits.nodes = Some(limits.nodes.map_or(hard, |n| n.min(hard)));
        limits
    }

    /// The number of lines to search when `shown` are asked for.
    pub fn lines(&self, shown: usize) -> usize {
        self.lines.max(shown).max(1)
    }

    /// Picks one of `lines` (best first): among those within the margin whose
    /// material loss (`loss`, by move text) is within the bound, drawn with weights
    /// falling with the score drop; the seed makes the draw repeatable. `None` when
    /// `lines` is empty.
    pub fn choose(
        &self,
        lines: &[Line],
        loss: &mut dyn FnMut(&str) -> i32,
        seed: u64,
    ) -> Option<usize> {
        let best_line = lines.first()?;
        let best = score_value(best_line.score);
        let bound = loss(&best_line.mv).max(0) + self.loss;
        let mut weights = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            let drop = best.saturating_sub(score_value(line.score)).max(0);
            let allowed = i == 0 || (drop <= self.margin && loss(&line.mv) <= bound);
            let w = if allowed {
                (-f64::from(drop) / f64::from(self.temper.max(1))).exp()
            } else {
                0.0
            };
            weights.push(w);
        }
        let total: f64 = weights.iter().sum();
        let mut x = unit(seed) * total;
        for (i, w) in weights.iter().enumerate() {
            if *w > 0.0 && x < *w {
                return Some(i);
            }
            x -= w;
        }
        Some(0)
    }
}

/// A score as one number for comparisons (mates far beyond any centipawn score, the
/// nearer the better).
fn score_value(s: Score) -> i32 {
    match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => MATE - 2 * n,
        Score::Mate(n) => -MATE - 2 * n,
    }
}

/// A number in [0, 1) from `seed` (SplitMix64's finaliser).
fn unit(seed: u64) -> f64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// Collects the lines of the last finished depth from the search's reports, and says
/// when a depth is finished.
#[derive(Clone, Debug, Default)]
pub struct LineRecorder {
    /// The lines of the last finished depth, best first.
    pub lines: Vec<Line>,
    current: Vec<Line>,
}

impl LineRecorder {
    /// Takes one report; true when it was the last line of its depth.
    pub fn record(&mut self, info: &SearchInfo) -> bool {
        if info.multipv == 1 {
            self.current.clear();
        }
        self.current.push(Line {
            mv: info.pv.first().cloned().unwrap_or_default(),
            reply: info.pv.get(1).cloned(),
            score: info.score,
        });
        let done = info.multipv >= info.lines;
        if done {
            self.lines = std::mem::take(&mut self.current);
            self.lines.retain(|l| !l.mv.is_empty());
        }
        done
    }
}

/// The material `m` loses outright: what the opponent's best capture afterwards wins
/// by static exchange, less what `m` itself gains on the board (never below 0). Piece
/// values are the evaluation's move-ordering values.
pub fn material_loss<B: BoardWidth>(pos: &mut Position<B>, m: Move, eval: &Eval) -> i32 {
    let us = pos.side();
    let before = board_material(pos, eval, us);
    pos.make(m);
    let mut gained = before.1 - board_material(pos, eval, us).1;
    gained += board_material(pos, eval, us).0 - before.0;
    if matches!(m.kind(), MoveKind::Drop | MoveKind::Gate) {
        // The placed piece came from the hand: no gain.
        gained -= eval.order_value(m.piece());
    }
    let mut replies = MoveList::new();
    pos.generate_legal(&mut replies);
    let threat = replies
        .as_slice()
        .iter()
        .filter(|c| is_capture_of(pos, **c, us))
        .map(|&c| see_value(pos, c, eval))
        .max()
        .unwrap_or(0);
    pos.unmake(m);
    (threat - gained).max(0)
}

/// True when `c` takes a piece of `victim`'s on its target square.
fn is_capture_of<B: BoardWidth>(pos: &Position<B>, c: Move, victim: Color) -> bool {
    match c.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Drop | MoveKind::Castle | MoveKind::Gate => false,
        _ => {
            let p = pos.piece_on(c.to());
            p != NO_PIECE && piece_color(p) == victim
        }
    }
}

/// What capture `c` wins by static exchange (0 if it loses), to within 8 cp.
fn see_value<B: BoardWidth>(pos: &Position<B>, c: Move, eval: &Eval) -> i32 {
    let value = |t| eval.order_value(t).min(4000);
    if !see_at_least(pos, c, 1, value) {
        return 0;
    }
    let (mut lo, mut hi) = (1, 8192);
    while hi - lo > 8 {
        let mid = (lo + hi) / 2;
        if see_at_least(pos, c, mid, value) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The material on the board of `us` and of the opponent (kings left out).
fn board_material<B: BoardWidth>(pos: &Position<B>, eval: &Eval, us: Color) -> (i32, i32) {
    let r = pos.rules;
    let mut sums = (0, 0);
    for t in (0..r.types).filter(|&t| t != r.king) {
        let v = eval.order_value(t);
        sums.0 += pos.pieces(us, t).count() as i32 * v;
        sums.1 += pos.pieces(us.flip(), t).count() as i32 * v;
    }
    sums
}
