//! Making and unmaking moves: each kind of move in a step of its own, the per-ply state
//! pushed and popped around it, and the en-passant bookkeeping the key depends on.
//! This is the hot path of search and perft: the steps are `#[inline(always)]`.

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::geometry::{Square, NO_SQUARE};
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::{piece_type, Color, Position, State, NO_PIECE};
use crate::rules::zobrist::ZOBRIST;

impl<B: BoardWidth> Position<B> {
    /// Plays `m`, which must be legal (or at least pseudo-legal for make/test).
    pub fn make(&mut self, m: Move) {
        let prev = self.begin_ply(m);
        self.push_accumulators();
        match m.kind() {
            MoveKind::Drop => self.make_drop(m),
            MoveKind::Castle => self.make_castle(m),
            MoveKind::EnPassant => self.make_en_passant(m),
            kind => self.make_board_move(m, kind),
        }
        self.settle_king_buckets();
        self.update_rights(prev.rights, m.from(), m.to());
        self.end_ply();
        if self.st.ep_in_key {
            self.forget_unplayable_en_passant();
        }
    }

    /// The key after `m`, cheaply and approximately (exact for most plain moves and
    /// captures; promotions, drops, castling, pools and a new en-passant square are left
    /// out): for a transposition-table prefetch before the move is made.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let mut k = self.st.key ^ ZOBRIST.side;
        if self.st.ep_in_key {
            k ^= ZOBRIST.ep[self.st.ep];
        }
        if m.kind() == MoveKind::Drop {
            return k;
        }
        let moving = self.mailbox[from];
        if moving != NO_PIECE {
            k ^= ZOBRIST.piece[moving as usize][from] ^ ZOBRIST.piece[moving as usize][to];
        }
        let captured = self.mailbox[to];
        if captured != NO_PIECE {
            k ^= ZOBRIST.piece[captured as usize][to];
        }
        let r = self.rules;
        let rights = self.st.rights;
        let left = rights & !(r.rights_mask[from] | r.rights_mask[to]);
        k ^ ZOBRIST.rights[rights as usize] ^ ZOBRIST.rights[left as usize]
    }

    /// Takes back `m`, the last move made.
    pub fn unmake(&mut self, m: Move) {
        self.side = self.side.flip();
        self.begin_unmake_accumulators();
        match m.kind() {
            MoveKind::Drop => self.unmake_drop(m),
            MoveKind::Castle => self.unmake_castle(m),
            MoveKind::EnPassant => self.unmake_en_passant(m),
            kind => self.unmake_board_move(m, kind),
        }
        self.end_unmake_accumulators();
        // The key and everything else come back from the stack.
        if let Some(prev) = self.history.pop() {
            self.st = prev;
        }
    }

    /// Passes the move to the other side (a null move, for the search's null-move
    /// pruning). Repetition counting does not look across it.
    pub fn make_null(&mut self) {
        self.begin_ply(Move::NONE);
        self.end_ply();
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self) {
        self.side = self.side.flip();
        if let Some(prev) = self.history.pop() {
            self.st = prev;
        }
    }

    // ----- the ply around a move ---------------------------------------------------

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
        self.side = self.side.flip();
        self.st.checkers = self.compute_checkers();
        self.st.shak = self.checkers_include_shak();
    }

    /// Drops the castling (or king's leap) rights tied to `from` and `to`: a king or
    /// partner that moves or is captured loses them.
    #[inline(always)]
    fn update_rights(&mut self, prev_rights: u8, from: Square, to: Square) {
        let r = self.rules;
        let mask = r.rights_mask[from] | r.rights_mask[to];
        if prev_rights & mask != 0 {
            self.st.rights = prev_rights & !mask;
            self.st.key ^=
                ZOBRIST.rights[prev_rights as usize] ^ ZOBRIST.rights[self.st.rights as usize];
        }
    }

    // ----- making each kind of move (the side to move is the mover) ------------------

    /// A piece from the hand onto `m.to()`.
    #[inline(always)]
    fn make_drop(&mut self, m: Move) {
        let us = self.side;
        let t = m.piece();
        let n = self.hand[us][t];
        self.set_hand(us, t, n - 1);
        self.put(us, t, m.to());
        self.st.halfmove = 0;
    }

    /// King and partner to their castled squares.
    #[inline(always)]
    fn make_castle(&mut self, m: Move) {
        let r = self.rules;
        let us = self.side;
        let c = r.castling[m.piece()];
        self.remove(us, r.king, c.king_from);
        self.remove(us, c.partner_type, c.partner_from);
        self.put(us, r.king, c.king_to);
        self.put(us, c.partner_type, c.partner_to);
    }

    /// A pawn takes the pawn that passed over `m.to()`.
    #[inline(always)]
    fn make_en_passant(&mut self, m: Move) {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let pawn = piece_type(self.mailbox[from]);
        let cap_sq = self.en_passant_victim(us, to);
        let cap = self.mailbox[cap_sq];
        self.remove(us.flip(), piece_type(cap), cap_sq);
        self.st.captured = cap;
        self.remove(us, pawn, from);
        self.put(us, pawn, to);
        self.st.halfmove = 0;
    }

    /// A piece goes from `m.from()` to `m.to()`, taking what stands there: a plain
    /// move, a pawn's double step, a promotion or a gating move.
    #[inline(always)]
    fn make_board_move(&mut self, m: Move, kind: MoveKind) {
        let r = self.rules;
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let t = piece_type(self.mailbox[from]);
        self.capture_on(to);
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
                self.set_en_passant_target(t, from, to);
            }
            _ => self.put(us, t, to),
        }
    }

    /// Takes the enemy piece on `to`, if any: remembered for unmake, the clock reset,
    /// and the piece into its owner's pool where captures feed one.
    #[inline(always)]
    fn capture_on(&mut self, to: Square) {
        let cap = self.mailbox[to];
        if cap != NO_PIECE {
            let them = self.side.flip();
            let ct = piece_type(cap);
            self.remove(them, ct, to);
            self.st.captured = cap;
            self.st.halfmove = 0;
            if self.rules.pool_types[ct] {
                let n = self.hand[them][ct];
                self.set_hand(them, ct, n.saturating_add(1));
            }
        }
    }

    /// After a pawn (of type `pawn`) moved from `from` to `to`: a double step makes the
    /// square passed over the en-passant target where the geometry lets a pawn take
    /// there, and puts it in the key when an enemy pawn stands ready.
    #[inline(always)]
    fn set_en_passant_target(&mut self, pawn: PieceType, from: Square, to: Square) {
        let r = self.rules;
        if r.def.en_passant && (to as isize - from as isize).unsigned_abs() == 2 * r.geo.files {
            let them = self.side.flip();
            let mid = (from + to) / 2;
            let sources = self.ep_capturers(them, mid);
            if sources.any() {
                self.st.ep = mid;
                if (sources & self.pieces(them, pawn)).any() {
                    self.st.ep_in_key = true;
                    self.st.key ^= ZOBRIST.ep[mid];
                }
            }
        }
    }

    // ----- unmaking each kind of move (the side to move is the mover again) ----------

    /// The dropped piece back to the hand.
    #[inline(always)]
    fn unmake_drop(&mut self, m: Move) {
        let us = self.side;
        let t = m.piece();
        self.remove(us, t, m.to());
        let n = self.hand[us][t];
        self.set_hand(us, t, n + 1);
    }

    /// King and partner back home.
    #[inline(always)]
    fn unmake_castle(&mut self, m: Move) {
        let r = self.rules;
        let us = self.side;
        let c = r.castling[m.piece()];
        self.remove(us, r.king, c.king_to);
        self.remove(us, c.partner_type, c.partner_to);
        self.put(us, r.king, c.king_from);
        self.put(us, c.partner_type, c.partner_from);
    }

    /// The pawn back, and the pawn it took back behind the target square.
    #[inline(always)]
    fn unmake_en_passant(&mut self, m: Move) {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let pawn = piece_type(self.mailbox[to]);
        self.remove(us, pawn, to);
        self.put(us, pawn, from);
        let cap_sq = self.en_passant_victim(us, to);
        self.put(us.flip(), piece_type(self.st.captured), cap_sq);
    }

    /// The piece back to `m.from()` (a pawn again after a promotion, the gated piece
    /// back to the hand), and the captured piece back out of its pool onto `m.to()`.
    #[inline(always)]
    fn unmake_board_move(&mut self, m: Move, kind: MoveKind) {
        let r = self.rules;
        let us = self.side;
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let captured = self.st.captured;
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

    // ----- en passant --------------------------------------------------------------

    /// The square of the pawn that colour `us` takes en passant by moving to `to`.
    #[inline(always)]
    fn en_passant_victim(&self, us: Color, to: Square) -> Square {
        if us == Color::White {
            to - self.rules.geo.files
        } else {
            to + self.rules.geo.files
        }
    }

    /// Squares from which colour `c`'s pawns could capture en passant onto `sq`.
    #[inline(always)]
    pub(super) fn ep_capturers(&self, c: Color, sq: Square) -> B {
        self.rules.ep_sources(c, sq)
    }

    /// Takes the en-passant square out of the key when none of the side to move's
    /// en-passant captures is legal (a pinned pawn, a king left in check): positions
    /// differ for repetition only by captures that can really be made, as in FIDE's
    /// rule. The square itself stays (and is written in the FEN).
    pub(super) fn forget_unplayable_en_passant(&mut self) {
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
}
