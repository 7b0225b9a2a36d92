//! Evaluation tables as data: one human-editable text file per variant in
//! `eval-tables/<variant>.txt`, built into the binary as defaults and replaceable at run
//! time by a directory of files of the same names. `sako tune` writes files in the same
//! format (see [`write()`]).
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
//! * `mobility_table X mg|eg|both` followed by one row: the bonus of a piece `X` by the
//!   number of squares it can move to or capture on (its moves from the move tables,
//!   ignoring pins and whose turn it is; squares of its own pieces and squares an enemy
//!   pawn attacks do not count). The row starts at 0 squares; a count beyond the row's
//!   end uses its last number. The older `mobility X MG EG` (so much per square) still
//!   reads, as the table `0, X, 2X, ...`.
//! * `pair X MG EG` — bonus for a side that has pieces `X` on both square colours (the
//!   bishop pair; Great Shatranj's elephants on both colours).
//! * `safe_check X MG EG` — bonus per square from which a piece `X` could give check
//!   where the enemy attacks nothing (a "safe check" the side can play).
//! * `king_danger mg|eg|both` followed by one row: what a side loses by the units of
//!   enemy pressure on the squares next to its king, from 0 units. Each enemy piece that
//!   attacks those squares adds one unit per square it attacks; the pressure counts
//!   only once two pieces (or one with three units) take part. Beyond the row's end the
//!   last number holds. The older `term king_attack MG EG` reads as `-K * units^2 / 8`.
//! * `passed mg|eg|both` followed by one row: the bonus of a passed pawn by its distance
//!   to the promotion rank (the variant's own), from 1 step. The older
//!   `term passed_pawn MG EG` reads as the bonus one step away falling with the square
//!   of the distance.
//! * `term NAME MG EG` — one of the named terms below (missing terms count as 0):
//!   - `tempo`: bonus for the side to move.
//!   - `doubled_pawn`: penalty (write it negative) per pawn behind another own pawn on
//!     its file; `isolated_pawn`: per pawn with no own pawn on a neighbouring file;
//!     `backward_pawn`: per pawn with no own pawn beside or behind it on a neighbouring
//!     file whose next square an enemy pawn attacks; `connected_pawn`: per pawn with an
//!     own pawn beside it or defending it.
//!   - `passed_free`: per step a passed pawn has advanced, when the square in front of
//!     it is empty; `passed_king_distance`: per step advanced times (enemy king's
//!     distance to that square minus the own king's); `passed_no_pool`: per step
//!     advanced while the side's pool of captured pieces is empty in a game where pawns
//!     can promote to pieces from the pool (Great Shatranj: then only to the weakest).
//!   - `king_shelter`: per own pawn on the three squares in front of the king, or
//!     two ranks in front of it (half).
//!   - `threat_by_pawn`: per enemy piece (not a pawn) an own pawn attacks;
//!     `threat_by_lesser`: per enemy piece attacked by an own piece of lower value;
//!     `hanging`: per enemy piece or pawn the side attacks and the enemy does not defend.
//!   - `hand_piece`: per piece still in hand (Historia's deployment, the Hia), on top of
//!     its material value.
//!   - `deploy_king_cover`: while a side still has pieces to drop, per own piece or pawn
//!     next to its king.
//!   - `mop_up`: when one side has a bare king and the other can still force a win,
//!     the stronger side gets this many centipawns per step of the bare king away
//!     from the centre, and a fifth of it per step the kings come closer.
//! * `scale NAME N` — a setting of the endgame scaling (not a score, so `sako tune`
//!   leaves it alone): when the side that is ahead has no pawns and its material lead
//!   (endgame values, pieces on the board and in hand) is below `drawish_margin`, the
//!   endgame score is multiplied by `drawish_factor / 64` — unless the other side has
//!   a bare king in a game where that already loses.
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

/// The named scalar terms of a table file (`term NAME MG EG`), in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Bonus for the side to move.
    Tempo,
    /// Per doubled pawn (negative).
    DoubledPawn,
    /// Per isolated pawn (negative).
    IsolatedPawn,
    /// Per backward pawn (negative).
    BackwardPawn,
    /// Per pawn with a neighbour beside it or defending it.
    ConnectedPawn,
    /// Per step advanced of a passed pawn whose next square is empty.
    PassedFree,
    /// Per step advanced times the kings' distance difference to the next square.
    PassedKingDistance,
    /// Per step advanced of a passed pawn with nothing in the pool to promote to.
    PassedNoPool,
    /// Per pawn sheltering the king.
    KingShelter,
    /// Per enemy piece attacked by an own pawn.
    ThreatByPawn,
    /// Per enemy piece attacked by a lower-valued own piece.
    ThreatByLesser,
    /// Per enemy unit attacked and not defended.
    Hanging,
    /// Per piece in hand, on top of its value.
    HandPiece,
    /// Per own unit next to the king during deployment.
    DeployKingCover,
    /// Driving a bare king to the edge.
    MopUp,
}

/// Number of [`Term`]s.
pub const TERM_COUNT: usize = 15;

impl Term {
    /// Every term, in file order.
    pub const ALL: [Term; TERM_COUNT] = [
        Term::Tempo,
        Term::DoubledPawn,
        Term::IsolatedPawn,
        Term::BackwardPawn,
        Term::ConnectedPawn,
        Term::PassedFree,
        Term::PassedKingDistance,
        Term::PassedNoPool,
        Term::KingShelter,
        Term::ThreatByPawn,
        Term::ThreatByLesser,
        Term::Hanging,
        Term::HandPiece,
        Term::DeployKingCover,
        Term::MopUp,
    ];

    /// The term's name in table files.
    pub fn name(self) -> &'static str {
        match self {
            Term::Tempo => "tempo",
            Term::DoubledPawn => "doubled_pawn",
            Term::IsolatedPawn => "isolated_pawn",
            Term::BackwardPawn => "backward_pawn",
            Term::ConnectedPawn => "connected_pawn",
            Term::PassedFree => "passed_free",
            Term::PassedKingDistance => "passed_king_distance",
            Term::PassedNoPool => "passed_no_pool",
            Term::KingShelter => "king_shelter",
            Term::ThreatByPawn => "threat_by_pawn",
            Term::ThreatByLesser => "threat_by_lesser",
            Term::Hanging => "hanging",
            Term::HandPiece => "hand_piece",
            Term::DeployKingCover => "deploy_king_cover",
            Term::MopUp => "mop_up",
        }
    }

    /// The term called `name`.
    pub fn named(name: &str) -> Option<Term> {
        Term::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// A table by a count (mobility by squares, king danger by units, passed pawns by
/// distance): given number by number, or by the older one-number formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Curve {
    /// The older one-number form; what it means depends on the table (see the module
    /// documentation).
    Formula(Pair),
    /// One value per count, from the table's first count.
    Table(Vec<Pair>),
}

impl Default for Curve {
    fn default() -> Self {
        Curve::Formula(Pair::default())
    }
}

/// The settings of the endgame scaling (`scale NAME N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scales {
    /// A lead below this (endgame centipawns) without pawns is drawish.
    pub drawish_margin: i32,
    /// The endgame score of a drawish position is multiplied by this / 64.
    pub drawish_factor: i32,
}

impl Default for Scales {
    fn default() -> Self {
        // No scaling unless a file asks for it.
        Scales {
            drawish_margin: 0,
            drawish_factor: 64,
        }
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
    /// Mobility bonus by the number of squares (`Formula`: so much per square).
    pub mobility: Curve,
    /// Bonus per safe check this piece could give.
    pub safe_check: Pair,
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
    /// Named terms, indexed by [`Term`].
    pub terms: [Pair; TERM_COUNT],
    /// King danger by units of pressure (`Formula`: the older `king_attack` term).
    pub king_danger: Curve,
    /// Passed pawn bonus by distance (`Formula`: the older `passed_pawn` term).
    pub passed: Curve,
    /// Endgame scaling settings.
    pub scales: Scales,
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

    /// The value of term `t`.
    pub fn term(&self, t: Term) -> Pair {
        self.terms[t as usize]
    }
}

/// The longest row a one-row table may have.
const MAX_ROW: usize = 64;

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
pub fn parse(def: &'static VariantDef, text: &str, source: &str) -> Result<EvalTables, String> {
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
fn set_row(curve: &mut Curve, row: &[i32], (mg, eg): (bool, bool)) -> Result<(), String> {
    if let Curve::Formula(_) = curve {
        *curve = Curve::Table(vec![Pair::default(); row.len()]);
    }
    let Curve::Table(table) = curve else {
        return Err("internal: the table was not set".into());
    };
    if table.len() != row.len() {
        return Err(format!(
            "the middlegame and endgame rows differ in length ({} and {})",
            table.len(),
            row.len()
        ));
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
    /// Reads the statement `words` of line `line` (a table statement also reads its rows).
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
                set_row(&mut self.mobility[t], &row, which)
                    .map_err(|e| format!("{source}:{line}: {e}"))
            }
            "king_danger" | "passed" => {
                want(2)?;
                let (row, which) = self.row(line, words[1])?;
                let curve = if words[0] == "passed" {
                    &mut self.passed
                } else {
                    &mut self.king_danger
                };
                set_row(curve, &row, which).map_err(|e| format!("{source}:{line}: {e}"))
            }
            other => Err(format!(
                "{source}:{line}: unknown statement '{other}' (expected piece, pst, mobility, \
                 mobility_table, safe_check, pair, king_danger, passed, term or scale)"
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

    /// `term NAME MG EG`, including the older `king_attack` and `passed_pawn`, which set
    /// a table's formula unless the file gives the table itself.
    fn term(&mut self, line: usize, words: &[&str]) -> Result<(), String> {
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
        let term = Term::named(words[1]).ok_or_else(|| {
            let known: Vec<&str> = Term::ALL.iter().map(|t| t.name()).collect();
            format!(
                "{}:{line}: unknown term '{}' (known: {})",
                self.source,
                words[1],
                known.join(", ")
            )
        })?;
        self.terms[term as usize] = value;
        Ok(())
    }

    /// `scale NAME N`.
    fn scale(&mut self, line: usize, words: &[&str]) -> Result<(), String> {
        let v = self.int(words[2], line)?;
        match words[1] {
            "drawish_margin" => self.scales.drawish_margin = v,
            "drawish_factor" if (0..=64).contains(&v) => self.scales.drawish_factor = v,
            "drawish_factor" => {
                return Err(format!(
                    "{}:{line}: drawish_factor must be 0..64",
                    self.source
                ))
            }
            other => {
                return Err(format!(
                    "{}:{line}: unknown scale '{other}' (known: drawish_margin, drawish_factor)",
                    self.source
                ))
            }
        }
        Ok(())
    }

    /// The one row after a table statement on line `line` whose halves word is `which`.
    fn row(&mut self, line: usize, which: &str) -> Result<(Vec<i32>, (bool, bool)), String> {
        let source = self.source;
        let halves = halves(which)
            .ok_or_else(|| format!("{source}:{line}: expected mg, eg or both, found '{which}'"))?;
        let Some((row_line, cells)) = self.lines.get(self.next).cloned() else {
            return Err(format!(
                "{source}:{line}: the table needs a row of numbers, the file ends"
            ));
        };
        if cells.len() > MAX_ROW {
            return Err(format!(
                "{source}:{row_line}: a row has at most {MAX_ROW} numbers, found {}",
                cells.len()
            ));
        }
        let row = cells
            .iter()
            .map(|c| self.int(c, row_line))
            .collect::<Result<Vec<i32>, String>>()?;
        self.next += 1;
        Ok((row, halves))
    }

    /// `pst X mg|eg|both` and the rows that follow it, furthest rank first.
    fn pst(&mut self, line: usize, words: &[&str]) -> Result<(), String> {
        let source = self.source;
        let (files, ranks) = (self.def.geometry.files, self.def.geometry.ranks);
        let t = self.letter_type(words[1], line)?;
        let (set_mg, set_eg) = halves(words[2]).ok_or_else(|| {
            format!(
                "{source}:{line}: expected mg, eg or both after 'pst {}', found '{}'",
                words[1], words[2]
            )
        })?;
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
        letter_type(self.def, word).ok_or_else(|| {
            format!(
                "{}:{line}: '{word}' is not a piece letter of {} (letters: {})",
                self.source,
                self.def.name,
                self.def.pieces.iter().map(|p| p.letter).collect::<String>()
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

/// The piece type of `def` whose letter is the one-letter `word` (either case).
fn letter_type(def: &VariantDef, word: &str) -> Option<usize> {
    let mut chars = word.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => def
            .pieces
            .iter()
            .position(|p| p.letter == c.to_ascii_uppercase()),
        _ => None,
    }
}

/// Writes `tables` (of variant `def`) as a table file in the shape of `original`, the
/// text they were read from: comments and the order of statements are kept, numbers
/// are replaced, older one-number forms become tables, and what `original` lacks is
/// added at the end. `header` lines (each starting with `# Tuned`) replace earlier
/// such lines, after the file's first line.
pub fn write(def: &VariantDef, tables: &EvalTables, original: &str, header: &[String]) -> String {
    let mut w = Writer {
        def,
        tables,
        out: String::new(),
        done: Vec::new(),
        pair_index: 0,
    };
    let lines: Vec<&str> = original.lines().collect();
    let mut i = 0;
    let mut first = true;
    while i < lines.len() {
        let raw = lines[i];
        i += 1;
        if raw.trim_start().starts_with("# Tuned") {
            continue;
        }
        let (content, comment) = match raw.find('#') {
            Some(k) => (&raw[..k], &raw[k..]),
            None => (raw, ""),
        };
        let words: Vec<&str> = content.split_whitespace().collect();
        if words.is_empty() {
            w.out += raw;
            w.out.push('\n');
        } else {
            let rows = w.statement(&words, comment);
            i = skip_statement_lines(&lines, i, rows);
        }
        if first {
            first = false;
            for h in header {
                w.out += h;
                w.out.push('\n');
            }
        }
    }
    w.missing();
    w.out
}

/// The index after `rows` more statement lines of `lines` from `i` on.
fn skip_statement_lines(lines: &[&str], mut i: usize, mut rows: usize) -> usize {
    while rows > 0 && i < lines.len() {
        let content = lines[i].split('#').next().unwrap_or("");
        if !content.trim().is_empty() {
            rows -= 1;
        }
        i += 1;
    }
    i
}

/// The state of [`write()`]: what has been written.
struct Writer<'a> {
    def: &'a VariantDef,
    tables: &'a EvalTables,
    out: String,
    /// Keys of the statements written (`pst N`, `term tempo`, ...).
    done: Vec<String>,
    /// How many `pair` statements were written.
    pair_index: usize,
}

/// A half of a table to write: its `mg|eg|both` word and how to read it from a pair.
type Half = (&'static str, fn(Pair) -> i32);

/// The halves to write: one `both` when they agree, else `mg` and `eg`.
fn halves_to_write(same: bool) -> &'static [Half] {
    if same {
        &[("both", |p| p.mg)]
    } else {
        &[("mg", |p| p.mg), ("eg", |p| p.eg)]
    }
}

/// `v` right-aligned in five columns, the width of the built-in tables.
fn cell(v: i32) -> String {
    format!("{v:>5}")
}

impl Writer<'_> {
    /// Writes the replacement of statement `words` (with its `comment`); returns how
    /// many row lines of the original follow the statement and are replaced with it.
    fn statement(&mut self, words: &[&str], comment: &str) -> usize {
        let def = self.def;
        let t = words.get(1).and_then(|w| letter_type(def, w));
        let rows = match words[0] {
            "pst" => def.geometry.ranks,
            "mobility_table" | "king_danger" | "passed" => 1,
            _ => 0,
        };
        let key = match (words[0], t) {
            ("pst", Some(t)) => format!("pst {}", def.pieces[t].letter),
            ("mobility" | "mobility_table", Some(t)) => {
                format!("mobility {}", def.pieces[t].letter)
            }
            ("term", _) if words.get(1) == Some(&"king_attack") => "king_danger".into(),
            ("term", _) if words.get(1) == Some(&"passed_pawn") => "passed".into(),
            ("king_danger" | "passed", _) => words[0].into(),
            (_, _) => words[..words.len().min(2)].join(" "),
        };
        if words[0] == "pair" {
            if let Some(&(pt, v)) = self.tables.pairs.get(self.pair_index) {
                self.pair_index += 1;
                let letter = def.pieces[pt].letter;
                self.line(&format!("pair {letter} {} {}", v.mg, v.eg), comment);
            }
            return rows;
        }
        if self.done.contains(&key) {
            return rows;
        }
        self.emit(&key, comment);
        rows
    }

    /// Writes the statement(s) behind `key` and marks it done.
    fn emit(&mut self, key: &str, comment: &str) {
        self.done.push(key.to_string());
        let tables = self.tables;
        let def = self.def;
        let mut parts = key.split(' ');
        let (kind, arg) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let t = letter_type(def, arg);
        match (kind, t) {
            ("piece", Some(t)) => {
                let p = &tables.pieces[t];
                let s = format!("piece {arg} {} {} {}", p.value.mg, p.value.eg, p.phase);
                self.line(&s, comment);
            }
            ("pst", Some(t)) => self.pst(t, comment),
            ("mobility", Some(t)) => {
                let title = format!("mobility_table {arg}");
                self.curve(&title, &tables.pieces[t].mobility, comment);
            }
            ("safe_check", Some(t)) => {
                let v = tables.pieces[t].safe_check;
                self.line(&format!("safe_check {arg} {} {}", v.mg, v.eg), comment);
            }
            ("king_danger", _) => self.curve("king_danger", &tables.king_danger, comment),
            ("passed", _) => self.curve("passed", &tables.passed, comment),
            ("term", _) => match Term::named(arg) {
                Some(term) => {
                    let v = tables.term(term);
                    self.line(&format!("term {arg} {} {}", v.mg, v.eg), comment);
                }
                None => self.line(&format!("# (dropped: term {arg})"), comment),
            },
            ("scale", _) => {
                let s = tables.scales;
                let v = match arg {
                    "drawish_margin" => s.drawish_margin,
                    _ => s.drawish_factor,
                };
                self.line(&format!("scale {arg} {v}"), comment);
            }
            _ => self.line(&format!("# (dropped: {key})"), comment),
        }
    }

    /// One line: `text`, then ` comment` if there is one.
    fn line(&mut self, text: &str, comment: &str) {
        self.out += text;
        if !comment.is_empty() {
            self.out.push(' ');
            self.out += comment;
        }
        self.out.push('\n');
    }

    /// Piece `t`'s square table: one `both` block when the halves agree, else two.
    fn pst(&mut self, t: usize, comment: &str) {
        let g = self.def.geometry;
        let pst = &self.tables.pieces[t].pst;
        let letter = self.def.pieces[t].letter;
        let same = (0..g.squares()).all(|sq| pst[sq].mg == pst[sq].eg);
        let halves = halves_to_write(same);
        for (k, (name, half)) in halves.iter().enumerate() {
            self.line(
                &format!("pst {letter} {name}"),
                if k == 0 { comment } else { "" },
            );
            for rank in (0..g.ranks).rev() {
                let row: Vec<String> = (0..g.files)
                    .map(|f| cell(half(pst[rank * g.files + f])))
                    .collect();
                self.out += &row.join("");
                self.out.push('\n');
            }
        }
    }

    /// A one-row table statement `title mg|eg|both` and its row(s); a formula is
    /// written as its own `term`/`mobility` line (the tuner always hands over tables).
    fn curve(&mut self, title: &str, curve: &Curve, comment: &str) {
        let table = match curve {
            Curve::Table(t) => t,
            Curve::Formula(v) => {
                let text = match title {
                    "king_danger" => format!("term king_attack {} {}", v.mg, v.eg),
                    "passed" => format!("term passed_pawn {} {}", v.mg, v.eg),
                    _ => format!("{} {} {}", title.replace("_table", ""), v.mg, v.eg),
                };
                self.line(&text, comment);
                return;
            }
        };
        let same = table.iter().all(|p| p.mg == p.eg);
        let halves = halves_to_write(same);
        for (k, (name, half)) in halves.iter().enumerate() {
            self.line(
                &format!("{title} {name}"),
                if k == 0 { comment } else { "" },
            );
            let row: Vec<String> = table.iter().map(|&p| cell(half(p))).collect();
            self.out += row.join("").trim_start();
            self.out.push('\n');
        }
    }

    /// Writes what the original file lacked and the tables hold (non-zero values).
    fn missing(&mut self) {
        let tables = self.tables;
        let def = self.def;
        let mut keys: Vec<String> = Vec::new();
        for (t, p) in tables.pieces.iter().enumerate() {
            let letter = def.pieces[t].letter;
            keys.push(format!("piece {letter}"));
            if p.pst.iter().any(|v| *v != Pair::default()) {
                keys.push(format!("pst {letter}"));
            }
            if p.mobility != Curve::default() {
                keys.push(format!("mobility {letter}"));
            }
            if p.safe_check != Pair::default() {
                keys.push(format!("safe_check {letter}"));
            }
        }
        for (curve, name) in [
            (&tables.king_danger, "king_danger"),
            (&tables.passed, "passed"),
        ] {
            if *curve != Curve::default() {
                keys.push(name.into());
            }
        }
        for term in Term::ALL {
            if tables.term(term) != Pair::default() {
                keys.push(format!("term {}", term.name()));
            }
        }
        if tables.scales != Scales::default() {
            keys.push("scale drawish_margin".into());
            keys.push("scale drawish_factor".into());
        }
        let mut heading = false;
        for key in keys {
            if !self.done.contains(&key) {
                if !heading {
                    self.out += "\n# Added by sako tune (not in the file it started from):\n";
                    heading = true;
                }
                self.emit(&key, "");
            }
        }
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
    fn written_tables_read_back_the_same_and_keep_comments() {
        use crate::engine::eval::params::Layout;
        for def in all_variants() {
            let mut tables = EvalTables::embedded(def).unwrap();
            let layout = Layout::of(&tables);
            let mut v = layout.flatten(&tables);
            for (i, p) in v.iter_mut().enumerate() {
                p.mg += (i % 11) as i32 - 5;
                p.eg -= (i % 3) as i32;
            }
            layout.unflatten(&v, &mut tables);
            let header = vec!["# Tuned by: a test".to_string()];
            let text = write(def, &tables, def.eval_table, &header);
            let again = parse(def, &text, "written").unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(layout.flatten(&again), v, "{}", def.name);
            // Every comment line of the original but its old `# Tuned` header survives,
            // and the new header comes second.
            let comments = def.eval_table.lines().filter(|l| l.starts_with('#'));
            for line in comments.filter(|l| !l.starts_with("# Tuned")) {
                assert!(text.contains(line), "{}: lost {line}", def.name);
            }
            assert_eq!(text.lines().nth(1), Some("# Tuned by: a test"));
            // Writing the written file again changes nothing but the header.
            let twice = write(def, &again, &text, &header);
            assert_eq!(twice, text, "{}", def.name);
        }
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
    fn chancellor_games_keep_the_shape_of_paulowichs_table() {
        // The chancellor games' tables were tuned starting from David Paulowich's
        // chancellor bonus table (0 in the corners, 10 in the centre; its comment in
        // eval-tables/chancellor.txt). The tuning moved the numbers but must keep his
        // shape: the centre squares worth clearly more than the corners.
        const CENTRE: [usize; 4] = [27, 28, 35, 36]; // d4 e4 d5 e5
        const CORNERS: [usize; 4] = [0, 7, 56, 63]; // a1 h1 a8 h8
        for name in ["chancellor", "chancellorx", "kingsleap"] {
            let def = &all_variants()[variant_id(name).unwrap()];
            let t = EvalTables::embedded(def).unwrap();
            let c = def.pieces.iter().position(|p| p.letter == 'C').unwrap();
            let pst = &t.pieces[c].pst;
            // Sums over four squares each: "5 cp more on average" is 20 more in sum.
            let sum = |squares: &[usize]| {
                squares
                    .iter()
                    .fold((0, 0), |(mg, eg), &sq| (mg + pst[sq].mg, eg + pst[sq].eg))
            };
            let (centre_mg, centre_eg) = sum(&CENTRE);
            let (corner_mg, corner_eg) = sum(&CORNERS);
            assert!(centre_mg >= corner_mg + 20, "{name} middlegame");
            assert!(centre_eg >= corner_eg + 20, "{name} endgame");
        }
    }
}
