//! FEN reading and writing. A FEN here is the board (holdings in brackets after it, for
//! the games with hands), the side to move, castling or king's-leap rights, the
//! en-passant square and the two counters; the last two fields are optional. Reading
//! checks the text in named steps and reports the first fault as a [`FenError`].

use std::fmt;

use crate::rules::compile::{BoardWidth, Rules, MAX_TYPES};
use crate::rules::fen_text::{board_cells, rank_items, RankItem};
use crate::rules::geometry::{MAX_SQUARES, NO_SQUARE};
use crate::rules::moves::Move;
use crate::rules::position::{
    piece_code, piece_color, piece_type, Color, Piece, Position, State, NO_PIECE,
};
use crate::rules::zobrist::ZOBRIST;

/// Why a FEN was rejected. `Display` gives the one-line message the CLI and the
/// protocols print. Ranks are numbered from 1 (the bottom rank).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text has no fields at all.
    Empty,
    /// The holdings bracket `[` is not closed.
    UnclosedHoldings,
    /// Text follows the holdings' closing `]` in the first field.
    TextAfterHoldings,
    /// The board field has the wrong number of ranks.
    RankCount {
        /// Ranks of the board.
        expected: usize,
        /// Ranks in the FEN.
        found: usize,
    },
    /// A rank has a `0` empty-square count.
    ZeroEmptyCount {
        /// The rank.
        rank: usize,
    },
    /// A board character that names none of the variant's pieces.
    UnknownPiece(char),
    /// A rank runs past the board's last file.
    RankTooLong {
        /// The rank.
        rank: usize,
    },
    /// A rank has fewer squares than the board has files.
    RankTooShort {
        /// The rank.
        rank: usize,
        /// Squares the FEN gives it.
        squares: usize,
        /// Files of the board.
        files: usize,
    },
    /// A board character that is neither a digit, a letter nor `~`
    /// (from [`fen_board_cells`], which does not know the variant).
    UnexpectedChar(char),
    /// A holdings character that names none of the variant's pieces.
    UnknownHoldingsPiece(char),
    /// A piece that cannot be in hand in this variant.
    NotHoldable {
        /// The piece letter as written.
        letter: char,
        /// The variant's name.
        variant: &'static str,
    },
    /// A pawn in hand in a game whose hand is dropped on the board.
    PawnInHand,
    /// Thirty or more of one piece in hand.
    HandOverflow,
    /// A side has more pieces (board and hand) than two full ranks and two more.
    TooManyPieces {
        /// The side.
        color: Color,
        /// Its pieces.
        count: usize,
    },
    /// A side has no king, or more than one (board and hand).
    KingCount {
        /// The side.
        color: Color,
        /// Its kings.
        count: usize,
    },
    /// A pawn stands on the rank where it would have had to promote.
    PawnOnPromotionRank,
    /// A pawn on a square no pawn of its side can get to (its own back rank).
    PawnOutOfReach {
        /// The square, in the engine's notation.
        square: String,
    },
    /// An en-passant square no double step of the side not to move just passed over.
    ImpossibleEnPassant(String),
    /// The side-to-move field is not `w` or `b`.
    BadSide(String),
    /// A castling letter that names no right of this variant.
    BadCastling(char),
    /// The en-passant field is not a square of the board.
    BadEnPassant(String),
    /// The halfmove clock is not a number.
    BadHalfmove(String),
    /// The fullmove number is not a number.
    BadFullmove(String),
    /// More than six fields.
    TooManyFields,
    /// The side that is not to move is in check.
    OpponentInCheck,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::UnclosedHoldings => write!(f, "holdings bracket '[' is not closed"),
            FenError::TextAfterHoldings => write!(f, "text after the holdings bracket"),
            FenError::RankCount { expected, found } => {
                write!(f, "the board needs {expected} ranks, the FEN has {found}")
            }
            FenError::ZeroEmptyCount { rank } => {
                write!(f, "bad empty-square count in rank {rank}")
            }
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            FenError::RankTooLong { rank } => write!(f, "rank {rank} is too long"),
            FenError::RankTooShort {
                rank,
                squares,
                files,
            } => write!(
                f,
                "rank {rank} has {squares} squares, the board has {files} files"
            ),
            FenError::UnexpectedChar(c) => write!(f, "unexpected '{c}'"),
            FenError::UnknownHoldingsPiece(c) => {
                write!(f, "unknown piece letter '{c}' in holdings")
            }
            FenError::NotHoldable { letter, variant } => {
                write!(f, "a {letter} cannot be in hand in {variant}")
            }
            FenError::PawnInHand => write!(f, "pawns cannot be in hand"),
            FenError::HandOverflow => write!(f, "too many pieces in hand"),
            FenError::TooManyPieces { color, count } => {
                write!(f, "{} has too many pieces ({count})", color.name())
            }
            FenError::KingCount { color, count } => write!(
                f,
                "{} must have exactly one king (has {count})",
                color.name()
            ),
            FenError::PawnOnPromotionRank => write!(f, "a pawn stands on its promotion rank"),
            FenError::PawnOutOfReach { square } => {
                write!(f, "a pawn on {square}, where no pawn of its side can get")
            }
            FenError::ImpossibleEnPassant(s) => write!(
                f,
                "impossible en-passant square '{s}' (no pawn of the side not to move just passed over it)"
            ),
            FenError::BadSide(s) => write!(f, "side to move must be w or b, not '{s}'"),
            FenError::BadCastling(c) => write!(f, "bad castling letter '{c}'"),
            FenError::BadEnPassant(s) => write!(f, "bad en-passant square '{s}'"),
            FenError::BadHalfmove(s) => write!(f, "bad halfmove clock '{s}'"),
            FenError::BadFullmove(s) => write!(f, "bad fullmove number '{s}'"),
            FenError::TooManyFields => write!(f, "too many FEN fields"),
            FenError::OpponentInCheck => write!(f, "the side not to move is in check"),
        }
    }
}

impl std::error::Error for FenError {}

/// The message text, for callers whose errors are still strings (so `?` works there).
impl From<FenError> for String {
    fn from(e: FenError) -> String {
        e.to_string()
    }
}

// ----- the board field ---------------------------------------------------------------

/// The cells of a FEN board field (holdings already cut off), top rank first: the piece
/// letter or `None` for an empty square. Checks only the text (digits and letters, `~`
/// promotion markers skipped), not the variant's pieces or board size.
pub fn fen_board_cells(board: &str) -> Result<Vec<Vec<Option<char>>>, FenError> {
    board_cells(board).map_err(FenError::UnexpectedChar)
}

/// Splits the first FEN field into the board and the holdings (the text inside `[...]`).
fn split_holdings(field: &str) -> Result<(&str, Option<&str>), FenError> {
    match field.find('[') {
        Some(i) => {
            let rest = &field[i + 1..];
            let end = rest.find(']').ok_or(FenError::UnclosedHoldings)?;
            if end + 1 != rest.len() {
                return Err(FenError::TextAfterHoldings);
            }
            Ok((&field[..i], Some(&rest[..end])))
        }
        None => Ok((field, None)),
    }
}

/// The colour a FEN letter stands for: uppercase White, anything else Black.
fn letter_color(c: char) -> Color {
    if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

/// Reads the side-to-move field.
fn parse_side(field: &str) -> Result<Color, FenError> {
    match field {
        "w" | "W" => Ok(Color::White),
        "b" | "B" => Ok(Color::Black),
        other => Err(FenError::BadSide(other.to_string())),
    }
}

/// Reads the halfmove clock (0 when absent) and the fullmove number (at least 1).
fn parse_counters(halfmove: Option<&str>, fullmove: Option<&str>) -> Result<(u32, u32), FenError> {
    let halfmove = match halfmove {
        Some(h) => h
            .parse()
            .map_err(|_| FenError::BadHalfmove(h.to_string()))?,
        None => 0,
    };
    let fullmove = match fullmove {
        Some(f) => f
            .parse::<u32>()
            .map_err(|_| FenError::BadFullmove(f.to_string()))?
            .max(1),
        None => 1,
    };
    Ok((halfmove, fullmove))
}

impl<B: BoardWidth> Position<B> {
    /// Reads a FEN (holdings in brackets after the board; the last two fields optional).
    pub fn from_fen(rules: &'static Rules<B>, fen: &str) -> Result<Self, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let field = |i: usize, absent: &'static str| fields.get(i).copied().unwrap_or(absent);
        let Some(&placement) = fields.first() else {
            return Err(FenError::Empty);
        };
        let mut pos = Position::empty(rules);
        let (board, holdings) = split_holdings(placement)?;
        pos.place_board(board)?;
        if let Some(h) = holdings {
            pos.place_holdings(h)?;
        }
        pos.check_material()?;
        pos.set_side_to_move(parse_side(field(1, "w"))?);
        pos.read_castling(field(2, "-"))?;
        pos.read_en_passant(field(3, "-"))?;
        let (halfmove, fullmove) = parse_counters(fields.get(4).copied(), fields.get(5).copied())?;
        pos.st.halfmove = halfmove;
        pos.start_fullmove = fullmove;
        if fields.len() > 6 {
            return Err(FenError::TooManyFields);
        }
        pos.finish_setup()?;
        Ok(pos)
    }

    /// An empty board of variant `rules`, White to move, no rights.
    fn empty(rules: &'static Rules<B>) -> Self {
        Position {
            rules,
            by_type: [B::EMPTY; MAX_TYPES],
            by_color: [B::EMPTY; 2],
            mailbox: [NO_PIECE; MAX_SQUARES],
            hand: [[0; MAX_TYPES]; 2],
            side: Color::White,
            king_sq: [NO_SQUARE; 2],
            st: State {
                key: 0,
                rights: 0,
                ep: NO_SQUARE,
                ep_in_key: false,
                halfmove: 0,
                captured: NO_PIECE,
                checkers: B::EMPTY,
                last_move: Move::NONE,
                shak: false,
                weighted: [0; 2],
            },
            history: Vec::with_capacity(256),
            weights: None,
            accumulators: None,
            start_fullmove: 1,
            start_side: Color::White,
        }
    }

    /// Puts the board field's pieces on the board. The first fault reading the ranks
    /// top down, each left to right, is the error.
    fn place_board(&mut self, board: &str) -> Result<(), FenError> {
        let geo = self.rules.geo;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != geo.ranks {
            return Err(FenError::RankCount {
                expected: geo.ranks,
                found: ranks.len(),
            });
        }
        for (i, text) in ranks.iter().enumerate() {
            let rank = geo.ranks - 1 - i;
            let mut file = 0usize;
            for item in rank_items(text) {
                match item {
                    RankItem::Empty(0) => {
                        return Err(FenError::ZeroEmptyCount { rank: rank + 1 });
                    }
                    RankItem::Empty(n) => file += n,
                    RankItem::Piece(c) => {
                        let t = self
                            .rules
                            .type_of_letter(c)
                            .ok_or(FenError::UnknownPiece(c))?;
                        if file >= geo.files {
                            return Err(FenError::RankTooLong { rank: rank + 1 });
                        }
                        self.put(letter_color(c), t, geo.square(file, rank));
                        file += 1;
                    }
                }
                if file > geo.files {
                    return Err(FenError::RankTooLong { rank: rank + 1 });
                }
            }
            if file != geo.files {
                return Err(FenError::RankTooShort {
                    rank: rank + 1,
                    squares: file,
                    files: geo.files,
                });
            }
        }
        Ok(())
    }

    /// Puts the holdings' pieces in hand (`-` is no piece; letters the variant ignores
    /// in hand are skipped).
    fn place_holdings(&mut self, text: &str) -> Result<(), FenError> {
        let rules = self.rules;
        for c in text.chars() {
            if c == '-' {
                continue;
            }
            let color = letter_color(c);
            if rules.def.ignored_in_hand.contains(c.to_ascii_uppercase()) {
                continue;
            }
            let t = rules
                .type_of_letter(c)
                .ok_or(FenError::UnknownHoldingsPiece(c))?;
            let allowed = rules.drop_zone[color].any()
                || Some(t) == rules.gate
                || (rules.def.captures_to_pool && rules.pool_types[t]);
            if !allowed {
                return Err(FenError::NotHoldable {
                    letter: c,
                    variant: rules.def.name,
                });
            }
            if Some(t) == rules.pawn && rules.drop_zone[color].any() {
                return Err(FenError::PawnInHand);
            }
            let n = self.hand[color][t];
            if n >= 30 {
                return Err(FenError::HandOverflow);
            }
            self.set_hand(color, t, n + 1);
        }
        Ok(())
    }

    /// Each side has at most two full ranks and two more pieces, and one king (on the
    /// board or in hand); no pawn stands where it would have had to promote.
    fn check_material(&self) -> Result<(), FenError> {
        let rules = self.rules;
        for color in Color::iter() {
            let count = self.by_color[color].count() as usize
                + self.hand[color].iter().map(|&n| n as usize).sum::<usize>();
            if count > 2 * rules.geo.files + 2 {
                return Err(FenError::TooManyPieces { color, count });
            }
            let kings = self.pieces(color, rules.king).count() as usize
                + self.hand[color][rules.king] as usize;
            if kings != 1 {
                return Err(FenError::KingCount {
                    color,
                    count: kings,
                });
            }
        }
        if let Some(p) = rules.pawn {
            for color in Color::iter() {
                if (self.pieces(color, p) & rules.promotion_zone[color]).any() {
                    return Err(FenError::PawnOnPromotionRank);
                }
                let stray = self.pieces(color, p) & !rules.pawn_squares[color];
                if stray.any() {
                    return Err(FenError::PawnOutOfReach {
                        square: rules.geo.name(stray.lsb()),
                    });
                }
            }
        }
        Ok(())
    }

    /// Sets the side to move (and its key) while setting up.
    fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
        if side == Color::Black {
            self.st.key ^= ZOBRIST.side;
        }
    }

    /// Reads the castling (or king's leap) field: a right is kept only while its king
    /// and partner stand at home. Variants that ignore the field get no rights.
    fn read_castling(&mut self, field: &str) -> Result<(), FenError> {
        let mut rights = 0u8;
        if field != "-" && !self.rules.def.ignore_castling_field {
            for c in field.chars() {
                rights |= self.castling_right(c)?;
            }
        }
        self.st.rights = rights;
        self.st.key ^= ZOBRIST.rights[rights as usize];
        Ok(())
    }

    /// The rights bit the castling letter `c` keeps (none when its pieces left home):
    /// `K`, `Q` or a partner's file letter, the side by case; the file letter of the
    /// side's castling king (XBoard's `KQEkqe`) is read and keeps nothing by itself. For
    /// the king's leap any of these keeps the side's one leap right.
    fn castling_right(&self, c: char) -> Result<u8, FenError> {
        let rules = self.rules;
        let geo = rules.geo;
        let color = letter_color(c);
        let up = c.to_ascii_uppercase();
        if let Some(kl) = &rules.king_leap {
            let file_letter = (0..geo.files).any(|f| geo.file_char(f).to_ascii_uppercase() == up);
            if !(up == 'K' || up == 'Q' || file_letter) {
                return Err(FenError::BadCastling(c));
            }
            return Ok(if self.king_sq[color] == kl[color].from {
                1 << color.index()
            } else {
                0
            });
        }
        let file_is = |sq| geo.file_char(geo.file(sq)).to_ascii_uppercase() == up;
        let Some(cr) = rules.castling.iter().find(|cr| {
            cr.color == color && (cr.flag.to_ascii_uppercase() == up || file_is(cr.partner_from))
        }) else {
            // XBoard's mark of an unmoved king (`KQEkqe`): its home file, no right itself.
            let king_file = rules
                .castling
                .iter()
                .any(|cr| cr.color == color && file_is(cr.king_from));
            return if king_file {
                Ok(0)
            } else {
                Err(FenError::BadCastling(c))
            };
        };
        let at_home = self.mailbox[cr.king_from] == piece_code(color, rules.king)
            && self.mailbox[cr.partner_from] == piece_code(color, cr.partner_type);
        Ok(if at_home { cr.bit } else { 0 })
    }

    /// Reads the en-passant field. The square must be on the board; it is kept only
    /// behind an enemy pawn that just double-stepped, where a pawn could take.
    fn read_en_passant(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let rules = self.rules;
        let geo = rules.geo;
        let sq = geo
            .parse_square(field)
            .ok_or_else(|| FenError::BadEnPassant(field.to_string()))?;
        let Some(p) = rules.pawn.filter(|_| rules.def.en_passant) else {
            return Ok(());
        };
        let pusher = self.side.flip();
        let (pawn_sq, from) = if pusher == Color::White {
            (sq.checked_add(geo.files), sq.checked_sub(geo.files))
        } else {
            (sq.checked_sub(geo.files), sq.checked_add(geo.files))
        };
        // A pawn of the side not to move stands one square past `sq`, having come from
        // one square before it by an initial move; both squares it left are empty.
        let pushed = match (pawn_sq.filter(|&s| s < geo.squares()), from) {
            (Some(to), Some(from)) => {
                self.mailbox[to] == piece_code(pusher, p)
                    && self.mailbox[sq] == NO_PIECE
                    && self.mailbox[from] == NO_PIECE
                    && rules
                        .initial_moves(pusher, p, from)
                        .iter()
                        .any(|m| m.to == to)
            }
            _ => false,
        };
        if !pushed {
            return Err(FenError::ImpossibleEnPassant(field.to_string()));
        }
        if self.ep_capturers(self.side, sq).any() {
            self.st.ep = sq;
            if (self.ep_capturers(self.side, sq) & self.pieces(self.side, p)).any() {
                self.st.ep_in_key = true;
                self.st.key ^= ZOBRIST.ep[sq];
            }
        }
        Ok(())
    }

    /// The last checks once every field is read: the side not to move must not be in
    /// check; then the checks the side to move faces, and the en-passant key.
    fn finish_setup(&mut self) -> Result<(), FenError> {
        self.start_side = self.side;
        if self.mover_in_check() {
            return Err(FenError::OpponentInCheck);
        }
        self.st.checkers = self.compute_checkers();
        self.st.shak = self.checkers_include_shak();
        if self.st.ep_in_key {
            self.forget_unplayable_en_passant();
        }
        Ok(())
    }

    // ----- writing -------------------------------------------------------------------

    /// Writes the position as FEN.
    pub fn fen(&self) -> String {
        let r = self.rules;
        let geo = r.geo;
        let mut s = String::new();
        for rank in (0..geo.ranks).rev() {
            let mut empty = 0;
            for file in 0..geo.files {
                let p = self.mailbox[geo.square(file, rank)];
                if p == NO_PIECE {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(self.letter(p));
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let has_hands =
            r.drop_zone[Color::White].any() || r.gate.is_some() || r.def.captures_to_pool;
        if has_hands {
            let mut h = String::new();
            for c in Color::iter() {
                for t in (0..r.types).rev() {
                    for _ in 0..self.hand[c][t] {
                        h.push(self.letter(piece_code(c, t)));
                    }
                }
            }
            if !h.is_empty() || !r.def.captures_to_pool {
                s += &format!("[{h}]");
            }
        }
        s += if self.side == Color::White {
            " w "
        } else {
            " b "
        };
        let mut rights = String::new();
        if r.king_leap.is_some() {
            if self.st.rights & 1 != 0 {
                rights += "KQ";
            }
            if self.st.rights & 2 != 0 {
                rights += "kq";
            }
        } else {
            for c in &r.castling {
                if self.st.rights & c.bit != 0 {
                    rights.push(c.flag);
                }
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        s += &rights;
        s.push(' ');
        if self.st.ep == NO_SQUARE {
            s.push('-');
        } else {
            s += &geo.name(self.st.ep);
        }
        let fullmove =
            self.start_fullmove as usize + (self.history.len() + self.start_side.index()) / 2;
        s += &format!(" {} {}", self.st.halfmove, fullmove);
        s
    }

    /// The FEN letter of a piece code.
    pub fn letter(&self, p: Piece) -> char {
        let c = self.rules.letters[piece_type(p)];
        if piece_color(p) == Color::White {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{fen_board_cells, rank_items, Color, FenError, RankItem};

    #[test]
    fn fen_board_cells_expand_counts_and_skip_markers() {
        let rows = fen_board_cells("r1k~7/10/3P").expect("valid board text");
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0][..3], [Some('r'), None, Some('k')]);
        assert_eq!(rows[0].len(), 10);
        assert_eq!(rows[1], vec![None; 10]);
        assert_eq!(rows[2], vec![None, None, None, Some('P')]);
        assert!(fen_board_cells("rn?q").is_err());
    }

    #[test]
    fn rank_items_read_at_most_two_digits() {
        let items: Vec<RankItem> = rank_items("100k~").collect();
        assert_eq!(
            items,
            [
                RankItem::Empty(10),
                RankItem::Empty(0),
                RankItem::Piece('k')
            ]
        );
    }

    #[test]
    fn errors_keep_their_messages() {
        assert_eq!(
            FenError::RankTooShort {
                rank: 3,
                squares: 7,
                files: 8
            }
            .to_string(),
            "rank 3 has 7 squares, the board has 8 files"
        );
        assert_eq!(
            FenError::KingCount {
                color: Color::Black,
                count: 0
            }
            .to_string(),
            "Black must have exactly one king (has 0)"
        );
        assert_eq!(FenError::UnexpectedChar('?').to_string(), "unexpected '?'");
    }
}
