//! Match statistics: the score, the Elo difference with its 95% error bar, the
//! likelihood of superiority, and a sequential probability ratio test.
//!
//! Elo is logistic: a score fraction `p` is `-400 log10(1/p - 1)` Elo. The error bar
//! is the half-width of the 95% interval of the mean score (normal approximation over
//! the per-game results, win 1, draw ½, loss 0), turned into Elo. The SPRT is the
//! generalised (trinomial, logistic) test: with the mean score `m` and per-game
//! variance `v` of `n` games and the expected scores `s0`, `s1` of Elo `elo0` and
//! `elo1`, `LLR = n (s1 - s0) (2m - s0 - s1) / (2v)`; the bounds are `ln(β/(1-α))`
//! and `ln((1-β)/α)`. While every game has had the same result the variance is taken
//! with half a win, a loss and a draw added, so that a one-sided match still decides.

/// Wins, losses and draws of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

impl Score {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Score fraction (0.5 with no games).
    pub fn fraction(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
        }
    }

    /// Per-game variance of the results.
    pub fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let m = self.fraction();
        (self.wins as f64 * (1.0 - m).powi(2)
            + self.losses as f64 * m.powi(2)
            + self.draws as f64 * (0.5 - m).powi(2))
            / n
    }

    /// Elo difference of the score fraction (infinite for 0 or 1).
    pub fn elo(&self) -> f64 {
        elo_of(self.fraction())
    }

    /// Half-width of the 95% interval in Elo (infinite when it reaches 0 or 1).
    pub fn error_margin(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return f64::INFINITY;
        }
        let m = self.fraction();
        if m <= 0.0 || m >= 1.0 {
            return f64::INFINITY;
        }
        let dev = (self.variance() / n).sqrt() * 1.959_963_985;
        let hi = elo_of(m + dev);
        let lo = elo_of(m - dev);
        (hi - lo) / 2.0
    }

    /// Likelihood of superiority from the decisive games, in percent.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 50.0;
        }
        50.0 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
    }

    /// Share of drawn games in percent.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            100.0 * self.draws as f64 / n as f64
        }
    }

    /// `W - L - D  [0.500] N`.
    pub fn line(&self) -> String {
        format!(
            "{} - {} - {}  [{:.3}] {}",
            self.wins,
            self.losses,
            self.draws,
            self.fraction(),
            self.games()
        )
    }

    /// `Elo difference: X +/- Y, LOS: Z %, DrawRatio: W %`.
    pub fn elo_line(&self) -> String {
        format!(
            "Elo difference: {} +/- {}, LOS: {:.1} %, DrawRatio: {:.1} %",
            fmt_elo(self.elo()),
            fmt_elo(self.error_margin()).trim_start_matches('+'),
            self.los(),
            self.draw_ratio()
        )
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x == f64::INFINITY {
        "inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        format!("{x:.1}")
    }
}

/// Elo difference for a score fraction.
pub fn elo_of(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// Expected score fraction for an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function: its Maclaurin series below 2.5, the asymptotic expansion of
/// `erfc` above (absolute error below 1e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    if x < 2.5 {
        // Maclaurin series: converges quickly for |x| < 2.5.
        let mut sum = x;
        let mut term = x;
        let x2 = x * x;
        let mut n = 0.0;
        loop {
            n += 1.0;
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() < 1e-16 {
                break;
            }
        }
        sign * sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // Asymptotic expansion of erfc.
        let x2 = x * x;
        let mut term = 1.0;
        let mut sum = 1.0;
        for k in 1..8 {
            term *= -((2 * k - 1) as f64) / (2.0 * x2);
            sum += term;
        }
        let erfc = (-x2).exp() / (x * std::f64::consts::PI.sqrt()) * sum;
        sign * (1.0 - erfc)
    }
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SprtState {
    /// Neither bound reached.
    Continue,
    /// LLR at or below the lower bound.
    AcceptH0,
    /// LLR at or above the upper bound.
    AcceptH1,
}

/// The SPRT's numbers for a score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Lower bound (accept H0).
    pub lower: f64,
    /// Upper bound (accept H1).
    pub upper: f64,
}

impl Sprt {
    /// Computes the test for `score` with hypotheses `elo0`, `elo1`.
    pub fn new(score: &Score, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        let lower = (beta / (1.0 - alpha)).ln();
        let upper = ((1.0 - beta) / alpha).ln();
        let (mut w, mut l, mut d) = (score.wins as f64, score.losses as f64, score.draws as f64);
        if score.games() > 0 && score.variance() <= 0.0 {
            // Every game had the same result: half a game of each kind gives the
            // variance a floor (otherwise 30 straight wins would never decide).
            w += 0.5;
            l += 0.5;
            d += 0.5;
        }
        let n = w + l + d;
        let llr = if n == 0.0 {
            0.0
        } else {
            let m = (w + 0.5 * d) / n;
            let v = (w * (1.0 - m).powi(2) + l * m.powi(2) + d * (0.5 - m).powi(2)) / n;
            let s0 = score_of(elo0);
            let s1 = score_of(elo1);
            n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
        };
        Sprt { llr, lower, upper }
    }

    /// The decision.
    pub fn state(&self) -> SprtState {
        if self.llr >= self.upper {
            SprtState::AcceptH1
        } else if self.llr <= self.lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// `SPRT: llr X (Y%), lbound A, ubound B` (and the decision once there is one).
    pub fn line(&self) -> String {
        let pct = if self.llr >= 0.0 {
            100.0 * self.llr / self.upper
        } else {
            -100.0 * self.llr / self.lower
        };
        let mut s = format!(
            "SPRT: llr {:.3} ({:.1}%), lbound {:.2}, ubound {:.2}",
            self.llr, pct, self.lower, self.upper
        );
        match self.state() {
            SprtState::AcceptH0 => s += " - H0 was accepted",
            SprtState::AcceptH1 => s += " - H1 was accepted",
            SprtState::Continue => {}
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_values() {
        for (x, want) in [
            (0.0, 0.0),
            (0.5, 0.520_499_877_8),
            (1.0, 0.842_700_792_9),
            (2.0, 0.995_322_265_0),
            (3.0, 0.999_977_909_5),
            (-1.0, -0.842_700_792_9),
        ] {
            assert!((erf(x) - want).abs() < 1e-7, "erf({x}) = {}", erf(x));
        }
    }

    #[test]
    fn score_and_elo() {
        let s = Score {
            wins: 364,
            losses: 346,
            draws: 218,
        };
        assert_eq!(s.line(), "364 - 346 - 218  [0.510] 928");
        // The same numbers as a published cutechess run of this score.
        assert!((s.elo() - 6.7).abs() < 0.05, "{}", s.elo());
        assert!(
            (s.error_margin() - 19.5).abs() < 0.3,
            "{}",
            s.error_margin()
        );
        assert!((s.los() - 75.0).abs() < 1.0, "{}", s.los());
        assert!((s.draw_ratio() - 23.5).abs() < 0.05);
        assert_eq!(Score::default().fraction(), 0.5);
        let all_wins = Score {
            wins: 2,
            losses: 0,
            draws: 0,
        };
        assert!(all_wins.elo_line().contains("inf"));
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let even = Score {
            wins: 100,
            losses: 100,
            draws: 50,
        };
        let t = Sprt::new(&even, 0.0, 5.0, 0.05, 0.05);
        assert!((t.lower + 2.944).abs() < 0.001 && (t.upper - 2.944).abs() < 0.001);
        assert!(t.llr < 0.0);
        assert_eq!(t.state(), SprtState::Continue);
        let strong = Score {
            wins: 700,
            losses: 300,
            draws: 0,
        };
        let t = Sprt::new(&strong, 0.0, 5.0, 0.05, 0.05);
        assert_eq!(t.state(), SprtState::AcceptH1);
        assert!(t.line().ends_with("H1 was accepted"));
        let weak = Score {
            wins: 300,
            losses: 700,
            draws: 0,
        };
        assert_eq!(
            Sprt::new(&weak, 0.0, 5.0, 0.05, 0.05).state(),
            SprtState::AcceptH0
        );
        let sweep = |n| Score {
            wins: n,
            losses: 0,
            draws: 0,
        };
        assert_eq!(
            Sprt::new(&sweep(5), 0.0, 5.0, 0.05, 0.05).state(),
            SprtState::Continue
        );
        assert_eq!(
            Sprt::new(&sweep(40), 0.0, 5.0, 0.05, 0.05).state(),
            SprtState::AcceptH1
        );
        assert_eq!(Sprt::new(&Score::default(), 0.0, 5.0, 0.05, 0.05).llr, 0.0);
    }
}
