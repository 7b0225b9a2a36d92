//! What can be wrong with a table file, and the messages that say so.

use std::path::PathBuf;

use super::{Term, MAX_ROW};

/// A mistake in a table file: the file, the line (none for the file as a whole) and
/// what is wrong. `Display` gives `SOURCE:LINE: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The file's name as the messages give it (`embedded:<variant>.txt` for built-in ones).
    pub source: String,
    /// The 1-based line of the mistake.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: TableErrorKind,
}

/// What is wrong at a [`TableError`]'s place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableErrorKind {
    /// A statement with the wrong number of words.
    WordCount {
        /// The statement's first word.
        statement: String,
        /// The words it takes.
        want: usize,
        /// The words found.
        found: usize,
    },
    /// A first word no statement has.
    UnknownStatement(String),
    /// A second `piece` line for this letter.
    SecondPiece(String),
    /// A `piece` line with a negative phase weight.
    NegativePhase,
    /// A `term` name no term has.
    UnknownTerm(String),
    /// A `drawish_factor` outside 0..64.
    DrawishFactorRange,
    /// A `scale` name no scale has.
    UnknownScale(String),
    /// A one-row table's halves word is not `mg`, `eg` or `both`.
    BadHalves(String),
    /// A `pst` statement's halves word is not `mg`, `eg` or `both`.
    BadPstHalves {
        /// The piece letter.
        letter: String,
        /// The word found.
        found: String,
    },
    /// The file ends before a one-row table's row.
    RowMissing,
    /// A row longer than [`MAX_ROW`].
    RowTooLong(usize),
    /// The two halves of a one-row table have different lengths.
    RowLengths(usize, usize),
    /// The file ends inside a piece-square table.
    PstRowsMissing {
        /// The piece letter.
        letter: String,
        /// The rows a table has.
        ranks: usize,
        /// The rows read.
        after: usize,
    },
    /// A piece-square table row with the wrong number of cells.
    PstRowLength {
        /// The cells a row has.
        files: usize,
        /// The cells found.
        found: usize,
    },
    /// A word that should be a piece letter of the variant.
    NotALetter {
        /// The word.
        word: String,
        /// The variant.
        variant: &'static str,
        /// The variant's letters.
        letters: String,
    },
    /// A word that should be a number in -100000..=100000.
    NotANumber(String),
    /// A piece of the variant without a `piece` line.
    MissingPiece {
        /// Its letter.
        letter: char,
        /// The variant.
        variant: &'static str,
    },
    /// A one-row table that holds no table (a bug, never a file's mistake).
    NotATable,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.source, self.kind),
            None => write!(f, "{}: {}", self.source, self.kind),
        }
    }
}

impl std::fmt::Display for TableErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use TableErrorKind as K;
        match self {
            K::WordCount {
                statement,
                want,
                found,
            } => {
                write!(f, "'{statement}' takes {want} words, found {found}")
            }
            K::UnknownStatement(other) => write!(
                f,
                "unknown statement '{other}' (expected piece, pst, mobility, \
                 mobility_table, safe_check, pair, king_danger, passed, term or scale)"
            ),
            K::SecondPiece(letter) => write!(f, "second 'piece' line for {letter}"),
            K::NegativePhase => f.write_str("the phase weight must not be negative"),
            K::UnknownTerm(name) => {
                let known: Vec<&str> = Term::ALL.iter().map(|t| t.name()).collect();
                write!(f, "unknown term '{name}' (known: {})", known.join(", "))
            }
            K::DrawishFactorRange => f.write_str("drawish_factor must be 0..64"),
            K::UnknownScale(other) => write!(
                f,
                "unknown scale '{other}' (known: drawish_margin, drawish_factor)"
            ),
            K::BadHalves(which) => write!(f, "expected mg, eg or both, found '{which}'"),
            K::BadPstHalves { letter, found } => write!(
                f,
                "expected mg, eg or both after 'pst {letter}', found '{found}'"
            ),
            K::RowMissing => f.write_str("the table needs a row of numbers, the file ends"),
            K::RowTooLong(found) => {
                write!(f, "a row has at most {MAX_ROW} numbers, found {found}")
            }
            K::RowLengths(mg, eg) => write!(
                f,
                "the middlegame and endgame rows differ in length ({mg} and {eg})"
            ),
            K::PstRowsMissing {
                letter,
                ranks,
                after,
            } => write!(
                f,
                "the table for {letter} needs {ranks} rows, the file ends after {after}"
            ),
            K::PstRowLength { files, found } => {
                write!(f, "a table row needs {files} numbers, found {found}")
            }
            K::NotALetter {
                word,
                variant,
                letters,
            } => write!(
                f,
                "'{word}' is not a piece letter of {variant} (letters: {letters})"
            ),
            K::NotANumber(word) => write!(f, "'{word}' is not a number (-100000..100000)"),
            K::MissingPiece { letter, variant } => write!(
                f,
                "no 'piece {letter} ...' line (every piece of {variant} needs one)"
            ),
            K::NotATable => f.write_str("internal: the table was not set"),
        }
    }
}

impl std::error::Error for TableError {}

/// Why a variant's tables could not be loaded: the directory, the file, or a mistake
/// in it. `Display` gives the message the front ends print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The directory given does not exist.
    NoDirectory(PathBuf),
    /// The path given is not a directory.
    NotADirectory(PathBuf),
    /// The variant's file exists but cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// The file has a mistake.
    Table(TableError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NoDirectory(dir) => write!(
                f,
                "evaluation table directory {} does not exist",
                dir.display()
            ),
            LoadError::NotADirectory(dir) => write!(
                f,
                "evaluation table path {} is not a directory (give the directory that holds the <variant>.txt files)",
                dir.display()
            ),
            LoadError::Unreadable { path, reason } => {
                write!(f, "{}: cannot read: {reason}", path.display())
            }
            LoadError::Table(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<TableError> for LoadError {
    fn from(e: TableError) -> LoadError {
        LoadError::Table(e)
    }
}

impl From<TableError> for String {
    /// The message, for callers whose errors are still text.
    fn from(e: TableError) -> String {
        e.to_string()
    }
}

impl From<LoadError> for String {
    /// The message, for callers whose errors are still text.
    fn from(e: LoadError) -> String {
        e.to_string()
    }
}
