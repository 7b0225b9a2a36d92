//! Static exchange evaluation (SEE): what a move wins or loses on its target square if
//! both sides then keep capturing there with their least valuable attacker, each side
//! free to stop when going on would lose more. Attackers come from
//! [`Position::attackers`], so lame paths, the Hia's field and x-rays through pieces
//! that have already captured all follow each variant's own rules.

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::moves::{Move, MoveKind};
use crate::rules::position::{piece_type, Position, NO_PIECE};

/// True when the exchange that `m` starts gains at least `threshold` for the side to
/// move, with material valued by `value`. Castling counts as gaining nothing.
pub fn see_at_least<B: BoardWidth>(
    pos: &Position<B>,
    m: Move,
    threshold: i32,
    value: impl Fn(PieceType) -> i32,
) -> bool {
    let r = pos.rules;
    let to = m.to();
    let (victim, mover, mut occ) = match m.kind() {
        MoveKind::Castle => return threshold <= 0,
        MoveKind::Drop => (0, m.piece(), pos.occupied()),
        kind => {
            let from = m.from();
            let captured = match kind {
                MoveKind::EnPassant => r.pawn.map_or(0, &value),
                _ => match pos.piece_on(to) {
                    NO_PIECE => 0,
                    p => value(piece_type(p)),
                },
            };
            let mover = piece_type(pos.piece_on(from));
            (captured, mover, pos.occupied() & !B::square(from))
        }
    };
    occ &= !B::square(to);

    // `swap` is what the side that captured last stands to lose on the square.
    let (gain, standing) = if m.kind() == MoveKind::Promotion {
        let promoted = value(m.piece());
        (victim + promoted - value(mover), promoted)
    } else {
        (victim, value(mover))
    };
    let mut swap = gain - threshold;
    if swap < 0 {
        return false;
    }
    swap = standing - swap;
    if swap <= 0 {
        return true;
    }

    // `result` is 1 while the side to move is getting at least `threshold`.
    let mut result = 1;
    let mut side = pos.side().flip();
    loop {
        let attackers = pos.attackers(to, occ, side) & occ;
        if attackers.is_empty() {
            break;
        }
        result ^= 1;
        let (square, kind) = attackers
            .squares()
            .map(|s| (s, piece_type(pos.piece_on(s))))
            .min_by_key(|&(_, t)| value(t))
            .unwrap_or((to, r.king));
        if kind == r.king {
            // A king may take only when nothing takes it back.
            let defenders = pos.attackers(to, occ & !B::square(square), side.flip()) & occ;
            if defenders.any() {
                result ^= 1;
            }
            break;
        }
        swap = value(kind) - swap;
        if swap < result {
            break;
        }
        occ &= !B::square(square);
        side = side.flip();
    }
    result == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::variant_id;

    /// Chess values: P 100, N 300, B 300, R 500, Q 900, K 20000.
    fn chess_value(t: PieceType) -> i32 {
        let rules = u64::rules(variant_id("normal").unwrap_or(0));
        let letter = rules.def.pieces[t].letter;
        match letter {
            'P' => 100,
            'N' | 'B' => 300,
            'R' => 500,
            'Q' => 900,
            _ => 20_000,
        }
    }

    /// The exact SEE value of `mv` in a chess position, found by bisection.
    fn see_value(fen: &str, mv: &str) -> i32 {
        let rules = u64::rules(variant_id("normal").unwrap_or(0));
        let mut pos = Position::<u64>::from_fen(rules, fen).expect("test FEN");
        let m = pos.parse_move(mv).expect("test move");
        let (mut lo, mut hi) = (-2000, 2000);
        // Invariant: see >= lo and see < hi.
        assert!(see_at_least(&pos, m, lo, chess_value));
        assert!(!see_at_least(&pos, m, hi, chess_value));
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if see_at_least(&pos, m, mid, chess_value) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    #[test]
    fn undefended_and_defended_captures() {
        assert_eq!(see_value("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), 100);
        assert_eq!(
            see_value("4k3/4p3/3p4/8/8/8/8/3RK3 w - - 0 1", "d1d6"),
            -400
        );
        assert_eq!(see_value("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 0);
        assert_eq!(see_value("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 300);
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // The second rook recaptures through the first.
        assert_eq!(
            see_value("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            100
        );
        // Black's queen behind the rook: R takes, r takes, R takes, q takes.
        assert_eq!(
            see_value("3qk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"),
            100 - 500 + 500 - 500
        );
    }

    #[test]
    fn a_king_does_not_recapture_into_a_defended_square() {
        // Qxf7: the king may not take back because the bishop guards f7.
        assert_eq!(see_value("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7"), 100);
        // Undefended queen: the king takes it.
        assert_eq!(
            see_value("4k3/5p2/8/8/8/8/8/4KQ2 w - - 0 1", "f1f7"),
            100 - 900
        );
    }

    #[test]
    fn promotions_and_quiet_moves() {
        assert_eq!(see_value("7k/3P4/8/8/8/8/8/4K3 w - - 0 1", "d7d8q"), 800);
        // A quiet move onto a square a pawn guards loses the piece.
        assert_eq!(see_value("4k3/8/4p3/8/8/8/8/3RK3 w - - 0 1", "d1d5"), -500);
        assert_eq!(see_value("4k3/8/8/8/8/8/8/3RK3 w - - 0 1", "d1d5"), 0);
    }
}
