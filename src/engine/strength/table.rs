//! The level table: per game family, the Elo labels and the search and choice
//! parameters of each, read from text (`eval-tables/levels.txt`, built in).
//!
//! # Format
//! One directive per line; `#` starts a comment, blank lines are skipped.
//! * `family NAME VARIANT...`: the variants of a family (a variant in no family uses
//!   the `*` rows);
//! * `level FAMILY ELO NODES DEPTH LINES MARGIN TEMPER LOSS`: one level of a family
//!   (`*`: the rows of every family that has none of its own); see [`LevelParams`].

use super::LevelParams;

/// The built-in table text.
pub const BUILT_IN: &str = include_str!("../../../eval-tables/levels.txt");

/// The file name of the level table in an evaluation-table folder (`Eval tables`).
pub const LEVELS_FILE: &str = "levels.txt";

/// The rows used when no table can be read: the same as the built-in `*` rows.
const DEFAULT_ROWS: [[u64; 7]; 11] = [
    [800, 300, 1, 8, 250, 120, 400],
    [1000, 600, 2, 8, 200, 100, 350],
    [1200, 1200, 3, 6, 160, 80, 300],
    [1400, 2500, 4, 6, 120, 60, 250],
    [1600, 5000, 5, 5, 90, 45, 150],
    [1800, 10000, 6, 4, 70, 35, 120],
    [2000, 20000, 8, 4, 50, 25, 100],
    [2200, 40000, 10, 3, 35, 18, 80],
    [2400, 80000, 12, 3, 25, 12, 60],
    [2600, 160000, 16, 2, 15, 8, 50],
    [2800, 400000, 24, 2, 8, 4, 50],
];

/// Why a level table could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LevelError {
    /// The file could not be read.
    Io(String),
    /// A line starts with a word that is no directive.
    UnknownDirective { line: usize, word: String },
    /// A directive has the wrong number of fields.
    FieldCount {
        line: usize,
        want: usize,
        got: usize,
    },
    /// A field is not a number (or is out of its range).
    BadNumber { line: usize, field: String },
    /// The rows of a family are not in increasing Elo order.
    Unordered { line: usize },
    /// The table has no `*` rows.
    NoDefaultRows,
}

impl std::fmt::Display for LevelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LevelError::Io(e) => write!(f, "level table: {e}"),
            LevelError::UnknownDirective { line, word } => {
                write!(f, "level table line {line}: unknown directive '{word}'")
            }
            LevelError::FieldCount { line, want, got } => {
                write!(f, "level table line {line}: {got} fields, expected {want}")
            }
            LevelError::BadNumber { line, field } => {
                write!(
                    f,
                    "level table line {line}: '{field}' is not a valid number"
                )
            }
            LevelError::Unordered { line } => {
                write!(f, "level table line {line}: Elo labels must increase")
            }
            LevelError::NoDefaultRows => write!(f, "level table: no '*' rows"),
        }
    }
}

impl std::error::Error for LevelError {}

/// The levels of every family.
#[derive(Clone, Debug)]
pub struct LevelTable {
    /// Family name and its variants.
    families: Vec<(String, Vec<String>)>,
    /// Family name (`*` for the default) and its rows, in increasing Elo.
    rows: Vec<(String, Vec<LevelParams>)>,
}

impl LevelTable {
    /// The built-in table; if its text is broken (a bad edit), the error is logged and
    /// the hard-coded default rows are used.
    pub fn built_in() -> LevelTable {
        LevelTable::parse(BUILT_IN).unwrap_or_else(|e| {
            tracing::warn!("{e}; using the default levels");
            LevelTable::defaults()
        })
    }

    /// The hard-coded default rows for every family.
    pub fn defaults() -> LevelTable {
        let rows = DEFAULT_ROWS.iter().map(row_from).collect();
        LevelTable {
            families: Vec::new(),
            rows: vec![("*".to_string(), rows)],
        }
    }

    /// Reads a table file.
    pub fn read(path: &std::path::Path) -> Result<LevelTable, LevelError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| LevelError::Io(format!("{}: {e}", path.display())))?;
        LevelTable::parse(&text)
    }

    /// Parses a table's text.
    pub fn parse(text: &str) -> Result<LevelTable, LevelError> {
        let mut table = LevelTable {
            families: Vec::new(),
            rows: Vec::new(),
        };
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let words: Vec<&str> = raw
                .split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            match words.first() {
                None => {}
                Some(&"family") if words.len() >= 3 => table.families.push((
                    words[1].to_string(),
                    words[2..].iter().map(|w| w.to_string()).collect(),
                )),
                Some(&"family") => {
                    return Err(LevelError::FieldCount {
                        line,
                        want: 3,
                        got: words.len(),
                    })
                }
                Some(&"level") => table.add_row(line, &words)?,
                Some(w) => {
                    return Err(LevelError::UnknownDirective {
                        line,
                        word: w.to_string(),
                    })
                }
            }
        }
        if !table.rows.iter().any(|(f, _)| f == "*") {
            return Err(LevelError::NoDefaultRows);
        }
        Ok(table)
    }

    fn add_row(&mut self, line: usize, words: &[&str]) -> Result<(), LevelError> {
        if words.len() != 9 {
            return Err(LevelError::FieldCount {
                line,
                want: 9,
                got: words.len(),
            });
        }
        let mut v = [0u64; 7];
        for (slot, w) in v.iter_mut().zip(&words[2..]) {
            *slot = w
                .parse::<u64>()
                .ok()
                .filter(|&n| n <= 100_000_000)
                .ok_or_else(|| LevelError::BadNumber {
                    line,
                    field: w.to_string(),
                })?;
        }
        if v[3] == 0 || v[5] == 0 {
            let field = if v[3] == 0 { words[5] } else { words[7] };
            return Err(LevelError::BadNumber {
                line,
                field: field.to_string(),
            });
        }
        let row = row_from(&v);
        let family = words[1].to_string();
        let rows = match self.rows.iter_mut().find(|(f, _)| *f == family) {
            Some((_, rows)) => rows,
            None => {
                self.rows.push((family, Vec::new()));
                let last = self.rows.len() - 1;
                &mut self.rows[last].1
            }
        };
        if rows.last().is_some_and(|r| r.elo >= row.elo) {
            return Err(LevelError::Unordered { line });
        }
        rows.push(row);
        Ok(())
    }

    /// The family of `variant` (`*` when it is in none).
    pub fn family(&self, variant: &str) -> &str {
        self.families
            .iter()
            .find(|(_, vs)| vs.iter().any(|v| v == variant))
            .map_or("*", |(f, _)| f.as_str())
    }

    /// The rows used for `variant`: its family's, else the `*` rows.
    pub fn rows(&self, variant: &str) -> &[LevelParams] {
        let family = self.family(variant);
        let find = |name: &str| self.rows.iter().find(|(f, _)| f == name);
        find(family)
            .or_else(|| find("*"))
            .map_or(&[], |(_, rows)| rows.as_slice())
    }

    /// The lowest and the highest Elo label of the whole table (the `UCI_Elo` range).
    pub fn elo_range(&self) -> (u32, u32) {
        let all = self.rows.iter().flat_map(|(_, r)| r.iter().map(|p| p.elo));
        let lo = all.clone().min().unwrap_or(0);
        let hi = all.max().unwrap_or(0);
        (lo, hi)
    }

    /// The parameters for `elo` in `variant`: between two labels, the nodes are
    /// interpolated geometrically and the rest linearly; outside them, the nearest row.
    pub fn params(&self, variant: &str, elo: u32) -> Option<LevelParams> {
        let rows = self.rows(variant);
        let first = rows.first()?;
        if elo <= first.elo {
            return Some(first.clone());
        }
        let upper = rows.iter().position(|r| r.elo >= elo);
        let Some(i) = upper else {
            return rows.last().cloned();
        };
        let (a, b) = (&rows[i - 1], &rows[i]);
        let t = f64::from(elo - a.elo) / f64::from(b.elo - a.elo);
        let lin = |x: u64, y: u64| (x as f64 + (y as f64 - x as f64) * t).round() as u64;
        let geo = (a.nodes.max(1) as f64).powf(1.0 - t) * (b.nodes.max(1) as f64).powf(t);
        Some(LevelParams {
            elo,
            nodes: geo.round() as u64,
            depth: lin(u64::from(a.depth), u64::from(b.depth)) as u32,
            lines: lin(a.lines as u64, b.lines as u64) as usize,
            margin: lin(a.margin as u64, b.margin as u64) as i32,
            temper: lin(a.temper as u64, b.temper as u64).max(1) as i32,
            loss: lin(a.loss as u64, b.loss as u64) as i32,
        })
    }
}

fn row_from(v: &[u64; 7]) -> LevelParams {
    LevelParams {
        elo: v[0] as u32,
        nodes: v[1],
        depth: v[2] as u32,
        lines: v[3] as usize,
        margin: v[4] as i32,
        temper: v[5] as i32,
        loss: v[6] as i32,
    }
}
