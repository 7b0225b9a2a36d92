//! The search's tunable constants: the margins, divisors and limits of its pruning,
//! reduction and extension rules, in one table.
//!
//! A search reads them through [`super::constants::Constants`]: a normal build from
//! these defaults, overridden per game by the built-in `eval-tables/search.txt`. A
//! build with the cargo feature `spsa` keeps the values in atomics and lists each as a
//! UCI spin option `Tune<Name>` (see [`uci_options`] and [`set`]), so that
//! `scripts/spsa` can tune them by playing games between two settings. Tuned values
//! come back as new defaults, or as a game's line in `search.txt`, each change tested
//! by a match like any other.

#[cfg(feature = "spsa")]
use std::sync::atomic::{AtomicI32, Ordering};

/// One tunable constant: its UCI name (without the `Tune` prefix), its value in a
/// normal build and the range a tuner may try.
pub struct Param {
    /// The name after `Tune` in the UCI option.
    pub name: &'static str,
    /// The value a normal build uses.
    pub default: i32,
    /// The smallest value a tuner may set.
    pub min: i32,
    /// The largest value a tuner may set.
    pub max: i32,
}

macro_rules! search_params {
    ($($id:ident = $default:literal in $min:literal ..= $max:literal, $doc:literal;)*) => {
        /// Which tunable constant: an index into [`PARAMS`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[repr(usize)]
        pub enum P {
            $(#[doc = $doc] $id,)*
        }

        /// Every tunable constant, in the order of [`P`].
        pub const PARAMS: &[Param] = &[
            $(Param { name: stringify!($id), default: $default, min: $min, max: $max },)*
        ];

        #[cfg(feature = "spsa")]
        static VALUES: [AtomicI32; PARAMS.len()] = [$(AtomicI32::new($default),)*];
    };
}

search_params! {
    RazorBase = 427 in 100..=800, "Razoring: the margin below beta at any depth.";
    RazorMaxDepth = 3 in 1..=6, "Razoring: the deepest node it applies to.";
    RazorDepth2 = 216 in 80..=500, "Razoring: the margin added per depth squared.";
    RfpMargin = 99 in 40..=200, "Reverse futility: the margin per ply of depth.";
    RfpImproving = 54 in 0..=150, "Reverse futility: the margin taken off when improving.";
    RfpDepth = 6 in 3..=11, "Reverse futility: the deepest node it applies to.";
    NmpEvalDiv = 150 in 80..=400, "Null move: a ply more reduction per this far above beta.";
    NmpBase = 3 in 1..=6, "Null move: the reduction at any depth.";
    NmpDepthDiv = 4 in 2..=8, "Null move: a ply more reduction per this many plies of depth.";
    ProbcutMargin = 167 in 80..=350, "ProbCut: how far above beta the raised bound lies.";
    ProbcutImproving = 59 in 0..=120, "ProbCut: the raise taken off when improving.";
    ProbcutMinDepth = 5 in 3..=10, "ProbCut: the shallowest node it applies to.";
    LmpBase = 4 in 1..=8, "Late-move pruning: quiet moves searched at depth 0 (plus d²).";
    LmpMaxDepth = 5 in 2..=9, "Late-move pruning: the deepest node it applies to.";
    SeeCaptureMargin = 89 in 40..=250, "Late captures lose at most this much by SEE per ply.";
    ContHistPrune = 2308 in 1000..=6000, "Quiet moves with continuation history below minus this per ply are skipped.";
    FutilityBase = 95 in 30..=200, "Futility of quiet moves: the margin at reduced depth 0.";
    FutilityDepth = 99 in 40..=200, "Futility of quiet moves: the margin per reduced ply.";
    FutilityMaxDepth = 6 in 3..=12, "Futility of quiet moves: the deepest reduced depth it applies to.";
    SeeQuietMargin = 17 in 10..=80, "Quiet moves lose at most this much by SEE per reduced ply squared.";
    LmrDivisor = 171 in 120..=350, "Late-move reductions: ln d · ln m divided by this / 100.";
    LmrHistoryDiv = 7383 in 4000..=24000, "Late-move reductions: a ply less per this much history.";
    LmrOffset = 512 in 0..=1024, "Late-move reductions: added to ln d · ln m / divisor, in 1/1024 ply, before rounding down.";
    LmrPv = 1024 in 0..=2048, "Late-move reductions: taken off at nodes on a principal variation, in 1/1024 ply.";
    LmrNotImproving = 1024 in 0..=2048, "Late-move reductions: added when the evaluation is not improving, in 1/1024 ply.";
    LmrCutNode = 2048 in 512..=3584, "Late-move reductions: added at expected cut nodes, in 1/1024 ply.";
    LmrTtTactical = 1024 in 0..=2048, "Late-move reductions: added when the table's move is a capture or promotion, in 1/1024 ply.";
    DeeperMargin = 44 in 10..=100, "A reduced move beating the best by this (plus 2 per ply) is searched a ply deeper.";
    ShallowerMargin = 4 in 0..=40, "A reduced move beating the best by less than this is searched a ply shallower.";
    SingularBetaMul = 20 in 8..=40, "Singular extensions: the test's bound lies this / 10 per ply below the table's score.";
    SingularDouble = 34 in 5..=60, "Singular extensions: two plies when the test falls this far short.";
    SingularMinDepth = 8 in 5..=12, "Singular extensions: the shallowest node tested.";
    IirMinDepth = 4 in 2..=8, "Internal iterative reduction: the shallowest node without a table move reduced.";
    HistoryBonusMul = 157 in 50..=300, "History bonus of a cut-off per ply of depth.";
    HistoryBonusSub = 80 in 0..=300, "History bonus of a cut-off: taken off the product.";
    HistoryBonusMax = 1718 in 500..=2500, "History bonus of a cut-off: its largest value.";
    AspirationDelta = 17 in 6..=40, "Aspiration windows: the first half-width at the root.";
    QsDeltaMargin = 265 in 50..=400, "Quiescence delta pruning: the margin over the victim's value.";
}

/// The value of the constant at `index` of [`PARAMS`] now: as last set by its
/// option in an `spsa` build, the default otherwise.
pub fn current(index: usize) -> i32 {
    #[cfg(feature = "spsa")]
    {
        VALUES[index].load(Ordering::Relaxed)
    }
    #[cfg(not(feature = "spsa"))]
    {
        PARAMS[index].default
    }
}

/// The UCI option lines of the tunable constants (a build with the `spsa` feature;
/// none otherwise).
pub fn uci_options() -> Vec<String> {
    if !cfg!(feature = "spsa") {
        return Vec::new();
    }
    PARAMS
        .iter()
        .map(|p| {
            format!(
                "option name Tune{} type spin default {} min {} max {}",
                p.name, p.default, p.min, p.max
            )
        })
        .collect()
}

/// Sets the constant of the UCI option `name` (`Tune<Name>`, any case) to `value`.
/// `None` when `name` is not a tunable of this build; `Some(Err)` for a value that is
/// not a whole number in the constant's range (the value then stays as it was).
pub fn set(name: &str, value: &str) -> Option<Result<(), String>> {
    if !cfg!(feature = "spsa") {
        return None;
    }
    let rest = name
        .get(..4)?
        .eq_ignore_ascii_case("tune")
        .then(|| &name[4..])?;
    let (index, param) = PARAMS
        .iter()
        .enumerate()
        .find(|(_, p)| p.name.eq_ignore_ascii_case(rest))?;
    let parsed = value.trim().parse::<i32>().ok();
    Some(match parsed {
        Some(v) if (param.min..=param.max).contains(&v) => {
            #[cfg(feature = "spsa")]
            VALUES[index].store(v, Ordering::Relaxed);
            let _ = (index, v); // (a normal build returned above)
            Ok(())
        }
        _ => Err(format!(
            "bad value for Tune{}: {value} (a whole number from {} to {})",
            param.name, param.min, param.max
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.min <= p.default && p.default <= p.max, "{}", p.name);
            assert!(
                PARAMS[i + 1..].iter().all(|q| q.name != p.name),
                "{}",
                p.name
            );
        }
    }

    #[cfg(not(feature = "spsa"))]
    #[test]
    fn a_normal_build_has_no_tuning_options() {
        assert!(uci_options().is_empty());
        assert!(set("TuneRfpMargin", "120").is_none());
        assert_eq!(
            current(P::RfpMargin as usize),
            PARAMS[P::RfpMargin as usize].default
        );
    }

    #[cfg(feature = "spsa")]
    #[test]
    fn a_tuning_build_lists_and_sets_its_constants() {
        assert_eq!(uci_options().len(), PARAMS.len());
        assert_eq!(set("tuneaspirationdelta", "20"), Some(Ok(())));
        assert_eq!(current(P::AspirationDelta as usize), 20);
        assert!(matches!(set("TuneAspirationDelta", "999"), Some(Err(_))));
        assert!(matches!(set("TuneAspirationDelta", "x"), Some(Err(_))));
        assert_eq!(current(P::AspirationDelta as usize), 20);
        assert!(set("TuneNoSuchThing", "1").is_none());
        assert!(set("Hash", "1").is_none());
        let default = PARAMS[P::AspirationDelta as usize].default.to_string();
        assert_eq!(set("TuneAspirationDelta", &default), Some(Ok(())));
    }
}
