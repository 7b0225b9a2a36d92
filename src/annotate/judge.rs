//! How much ground a move lost, and the verdict `?!`, `?` or `??`.
//!
//! A score is turned into the mover's expected result with the logistic
//! `E(cp) = 1 / (1 + 10^(-cp / 400))` (a mate counts as certain). A move loses
//! `E(best) - E(played)`; the thresholds are what 50, 100 and 300 centipawns lost
//! from an equal position cost (0.072, 0.140 and 0.349): so a move that drops a won
//! position from +8 to +5 costs little and is no blunder, while the same three pawns
//! from equality are one.

use crate::engine::search::Score;

/// Centipawns lost from an equal position at the three thresholds.
pub const THRESHOLDS_CP: [i32; 3] = [50, 100, 300];

/// The verdict on a move that lost ground.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// `?!` (NAG 6).
    Inaccuracy = 0,
    /// `?` (NAG 2).
    Mistake = 1,
    /// `??` (NAG 4).
    Blunder = 2,
}

impl Judgement {
    /// The PGN numeric annotation glyph: 6, 2 or 4.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The suffix glyph: `?!`, `?` or `??`.
    pub fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The verdict for a loss in expected result (`None` below the first threshold).
    pub fn from_loss(loss: f64) -> Option<Judgement> {
        let at = |i: usize| expected(THRESHOLDS_CP[i] as f64) - 0.5;
        if loss >= at(2) {
            Some(Judgement::Blunder)
        } else if loss >= at(1) {
            Some(Judgement::Mistake)
        } else if loss >= at(0) {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// `1 / (1 + 10^(-cp / 400))`.
pub fn expected(cp: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-cp / 400.0))
}

/// The expected result of a score (for the side it is given for): a mate to give is
/// 1, a mate to suffer 0.
pub fn expected_score(s: Score) -> f64 {
    match s {
        Score::Cp(c) => expected(c as f64),
        Score::Mate(m) if m > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

/// The expected result lost by playing a move worth `played` where the best is worth
/// `best` (both for the mover); never below 0.
pub fn loss(best: Score, played: Score) -> f64 {
    (expected_score(best) - expected_score(played)).max(0.0)
}

/// The score for the other side.
pub fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        Score::Mate(m) => Score::Mate(-m),
    }
}

/// `+0.35`, `-1.20`, `+M3`, `-M2`: pawns with two decimals, or a mate in moves, as
/// `sako match` writes its comments.
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(c) => {
            let sign = if c < 0 { '-' } else { '+' };
            format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
        }
        Score::Mate(m) if m > 0 => format!("+M{m}"),
        Score::Mate(m) => format!("-M{}", -m),
    }
}

/// Pawns for a graph: mates at `clamp`, everything within `±clamp`.
pub fn pawns(s: Score, clamp: f64) -> f64 {
    match s {
        Score::Cp(c) => (c as f64 / 100.0).clamp(-clamp, clamp),
        Score::Mate(m) if m > 0 => clamp,
        Score::Mate(_) => -clamp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_follow_the_centipawns_at_equality() {
        let lost = |from: i32, to: i32| Judgement::from_loss(loss(Score::Cp(from), Score::Cp(to)));
        assert_eq!(lost(0, -40), None);
        assert_eq!(lost(0, -60), Some(Judgement::Inaccuracy));
        assert_eq!(lost(20, -110), Some(Judgement::Mistake));
        assert_eq!(lost(0, -900), Some(Judgement::Blunder));
        // Three pawns given back in a won position: no blunder.
        assert_eq!(lost(800, 500), None);
        assert_eq!(lost(-100, -300), Some(Judgement::Mistake));
        assert_eq!(
            Judgement::from_loss(loss(Score::Mate(3), Score::Cp(0))),
            Some(Judgement::Blunder)
        );
        assert_eq!(lost(100, 300), None);
    }

    #[test]
    fn texts() {
        assert_eq!(score_text(Score::Cp(35)), "+0.35");
        assert_eq!(score_text(Score::Cp(-120)), "-1.20");
        assert_eq!(score_text(Score::Cp(0)), "+0.00");
        assert_eq!(score_text(Score::Mate(-2)), "-M2");
        assert_eq!(pawns(Score::Cp(2500), 10.0), 10.0);
        assert_eq!(pawns(Score::Mate(-1), 10.0), -10.0);
    }
}
