//! Move text in the engine's coordinate notation: `e2e4`, promotions `e7e8q`, drops
//! `E@b1` (uppercase for both colours), gating `e1f2h`, castling as the king's move.
//! [`Position::parse_move`] also reads SAN (the `san` module), coordinates first.

use std::fmt;

use crate::rules::compile::BoardWidth;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::position::Position;

/// Why a move text was not accepted. `Display` gives the one-line message the CLI and
/// the protocols print; each kind keeps the text as given (trimmed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move on this board: empty, too long, not ASCII, squares off the board or an
    /// unknown piece letter.
    Unparsable(String),
    /// A well-formed move that is not legal here (or a missing suffix that is needed).
    Illegal(String),
    /// A SAN text that fits more than one legal move (`Nd2` with two knights there).
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparsable(text) => write!(f, "unparsable move '{text}'"),
            MoveError::Illegal(text) => write!(f, "illegal move '{text}'"),
            MoveError::Ambiguous(text) => write!(f, "ambiguous move '{text}'"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The message text, for callers whose errors are still strings (so `?` works there).
impl From<MoveError> for String {
    fn from(e: MoveError) -> String {
        e.to_string()
    }
}

impl<B: BoardWidth> Position<B> {
    /// The coordinate text of `m`.
    pub fn move_text(&self, m: Move) -> String {
        let r = self.rules;
        let g = r.geo;
        match m.kind() {
            MoveKind::Drop => format!("{}@{}", r.letters[m.piece()], g.name(m.to())),
            MoveKind::Promotion | MoveKind::Gate => format!(
                "{}{}{}",
                g.name(m.from()),
                g.name(m.to()),
                r.letters[m.piece()].to_ascii_lowercase()
            ),
            _ => format!("{}{}", g.name(m.from()), g.name(m.to())),
        }
    }

    /// Every legal move's text, sorted by byte order.
    pub fn legal_move_texts(&mut self) -> Vec<String> {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        let mut out: Vec<String> = list.as_slice().iter().map(|&m| self.move_text(m)).collect();
        out.sort();
        out
    }

    /// Finds the legal move written `text`, in coordinates or else in SAN (a text that
    /// reads both ways is taken as coordinates). Accepts lowercase drop letters, a
    /// gating move without its suffix (the gate is compulsory), and a promotion without
    /// suffix where the variant has exactly one piece that is always available (Great
    /// Shatranj's Soldier, Shatar's Berse).
    pub fn parse_move(&mut self, text: &str) -> Result<Move, MoveError> {
        match self.parse_coordinates(text) {
            Ok(m) => Ok(m),
            Err(MoveError::Unparsable(_)) if self.looks_like_san(text) => self.parse_san(text),
            Err(e) => Err(e),
        }
    }

    /// Finds the legal move written `text` in coordinates (see [`Position::parse_move`]).
    pub fn parse_coordinates(&mut self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        if text.is_empty() || text.len() > 8 || !text.is_ascii() {
            return Err(MoveError::Unparsable(text.to_string()));
        }
        let normalized = match text.find('@') {
            Some(1) => {
                let mut s = text[..1].to_ascii_uppercase();
                s += &text[1..];
                s
            }
            _ => text.to_string(),
        };
        if !self.looks_like_move(&normalized) {
            return Err(MoveError::Unparsable(text.to_string()));
        }
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        let mut suffix_free = None;
        let mut count_suffix_free = 0;
        for &m in list.as_slice() {
            let t = self.move_text(m);
            if t == normalized {
                return Ok(m);
            }
            let plain = format!(
                "{}{}",
                self.rules.geo.name(m.from()),
                self.rules.geo.name(m.to())
            );
            if plain == normalized {
                let accept = match m.kind() {
                    MoveKind::Gate => true,
                    MoveKind::Promotion => {
                        self.rules.promo_always.len() == 1
                            && self.rules.promo_always[0] == m.piece()
                    }
                    _ => false,
                };
                if accept {
                    suffix_free = Some(m);
                    count_suffix_free += 1;
                }
            }
        }
        match (suffix_free, count_suffix_free) {
            (Some(m), 1) => Ok(m),
            _ => Err(MoveError::Illegal(text.to_string())),
        }
    }

    /// True when `text` has the shape of a move on this board (squares on the board,
    /// a known piece letter), whether or not it is legal.
    fn looks_like_move(&self, text: &str) -> bool {
        let g = self.rules.geo;
        if let Some((piece, square)) = text.split_once('@') {
            let mut chars = piece.chars();
            return matches!((chars.next(), chars.next()), (Some(c), None) if self.rules.type_of_letter(c).is_some())
                && g.parse_square(square).is_some();
        }
        // from-square, to-square, optional suffix letter
        let bytes = text.as_bytes();
        let split_square = |s: &str| -> Option<(usize, usize)> {
            // returns (square, length consumed)
            for len in [3, 2] {
                if s.len() >= len && s.is_char_boundary(len) {
                    if let Some(sq) = g.parse_square(&s[..len]) {
                        return Some((sq, len));
                    }
                }
            }
            None
        };
        let Some((_, a)) = split_square(text) else {
            return false;
        };
        let Some((_, b)) = split_square(&text[a..]) else {
            return false;
        };
        let rest = &bytes[a + b..];
        match rest {
            [] => true,
            [c] => self.rules.type_of_letter(*c as char).is_some(),
            _ => false,
        }
    }
}
