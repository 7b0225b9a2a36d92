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

mod error;
mod reader;
#[cfg(test)]
mod tests;
mod writer;

pub use error::{LoadError, TableError, TableErrorKind};
pub use reader::parse;
pub use writer::write;

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
    pub fn embedded(def: &'static VariantDef) -> Result<EvalTables, TableError> {
        parse(def, def.eval_table, &format!("embedded:{}.txt", def.name))
    }

    /// The tables of `def`'s variant: `DIR/<variant>.txt` when `dir` is given and that
    /// file exists, else the built-in ones. A directory that does not exist, a path that
    /// is not a directory, a file that cannot be read and a file with a mistake are errors.
    pub fn load(def: &'static VariantDef, dir: Option<&Path>) -> Result<EvalTables, LoadError> {
        let Some(dir) = dir else {
            return Ok(EvalTables::embedded(def)?);
        };
        if !dir.exists() {
            return Err(LoadError::NoDirectory(dir.to_path_buf()));
        }
        if !dir.is_dir() {
            return Err(LoadError::NotADirectory(dir.to_path_buf()));
        }
        let path = dir.join(format!("{}.txt", def.name));
        if !path.exists() {
            return Ok(EvalTables::embedded(def)?);
        }
        let text = std::fs::read_to_string(&path).map_err(|e| LoadError::Unreadable {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        Ok(parse(def, &text, &path.display().to_string())?)
    }

    /// The value of term `t`.
    pub fn term(&self, t: Term) -> Pair {
        self.terms[t as usize]
    }
}

/// The longest row a one-row table may have.
const MAX_ROW: usize = 64;

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
