//! Move generation: pseudo-legal moves from the compiled tables, then a legality filter
//! that uses pins and checkers where the variant allows it and otherwise tries the move.
//! Drops (Historia's deployment) are a generation phase of their own.

use crate::rules::compile::BoardWidth;
use crate::rules::geometry::NO_SQUARE;
use crate::rules::moves::{Move, MoveKind, MoveList};
use crate::rules::position::{piece_code, piece_color, piece_type, Position, NO_PIECE};

/// Per-position facts that decide move legality without playing the moves: found once
/// per position ([`Position::legality`]) and used for each of its moves
/// ([`Position::is_legal_given`]).
pub struct LegalityInfo<B> {
    /// Own pieces pinned to the king along a line.
    pinned: B,
    /// Own pieces whose moves must be tried on the board (lame-path blockers).
    tricky: B,
    /// Squares a non-king move must reach when in check (all squares otherwise).
    evasion: B,
}

/// Which part of the pseudo-legal moves a generation call adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// Every pseudo-legal move.
    All,
    /// Captures (en passant and capturing promotions included): what the quiescence
    /// search tries.
    Captures,
    /// The moves [`Position::is_noisy`] calls noisy: captures and every promotion.
    Noisy,
    /// Everything else: [`MoveSet::Noisy`] and [`MoveSet::Quiet`] split [`MoveSet::All`].
    Quiet,
}

impl MoveSet {
    fn captures(self) -> bool {
        self != MoveSet::Quiet
    }
    fn quiet_non_promotions(self) -> bool {
        matches!(self, MoveSet::All | MoveSet::Quiet)
    }
    fn quiet_promotions(self) -> bool {
        matches!(self, MoveSet::All | MoveSet::Noisy)
    }
}

impl<B: BoardWidth> Position<B> {
    /// Adds every pseudo-legal move (or only captures and promotions) to `list`.
    pub fn generate_pseudo(&self, list: &mut MoveList, captures_only: bool) {
        let set = if captures_only {
            MoveSet::Captures
        } else {
            MoveSet::All
        };
        self.generate_set(list, set);
    }

    /// Adds the pseudo-legal moves of `set` to `list`.
    pub fn generate_set(&self, list: &mut MoveList, set: MoveSet) {
        let r = self.rules;
        let us = self.side();
        if self.drops_only() {
            if set.quiet_non_promotions() {
                self.generate_drops(list);
            }
            return;
        }
        for t in 0..r.types {
            for from in self.pieces(us, t).squares() {
                self.piece_moves(list, t, from, set);
            }
        }
        if set.quiet_non_promotions() {
            self.generate_castling(list);
            self.generate_king_leaps(list);
            if !r.must_drop && r.drop_zone[us].any() && !self.hand_is_empty(us) {
                self.generate_drops(list);
            }
        }
    }

    /// True when the side to move must drop (Historia's deployment): drops are its only
    /// moves.
    #[inline(always)]
    fn drops_only(&self) -> bool {
        let r = self.rules;
        let us = self.side();
        r.must_drop && !self.hand_is_empty(us) && r.drop_zone[us].any()
    }

    /// Adds the moves of `set` of the side to move's piece of type `t` on `from`.
    #[inline(always)]
    fn piece_moves(&self, list: &mut MoveList, t: usize, from: usize, set: MoveSet) {
        let r = self.rules;
        let us = self.side();
        let them = us.flip();
        let enemy = self.pieces_of_color(them);
        let occ = self.occupied();
        let empty = !occ & r.board;
        let field = self.field_of(them);
        let is_pawn = Some(t) == r.pawn;
        // A pawn's quiet move into the promotion zone is a promotion, and noisy.
        let quiet_mask = match set {
            MoveSet::All => empty,
            MoveSet::Quiet if is_pawn => empty & !r.promotion_zone[us],
            MoveSet::Quiet => empty,
            MoveSet::Noisy if is_pawn => empty & r.promotion_zone[us],
            MoveSet::Noisy | MoveSet::Captures => B::EMPTY,
        };
        let capture_mask = if set.captures() { enemy } else { B::EMPTY };
        let dirs = r.rider_dirs[t];
        let mut targets = (r.quiet_leaps(us, t, from) & quiet_mask)
            | (r.capture_leaps(us, t, from) & capture_mask);
        if dirs != 0 {
            let slides = if field.is_empty() {
                r.slide(from, occ, dirs)
            } else if field.has(from) {
                r.slide(from, occ | field, dirs) & r.neighbours[from]
            } else {
                r.slide(from, occ | field, dirs)
            };
            targets |= slides & (capture_mask | quiet_mask);
        }
        for pm in r.path_moves(us, t, from) {
            if (pm.path & occ).any() {
                continue;
            }
            if field.any() && (field.has(from) || (pm.path & field).any()) {
                continue;
            }
            if capture_mask.has(pm.to) {
                if pm.capture {
                    targets |= B::square(pm.to);
                }
            } else if pm.quiet && quiet_mask.has(pm.to) {
                targets |= B::square(pm.to);
            }
        }
        if !r.gives_check[t] {
            // A piece that never attacks a king never captures one either.
            targets &= !self.pieces(them, r.king);
        }
        if is_pawn {
            self.add_pawn_moves(list, from, targets, set);
            return;
        }
        if t == r.king {
            if let Some(g) = r.gate.filter(|&g| self.in_hand(us, g) > 0) {
                for to in targets.squares() {
                    list.push(Move::new(from, to, MoveKind::Gate, g));
                }
                return;
            }
        }
        for to in targets.squares() {
            list.push(Move::new(from, to, MoveKind::Normal, 0));
        }
    }

    /// True when `m` is a pseudo-legal move of this position (a move from the
    /// transposition table or a killer may belong to another position). Found by
    /// generating the moves of `m`'s piece only, so it agrees with the generator.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let r = self.rules;
        let squares = r.geo.squares();
        if m == Move::NONE || m.from() >= squares || m.to() >= squares {
            return false;
        }
        let us = self.side();
        let mut list = MoveList::new();
        match m.kind() {
            MoveKind::Drop => {
                let allowed = r.drop_zone[us].any()
                    && m.piece() < r.types
                    && self.in_hand(us, m.piece()) > 0
                    && self.piece_on(m.to()) == NO_PIECE;
                if !allowed {
                    return false;
                }
                self.generate_drops(&mut list);
            }
            _ if self.drops_only() => return false,
            MoveKind::Castle => self.generate_castling(&mut list),
            _ => {
                let p = self.piece_on(m.from());
                if p == NO_PIECE || piece_color(p) != us {
                    return false;
                }
                self.piece_moves(&mut list, piece_type(p), m.from(), MoveSet::All);
                if m.from() == self.king_square(us) {
                    self.generate_king_leaps(&mut list);
                }
            }
        }
        list.as_slice().contains(&m)
    }

    fn add_pawn_moves(&self, list: &mut MoveList, from: usize, targets: B, set: MoveSet) {
        let r = self.rules;
        let us = self.side();
        let p = r.pawn.unwrap_or(0);
        let zone = r.promotion_zone[us];
        for to in targets.squares() {
            if zone.has(to) {
                self.add_promotions(list, from, to);
            } else {
                // Outside the zone the mask let through only what `set` wants.
                list.push(Move::new(from, to, MoveKind::Normal, 0));
            }
        }
        if r.pawn_initial[us].has(from) && (set.quiet_non_promotions() || set.quiet_promotions()) {
            let occ = self.occupied();
            for pm in r.initial_moves(us, p, from) {
                if (pm.path & occ).is_empty() && !occ.has(pm.to) && pm.quiet {
                    if zone.has(pm.to) {
                        if set.quiet_promotions() {
                            self.add_promotions(list, from, pm.to);
                        }
                    } else if set.quiet_non_promotions() {
                        list.push(Move::new(from, pm.to, MoveKind::Initial, 0));
                    }
                }
            }
        }
        let ep = self.state().ep;
        if ep != NO_SQUARE && set.captures() {
            let ep_targets = r.capture_leaps(us, p, from) & !r.quiet_leaps(us, p, from);
            if ep_targets.has(ep) {
                list.push(Move::new(from, ep, MoveKind::EnPassant, 0));
            }
        }
    }

    fn add_promotions(&self, list: &mut MoveList, from: usize, to: usize) {
        let r = self.rules;
        let us = self.side();
        for &t in &r.promo_always {
            list.push(Move::new(from, to, MoveKind::Promotion, t));
        }
        for &t in &r.promo_pool {
            if self.in_hand(us, t) > 0 && !r.promo_always.contains(&t) {
                list.push(Move::new(from, to, MoveKind::Promotion, t));
            }
        }
    }

    fn generate_castling(&self, list: &mut MoveList) {
        let r = self.rules;
        let us = self.side();
        let rights = self.state().rights;
        if r.castling.is_empty() || rights == 0 || self.in_check() {
            return;
        }
        let occ = self.occupied();
        for (i, c) in r.castling.iter().enumerate() {
            if c.color != us || rights & c.bit == 0 {
                continue;
            }
            if self.piece_on(c.king_from) != piece_code(us, r.king)
                || self.piece_on(c.partner_from) != piece_code(us, c.partner_type)
                || (c.empty & occ).any()
            {
                continue;
            }
            if c.safe.squares().any(|s| self.is_attacked(s, us.flip())) {
                continue;
            }
            list.push(Move::new(c.king_from, c.king_to, MoveKind::Castle, i));
        }
    }

    fn generate_king_leaps(&self, list: &mut MoveList) {
        let r = self.rules;
        let us = self.side();
        let Some(kl) = &r.king_leap else {
            return;
        };
        let rule = kl[us];
        if self.state().rights & (1 << us.index()) == 0
            || self.king_square(us) != rule.from
            || self.in_check()
        {
            return;
        }
        for (to, over) in rule.leaps {
            let over_piece = self.piece_on(over);
            if self.piece_on(to) != NO_PIECE
                || (over_piece != NO_PIECE && piece_color(over_piece) != us)
                || self.is_attacked(over, us.flip())
            {
                continue;
            }
            list.push(Move::new(rule.from, to, MoveKind::Normal, 0));
        }
    }

    fn generate_drops(&self, list: &mut MoveList) {
        let r = self.rules;
        let us = self.side();
        let zone = r.drop_zone[us] & !self.occupied();
        let Some(bt) = r.bishop_rule else {
            for t in 0..r.types {
                if self.in_hand(us, t) > 0 {
                    for to in zone.squares() {
                        list.push(Move::new(to, to, MoveKind::Drop, t));
                    }
                }
            }
            return;
        };
        // Historia's bishop rule, decided by counts over the zone's empty squares.
        let dark_empty = (zone & r.dark).count() as i32;
        let light_empty = (zone & !r.dark).count() as i32;
        let bishops_in_hand = self.in_hand(us, bt);
        let on_board = self.pieces(us, bt);
        let bishop_on_dark = (on_board & r.dark).any();
        let bishop_on_light = (on_board & !r.dark).any();
        for t in 0..r.types {
            if self.in_hand(us, t) == 0 {
                continue;
            }
            for to in zone.squares() {
                let to_dark = r.dark.has(to);
                let dark_after = dark_empty - to_dark as i32;
                let light_after = light_empty - (!to_dark) as i32;
                let ok = if t == bt {
                    let same_colour_taken = if to_dark {
                        bishop_on_dark
                    } else {
                        bishop_on_light
                    };
                    let opposite_left = if to_dark { light_after } else { dark_after };
                    !same_colour_taken && (bishops_in_hand < 2 || opposite_left >= 1)
                } else {
                    match bishops_in_hand {
                        0 => true,
                        1 => match (bishop_on_dark, bishop_on_light) {
                            (true, false) => light_after >= 1,
                            (false, true) => dark_after >= 1,
                            _ => true,
                        },
                        _ => dark_after >= 1 && light_after >= 1,
                    }
                };
                if ok {
                    list.push(Move::new(to, to, MoveKind::Drop, t));
                }
            }
        }
    }

    /// What decides the legality of moves in this position: pins, pieces that block a
    /// lame attacker's path, and the squares that answer a single check.
    fn legality_info(&self) -> LegalityInfo<B> {
        let r = self.rules;
        let us = self.side();
        let them = us.flip();
        let k = self.king_square(us);
        let mut info = LegalityInfo {
            pinned: B::EMPTY,
            tricky: B::EMPTY,
            evasion: !B::EMPTY,
        };
        if k == NO_SQUARE {
            return info;
        }
        let occ = self.occupied();
        let own = self.pieces_of_color(us);
        // Our Hias' field stops enemy sliders short of our king.
        let field = self.field_of(us);
        let mut orth = B::EMPTY;
        for &t in &r.orth_riders {
            orth |= self.pieces(them, t);
        }
        let mut diag = B::EMPTY;
        for &t in &r.diag_riders {
            diag |= self.pieces(them, t);
        }
        // A slider standing in the field moves one square only: it pins nothing.
        let snipers = ((r.slide(k, field, crate::rules::geometry::ORTHOGONAL) & orth)
            | (r.slide(k, field, crate::rules::geometry::DIAGONAL) & diag))
            & !field;
        for s in snipers.squares() {
            let b = r.between(k, s) & occ;
            if b.any() && !b.more_than_one() && (b & own).any() {
                info.pinned |= b;
            }
        }
        // Our pieces alone on the path of an enemy lame attacker: moving them may
        // uncover a check, so their moves are tried on the board.
        for &t in &r.lame_types {
            let attackers = self.pieces(them, t);
            if attackers.is_empty() {
                continue;
            }
            for pm in r.attack_paths(them, t, k) {
                if attackers.has(pm.to) {
                    let blocking = pm.path & occ;
                    if !blocking.more_than_one() && (blocking & own).any() {
                        info.tricky |= blocking;
                    }
                }
            }
        }
        // A non-king move answers a check by capturing the checker or by standing on
        // its line or lame path; with several checkers it must do that for each (on the
        // alquerque grid one square can block a lame knight and a slider at once).
        for c in self.checkers().squares() {
            let t = piece_type(self.piece_on(c));
            let mut block = B::EMPTY;
            // (A check by a leap cannot be blocked, even an aligned one.)
            if !r.leap_attackers(them, t, k).has(c) {
                let dirs = r.rider_dirs[t];
                if dirs != 0 && r.slide(k, occ | field, dirs).has(c) {
                    block = r.between(k, c);
                } else {
                    for pm in r.attack_paths(them, t, k) {
                        if pm.to == c && (pm.path & occ).is_empty() {
                            block |= pm.path;
                        }
                    }
                }
            }
            info.evasion &= block | B::square(c);
        }
        info
    }

    /// True when the pseudo-legal move `m` does not leave the mover's king attacked.
    fn is_legal_with(&mut self, m: Move, info: &LegalityInfo<B>) -> bool {
        let r = self.rules;
        let us = self.side();
        let k = self.king_square(us);
        let kind = m.kind();
        if k == NO_SQUARE {
            // The king is still in hand (Historia's deployment): only its own drop can
            // leave it attacked.
            return !(kind == MoveKind::Drop && m.piece() == r.king) || self.legal_by_trying(m);
        }
        if kind == MoveKind::Drop {
            // A drop uncovers nothing; in check it must block (or be tried).
            return !self.in_check() || self.legal_by_trying(m);
        }
        let from = m.from();
        let moving = piece_type(self.piece_on(from));
        if matches!(
            kind,
            MoveKind::EnPassant | MoveKind::Castle | MoveKind::Gate
        ) || Some(moving) == r.field
            || info.tricky.has(from)
        {
            return self.legal_by_trying(m);
        }
        let to = m.to();
        if from == k {
            let occ = self.occupied() ^ B::square(from);
            return self.attackers(to, occ, us.flip()).is_empty();
        }
        if !info.evasion.has(to) {
            return false;
        }
        !info.pinned.has(from) || r.line(k, from).has(to)
    }

    fn legal_by_trying(&mut self, m: Move) -> bool {
        self.make(m);
        let ok = !self.mover_in_check();
        self.unmake(m);
        ok
    }

    /// Adds every legal move to `list`.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        self.generate_pseudo(list, false);
        let info = self.legality_info();
        list.retain(|m| self.is_legal_with(m, &info));
    }

    /// What decides the legality of this position's moves (for [`Position::is_legal_given`]).
    pub fn legality(&self) -> LegalityInfo<B> {
        self.legality_info()
    }

    /// True when the pseudo-legal move `m` is legal, `info` being this position's
    /// [`Position::legality`].
    #[inline]
    pub fn is_legal_given(&mut self, m: Move, info: &LegalityInfo<B>) -> bool {
        self.is_legal_with(m, info)
    }

    /// True when the pseudo-legal move `m` is legal.
    pub fn is_legal(&mut self, m: Move) -> bool {
        let info = self.legality_info();
        self.is_legal_with(m, &info)
    }

    /// Number of leaf nodes `depth` plies deep (bulk-counted at the last ply).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        if depth == 1 {
            return list.len() as u64;
        }
        let mut total = 0;
        for &m in list.as_slice() {
            self.make(m);
            total += self.perft(depth - 1);
            self.unmake(m);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::all_variants;

    /// Plays random games in every variant and checks, at every position, that the fast
    /// legality filter agrees with trying each pseudo-legal move on the board, that
    /// unmake restores the position exactly, and that the incremental key is right.
    fn self_consistency<B: BoardWidth>(id: usize, games: usize, seed: u64) {
        let rules = B::rules(id);
        let mut state = seed;
        let mut rnd = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        // Moves met in earlier positions: candidates for the pseudo-legality test.
        let mut universe: Vec<Move> = Vec::new();
        for _ in 0..games {
            let mut pos = Position::<B>::from_fen(rules, rules.def.start_fen).unwrap();
            for _ in 0..160 {
                let mut legal = MoveList::new();
                pos.generate_legal(&mut legal);
                let mut pseudo = MoveList::new();
                pos.generate_pseudo(&mut pseudo, false);
                let fen = pos.fen();
                let mut tried: Vec<Move> = Vec::new();
                for &m in pseudo.as_slice() {
                    if pos.legal_by_trying(m) {
                        tried.push(m);
                    }
                    assert_eq!(pos.fen(), fen, "make/unmake of {m:?} changed the position");
                }
                let mut fast: Vec<Move> = legal.as_slice().to_vec();
                fast.sort_by_key(|m| m.0);
                tried.sort_by_key(|m| m.0);
                assert_eq!(fast, tried, "{}: legality differs at {fen}", rules.def.name);
                assert_eq!(pos.key(), pos.key_from_scratch(), "key drift at {fen}");
                check_move_sets(&pos, &pseudo, &mut universe);
                if legal.is_empty() {
                    break;
                }
                let m = legal.as_slice()[rnd(legal.len())];
                pos.make(m);
            }
        }
    }

    /// The move sets split the pseudo-legal moves as [`Position::is_noisy`] does, with
    /// captures a part of the noisy ones, and the pseudo-legality test accepts exactly
    /// the generated moves among those of other positions (`universe`, which grows).
    fn check_move_sets<B: BoardWidth>(pos: &Position<B>, all: &MoveList, universe: &mut Vec<Move>) {
        let set = |s: MoveSet| {
            let mut list = MoveList::new();
            pos.generate_set(&mut list, s);
            let mut v = list.as_slice().to_vec();
            v.sort_by_key(|m| m.0);
            v
        };
        let (noisy, quiet, captures) = (
            set(MoveSet::Noisy),
            set(MoveSet::Quiet),
            set(MoveSet::Captures),
        );
        let fen = pos.fen();
        assert!(
            noisy.iter().all(|&m| pos.is_noisy(m)),
            "{fen}: a quiet move in the noisy set"
        );
        assert!(
            quiet.iter().all(|&m| !pos.is_noisy(m)),
            "{fen}: a noisy move in the quiet set"
        );
        assert!(
            captures.iter().all(|m| noisy.contains(m)),
            "{fen}: a capture not noisy"
        );
        let mut both: Vec<Move> = noisy.iter().chain(&quiet).copied().collect();
        both.sort_by_key(|m| m.0);
        let mut every = all.as_slice().to_vec();
        every.sort_by_key(|m| m.0);
        assert_eq!(
            both, every,
            "{fen}: noisy and quiet do not make up all moves"
        );
        for &m in &every {
            if universe.len() < 4000 && !universe.contains(&m) {
                universe.push(m);
            }
        }
        for &m in universe.iter() {
            assert_eq!(
                pos.is_pseudo_legal(m),
                every.contains(&m),
                "{fen}: pseudo-legality of {m:?}"
            );
        }
        for junk in [Move::NONE, Move(u32::MAX), Move(0x7F | 0x7F << 7)] {
            assert!(!pos.is_pseudo_legal(junk) || every.contains(&junk));
        }
    }

    #[test]
    fn fast_legality_agrees_with_trying_every_move() {
        for (id, v) in all_variants().iter().enumerate() {
            if v.geometry.squares() <= 64 {
                self_consistency::<u64>(id, 30, 0x1234 + id as u64);
            } else {
                self_consistency::<u128>(id, 30, 0x1234 + id as u64);
            }
        }
    }
}
