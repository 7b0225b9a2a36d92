//! Standard algebraic notation (SAN) for every game: writing ([`Position::san`]) and
//! reading ([`Position::parse_san`]; [`Position::parse_move`] falls back to it).
//!
//! The forms, with the piece letters of the variant's data (none for the pawn):
//!
//! - a piece move `Nf3`, a capture `Nxf3`, disambiguated the standard and XBoard way,
//!   by the origin file if that is enough, else by its rank, else by both (`Ngf3`,
//!   `N1f3`, `Ng1f3`);
//! - a pawn move `e4`; a pawn move that changes file, or captures, names the origin
//!   file (`exd5`, and Chesquerque's straight capture `exe5`);
//! - promotion `e8=Q` (also to a piece from a pool), a gating move (the Hia's
//!   placement) `Kf2/H`, a drop `N@e4`;
//! - castling `O-O` / `O-O-O`: `O-O` is the castling whose partner stands nearer the
//!   king (the short one), as XBoard writes wild castling; with both partners equally
//!   far, `O-O` is the one towards the h-side (Chesquerque);
//! - `+` for check, `#` when the side to move then has no legal move and the variant's
//!   no-move rule gives the game to the mover (so Historia's stalemate is `#`, and
//!   Shatar's Niol and knight mate are only `+`).
//!
//! Reading accepts the common variations: `+`, `#`, `!`, `?` suffixes or none, `x` (or
//! `:` and `-`) optional, `0-0` for `O-O`, promotion with or without `=`, lowercase
//! drop and promotion letters, an unsuffixed compulsory gate or a promotion to the one
//! always available piece (as the coordinate reader does).

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::geometry::Square;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::position::notation::MoveError;
use crate::rules::position::outcome::GameResult;
use crate::rules::position::{piece_type, Position, NO_PIECE};

/// The longest SAN text read (before the annotation suffixes are stripped).
const MAX_SAN_LEN: usize = 16;

/// What a SAN text says about a move: the parts the legal moves are matched against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SanSpec {
    /// `O-O` (false) or `O-O-O` (true).
    Castle { long: bool },
    /// `N@e4`.
    Drop { piece: PieceType, to: Square },
    /// A board move: the moving type (`None` for the pawn), origin file and rank if
    /// given, the target, and a promotion or gating letter's type if given.
    Move {
        piece: Option<PieceType>,
        file: Option<usize>,
        rank: Option<usize>,
        to: Square,
        suffix: Option<PieceType>,
    },
}

impl<B: BoardWidth> Position<B> {
    /// The SAN of the legal move `m` in this position, with its `+` or `#`.
    pub fn san(&mut self, m: Move) -> String {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        let mut text = self.san_body(m, list.as_slice());
        text.push_str(self.check_suffix(m));
        text
    }

    /// Reads a SAN text (see the module doc for the variations accepted). An
    /// unreadable text is [`MoveError::Unparsable`], one that fits no legal move
    /// [`MoveError::Illegal`], one that fits several [`MoveError::Ambiguous`].
    pub fn parse_san(&mut self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let spec = self
            .san_spec(text)
            .ok_or_else(|| MoveError::Unparsable(text.to_string()))?;
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        let legal = list.as_slice();
        let mut found: Vec<Move> = self.san_matches(spec, legal).take(2).collect();
        if let (SanSpec::Castle { long }, true) = (spec, found.is_empty()) {
            found = self.castle_word_fallback(long, legal);
        }
        let mut found = found.into_iter();
        match (found.next(), found.next()) {
            (Some(m), None) => Ok(m),
            (None, _) => Err(MoveError::Illegal(text.to_string())),
            (Some(_), Some(_)) => Err(MoveError::Ambiguous(text.to_string())),
        }
    }

    /// What a castling word reads as when its own castling is not legal: in a game that
    /// writes castling as the king's move (`SanStyle::castle_as_king_move`; XBoard writes
    /// Chesquerque's castlings both `O-O`), the side's legal castlings; in a game with a
    /// king's leap, the king's legal two-file sideways moves, `O-O` towards the h-side and
    /// `O-O-O` towards the a-side (XBoard writes King's Leap's `Kg8` as `O-O`); else none. The caller takes one only
    /// when it is the only one.
    fn castle_word_fallback(&self, long: bool, legal: &[Move]) -> Vec<Move> {
        let r = self.rules;
        if r.def.san.castle_as_king_move {
            return legal
                .iter()
                .copied()
                .filter(|m| m.kind() == MoveKind::Castle)
                .collect();
        }
        if r.king_leap.is_none() {
            return Vec::new();
        }
        // As XBoard reads the words from the e-file: `O-O` to the h-side, `O-O-O` to the a-side.
        let g = r.geo;
        let side = self.side();
        let towards = |from: Square, to: Square| (g.file(to) > g.file(from)) != long;
        let king = self.king_sq[side];
        legal
            .iter()
            .copied()
            .filter(|m| {
                m.kind() != MoveKind::Castle
                    && m.from() == king
                    && g.rank(m.to()) == g.rank(king)
                    && g.file(m.to()).abs_diff(g.file(king)) == 2
                    && towards(king, m.to())
            })
            .collect()
    }

    /// True when `text` has the shape of SAN on this board, legal or not.
    pub(super) fn looks_like_san(&self, text: &str) -> bool {
        self.san_spec(text.trim()).is_some()
    }

    /// `+`, `#` or nothing for the legal move `m`.
    fn check_suffix(&mut self, m: Move) -> &'static str {
        let mover = self.side();
        self.make(m);
        let suffix = if !self.has_legal_move()
            && self.no_move_ending().result == GameResult::win_for(mover)
        {
            "#"
        } else if self.in_check() {
            "+"
        } else {
            ""
        };
        self.unmake(m);
        suffix
    }

    /// The SAN of `m` without the check suffix: the shortest form that fits no other
    /// legal move of `legal`.
    fn san_body(&self, m: Move, legal: &[Move]) -> String {
        let r = self.rules;
        match m.kind() {
            MoveKind::Castle if r.def.san.castle_as_king_move => {
                return self.spec_text(self.full_spec(m, None), m)
            }
            MoveKind::Castle => return castle_text(self.castle_is_long(m.piece())).to_string(),
            MoveKind::Drop => return format!("{}@{}", r.letters[m.piece()], r.geo.name(m.to())),
            _ => {}
        }
        let forms = self.san_forms(m);
        let unique = forms.iter().find(|&&spec| {
            let mut it = self.san_matches(spec, legal);
            it.next() == Some(m) && it.next().is_none()
        });
        // The last form names both origin coordinates: always unique among legal moves.
        let spec = unique.or(forms.last()).copied();
        spec.map(|s| self.spec_text(s, m)).unwrap_or_default()
    }

    /// The SAN specs that could write board move `m`, shortest first.
    fn san_forms(&self, m: Move) -> Vec<SanSpec> {
        let g = self.rules.geo;
        let (from, to) = (m.from(), m.to());
        let t = piece_type(self.piece_on(from));
        let pawn = self.rules.pawn == Some(t);
        let suffix = matches!(m.kind(), MoveKind::Promotion | MoveKind::Gate).then(|| m.piece());
        let spec = |file: bool, rank: bool| SanSpec::Move {
            piece: (!pawn).then_some(t),
            file: file.then(|| g.file(from)),
            rank: rank.then(|| g.rank(from)),
            to,
            suffix,
        };
        if self.rules.def.san.piece_origin && !pawn {
            return vec![spec(true, true)];
        }
        if pawn {
            let plain = g.file(from) == g.file(to) && !self.is_capture(m);
            let mut forms = vec![spec(true, false), spec(true, true)];
            if plain {
                forms.insert(0, spec(false, false));
            }
            forms
        } else {
            vec![
                spec(false, false),
                spec(true, false),
                spec(false, true),
                spec(true, true),
            ]
        }
    }

    /// The spec naming `m`'s moving piece, both origin coordinates and its target.
    fn full_spec(&self, m: Move, suffix: Option<PieceType>) -> SanSpec {
        let g = self.rules.geo;
        SanSpec::Move {
            piece: Some(piece_type(self.piece_on(m.from()))),
            file: Some(g.file(m.from())),
            rank: Some(g.rank(m.from())),
            to: m.to(),
            suffix,
        }
    }

    /// The text of a board-move spec written for `m` (whose capture it shows).
    fn spec_text(&self, spec: SanSpec, m: Move) -> String {
        let r = self.rules;
        let SanSpec::Move {
            piece,
            file,
            rank,
            to,
            suffix,
        } = spec
        else {
            return String::new();
        };
        let mut s = String::new();
        if let Some(t) = piece {
            s.push(r.letters[t]);
        }
        if let Some(f) = file {
            s.push(r.geo.file_char(f));
        }
        if let Some(rk) = rank {
            s.push_str(&(rk + 1).to_string());
        }
        if self.is_capture(m) {
            s.push('x');
        }
        s.push_str(&r.geo.name(to));
        if let Some(t) = suffix {
            s.push(if m.kind() == MoveKind::Gate { '/' } else { '=' });
            s.push(r.letters[t]);
        }
        s
    }

    /// True when `m` takes a piece (en passant included).
    fn is_capture(&self, m: Move) -> bool {
        match m.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Drop | MoveKind::Castle => false,
            _ => self.piece_on(m.to()) != NO_PIECE,
        }
    }

    /// True when castling `idx` is the long one (`O-O-O`): its partner stands farther
    /// from the king than the partner of the side's other castling; with both as far,
    /// the one towards the a-file. A side's only castling is long towards the a-file.
    fn castle_is_long(&self, idx: usize) -> bool {
        let r = self.rules;
        let Some(c) = r.castling.get(idx) else {
            return false;
        };
        let g = r.geo;
        let reach = |king: Square, partner: Square| g.file(king).abs_diff(g.file(partner));
        let towards_a = g.file(c.partner_from) < g.file(c.king_from);
        let other = r
            .castling
            .iter()
            .enumerate()
            .find(|&(i, o)| i != idx && o.color == c.color);
        match other {
            Some((_, o)) => {
                let (mine, theirs) = (
                    reach(c.king_from, c.partner_from),
                    reach(o.king_from, o.partner_from),
                );
                if mine == theirs {
                    towards_a
                } else {
                    mine > theirs
                }
            }
            None => towards_a,
        }
    }

    /// The legal moves of `legal` that `spec` fits.
    fn san_matches<'a>(
        &'a self,
        spec: SanSpec,
        legal: &'a [Move],
    ) -> impl Iterator<Item = Move> + 'a {
        legal.iter().copied().filter(move |&m| self.fits(spec, m))
    }

    /// True when the legal move `m` fits `spec`.
    fn fits(&self, spec: SanSpec, m: Move) -> bool {
        let g = self.rules.geo;
        match spec {
            SanSpec::Castle { long } => {
                m.kind() == MoveKind::Castle && self.castle_is_long(m.piece()) == long
            }
            SanSpec::Drop { piece, to } => {
                m.kind() == MoveKind::Drop && m.piece() == piece && m.to() == to
            }
            SanSpec::Move {
                piece,
                file,
                rank,
                to,
                suffix,
            } => {
                // Castling is a king's move where the game writes it so.
                let castle_ok = self.rules.def.san.castle_as_king_move;
                if m.kind() == MoveKind::Drop
                    || (m.kind() == MoveKind::Castle && !castle_ok)
                    || m.to() != to
                {
                    return false;
                }
                let from = m.from();
                let moving = piece_type(self.piece_on(from));
                let type_ok = match piece {
                    Some(t) => t == moving,
                    None => self.rules.pawn == Some(moving),
                };
                // A pawn move without an origin file stays on its file.
                let file_ok = match (file, piece) {
                    (Some(f), _) => g.file(from) == f,
                    (None, None) => g.file(from) == g.file(to),
                    (None, Some(_)) => true,
                };
                let rank_ok = rank.is_none_or(|rk| g.rank(from) == rk);
                type_ok && file_ok && rank_ok && self.suffix_fits(suffix, m)
            }
        }
    }

    /// True when a promotion or gating letter (or its absence) fits `m`. Without a
    /// letter a gate fits (it is compulsory), and so does a promotion to the variant's
    /// one always available piece.
    fn suffix_fits(&self, suffix: Option<PieceType>, m: Move) -> bool {
        let suffixed = matches!(m.kind(), MoveKind::Promotion | MoveKind::Gate);
        match suffix {
            Some(t) => suffixed && m.piece() == t,
            None => match m.kind() {
                MoveKind::Gate => true,
                MoveKind::Promotion => self.rules.promo_always == [m.piece()],
                _ => true,
            },
        }
    }

    /// Reads the shape of a SAN text; `None` when it is not SAN on this board.
    fn san_spec(&self, text: &str) -> Option<SanSpec> {
        if text.is_empty() || text.len() > MAX_SAN_LEN || !text.is_ascii() {
            return None;
        }
        let core = text.trim_end_matches(['+', '#', '!', '?']);
        let core = core.strip_suffix("e.p.").unwrap_or(core).trim_end();
        if let Some(long) = castle_spec(core) {
            return Some(SanSpec::Castle { long });
        }
        if let Some((piece, square)) = core.split_once('@') {
            let mut chars = piece.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return None;
            };
            return Some(SanSpec::Drop {
                piece: self.rules.type_of_letter(c)?,
                to: self.rules.geo.parse_square(square)?,
            });
        }
        self.board_move_spec(core)
    }

    /// Reads `[piece][file][rank][x]square[[=|/]letter]` (the suffixes gone).
    fn board_move_spec(&self, core: &str) -> Option<SanSpec> {
        let r = self.rules;
        let g = r.geo;
        let mut rest: String = core
            .chars()
            .filter(|c| !matches!(c, 'x' | ':' | '-'))
            .collect();
        // The leading piece letter (uppercase; the pawn's own letter means a pawn).
        let mut piece = None;
        if let Some(c) = rest.chars().next().filter(char::is_ascii_uppercase) {
            let t = r.type_of_letter(c)?;
            piece = (r.pawn != Some(t)).then_some(t);
            rest.remove(0);
        }
        // The trailing promotion or gating letter: a square ends with a digit.
        let mut suffix = None;
        if let Some(c) = rest.chars().last().filter(char::is_ascii_alphabetic) {
            suffix = Some(r.type_of_letter(c)?);
            rest.pop();
            if rest.ends_with(['=', '/']) {
                rest.pop();
            }
        }
        // The target square: a file letter and the rank's digits at the end.
        let digits = rest.bytes().rev().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 2 || rest.len() < digits + 1 {
            return None;
        }
        let split = rest.len() - digits - 1;
        let to = g.parse_square(&rest[split..])?;
        let (file, rank) = origin(&rest[..split], g.files, g.ranks)?;
        Some(SanSpec::Move {
            piece,
            file,
            rank,
            to,
            suffix,
        })
    }
}

/// `O-O` or `O-O-O`.
fn castle_text(long: bool) -> &'static str {
    if long {
        "O-O-O"
    } else {
        "O-O"
    }
}

/// `Some(long)` for `O-O`, `O-O-O`, `0-0`, `0-0-0` (either case of `o`).
fn castle_spec(core: &str) -> Option<bool> {
    let norm: String = core
        .chars()
        .map(|c| if c == '0' || c == 'o' { 'O' } else { c })
        .collect();
    match norm.as_str() {
        "O-O" => Some(false),
        "O-O-O" => Some(true),
        _ => None,
    }
}

/// The origin part of a board move: nothing, a file letter, a rank, or both (0-based);
/// `None` when it is something else or off the board.
fn origin(text: &str, files: usize, ranks: usize) -> Option<(Option<usize>, Option<usize>)> {
    let mut file = None;
    let mut digits = text;
    if let Some(c) = text.chars().next().filter(char::is_ascii_lowercase) {
        let f = (c as u8 - b'a') as usize;
        if f >= files {
            return None;
        }
        file = Some(f);
        digits = &text[1..];
    }
    if digits.is_empty() {
        return Some((file, None));
    }
    if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: usize = digits.parse().ok()?;
    if rank == 0 || rank > ranks {
        return None;
    }
    Some((file, Some(rank - 1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::variant_id;

    fn position(variant: &str, fen: &str) -> Position<u64> {
        let id = variant_id(variant).expect("variant");
        Position::<u64>::from_fen(u64::rules(id), fen).expect("FEN")
    }

    #[test]
    fn castling_words() {
        assert_eq!(castle_spec("O-O"), Some(false));
        assert_eq!(castle_spec("0-0-0"), Some(true));
        assert_eq!(castle_spec("o-o"), Some(false));
        assert_eq!(castle_spec("O-O-O-O"), None);
        assert_eq!(castle_spec("OO"), None);
    }

    #[test]
    fn origins() {
        assert_eq!(origin("", 8, 8), Some((None, None)));
        assert_eq!(origin("g", 8, 8), Some((Some(6), None)));
        assert_eq!(origin("1", 8, 8), Some((None, Some(0))));
        assert_eq!(origin("g1", 8, 8), Some((Some(6), Some(0))));
        assert_eq!(origin("i", 8, 8), None);
        assert_eq!(origin("j", 8, 8), None);
        assert_eq!(origin("j", 10, 8), Some((Some(9), None)));
        assert_eq!(origin("9", 8, 8), None);
        assert_eq!(origin("0", 8, 8), None);
        assert_eq!(origin("1g", 8, 8), None);
    }

    #[test]
    fn shapes() {
        let p = position("normal", "4k3/1P6/8/8/8/8/8/4K1N1 w - - 0 1");
        let spec = |t: &str| p.san_spec(t);
        let n = p.rules.type_of_letter('N');
        let q = p.rules.type_of_letter('Q');
        let sq = |s: &str| p.rules.geo.parse_square(s).expect("square");
        assert_eq!(
            spec("Ng1xf3+"),
            Some(SanSpec::Move {
                piece: n,
                file: Some(6),
                rank: Some(0),
                to: sq("f3"),
                suffix: None
            })
        );
        assert_eq!(
            spec("bxa8=Q#"),
            Some(SanSpec::Move {
                piece: None,
                file: Some(1),
                rank: None,
                to: sq("a8"),
                suffix: q
            })
        );
        assert_eq!(spec("b8q"), spec("b8=Q"));
        assert_eq!(spec("Pb8=Q"), spec("b8=Q"));
        assert_eq!(
            spec("n@f3"),
            Some(SanSpec::Drop {
                piece: n.expect("knight"),
                to: sq("f3")
            })
        );
        for bad in [
            "",
            "N",
            "Zf3",
            "Nf9",
            "b8=Z",
            "Ni3",
            "NN@f3",
            "@f3",
            "e4e4e4e4e4e4e4e4e4",
        ] {
            assert_eq!(spec(bad), None, "{bad}");
        }
    }

    #[test]
    fn short_castling_has_the_nearer_partner() {
        let p = position(
            "chancellorx",
            "q2k3c/pppppppp/8/8/8/8/PPPPPPPP/C3K2Q b KQkq - 0 1",
        );
        let geo = p.rules.geo;
        for (i, c) in p.rules.castling.iter().enumerate() {
            let towards_a = geo.file(c.king_to) < geo.file(c.king_from);
            // White castles long to the a-side; crosswise Black castles short there.
            let long = p.castle_is_long(i);
            assert_eq!(
                long,
                towards_a == (c.color == crate::rules::color::Color::White)
            );
        }
    }
}
