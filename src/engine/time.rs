//! Time management: what limits a search (depth, nodes, time per move, a clock with
//! increment or a number of moves per session, or nothing at all) and the soft and hard
//! time budgets derived from them.
//!
//! The *soft* budget is when the search should not start another iteration; the
//! *hard* budget is when a running iteration is abandoned. The hard budget is always
//! well inside the time left on the clock minus a safety overhead, so the engine never
//! loses on time while the program answers in time at all.

use std::time::{Duration, Instant};

/// How long a search may run. Any combination may be given; the search stops at the
/// first limit reached. With nothing set the search runs until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after completing this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Exactly this long per move (XBoard `st`, UCI `movetime`), in milliseconds.
    pub movetime: Option<u64>,
    /// Time left on the engine's clock, in milliseconds.
    pub time_left: Option<u64>,
    /// Increment per move, in milliseconds.
    pub increment: u64,
    /// Moves until the next time control (XBoard `level 40 5 0`: 40 minus moves made in
    /// this session); `None` for sudden death or increment games.
    pub moves_to_go: Option<u32>,
    /// Analyse until stopped, whatever else is set (except an explicit depth/nodes).
    pub infinite: bool,
    /// Milliseconds kept back for communication and process latency (default 30).
    pub overhead: Option<u64>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search a fixed time per move.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime: Some(ms),
            ..Limits::default()
        }
    }

    /// Search about a fixed number of nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }
}

/// The clock of one search: start time and budgets.
#[derive(Clone, Debug)]
pub struct Clock {
    start: Instant,
    soft: Option<Duration>,
    hard: Option<Duration>,
}

/// How many moves a game is assumed still to last when the clock does not say.
/// (30 left about 2 s of a 5+0.05 clock unused at the end of a typical chess game,
/// while Fairy-Stockfish spent 40% more than sako on its first 20 moves; with 20 it
/// still spent 15 to 20% more on its first 30 moves out of the book, where the games
/// against it turn, and less after move 40. 16 passed its test against 20; 14 lost
/// to 16, see docs/strength.md.)
const DEFAULT_MOVES_LEFT: u64 = 16;

/// The share of the soft budget after which no new iteration starts: the next one
/// would typically take longer than what is left of the budget.
const NEW_ITERATION_SHARE: f64 = 0.6;

impl Clock {
    /// Budgets for `limits`, starting now.
    pub fn start(limits: &Limits) -> Clock {
        let (soft, hard) = budgets(limits);
        Clock {
            start: Instant::now(),
            soft: soft.map(Duration::from_millis),
            hard: hard.map(Duration::from_millis),
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Milliseconds since the search started.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// True when the hard budget is used up: abandon the search now.
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.start.elapsed() >= h)
    }

    /// True when another iteration should not be started: more than
    /// `NEW_ITERATION_SHARE` of the soft budget is gone.
    pub fn soft_expired(&self) -> bool {
        self.soft_expired_scaled(1.0)
    }

    /// Like [`Clock::soft_expired`] with the soft budget scaled by `scale` (more time
    /// for an unsettled search, less for a settled one); never past the hard budget.
    pub fn soft_expired_scaled(&self, scale: f64) -> bool {
        self.soft.is_some_and(|s| {
            self.start.elapsed().as_secs_f64() >= s.as_secs_f64() * scale * NEW_ITERATION_SHARE
                || self.hard_expired()
        })
    }

    /// Whether any time limit is set.
    pub fn is_timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// (soft, hard) budgets in milliseconds for `limits`; `None` for untimed searches.
pub fn budgets(limits: &Limits) -> (Option<u64>, Option<u64>) {
    if limits.infinite {
        return (None, None);
    }
    let overhead = limits.overhead.unwrap_or(30);
    if let Some(mt) = limits.movetime {
        // Use the whole time, less the overhead, but never less than a millisecond or
        // more than the time asked for. No soft budget: a settled search does not stop
        // early, since the time per move is what was asked for.
        let t = mt.saturating_sub(overhead).max(mt / 2).max(1);
        return (None, Some(t));
    }
    let Some(left) = limits.time_left else {
        return (None, None);
    };
    // What may be spent at all: the clock less twice the overhead, never all of it.
    let usable = left
        .saturating_sub(overhead.saturating_mul(2))
        .max(left / 5);
    let moves = limits
        .moves_to_go
        .map(|m| m.clamp(1, 60) as u64)
        .unwrap_or(DEFAULT_MOVES_LEFT);
    let inc = limits.increment;
    let base = (usable / moves).saturating_add(inc / 4 * 3);
    // With several moves to go keep a reserve (a quarter of the clock at most for one
    // move, so a latency spike never costs the game); with one move to go most may go.
    let cap = if moves == 1 {
        usable / 4 * 3
    } else {
        usable / 4
    };
    let soft = base.min(cap).max(1);
    let hard = soft.saturating_mul(3).min(cap).max(soft).max(1);
    (Some(soft), Some(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budgets_stay_inside_the_clock() {
        for left in [10u64, 50, 100, 1000, 60_000, 300_000] {
            for mtg in [None, Some(1), Some(2), Some(40)] {
                for inc in [0u64, 100, 2000] {
                    let l = Limits {
                        time_left: Some(left),
                        moves_to_go: mtg,
                        increment: inc,
                        ..Limits::default()
                    };
                    let (soft, hard) = budgets(&l);
                    let (soft, hard) = (soft.unwrap(), hard.unwrap());
                    assert!(soft <= hard || hard == 1, "{left} {mtg:?} {inc}");
                    assert!(hard < left.max(2), "{left} {mtg:?} {inc}: hard {hard}");
                }
            }
        }
    }

    #[test]
    fn level_40_5_uses_a_fortieth() {
        let l = Limits {
            time_left: Some(300_000),
            moves_to_go: Some(40),
            ..Limits::default()
        };
        let (soft, hard) = budgets(&l);
        assert!((7000..8000).contains(&soft.unwrap()));
        assert!(hard.unwrap() <= 4 * soft.unwrap());
    }

    #[test]
    fn sudden_death_spreads_the_clock_over_sixteen_moves() {
        let l = Limits {
            time_left: Some(5_000),
            increment: 50,
            ..Limits::default()
        };
        let (soft, hard) = budgets(&l);
        // (5000 - 60) / 16 + 3/4 of the increment.
        assert_eq!(soft, Some(308 + 36));
        assert_eq!(hard, Some(3 * (308 + 36)));
    }

    #[test]
    fn a_fixed_time_per_move_is_used_whole() {
        let (soft, hard) = budgets(&Limits::movetime(3_000));
        assert_eq!(soft, None, "no early stop of a settled search");
        assert_eq!(hard, Some(2_970));
        let clock = Clock::start(&Limits::movetime(3_000));
        assert!(clock.is_timed() && !clock.soft_expired());
    }

    #[test]
    fn untimed_searches_have_no_budget() {
        assert_eq!(budgets(&Limits::depth(5)), (None, None));
        let l = Limits {
            infinite: true,
            movetime: Some(100),
            ..Limits::default()
        };
        assert_eq!(budgets(&l), (None, None));
    }
}
