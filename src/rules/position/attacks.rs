//! Attack queries: who attacks a square, the checks the side to move faces, whether the
//! side that just moved left its king attacked, and the Hia's field that blocks sliders.

use crate::rules::compile::BoardWidth;
use crate::rules::geometry::{Square, DIAGONAL, NO_SQUARE, ORTHOGONAL};
use crate::rules::position::{piece_type, Color, Position};

impl<B: BoardWidth> Position<B> {
    /// The field of colour `c`'s field pieces (the Hias): squares one king step away.
    #[inline(always)]
    pub fn field_of(&self, c: Color) -> B {
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
    /// never give check are left out), with occupancy `occ`. Each attack class is
    /// skipped when none of the colour's pieces stands where it could attack from.
    pub fn attackers(&self, sq: Square, occ: B, by: Color) -> B {
        let r = self.rules;
        let theirs = self.by_color[by] & occ;
        let mut att = B::EMPTY;
        if (r.leap_sources(by, sq) & theirs).any() {
            for &t in &r.leaper_types {
                att |= r.leap_attackers(by, t, sq) & self.by_type[t];
            }
        }
        if (r.lame_sources(by, sq) & theirs).any() {
            att |= self.lame_attackers(sq, occ, by);
        }
        let orth = self.riders_among(&r.orth_riders, theirs & r.empty_slide(sq, false));
        let diag = self.riders_among(&r.diag_riders, theirs & r.empty_slide(sq, true));
        if (orth | diag).is_empty() {
            return att & theirs;
        }
        let field = self.field_of(by.flip());
        let blockers = occ | field;
        if orth.any() {
            att |= r.slide(sq, blockers, ORTHOGONAL) & orth;
        }
        if diag.any() {
            att |= r.slide(sq, blockers, DIAGONAL) & diag;
        }
        if field.any() {
            // A slider standing in the field may move one square only.
            att &= !field | r.neighbours[sq] | self.non_sliders(by);
        }
        att & theirs
    }

    /// The pieces of `among` whose type is one of `types`.
    #[inline(always)]
    fn riders_among(&self, types: &[usize], among: B) -> B {
        if among.is_empty() {
            return B::EMPTY;
        }
        let mut riders = B::EMPTY;
        for &t in types {
            riders |= self.by_type[t];
        }
        riders & among
    }

    /// Colour `by`'s lame movers that attack `sq` along a path free of `occ`.
    fn lame_attackers(&self, sq: Square, occ: B, by: Color) -> B {
        let r = self.rules;
        let theirs = self.by_color[by] & occ;
        let mut att = B::EMPTY;
        for &t in &r.lame_types {
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
        att
    }

    /// Colour `c`'s pieces that are not unlimited sliders.
    fn non_sliders(&self, c: Color) -> B {
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
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, self.occupied(), by).any()
    }

    /// Enemy pieces attacking the side to move's king (none while it is in hand).
    pub(super) fn compute_checkers(&self) -> B {
        let k = self.king_sq[self.side];
        if k == NO_SQUARE {
            B::EMPTY
        } else {
            self.attackers(k, self.occupied(), self.side.flip())
        }
    }

    /// True when the side that just moved left its own king attacked.
    pub fn mover_in_check(&self) -> bool {
        let mover = self.side.flip();
        let k = self.king_sq[mover];
        k != NO_SQUARE && self.attackers(k, self.occupied(), self.side).any()
    }

    /// Shatar: whether some checker of the side to move is a shak-giving piece.
    #[inline(always)]
    pub(super) fn checkers_include_shak(&self) -> bool {
        self.rules.forbidden_sole_mater.is_some()
            && self
                .st
                .checkers
                .squares()
                .any(|s| self.rules.shak_types[piece_type(self.mailbox[s])])
    }
}
