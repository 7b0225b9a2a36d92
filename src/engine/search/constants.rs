//! The search constants of one game: the values of the tunable constants
//! ([`super::params`]) a search uses, and the late-move reduction table they imply.
//!
//! Every game starts from the defaults of [`super::params::PARAMS`]; the built-in table
//! `eval-tables/search.txt` gives some games values of their own (found by an SPSA run
//! in that game and kept only after a match confirmed them). A build with the `spsa`
//! feature ignores the table and reads the values the UCI options `Tune<Name>` set, so
//! that a tuner sees exactly the values it sends.
//!
//! # Format of `search.txt`
//! One line per group of games; `#` starts a comment, blank lines are skipped:
//!
//! ```text
//! GAME[,GAME...] NAME=VALUE [NAME=VALUE...]
//! ```
//!
//! `NAME` is a constant's name as in `params.rs` (`LmrDivisor`, any case), `VALUE` a whole
//! number in its range. Constants a line does not name keep their defaults; a game on no
//! line uses the defaults.

use std::collections::HashMap;
use std::sync::Arc;

use once_cell::sync::Lazy;

use super::params::{P, PARAMS};

/// The built-in table text.
pub const BUILT_IN: &str = include_str!("../../../eval-tables/search.txt");

/// Plies and move counts the reduction table covers (larger ones use its last entry).
const REDUCTION_SIZE: usize = 64;

/// The values of the search's tunable constants for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Constants {
    values: [i32; PARAMS.len()],
    /// `ln(depth) · ln(moves) / divisor` in 1/1024 ply, by depth and move number.
    reductions: Box<[[i32; REDUCTION_SIZE]; REDUCTION_SIZE]>,
}

/// Why a search-constants table could not be read (`line` counts from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstantsError {
    /// A field after the games is not `NAME=VALUE`.
    NotAPair { line: usize, field: String },
    /// No tunable constant has this name.
    UnknownName { line: usize, name: String },
    /// The value is not a whole number in the constant's range.
    BadValue {
        line: usize,
        name: String,
        value: String,
    },
    /// A line names games but no values.
    NoValues { line: usize },
    /// A game or a constant appears twice (`what` names it).
    Repeated { line: usize, what: String },
}

impl std::fmt::Display for ConstantsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = "search constants line";
        match self {
            ConstantsError::NotAPair { line, field } => {
                write!(f, "{at} {line}: '{field}' is not NAME=VALUE")
            }
            ConstantsError::UnknownName { line, name } => {
                write!(f, "{at} {line}: no search constant is called '{name}'")
            }
            ConstantsError::BadValue { line, name, value } => {
                let p = PARAMS.iter().find(|p| p.name == name);
                let (min, max) = p.map_or((0, 0), |p| (p.min, p.max));
                write!(
                    f,
                    "{at} {line}: {name}={value} is not a whole number from {min} to {max}"
                )
            }
            ConstantsError::NoValues { line } => write!(f, "{at} {line}: games but no values"),
            ConstantsError::Repeated { line, what } => {
                write!(f, "{at} {line}: '{what}' is given twice")
            }
        }
    }
}

impl std::error::Error for ConstantsError {}

/// Every constant's default, in the order of [`PARAMS`].
fn default_values() -> [i32; PARAMS.len()] {
    std::array::from_fn(|i| PARAMS[i].default)
}

/// The built-in table read once: each listed game's constants, and the defaults.
struct ByGame {
    games: HashMap<String, Arc<Constants>>,
    defaults: Arc<Constants>,
}

impl ByGame {
    /// Reads [`BUILT_IN`]; a table that does not read is reported and the defaults used.
    fn built_in() -> ByGame {
        let lines = Constants::parse(BUILT_IN).unwrap_or_else(|e| {
            tracing::error!("built-in search constants: {e}; using the defaults");
            Vec::new()
        });
        let mut games = HashMap::new();
        for (names, constants) in lines {
            let shared = Arc::new(constants);
            for g in names {
                games.insert(g, Arc::clone(&shared));
            }
        }
        let defaults = Arc::new(Constants::defaults());
        ByGame { games, defaults }
    }
}

impl Constants {
    /// Every constant at its default.
    pub fn defaults() -> Constants {
        Constants::from_values(default_values())
    }

    /// The constants with these values, in the order of [`PARAMS`].
    fn from_values(values: [i32; PARAMS.len()]) -> Constants {
        let divisor = f64::from(values[P::LmrDivisor as usize]) / 100.0;
        let mut reductions = Box::new([[0; REDUCTION_SIZE]; REDUCTION_SIZE]);
        for (d, row) in reductions.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = ((d as f64).ln() * (m as f64).ln() / divisor * 1024.0) as i32;
            }
        }
        Constants { values, reductions }
    }

    /// The constants a search of `game` (a variant name) uses: the built-in table's
    /// values in a normal build, the `Tune<Name>` options' values in an `spsa` build.
    pub fn for_game(game: &str) -> Arc<Constants> {
        if cfg!(feature = "spsa") {
            let values = std::array::from_fn(super::params::current);
            return Arc::new(Constants::from_values(values));
        }
        static BUILT_IN_TABLE: Lazy<ByGame> = Lazy::new(ByGame::built_in);
        let table = &*BUILT_IN_TABLE;
        Arc::clone(table.games.get(game).unwrap_or(&table.defaults))
    }

    /// The value of `p`.
    #[inline(always)]
    pub fn get(&self, p: P) -> i32 {
        self.values[p as usize]
    }

    /// The late-move reduction of the `moves`-th move at `depth` in 1/1024 ply, offset
    /// by [`P::LmrOffset`]; a node's adjustments are added in the same unit before the
    /// reduction is rounded down to plies.
    #[inline]
    pub fn reduction_1024(&self, depth: i32, moves: usize) -> i32 {
        let d = depth.clamp(1, REDUCTION_SIZE as i32 - 1) as usize;
        let m = moves.clamp(1, REDUCTION_SIZE - 1);
        self.reductions[d][m] + self.get(P::LmrOffset)
    }

    /// Reads a table (see the module's format): per line, its games and their constants.
    pub fn parse(text: &str) -> Result<Vec<(Vec<String>, Constants)>, ConstantsError> {
        let mut lines = Vec::new();
        let mut seen_games: Vec<String> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            let mut fields = content.split_whitespace();
            let Some(games_field) = fields.next() else {
                continue;
            };
            let mut games = Vec::new();
            for g in games_field.split(',').filter(|g| !g.is_empty()) {
                let g = g.to_ascii_lowercase();
                if seen_games.contains(&g) {
                    return Err(ConstantsError::Repeated { line, what: g });
                }
                seen_games.push(g.clone());
                games.push(g);
            }
            let values = Self::parse_values(line, fields)?;
            lines.push((games, Constants::from_values(values)));
        }
        Ok(lines)
    }

    /// The `NAME=VALUE` fields of line `line` over the defaults.
    fn parse_values<'t>(
        line: usize,
        fields: impl Iterator<Item = &'t str>,
    ) -> Result<[i32; PARAMS.len()], ConstantsError> {
        let mut values = default_values();
        let mut named = [false; PARAMS.len()];
        for field in fields {
            let Some((name, value)) = field.split_once('=') else {
                let field = field.to_string();
                return Err(ConstantsError::NotAPair { line, field });
            };
            let Some(index) = PARAMS
                .iter()
                .position(|p| p.name.eq_ignore_ascii_case(name))
            else {
                let name = name.to_string();
                return Err(ConstantsError::UnknownName { line, name });
            };
            let param = &PARAMS[index];
            if std::mem::replace(&mut named[index], true) {
                let what = param.name.to_string();
                return Err(ConstantsError::Repeated { line, what });
            }
            values[index] = value
                .parse::<i32>()
                .ok()
                .filter(|v| (param.min..=param.max).contains(v))
                .ok_or_else(|| ConstantsError::BadValue {
                    line,
                    name: param.name.to_string(),
                    value: value.to_string(),
                })?;
        }
        if !named.contains(&true) {
            return Err(ConstantsError::NoValues { line });
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_table_reads() {
        assert!(Constants::parse(BUILT_IN).is_ok());
    }

    #[test]
    fn a_game_on_a_line_gets_its_values_and_the_rest_defaults() {
        let text =
            "# comment\n\nfoo,Bar LmrDivisor=200 rfpmargin=80 # tuned\nbaz QsDeltaMargin=300\n";
        let lines = Constants::parse(text).expect("a valid table");
        assert_eq!(lines.len(), 2);
        let (games, k) = &lines[0];
        assert_eq!(games, &["foo".to_string(), "bar".to_string()]);
        assert_eq!(k.get(P::LmrDivisor), 200);
        assert_eq!(k.get(P::RfpMargin), 80);
        let defaults = Constants::defaults();
        assert_eq!(k.get(P::NmpBase), defaults.get(P::NmpBase));
        assert_eq!(lines[1].1.get(P::QsDeltaMargin), 300);
        assert_eq!(lines[1].1.get(P::LmrDivisor), defaults.get(P::LmrDivisor));
        // The divisor shapes the reduction table: a larger one reduces less.
        assert!(k.reduction_1024(20, 30) < defaults.reduction_1024(20, 30));
    }

    #[test]
    fn the_reduction_table_follows_its_formula_and_offset() {
        let k = Constants::defaults();
        let divisor = f64::from(k.get(P::LmrDivisor)) / 100.0;
        let expected = ((10f64).ln() * (20f64).ln() / divisor * 1024.0) as i32;
        assert_eq!(k.reduction_1024(10, 20), expected + k.get(P::LmrOffset));
        assert_eq!(k.reduction_1024(1, 20), k.get(P::LmrOffset));
        assert_eq!(k.reduction_1024(500, 500), k.reduction_1024(63, 63));
    }

    #[test]
    fn malformed_tables_are_refused_with_their_line() {
        let cases = [
            (
                "x LmrDivisor",
                ConstantsError::NotAPair {
                    line: 1,
                    field: "LmrDivisor".into(),
                },
            ),
            (
                "x Nope=3",
                ConstantsError::UnknownName {
                    line: 1,
                    name: "Nope".into(),
                },
            ),
            (
                "x LmrDivisor=9999",
                ConstantsError::BadValue {
                    line: 1,
                    name: "LmrDivisor".into(),
                    value: "9999".into(),
                },
            ),
            (
                "x LmrDivisor=ab",
                ConstantsError::BadValue {
                    line: 1,
                    name: "LmrDivisor".into(),
                    value: "ab".into(),
                },
            ),
            ("\nx", ConstantsError::NoValues { line: 2 }),
            (
                "x NmpBase=3\nx NmpBase=4",
                ConstantsError::Repeated {
                    line: 2,
                    what: "x".into(),
                },
            ),
            (
                "x NmpBase=3 nmpbase=4",
                ConstantsError::Repeated {
                    line: 1,
                    what: "NmpBase".into(),
                },
            ),
        ];
        for (text, want) in cases {
            let got = Constants::parse(text).expect_err(text);
            assert_eq!(got, want, "{text}");
            assert!(got.to_string().starts_with("search constants line"));
        }
    }

    #[cfg(not(feature = "spsa"))]
    #[test]
    fn a_game_on_no_line_uses_the_defaults_and_listed_games_their_line() {
        assert_eq!(*Constants::for_game("no-such-game"), Constants::defaults());
        let lines = Constants::parse(BUILT_IN).expect("the built-in table reads");
        for (games, k) in lines {
            for g in games {
                assert_eq!(*Constants::for_game(&g), k, "{g}");
            }
        }
    }
}
