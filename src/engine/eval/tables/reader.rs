//! Reading a table file: statements line by line into [`EvalTables`], with the file
//! and line of any mistake.

use super::error::{TableError, TableErrorKind as Kind};
use super::{letter_type, Curve, EvalTables, Pair, PieceTable, Scales, Term, MAX_ROW, TERM_COUNT};
use crate::rules::compile::MAX_TYPES;
use crate::rules::geometry::MAX_SQUARES;
use crate::rules::variant::VariantDef;

/// The tables of one file while it is read: what each statement sets.
struct Reader<'a> {
    def: &'static VariantDef,
    /// The file's name for error messages.
    source: &'a str,
    /// The statement lines: 1-based line number and words, comments and blanks removed.
    lines: Vec<(usize, Vec<&'a str>)>,
    /// The next line to read.
    next: usize,
    values: Vec<Option<(Pair, i32)>>,
    pst: Vec<Vec<Pair>>,
    mobility: Vec<Curve>,
    safe_check: Vec<Pair>,
    pairs: Vec<(usize, Pair)>,
    terms: [Pair; TERM_COUNT],
    king_danger: Curve,
    passed: Curve,
    scales: Scales,
}

/// Reads a table file's text for variant `def`; `source` names it in error messages.
pub fn parse(def: &'static VariantDef, text: &str, source: &str) -> Result<EvalTables, TableError> {
    let types = def.pieces.len();
    let mut r = Reader {
        def,
        source,
        lines: statement_lines(text),
        next: 0,
        values: vec![None; types],
        pst: vec![vec![Pair::default(); MAX_SQUARES]; types],
        mobility: vec![Curve::default(); types],
        safe_check: vec![Pair::default(); types],
        pairs: Vec::new(),
        terms: [Pair::default(); TERM_COUNT],
        king_danger: Curve::default(),
        passed: Curve::default(),
        scales: Scales::default(),
    };
    while r.next < r.lines.len() {
        let (line, words) = r.lines[r.next].clone();
        r.next += 1;
        r.statement(line, &words)?;
    }
    r.finish()
}

/// The lines of `text` that hold a statement, as (1-based line number, words).
fn statement_lines(text: &str) -> Vec<(usize, Vec<&str>)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| {
            let content = l.split('#').next().unwrap_or("");
            (i + 1, content.split_whitespace().collect::<Vec<_>>())
        })
        .filter(|(_, w)| !w.is_empty())
        .collect()
}

/// Which halves a `mg|eg|both` word sets.
fn halves(word: &str) -> Option<(bool, bool)> {
    match word {
        "mg" => Some((true, false)),
        "eg" => Some((false, true)),
        "both" => Some((true, true)),
        _ => None,
    }
}

/// Sets the halves of `curve` chosen by `(mg, eg)` from `row`; the halves of one table
/// must have the same length.
fn set_row(curve: &mut Curve, row: &[i32], (mg, eg): (bool, bool)) -> Result<(), Kind> {
    if let Curve::Formula(_) = curve {
        *curve = Curve::Table(vec![Pair::default(); row.len()]);
    }
    let Curve::Table(table) = curve else {
        return Err(Kind::NotATable);
    };
    if table.len() != row.len() {
        return Err(Kind::RowLengths(table.len(), row.len()));
    }
    for (p, &v) in table.iter_mut().zip(row) {
        if mg {
            p.mg = v;
        }
        if eg {
            p.eg = v;
        }
    }
    Ok(())
}

impl Reader<'_> {
    /// The mistake `kind` on line `line` of this file.
    fn error(&self, line: usize, kind: Kind) -> TableError {
        TableError {
            source: self.source.to_string(),
            line: Some(line),
            kind,
        }
    }

    /// Reads the statement `words` of line `line` (a table statement also reads its rows).
    fn statement(&mut self, line: usize, words: &[&str]) -> Result<(), TableError> {
        let want = |n: usize| -> Result<(), TableError> {
            if words.len() == n {
                Ok(())
            } else {
                Err(self.error(
                    line,
                    Kind::WordCount {
                        statement: words[0].to_string(),
                        want: n,
                        found: words.len(),
                    },
                ))
            }
        };
        match words[0] {
            "piece" => {
                want(5)?;
                self.piece(line, words)
            }
            "mobility" => {
                want(4)?;
                let t = self.letter_type(words[1], line)?;
                self.mobility[t] = Curve::Formula(self.pair(words[2], words[3], line)?);
                Ok(())
            }
            "safe_check" => {
                want(4)?;
                let t = self.letter_type(words[1], line)?;
                self.safe_check[t] = self.pair(words[2], words[3], line)?;
                Ok(())
            }
            "pair" => {
                want(4)?;
                let t = self.letter_type(words[1], line)?;
                let bonus = self.pair(words[2], words[3], line)?;
                self.pairs.push((t, bonus));
                Ok(())
            }
            "term" => {
                want(4)?;
                self.term(line, words)
            }
            "scale" => {
                want(3)?;
                self.scale(line, words)
            }
            "pst" => {
                want(3)?;
                self.pst(line, words)
            }
            "mobility_table" => {
                want(3)?;
                let t = self.letter_type(words[1], line)?;
                let (row, which) = self.row(line, words[2])?;
                set_row(&mut self.mobility[t], &row, which).map_err(|k| self.error(line, k))
            }
            "king_danger" | "passed" => {
                want(2)?;
                let (row, which) = self.row(line, words[1])?;
                let curve = if words[0] == "passed" {
                    &mut self.passed
                } else {
                    &mut self.king_danger
                };
                let set = set_row(curve, &row, which);
                set.map_err(|k| self.error(line, k))
            }
            other => Err(self.error(line, Kind::UnknownStatement(other.to_string()))),
        }
    }

    /// `piece X MG EG PHASE`.
    fn piece(&mut self, line: usize, words: &[&str]) -> Result<(), TableError> {
        let t = self.letter_type(words[1], line)?;
        if self.values[t].is_some() {
            return Err(self.error(line, Kind::SecondPiece(words[1].to_string())));
        }
        let v = self.pair(words[2], words[3], line)?;
        let phase = self.int(words[4], line)?;
        if phase < 0 {
            return Err(self.error(line, Kind::NegativePhase));
        }
        self.values[t] = Some((v, phase));
        Ok(())
    }

    /// `term NAME MG EG`, including the older `king_attack` and `passed_pawn`, which set
    /// a table's formula unless the file gives the table itself.
    fn term(&mut self, line: usize, words: &[&str]) -> Result<(), TableError> {
        let value = self.pair(words[2], words[3], line)?;
        let legacy = match words[1] {
            "king_attack" => Some(&mut self.king_danger),
            "passed_pawn" => Some(&mut self.passed),
            _ => None,
        };
        if let Some(curve) = legacy {
            if let Curve::Formula(_) = curve {
                *curve = Curve::Formula(value);
            }
            return Ok(());
        }
        let term = Term::named(words[1])
            .ok_or_else(|| self.error(line, Kind::UnknownTerm(words[1].to_string())))?;
        self.terms[term as usize] = value;
        Ok(())
    }

    /// `scale NAME N`.
    fn scale(&mut self, line: usize, words: &[&str]) -> Result<(), TableError> {
        let v = self.int(words[2], line)?;
        match words[1] {
            "drawish_margin" => self.scales.drawish_margin = v,
            "drawish_factor" if (0..=64).contains(&v) => self.scales.drawish_factor = v,
            "drawish_factor" => return Err(self.error(line, Kind::DrawishFactorRange)),
            other => return Err(self.error(line, Kind::UnknownScale(other.to_string()))),
        }
        Ok(())
    }

    /// The one row after a table statement on line `line` whose halves word is `which`.
    fn row(&mut self, line: usize, which: &str) -> Result<(Vec<i32>, (bool, bool)), TableError> {
        let halves =
            halves(which).ok_or_else(|| self.error(line, Kind::BadHalves(which.to_string())))?;
        let Some((row_line, cells)) = self.lines.get(self.next).cloned() else {
            return Err(self.error(line, Kind::RowMissing));
        };
        if cells.len() > MAX_ROW {
            return Err(self.error(row_line, Kind::RowTooLong(cells.len())));
        }
        let row = cells
            .iter()
            .map(|c| self.int(c, row_line))
            .collect::<Result<Vec<i32>, TableError>>()?;
        self.next += 1;
        Ok((row, halves))
    }

    /// `pst X mg|eg|both` and the rows that follow it, furthest rank first.
    fn pst(&mut self, line: usize, words: &[&str]) -> Result<(), TableError> {
        let (files, ranks) = (self.def.geometry.files, self.def.geometry.ranks);
        let t = self.letter_type(words[1], line)?;
        let (set_mg, set_eg) = halves(words[2]).ok_or_else(|| {
            let letter = words[1].to_string();
            let found = words[2].to_string();
            self.error(line, Kind::BadPstHalves { letter, found })
        })?;
        for row in 0..ranks {
            let Some((row_line, cells)) = self.lines.get(self.next).cloned() else {
                let letter = words[1].to_string();
                let kind = Kind::PstRowsMissing {
                    letter,
                    ranks,
                    after: row,
                };
                return Err(self.error(line, kind));
            };
            if cells.len() != files {
                let found = cells.len();
                return Err(self.error(row_line, Kind::PstRowLength { files, found }));
            }
            let rank = ranks - 1 - row;
            for (file, cell) in cells.iter().enumerate() {
                let v = self.int(cell, row_line)?;
                let p = &mut self.pst[t][rank * files + file];
                if set_mg {
                    p.mg = v;
                }
                if set_eg {
                    p.eg = v;
                }
            }
            self.next += 1;
        }
        Ok(())
    }

    /// The piece type of the one-letter `word` (either case).
    fn letter_type(&self, word: &str, line: usize) -> Result<usize, TableError> {
        letter_type(self.def, word).ok_or_else(|| {
            let kind = Kind::NotALetter {
                word: word.to_string(),
                variant: self.def.name,
                letters: self.def.pieces.iter().map(|p| p.letter).collect(),
            };
            self.error(line, kind)
        })
    }

    /// A number in -100000..=100000.
    fn int(&self, word: &str, line: usize) -> Result<i32, TableError> {
        word.parse::<i32>()
            .ok()
            .filter(|v| v.abs() <= 100_000)
            .ok_or_else(|| self.error(line, Kind::NotANumber(word.to_string())))
    }

    /// A middlegame and an endgame number.
    fn pair(&self, mg: &str, eg: &str, line: usize) -> Result<Pair, TableError> {
        Ok(Pair::new(self.int(mg, line)?, self.int(eg, line)?))
    }

    /// The tables read, once every piece has its `piece` line.
    fn finish(mut self) -> Result<EvalTables, TableError> {
        let def = self.def;
        let mut pieces = Vec::with_capacity(def.pieces.len());
        for t in 0..def.pieces.len() {
            let (value, phase) = self.values[t].ok_or_else(|| TableError {
                source: self.source.to_string(),
                line: None,
                kind: Kind::MissingPiece {
                    letter: def.pieces[t].letter,
                    variant: def.name,
                },
            })?;
            pieces.push(PieceTable {
                value,
                phase,
                pst: std::mem::take(&mut self.pst[t]),
                mobility: std::mem::take(&mut self.mobility[t]),
                safe_check: self.safe_check[t],
            });
        }
        debug_assert!(pieces.len() <= MAX_TYPES);
        Ok(EvalTables {
            variant: def.name,
            source: self.source.to_string(),
            pieces,
            pairs: self.pairs,
            terms: self.terms,
            king_danger: self.king_danger,
            passed: self.passed,
            scales: self.scales,
        })
    }
}
