//! Evaluation tables as data: one human-editable text file per variant in
//! `eval-tables/<variant>.txt`, built into the binary as defaults and replaceable at run
//! time by a directory of files of the same names.
//!
//! # The text format
//!
//! A file is a list of lines. `#` starts a comment that runs to the end of the line;
//! blank lines are ignored. Every number is an integer in centipawns (a pawn is about
//! 100). "MG" is the middlegame value, "EG" the endgame value; the evaluation blends the
//! two by the game phase (see `piece`). Piece letters are the variant's FEN letters,
//! uppercase (`sako variants` and the rules files list them). The statements are:
//!
//! * `piece X MG EG PHASE` — the material value of piece `X` and its weight in the game
//!   phase. The phase is the sum of the weights of all pieces on the board and in hand;
//!   its value in the variant's start position counts as "full middlegame", zero as
//!   "pure endgame". Every piece of the variant needs exactly one `piece` line (the
//!   king's value is not used, write 0).
//! * `pst X mg`, `pst X eg` or `pst X both` — a piece-square table for `X`, followed by
//!   one row per rank with one number per file. The first row is the rank furthest
//!   from White (rank 8 on 8x8 boards), so the block looks like the board seen by White,
//!   files `a` on the left. The numbers are added to the piece's value for White; Black
//!   uses the same table mirrored top to bottom. A missing table counts as all zeros.
//! * `mobility X MG EG` — added per square that a piece `X` could move to or capture on
//!   (its moves from the move tables, ignoring pins and whose turn it is).
//! * `pair X MG EG` — bonus for a side that has pieces `X` on both square colours (the
//!   bishop pair; Great Shatranj's elephants on both colours).
//! * `term NAME MG EG` — one of the named terms below (missing terms count as 0):
//!   - `tempo`: bonus for the side to move.
//!   - `doubled_pawn`: penalty (write it negative) per pawn behind another own pawn on
//!     its file; `isolated_pawn`: per pawn with no own pawn on a neighbouring file.
//!   - `passed_pawn`: bonus for a passed pawn one step from promotion; a passed pawn
//!     further back gets a share that falls with the square of its distance from the
//!     promotion rank (the variant's own promotion rank).
//!   - `king_shelter`: per own pawn on the three squares in front of the king, or
//!     two ranks in front of it (half).
//!   - `king_attack`: per unit of enemy pressure on the squares next to the king: each
//!     enemy piece that attacks them adds one unit per attacked square, and the
//!     penalty grows with the square of the units (divided by 8).
//!   - `hand_piece`: per piece still in hand (Historia's deployment, the Hia), on top of
//!     its material value.
//!   - `deploy_king_cover`: while a side still has pieces to drop, per own piece or pawn
//!     next to its king.
//!   - `mop_up`: when one side has a bare king and the other can still force a win,
//!     the stronger side gets this many centipawns per step of the bare king away
//!     from the centre, and a fifth of it per step the kings come closer.
//!
//! A mistake (an unknown statement, letter or term, a row of the wrong length, a
//! missing `piece` line) is an error naming the file and line; the engine never ignores
//! a broken table.

use std::path::Path;

use crate::rules::compile::MAX_TYPES;
use crate::rules::geometry::MAX_SQUARES;
use crate::rules::variant::VariantDef;

/// A middlegame and an endgame value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pair {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl Pair {
    /// Both values.
    pub const fn new(mg: i32, eg: i32) -> Pair {
        Pair { mg, eg }
    }
}

/// The named scalar terms of a table file.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terms {
    /// Bonus for the side to move.
    pub tempo: Pair,
    /// Per doubled pawn (negative).
    pub doubled_pawn: Pair,
    /// Per isolated pawn (negative).
    pub isolated_pawn: Pair,
    /// Passed pawn one step from promotion.
    pub passed_pawn: Pair,
    /// Per pawn sheltering the king.
    pub king_shelter: Pair,
    /// Scale of the king-attack penalty.
    pub king_attack: Pair,
    /// Per piece in hand, on top of its value.
    pub hand_piece: Pair,
    /// Per own unit next to the king during deployment.
    pub deploy_king_cover: Pair,
    /// Driving a bare king to the edge.
    pub mop_up: Pair,
}

const TERM_NAMES: [&str; 9] = [
    "tempo",
    "doubled_pawn",
    "isolated_pawn",
    "passed_pawn",
    "king_shelter",
    "king_attack",
    "hand_piece",
    "deploy_king_cover",
    "mop_up",
];

impl Terms {
    fn slot(&mut self, name: &str) -> Option<&mut Pair> {
        Some(match name {
            "tempo" => &mut self.tempo,
            "doubled_pawn" => &mut self.doubled_pawn,
            "isolated_pawn" => &mut self.isolated_pawn,
            "passed_pawn" => &mut self.passed_pawn,
            "king_shelter" => &mut self.king_shelter,
            "king_attack" => &mut self.king_attack,
            "hand_piece" => &mut self.hand_piece,
            "deploy_king_cover" => &mut self.deploy_king_cover,
            "mop_up" => &mut self.mop_up,
            _ => return None,
        })
    }
}

/// The tables of one piece type.
#[derive(Clone, Debug)]
pub struct PieceTable {
    /// Material value.
    pub value: Pair,
    /// Weight in the game phase.
    pub phase: i32,
    /// Piece-square bonus for White, indexed by square (`rank * files + file`).
    pub pst: Vec<Pair>,
    /// Per-square mobility weight.
    pub mobility: Pair,
}

/// A variant's evaluation tables as read from a file.
#[derive(Clone, Debug)]
pub struct EvalTables {
    /// Variant name.
    pub variant: &'static str,
    /// Where the tables came from (a path, or `embedded:<variant>.txt`).
    pub source: String,
    /// Per piece type, in the variant's type order.
    pub pieces: Vec<PieceTable>,
    /// `pair` bonuses: piece type and value.
    pub pairs: Vec<(usize, Pair)>,
    /// Named terms.
    pub terms: Terms,
}

impl EvalTables {
    /// The built-in tables of `def`'s variant (its [`VariantDef::eval_table`]).
    pub fn embedded(def: &'static VariantDef) -> Result<EvalTables, String> {
        parse(def, def.eval_table, &format!("embedded:{}.txt", def.name))
    }

    /// The tables of `def`'s variant: `DIR/<variant>.txt` when `dir` is given and that
    /// file exists, else the built-in ones. A directory that does not exist, a path that
    /// is not a directory, a file that cannot be read and a file with a mistake are errors.
    pub fn load(def: &'static VariantDef, dir: Option<&Path>) -> Result<EvalTables, String> {
        let Some(dir) = dir else {
            return EvalTables::embedded(def);
        };
        if !dir.exists() {
            return Err(format!(
                "evaluation table directory {} does not exist",
                dir.display()
            ));
        }
        if !dir.is_dir() {
            return Err(format!(
                "evaluation table path {} is not a directory (give the directory that holds the <variant>.txt files)",
                dir.display()
            ));
        }
        let path = dir.join(format!("{}.txt", def.name));
        if !path.exists() {
            return EvalTables::embedded(def);
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        parse(def, &text, &path.display().to_string())
    }
}

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
    mobility: Vec<Pair>,
    pairs: Vec<(usize, Pair)>,
    terms: Terms,
}

/// Reads a table file's text for variant `def`; `source` names it in error messages.
pub fn parse(def: &'static VariantDef, text: &str, source: &str) -> Result<EvalTables, String> {
    let types = def.pieces.len();
    let mut r = Reader {
        def,
        source,
        lines: statement_lines(text),
        next: 0,
        values: vec![None; types],
        pst: vec![vec![Pair::default(); MAX_SQUARES]; types],
        mobility: vec![Pair::default(); types],
        pairs: Vec::new(),
        terms: Terms::default(),
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

impl Reader<'_> {
    /// Reads the statement `words` of line `line` (a `pst` statement also reads its rows).
    fn statement(&mut self, line: usize, words: &[&str]) -> Result<(), String> {
        let source = self.source;
        let want = |n: usize| -> Result<(), String> {
            if words.len() == n {
                Ok(())
            } else {
                Err(format!(
                    "{source}:{line}: '{}' takes {} words, found {}",
                    words[0],
                    n,
                    words.len()
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
                self.mobility[t] = self.pair(words[2], words[3], line)?;
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
            "pst" => {
                want(3)?;
                self.pst(line, words)
            }
            other => Err(format!(
                "{source}:{line}: unknown statement '{other}' (expected piece, pst, mobility, pair or term)"
            )),
        }
    }

    /// `piece X MG EG PHASE`.
    fn piece(&mut self, line: usize, words: &[&str]) -> Result<(), String> {
        let source = self.source;
        let t = self.letter_type(words[1], line)?;
        if self.values[t].is_some() {
            return Err(format!(
                "{source}:{line}: second 'piece' line for {}",
                words[1]
            ));
        }
        let v = self.pair(words[2], words[3], line)?;
        let phase = self.int(words[4], line)?;
        if phase < 0 {
            return Err(format!(
                "{source}:{line}: the phase weight must not be negative"
            ));
        }
        self.values[t] = Some((v, phase));
        Ok(())
    }

    /// `term NAME MG EG`.
    fn term(&mut self, line: usize, words: &[&str]) -> Result<(), String> {
        let value = self.pair(words[2], words[3], line)?;
        let source = self.source;
        let slot = self.terms.slot(words[1]).ok_or_else(|| {
            format!(
                "{source}:{line}: unknown term '{}' (known: {})",
                words[1],
                TERM_NAMES.join(", ")
            )
        })?;
        *slot = value;
        Ok(())
    }

    /// `pst X mg|eg|both` and the rows that follow it, furthest rank first.
    fn pst(&mut self, line: usize, words: &[&str]) -> Result<(), String> {
        let source = self.source;
        let (files, ranks) = (self.def.geometry.files, self.def.geometry.ranks);
        let t = self.letter_type(words[1], line)?;
        let (set_mg, set_eg) = match words[2] {
            "mg" => (true, false),
            "eg" => (false, true),
            "both" => (true, true),
            other => {
                return Err(format!(
                    "{source}:{line}: expected mg, eg or both after 'pst {}', found '{other}'",
                    words[1]
                ))
            }
        };
        for row in 0..ranks {
            let Some((row_line, cells)) = self.lines.get(self.next).cloned() else {
                return Err(format!(
                    "{source}:{line}: the table for {} needs {ranks} rows, the file ends after {row}",
                    words[1]
                ));
            };
            if cells.len() != files {
                return Err(format!(
                    "{source}:{row_line}: a table row needs {files} numbers, found {}",
                    cells.len()
                ));
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
    fn letter_type(&self, word: &str, line: usize) -> Result<usize, String> {
        let def = self.def;
        let mut chars = word.chars();
        let found = match (chars.next(), chars.next()) {
            (Some(c), None) => def
                .pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_uppercase()),
            _ => None,
        };
        found.ok_or_else(|| {
            format!(
                "{}:{line}: '{word}' is not a piece letter of {} (letters: {})",
                self.source,
                def.name,
                def.pieces.iter().map(|p| p.letter).collect::<String>()
            )
        })
    }

    /// A number in -100000..=100000.
    fn int(&self, word: &str, line: usize) -> Result<i32, String> {
        word.parse::<i32>()
            .ok()
            .filter(|v| v.abs() <= 100_000)
            .ok_or_else(|| {
                format!(
                    "{}:{line}: '{word}' is not a number (-100000..100000)",
                    self.source
                )
            })
    }

    /// A middlegame and an endgame number.
    fn pair(&self, mg: &str, eg: &str, line: usize) -> Result<Pair, String> {
        Ok(Pair::new(self.int(mg, line)?, self.int(eg, line)?))
    }

    /// The tables read, once every piece has its `piece` line.
    fn finish(mut self) -> Result<EvalTables, String> {
        let def = self.def;
        let mut pieces = Vec::with_capacity(def.pieces.len());
        for t in 0..def.pieces.len() {
            let (value, phase) = self.values[t].ok_or_else(|| {
                format!(
                    "{}: no 'piece {} ...' line (every piece of {} needs one)",
                    self.source, def.pieces[t].letter, def.name
                )
            })?;
            pieces.push(PieceTable {
                value,
                phase,
                pst: std::mem::take(&mut self.pst[t]),
                mobility: self.mobility[t],
            });
        }
        debug_assert!(pieces.len() <= MAX_TYPES);
        Ok(EvalTables {
            variant: def.name,
            source: self.source.to_string(),
            pieces,
            pairs: self.pairs,
            terms: self.terms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{all_variants, variant_id};

    #[test]
    fn every_embedded_table_parses() {
        for def in all_variants() {
            let t = EvalTables::embedded(def).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(t.pieces.len(), def.pieces.len());
        }
    }

    #[test]
    fn mistakes_name_file_and_line() {
        let def = &all_variants()[variant_id("normal").unwrap()];
        let e = parse(def, "piece P 100 100 0\npiece X 1 1 1\n", "t.txt").unwrap_err();
        assert!(e.starts_with("t.txt:2:"), "{e}");
        let e = parse(def, "# c\n\nterm nonsense 1 2\n", "t.txt").unwrap_err();
        assert!(e.starts_with("t.txt:3:"), "{e}");
        let e = parse(def, "pst P mg\n1 2 3\n", "t.txt").unwrap_err();
        assert!(e.starts_with("t.txt:2:"), "{e}");
        let e = parse(def, "piece P 100 100 0\n", "t.txt").unwrap_err();
        assert!(e.contains("no 'piece N"), "{e}");
    }

    #[test]
    fn tables_are_oriented_as_seen_by_white() {
        let def = &all_variants()[variant_id("normal").unwrap()];
        let mut text = String::from(
            "piece P 1 1 0\npiece N 1 1 0\npiece B 1 1 0\npiece R 1 1 0\npiece Q 1 1 0\npiece K 0 0 0\npst N mg\n",
        );
        text += "8 0 0 0 0 0 0 0\n";
        for _ in 0..6 {
            text += "0 0 0 0 0 0 0 0\n";
        }
        text += "0 0 0 0 0 0 0 1\n";
        let t = parse(def, &text, "t").unwrap();
        let n = &t.pieces[1].pst;
        assert_eq!(n[7].mg, 1); // h1
        assert_eq!(n[56].mg, 8); // a8
        assert_eq!(n[56].eg, 0);
    }

    #[test]
    fn chancellor_games_use_paulowichs_own_table() {
        // David Paulowich's chancellor bonus table for GNU Chess, index 0 = a1.
        const PAULOWICH: [i32; 64] = [
            0, 2, 4, 6, 6, 4, 2, 0, 2, 4, 6, 8, 8, 6, 4, 2, 4, 6, 8, 10, 10, 8, 6, 4, 6, 8, 10, 10,
            10, 10, 8, 6, 6, 8, 10, 10, 10, 10, 8, 6, 4, 6, 8, 10, 10, 8, 6, 4, 2, 4, 6, 8, 8, 6,
            4, 2, 0, 2, 4, 6, 6, 4, 2, 0,
        ];
        for name in ["chancellor", "chancellorx", "kingsleap"] {
            let def = &all_variants()[variant_id(name).unwrap()];
            let t = EvalTables::embedded(def).unwrap();
            let c = def.pieces.iter().position(|p| p.letter == 'C').unwrap();
            for (sq, &v) in PAULOWICH.iter().enumerate() {
                assert_eq!(t.pieces[c].pst[sq].mg, v, "{name} square {sq}");
                assert_eq!(t.pieces[c].pst[sq].eg, v, "{name} square {sq}");
            }
        }
    }
}
