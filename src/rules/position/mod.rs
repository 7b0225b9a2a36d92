//! A position of one game: bitboards per piece type and colour, a mailbox, hands,
//! the side to move and a stack of per-ply state for unmaking moves and finding
//! repetitions. FEN reading and writing live here too.

mod movegen;
pub mod notation;
pub mod outcome;

use crate::rules::compile::{BoardWidth, PieceType, Rules, MAX_TYPES};
use crate::rules::geometry::{Square, MAX_SQUARES, NO_SQUARE};
use crate::rules::moves::{Move, MoveKind};
use crate::rules::zobrist::ZOBRIST;

/// White.
pub const WHITE: usize = 0;
/// Black.
pub const BLACK: usize = 1;

/// A piece code in the mailbox: `type * 2 + colour`, or [`NO_PIECE`].
pub type Piece = u8;
/// An empty mailbox square.
pub const NO_PIECE: Piece = 0xFF;

/// The cells of a FEN board field (holdings already cut off), top rank first: the piece
/// letter or `None` for an empty square. Checks only the text (digits and letters, `~`
/// promotion markers skipped), not the variant's pieces or board size.
pub fn fen_board_cells(board: &str) -> Result<Vec<Vec<Option<char>>>, String> {
    let mut rows = Vec::new();
    for row in board.split('/') {
        let mut cells = Vec::new();
        let mut digits = String::new();
        for c in row.chars().chain(std::iter::once('/')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                let n: usize = digits.parse().map_err(|_| "bad number")?;
                cells.extend(std::iter::repeat_n(None, n));
                digits.clear();
            }
            match c {
                '/' | '~' => {}
                c if c.is_ascii_alphabetic() => cells.push(Some(c)),
                c => return Err(format!("unexpected '{c}'")),
            }
        }
        rows.push(cells);
    }
    Ok(rows)
}

/// Builds a piece code.
#[inline(always)]
pub fn piece_code(color: usize, t: PieceType) -> Piece {
    (t * 2 + color) as Piece
}

/// The type of a piece code.
#[inline(always)]
pub fn piece_type(p: Piece) -> PieceType {
    (p >> 1) as PieceType
}

/// The colour of a piece code.
#[inline(always)]
pub fn piece_color(p: Piece) -> usize {
    (p & 1) as usize
}

/// What changes irreversibly with each ply; kept on a stack for unmake.
#[derive(Clone, Copy, Debug)]
pub struct State<B> {
    /// Zobrist key of the position.
    pub key: u64,
    /// Castling (or king's leap) rights bits.
    pub rights: u8,
    /// En-passant target square, or [`NO_SQUARE`].
    pub ep: Square,
    /// Whether `ep` is part of the key (an enemy pawn can take there).
    pub ep_in_key: bool,
    /// Plies since the last capture, pawn move or drop.
    pub halfmove: u32,
    /// The piece captured by the move that led here.
    pub captured: Piece,
    /// Enemy pieces giving check to the side to move.
    pub checkers: B,
    /// The move that led here ([`Move::NONE`] at the root).
    pub last_move: Move,
    /// Shatar: the check standing here is a shak (some checker is a Berse, rook or knight).
    pub shak: bool,
}

/// A position of variant `rules`, for bitboard width `B`.
#[derive(Clone)]
pub struct Position<B: BoardWidth> {
    /// The compiled variant.
    pub rules: &'static Rules<B>,
    by_type: [B; MAX_TYPES],
    by_color: [B; 2],
    mailbox: [Piece; MAX_SQUARES],
    hand: [[u8; MAX_TYPES]; 2],
    side: usize,
    king_sq: [Square; 2],
    st: State<B>,
    history: Vec<State<B>>,
    start_fullmove: u32,
    start_side: usize,
}

/// Errors from reading a FEN.
pub type FenError = String;

impl<B: BoardWidth> Position<B> {
    // ----- accessors -------------------------------------------------------------

    /// Side to move.
    #[inline(always)]
    pub fn side(&self) -> usize {
        self.side
    }
    /// All pieces of one type, both colours.
    #[inline(always)]
    pub fn pieces_of_type(&self, t: PieceType) -> B {
        self.by_type[t]
    }
    /// All pieces of one colour.
    #[inline(always)]
    pub fn pieces_of_color(&self, c: usize) -> B {
        self.by_color[c]
    }
    /// Pieces of one colour and type.
    #[inline(always)]
    pub fn pieces(&self, c: usize, t: PieceType) -> B {
        self.by_type[t] & self.by_color[c]
    }
    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }
    /// The piece on `sq`, or [`NO_PIECE`].
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.mailbox[sq]
    }
    /// How many pieces of type `t` colour `c` holds in hand (or pool).
    #[inline(always)]
    pub fn in_hand(&self, c: usize, t: PieceType) -> u8 {
        self.hand[c][t]
    }
    /// True when colour `c` holds anything in hand.
    #[inline(always)]
    pub fn hand_is_empty(&self, c: usize) -> bool {
        self.hand[c].iter().all(|&n| n == 0)
    }
    /// The king square of `c`, or [`NO_SQUARE`] while the king is in hand.
    #[inline(always)]
    pub fn king_square(&self, c: usize) -> Square {
        self.king_sq[c]
    }
    /// Current per-ply state.
    #[inline(always)]
    pub fn state(&self) -> &State<B> {
        &self.st
    }
    /// States of earlier plies, oldest first (the last is the previous ply's).
    pub fn history(&self) -> &[State<B>] {
        &self.history
    }
    /// Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.st.key
    }
    /// Enemy pieces checking the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> B {
        self.st.checkers
    }
    /// True when the side to move is in check.
    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.st.checkers.any()
    }
    /// Plies played since the position was set up.
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    // ----- board changes -----------------------------------------------------------

    #[inline(always)]
    fn put(&mut self, c: usize, t: PieceType, sq: Square) {
        let b = B::square(sq);
        self.by_type[t] |= b;
        self.by_color[c] |= b;
        self.mailbox[sq] = piece_code(c, t);
        self.st.key ^= ZOBRIST.piece[t * 2 + c][sq];
        if t == self.rules.king {
            self.king_sq[c] = sq;
        }
    }

    #[inline(always)]
    fn remove(&mut self, c: usize, t: PieceType, sq: Square) {
        let b = B::square(sq);
        self.by_type[t] ^= b;
        self.by_color[c] ^= b;
        self.mailbox[sq] = NO_PIECE;
        self.st.key ^= ZOBRIST.piece[t * 2 + c][sq];
        if t == self.rules.king {
            self.king_sq[c] = NO_SQUARE;
        }
    }

    #[inline(always)]
    fn set_hand(&mut self, c: usize, t: PieceType, n: u8) {
        let old = self.hand[c][t];
        self.st.key ^= ZOBRIST.hand_key(c, t, old) ^ ZOBRIST.hand_key(c, t, n);
        self.hand[c][t] = n;
    }

    /// Squares from which colour `c`'s pawns could capture en passant onto `sq`.
    #[inline(always)]
    fn ep_capturers(&self, c: usize, sq: Square) -> B {
        self.rules.ep_sources(c, sq)
    }

    /// Takes the en-passant square out of the key when none of the side to move's
    /// en-passant captures is legal (a pinned pawn, a king left in check): positions
    /// differ for repetition only by captures that can really be made, as in FIDE's
    /// rule. The square itself stays (and is written in the FEN).
    fn forget_unplayable_en_passant(&mut self) {
        let Some(p) = self.rules.pawn else {
            return;
        };
        let ep = self.st.ep;
        let sources = self.ep_capturers(self.side, ep) & self.pieces(self.side, p);
        for from in sources.squares() {
            if self.is_legal(Move::new(from, ep, MoveKind::EnPassant, 0)) {
                return;
            }
        }
        self.st.ep_in_key = false;
        self.st.key ^= ZOBRIST.ep[ep];
    }

    /// Pushes the current state and starts the next ply's: side key flipped, no
    /// en-passant square, the clock one ply on. Returns the previous state.
    #[inline(always)]
    fn begin_ply(&mut self, m: Move) -> State<B> {
        let prev = self.st;
        self.history.push(prev);
        self.st.key ^= ZOBRIST.side;
        if prev.ep_in_key {
            self.st.key ^= ZOBRIST.ep[prev.ep];
        }
        self.st.ep = NO_SQUARE;
        self.st.ep_in_key = false;
        self.st.halfmove = prev.halfmove + 1;
        self.st.captured = NO_PIECE;
        self.st.last_move = m;
        prev
    }

    /// Hands the move to the other side and finds the checks it faces.
    #[inline(always)]
    fn end_ply(&mut self) {
        self.side ^= 1;
        self.st.checkers = self.compute_checkers();
        self.st.shak = self.checkers_include_shak();
    }

    /// Plays `m`, which must be legal (or at least pseudo-legal for make/test).
    pub fn make(&mut self, m: Move) {
        let r = self.rules;
        let us = self.side;
        let them = us ^ 1;
        let prev = self.begin_ply(m);
        let from = m.from();
        let to = m.to();
        match m.kind() {
            MoveKind::Drop => {
                let t = m.piece();
                let n = self.hand[us][t];
                self.set_hand(us, t, n - 1);
                self.put(us, t, to);
                self.st.halfmove = 0;
            }
            MoveKind::Castle => {
                let c = r.castling[m.piece()];
                self.remove(us, r.king, c.king_from);
                self.remove(us, c.partner_type, c.partner_from);
                self.put(us, r.king, c.king_to);
                self.put(us, c.partner_type, c.partner_to);
            }
            MoveKind::EnPassant => {
                let pawn = piece_type(self.mailbox[from]);
                let cap_sq = if us == 0 {
                    to - r.geo.files
                } else {
                    to + r.geo.files
                };
                let cap = self.mailbox[cap_sq];
                self.remove(them, piece_type(cap), cap_sq);
                self.st.captured = cap;
                self.remove(us, pawn, from);
                self.put(us, pawn, to);
                self.st.halfmove = 0;
            }
            kind => {
                let moving = self.mailbox[from];
                let t = piece_type(moving);
                let cap = self.mailbox[to];
                if cap != NO_PIECE {
                    let ct = piece_type(cap);
                    self.remove(them, ct, to);
                    self.st.captured = cap;
                    self.st.halfmove = 0;
                    if r.pool_types[ct] {
                        let n = self.hand[them][ct];
                        self.set_hand(them, ct, n.saturating_add(1));
                    }
                }
                self.remove(us, t, from);
                if Some(t) == r.pawn {
                    self.st.halfmove = 0;
                }
                match kind {
                    MoveKind::Promotion => {
                        let pt = m.piece();
                        self.put(us, pt, to);
                        if !r.promo_always.contains(&pt) {
                            let n = self.hand[us][pt];
                            self.set_hand(us, pt, n - 1);
                        }
                    }
                    MoveKind::Gate => {
                        self.put(us, t, to);
                        let g = m.piece();
                        let n = self.hand[us][g];
                        self.set_hand(us, g, n - 1);
                        self.put(us, g, from);
                    }
                    MoveKind::Initial => {
                        self.put(us, t, to);
                        if r.def.en_passant
                            && (to as isize - from as isize).unsigned_abs() == 2 * r.geo.files
                        {
                            let mid = (from + to) / 2;
                            let sources = self.ep_capturers(them, mid);
                            if sources.any() {
                                self.st.ep = mid;
                                if (sources & self.pieces(them, t)).any() {
                                    self.st.ep_in_key = true;
                                    self.st.key ^= ZOBRIST.ep[mid];
                                }
                            }
                        }
                    }
                    _ => self.put(us, t, to),
                }
            }
        }
        let mask = r.rights_mask[from] | r.rights_mask[to];
        if prev.rights & mask != 0 {
            self.st.rights = prev.rights & !mask;
            self.st.key ^=
                ZOBRIST.rights[prev.rights as usize] ^ ZOBRIST.rights[self.st.rights as usize];
        }
        self.end_ply();
        if self.st.ep_in_key {
            self.forget_unplayable_en_passant();
        }
    }

    #[inline(always)]
    fn checkers_include_shak(&self) -> bool {
        self.rules.forbidden_sole_mater.is_some()
            && self
                .st
                .checkers
                .squares()
                .any(|s| self.rules.shak_types[piece_type(self.mailbox[s])])
    }

    /// Passes the move to the other side (a null move, for the search's null-move
    /// pruning). Repetition counting does not look across it.
    pub fn make_null(&mut self) {
        self.begin_ply(Move::NONE);
        self.end_ply();
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        self.side ^= 1;
        if let Some(prev) = self.history.pop() {
            self.st = prev;
        }
    }

    /// Takes back `m`, the last move made.
    pub fn unmake(&mut self, m: Move) {
        let r = self.rules;
        let them = self.side;
        let us = them ^ 1;
        self.side = us;
        let from = m.from();
        let to = m.to();
        let captured = self.st.captured;
        match m.kind() {
            MoveKind::Drop => {
                let t = m.piece();
                self.remove(us, t, to);
                let n = self.hand[us][t];
                self.set_hand(us, t, n + 1);
            }
            MoveKind::Castle => {
                let c = r.castling[m.piece()];
                self.remove(us, r.king, c.king_to);
                self.remove(us, c.partner_type, c.partner_to);
                self.put(us, r.king, c.king_from);
                self.put(us, c.partner_type, c.partner_from);
            }
            MoveKind::EnPassant => {
                let pawn = piece_type(self.mailbox[to]);
                self.remove(us, pawn, to);
                self.put(us, pawn, from);
                let cap_sq = if us == 0 {
                    to - r.geo.files
                } else {
                    to + r.geo.files
                };
                self.put(them, piece_type(captured), cap_sq);
            }
            kind => {
                let moved = piece_type(self.mailbox[to]);
                self.remove(us, moved, to);
                let original = match kind {
                    MoveKind::Promotion => {
                        if !r.promo_always.contains(&moved) {
                            let n = self.hand[us][moved];
                            self.set_hand(us, moved, n + 1);
                        }
                        r.pawn.unwrap_or(moved)
                    }
                    MoveKind::Gate => {
                        let g = m.piece();
                        self.remove(us, g, from);
                        let n = self.hand[us][g];
                        self.set_hand(us, g, n + 1);
                        moved
                    }
                    _ => moved,
                };
                self.put(us, original, from);
                if captured != NO_PIECE {
                    let ct = piece_type(captured);
                    self.put(them, ct, to);
                    if r.pool_types[ct] {
                        let n = self.hand[them][ct];
                        self.set_hand(them, ct, n - 1);
                    }
                }
            }
        }
        // The key and everything else come back from the stack.
        if let Some(prev) = self.history.pop() {
            self.st = prev;
        }
    }

    // ----- attacks -----------------------------------------------------------------

    /// The field of colour `c`'s field pieces (the Hias): squares one king step away.
    #[inline(always)]
    pub fn field_of(&self, c: usize) -> B {
        match self.rules.field {
            None => B::EMPTY,
            Some(f) => {
                let mut z = B::EMPTY;
                for s in self.pieces(c, f).squares() {
                    z |= self.rules.neighbours[s];
                }
                z
            }
        }
    }

    /// Pieces of colour `by` that attack `sq` (as a king would be attacked: pieces that
    /// never give check are left out), with occupancy `occ`.
    pub fn attackers(&self, sq: Square, occ: B, by: usize) -> B {
        let r = self.rules;
        let theirs = self.by_color[by] & occ;
        let mut att = B::EMPTY;
        for &t in &r.leaper_types {
            if r.gives_check[t] {
                att |= r.leap_attackers(by, t, sq) & self.by_type[t];
            }
        }
        for &t in &r.lame_types {
            if !r.gives_check[t] {
                continue;
            }
            let mine = self.by_type[t] & theirs;
            if mine.is_empty() {
                continue;
            }
            for pm in r.attack_paths(by, t, sq) {
                if mine.has(pm.to) && (pm.path & occ).is_empty() {
                    att |= B::square(pm.to);
                }
            }
        }
        let field = self.field_of(by ^ 1);
        let blockers = occ | field;
        if !r.orth_riders.is_empty() {
            let mut riders = B::EMPTY;
            for &t in &r.orth_riders {
                if r.gives_check[t] {
                    riders |= self.by_type[t];
                }
            }
            riders &= theirs;
            if riders.any() {
                att |= r.slide(sq, blockers, crate::rules::geometry::ORTHOGONAL) & riders;
            }
        }
        if !r.diag_riders.is_empty() {
            let mut riders = B::EMPTY;
            for &t in &r.diag_riders {
                if r.gives_check[t] {
                    riders |= self.by_type[t];
                }
            }
            riders &= theirs;
            if riders.any() {
                att |= r.slide(sq, blockers, crate::rules::geometry::DIAGONAL) & riders;
            }
        }
        if field.any() {
            // A slider standing in the field may move one square only.
            att &= !field | r.neighbours[sq] | self.non_sliders(by);
        }
        att & theirs
    }

    /// Colour `c`'s pieces that are not unlimited sliders.
    fn non_sliders(&self, c: usize) -> B {
        let mut s = B::EMPTY;
        for t in 0..self.rules.types {
            if self.rules.rider_dirs[t] == 0 {
                s |= self.by_type[t];
            }
        }
        s & self.by_color[c]
    }

    /// True when colour `by` attacks `sq`.
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, by: usize) -> bool {
        self.attackers(sq, self.occupied(), by).any()
    }

    fn compute_checkers(&self) -> B {
        let k = self.king_sq[self.side];
        if k == NO_SQUARE {
            B::EMPTY
        } else {
            self.attackers(k, self.occupied(), self.side ^ 1)
        }
    }

    /// True when the side that just moved left its own king attacked.
    pub fn mover_in_check(&self) -> bool {
        let mover = self.side ^ 1;
        let k = self.king_sq[mover];
        k != NO_SQUARE && self.attackers(k, self.occupied(), self.side).any()
    }

    // ----- FEN ---------------------------------------------------------------------

    /// Reads a FEN (holdings in brackets after the board; the last two fields optional).
    pub fn from_fen(rules: &'static Rules<B>, fen: &str) -> Result<Self, FenError> {
        let geo = rules.geo;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err("empty FEN".into());
        }
        let mut pos = Position {
            rules,
            by_type: [B::EMPTY; MAX_TYPES],
            by_color: [B::EMPTY; 2],
            mailbox: [NO_PIECE; MAX_SQUARES],
            hand: [[0; MAX_TYPES]; 2],
            side: WHITE,
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
            },
            history: Vec::with_capacity(256),
            start_fullmove: 1,
            start_side: WHITE,
        };
        // Board and holdings.
        let (board_text, hand_text) = match fields[0].find('[') {
            Some(i) => {
                let rest = &fields[0][i + 1..];
                let end = rest.find(']').ok_or("holdings bracket '[' is not closed")?;
                if end + 1 != rest.len() {
                    return Err("text after the holdings bracket".into());
                }
                (&fields[0][..i], Some(&rest[..end]))
            }
            None => (fields[0], None),
        };
        let rows: Vec<&str> = board_text.split('/').collect();
        if rows.len() != geo.ranks {
            return Err(format!(
                "the board needs {} ranks, the FEN has {}",
                geo.ranks,
                rows.len()
            ));
        }
        let mut kings = [0; 2];
        for (i, row) in rows.iter().enumerate() {
            let rank = geo.ranks - 1 - i;
            let mut file = 0usize;
            let chars: Vec<char> = row.chars().collect();
            let mut k = 0;
            while k < chars.len() {
                let c = chars[k];
                if c.is_ascii_digit() {
                    let mut n = c.to_digit(10).unwrap_or(0) as usize;
                    if k + 1 < chars.len() && chars[k + 1].is_ascii_digit() {
                        n = n * 10 + chars[k + 1].to_digit(10).unwrap_or(0) as usize;
                        k += 1;
                    }
                    if n == 0 {
                        return Err(format!("bad empty-square count in rank {}", rank + 1));
                    }
                    file += n;
                } else if c == '~' {
                    // promoted-piece marker (crazyhouse style): no meaning here
                } else {
                    let t = rules
                        .type_of_letter(c)
                        .ok_or_else(|| format!("unknown piece letter '{c}'"))?;
                    if file >= geo.files {
                        return Err(format!("rank {} is too long", rank + 1));
                    }
                    let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                    if t == rules.king {
                        kings[color] += 1;
                    }
                    pos.put(color, t, geo.square(file, rank));
                    file += 1;
                }
                if file > geo.files {
                    return Err(format!("rank {} is too long", rank + 1));
                }
                k += 1;
            }
            if file != geo.files {
                return Err(format!(
                    "rank {} has {} squares, the board has {} files",
                    rank + 1,
                    file,
                    geo.files
                ));
            }
        }
        if let Some(h) = hand_text {
            for c in h.chars() {
                if c == '-' {
                    continue;
                }
                let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                if rules.def.ignored_in_hand.contains(c.to_ascii_uppercase()) {
                    continue;
                }
                let t = rules
                    .type_of_letter(c)
                    .ok_or_else(|| format!("unknown piece letter '{c}' in holdings"))?;
                let allowed = rules.drop_zone[color].any()
                    || Some(t) == rules.gate
                    || (rules.def.captures_to_pool && rules.pool_types[t]);
                if !allowed {
                    return Err(format!("a {} cannot be in hand in {}", c, rules.def.name));
                }
                if Some(t) == rules.pawn && rules.drop_zone[color].any() {
                    return Err("pawns cannot be in hand".into());
                }
                let n = pos.hand[color][t];
                if n >= 30 {
                    return Err("too many pieces in hand".into());
                }
                if t == rules.king {
                    kings[color] += 1;
                }
                pos.set_hand(color, t, n + 1);
            }
        }
        for (c, name) in [(WHITE, "White"), (BLACK, "Black")] {
            let total = pos.by_color[c].count() as usize
                + pos.hand[c].iter().map(|&n| n as usize).sum::<usize>();
            if total > 2 * geo.files + 2 {
                return Err(format!("{name} has too many pieces ({total})"));
            }
            if kings[c] != 1 {
                return Err(format!(
                    "{name} must have exactly one king (has {})",
                    kings[c]
                ));
            }
        }
        // Pawns may not stand where they would have to have promoted.
        if let Some(p) = rules.pawn {
            for c in 0..2 {
                let last = rules.promotion_zone[c];
                if (pos.pieces(c, p) & last).any() {
                    return Err("a pawn stands on its promotion rank".into());
                }
            }
        }
        // Side to move.
        pos.side = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => WHITE,
            "b" | "B" => BLACK,
            other => return Err(format!("side to move must be w or b, not '{other}'")),
        };
        if pos.side == BLACK {
            pos.st.key ^= ZOBRIST.side;
        }
        // Castling / king's leap rights.
        let castling = fields.get(2).copied().unwrap_or("-");
        let mut rights = 0u8;
        if castling != "-" && !rules.def.ignore_castling_field {
            for c in castling.chars() {
                let color = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                if let Some(kl) = &rules.king_leap {
                    // K, Q or a file letter of the side keeps its leap right.
                    let up = c.to_ascii_uppercase();
                    let file_letter =
                        (0..geo.files).any(|f| geo.file_char(f).to_ascii_uppercase() == up);
                    if !(up == 'K' || up == 'Q' || file_letter) {
                        return Err(format!("bad castling letter '{c}'"));
                    }
                    if pos.king_sq[color] == kl[color].from {
                        rights |= 1 << color;
                    }
                    continue;
                }
                let up = c.to_ascii_uppercase();
                let rule = rules.castling.iter().find(|cr| {
                    cr.color == color
                        && (cr.flag.to_ascii_uppercase() == up
                            || geo
                                .file_char(geo.file(cr.partner_from))
                                .to_ascii_uppercase()
                                == up)
                });
                match rule {
                    Some(cr) => {
                        // A right is kept only when king and partner stand at home.
                        if pos.mailbox[cr.king_from] == piece_code(color, rules.king)
                            && pos.mailbox[cr.partner_from] == piece_code(color, cr.partner_type)
                        {
                            rights |= cr.bit;
                        }
                    }
                    None => return Err(format!("bad castling letter '{c}'")),
                }
            }
        }
        pos.st.rights = rights;
        pos.st.key ^= ZOBRIST.rights[rights as usize];
        // En passant.
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let sq = geo
                .parse_square(ep)
                .ok_or_else(|| format!("bad en-passant square '{ep}'"))?;
            if rules.def.en_passant {
                if let Some(p) = rules.pawn {
                    // Valid only behind an enemy pawn that just double-stepped.
                    let pusher = pos.side ^ 1;
                    let pawn_sq = if pusher == WHITE {
                        sq.checked_add(geo.files)
                    } else {
                        sq.checked_sub(geo.files)
                    };
                    let ok = pawn_sq
                        .filter(|&s| s < geo.squares())
                        .map(|s| pos.mailbox[s] == piece_code(pusher, p))
                        .unwrap_or(false)
                        && pos.mailbox[sq] == NO_PIECE
                        && pos.ep_capturers(pos.side, sq).any();
                    if ok {
                        pos.st.ep = sq;
                        if (pos.ep_capturers(pos.side, sq) & pos.pieces(pos.side, p)).any() {
                            pos.st.ep_in_key = true;
                            pos.st.key ^= ZOBRIST.ep[sq];
                        }
                    }
                }
            }
        }
        pos.st.halfmove = match fields.get(4) {
            Some(h) => h.parse().map_err(|_| format!("bad halfmove clock '{h}'"))?,
            None => 0,
        };
        pos.start_fullmove = match fields.get(5) {
            Some(f) => f
                .parse::<u32>()
                .map_err(|_| format!("bad fullmove number '{f}'"))?
                .max(1),
            None => 1,
        };
        if fields.len() > 6 {
            return Err("too many FEN fields".into());
        }
        pos.start_side = pos.side;
        if pos.mover_in_check() {
            return Err("the side not to move is in check".into());
        }
        pos.st.checkers = pos.compute_checkers();
        pos.st.shak = pos.checkers_include_shak();
        if pos.st.ep_in_key {
            pos.forget_unplayable_en_passant();
        }
        Ok(pos)
    }

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
        let has_hands = r.drop_zone[0].any() || r.gate.is_some() || r.def.captures_to_pool;
        if has_hands {
            let mut h = String::new();
            for c in 0..2 {
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
        s += if self.side == WHITE { " w " } else { " b " };
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
        let fullmove = self.start_fullmove as usize + (self.history.len() + self.start_side) / 2;
        s += &format!(" {} {}", self.st.halfmove, fullmove);
        s
    }

    /// The FEN letter of a piece code.
    pub fn letter(&self, p: Piece) -> char {
        let c = self.rules.letters[piece_type(p)];
        if piece_color(p) == WHITE {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// Recomputes the Zobrist key from scratch (for tests).
    pub fn key_from_scratch(&self) -> u64 {
        let mut k = 0u64;
        for sq in 0..self.rules.geo.squares() {
            let p = self.mailbox[sq];
            if p != NO_PIECE {
                k ^= ZOBRIST.piece[p as usize][sq];
            }
        }
        for c in 0..2 {
            for t in 0..self.rules.types {
                k ^= ZOBRIST.hand_key(c, t, self.hand[c][t]);
            }
        }
        if self.side == BLACK {
            k ^= ZOBRIST.side;
        }
        k ^= ZOBRIST.rights[self.st.rights as usize];
        if self.st.ep_in_key {
            k ^= ZOBRIST.ep[self.st.ep];
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::fen_board_cells;

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
}
