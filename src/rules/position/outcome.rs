//! Game-end rules: mate and stalemate as the variant reads them, bare kings, Shatar's
//! mate rules (knight mate, Niol), Robado, the n-move rule, repetition and dead material.

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::moves::MoveList;
use crate::rules::position::{piece_type, Color, Position};
use crate::rules::variant::{BareKingRule, MaterialRule, NoMoveRule};

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// 1-0.
    WhiteWins,
    /// 0-1.
    BlackWins,
    /// 1/2-1/2.
    Draw,
}

impl GameResult {
    /// The win for colour `c`.
    pub fn win_for(c: Color) -> GameResult {
        if c == Color::White {
            GameResult::WhiteWins
        } else {
            GameResult::BlackWins
        }
    }

    /// PGN form: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// The rule that ended a game (or, inside the search, that will end it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// Checkmate given by this colour.
    Mate(Color),
    /// Historia: the side to move has no legal move and is not in check (it loses).
    StalemateLoses,
    /// Stalemate where it is a draw.
    Stalemate,
    /// Shatar: a mate given by knights alone loses for the mater.
    KnightMate,
    /// Shatar: a mate without a shak in the series is a draw.
    Niol,
    /// Shatar: a side with nothing but its king (hand included) draws.
    Robado,
    /// Great Shatranj: both kings bare.
    BareKings,
    /// Great Shatranj: the opponent's king is bare.
    BareKing,
    /// The n-move rule, with n (moves, not plies).
    NMoveRule(u32),
    /// Threefold repetition (in the search: any repetition).
    Repetition,
    /// Dead material under the variant's material rule.
    InsufficientMaterial,
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::Mate(c) => write!(f, "{} mates", c.name()),
            EndReason::StalemateLoses => {
                f.write_str("stalemate: the side to move has no legal move")
            }
            EndReason::Stalemate => f.write_str("Stalemate"),
            EndReason::KnightMate => f.write_str("knight mate is forbidden"),
            EndReason::Niol => f.write_str("Niol"),
            EndReason::Robado => f.write_str("Robado"),
            EndReason::BareKings => f.write_str("Bare kings"),
            EndReason::BareKing => f.write_str("Bare king"),
            EndReason::NMoveRule(n) => write!(f, "{n}-move rule"),
            EndReason::Repetition => f.write_str("Draw by repetition"),
            EndReason::InsufficientMaterial => f.write_str("Insufficient material"),
        }
    }
}

/// Where the game-end rules are asked: in a real game, or at a node of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndProbe {
    /// A real game: threefold repetition; a position with no legal move is decided.
    Game,
    /// A node of the main search, `ply` plies below the root: a repetition is a draw
    /// when it repeats a position of the searched line or is the third occurrence (see
    /// [`Position::repeats_in_search`]), a lost bare king is seen one turn early, and a
    /// position with no legal move is left to the search (which finds it when it
    /// generates the moves) unless the n-move rule needs to know.
    Search {
        /// Plies from the search root.
        ply: usize,
    },
    /// A node of the quiescence search: only the material rules (bare kings, dead
    /// material), which captures can change.
    Quiescence,
}

/// How a game ends: the result, the rule, and how many plies after this position the
/// end comes (0, or 1 when the search foresees a bare king's loss).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Who wins.
    pub result: GameResult,
    /// The rule that decides it.
    pub reason: EndReason,
    /// Plies from this position to the end (0 or 1).
    pub plies_away: u8,
}

impl Ending {
    fn now(result: GameResult, reason: EndReason) -> Ending {
        Ending {
            result,
            reason,
            plies_away: 0,
        }
    }

    /// The search score of this ending for `side` (the side to move) at `ply` plies
    /// from the root, where a win `n` plies from the root scores `mate - n`.
    #[inline]
    pub fn score(&self, side: Color, ply: usize, mate: i32) -> i32 {
        let distance = ply as i32 + self.plies_away as i32;
        match self.result {
            GameResult::Draw => 0,
            r if r == GameResult::win_for(side) => mate - distance,
            _ => -mate + distance,
        }
    }
}

/// A finished game: result and the rule that decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// The rule, as printed between braces.
    pub reason: String,
}

impl Outcome {
    /// `1-0 {White mates}` etc.
    pub fn line(&self) -> String {
        format!("{} {{{}}}", self.result.pgn(), self.reason)
    }
}

impl From<Ending> for Outcome {
    fn from(e: Ending) -> Outcome {
        Outcome {
            result: e.result,
            reason: e.reason.to_string(),
        }
    }
}

impl<B: BoardWidth> Position<B> {
    /// True when colour `c` has nothing but its king on the board (and, with
    /// `count_hand`, nothing in hand either).
    pub fn is_bare(&self, c: Color, count_hand: bool) -> bool {
        let only_king = (self.pieces_of_color(c) & !self.pieces(c, self.rules.king)).is_empty();
        only_king && (!count_hand || self.hand_is_empty(c))
    }

    /// True when the current position occurred twice before (same side to move, pieces,
    /// hands, rights and en-passant possibility), within the reversible plies.
    pub fn is_threefold(&self) -> bool {
        self.repetitions() >= 2
    }

    /// How often the current position occurred before, within the reversible plies.
    pub fn repetitions(&self) -> usize {
        self.earlier_occurrences().count()
    }

    /// Whether the search scores the current position, `ply` plies below its root, as
    /// drawn by repetition: when its last occurrence lies inside the searched line
    /// (after the root), or when it occurred twice before. A single earlier
    /// occurrence in the game before the search is not a draw yet: the side that
    /// repeats may still be the one that has to vary.
    pub fn repeats_in_search(&self, ply: usize) -> bool {
        let mut earlier = self.earlier_occurrences();
        match earlier.next() {
            None => false,
            Some(distance) => distance < ply || earlier.next().is_some(),
        }
    }

    /// The distances in plies, nearest first, back to each earlier occurrence of the
    /// current position within the reversible plies.
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let key = self.key();
        let h = self.history();
        let window = (self.state().halfmove as usize).min(h.len());
        // Walk back ply by ply; a state reached by no move (the setup, or a null move
        // in the search) ends the walk: nothing before it repeats this position.
        let mut last = self.state().last_move;
        (1..=window)
            .take_while(move |&step| {
                let reached_by_move = last != crate::rules::moves::Move::NONE;
                last = h[h.len() - step].last_move;
                reached_by_move
            })
            .filter(move |&step| step % 2 == 0 && h[h.len() - step].key == key)
    }

    /// The game's result if it has ended here, with the rule that ended it.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.ending(EndProbe::Game).map(Outcome::from)
    }

    /// The game-end rules, written once for the referee, the protocols and the search:
    /// bare kings, then (in a game) no legal move, the n-move rule, repetition and
    /// dead material. Cheap checks come first; moves are generated only where a rule
    /// needs them.
    pub fn ending(&mut self, probe: EndProbe) -> Option<Ending> {
        if let Some(e) = self.bare_king_ending(probe) {
            return Some(e);
        }
        if probe == EndProbe::Quiescence {
            return self
                .insufficient_material()
                .then(|| Ending::now(GameResult::Draw, EndReason::InsufficientMaterial));
        }
        let end = &self.rules.def.end;
        if probe == EndProbe::Game && !self.has_legal_move() {
            return Some(self.no_move_ending());
        }
        if self.state().halfmove >= end.n_move_plies {
            // A win by no legal move comes before the n-move rule.
            if matches!(probe, EndProbe::Search { .. }) && !self.has_legal_move() {
                return Some(self.no_move_ending());
            }
            let n = end.n_move_plies / 2;
            return Some(Ending::now(GameResult::Draw, EndReason::NMoveRule(n)));
        }
        let repeated = match probe {
            EndProbe::Search { ply } => self.repeats_in_search(ply),
            _ => self.is_threefold(),
        };
        if repeated {
            return Some(Ending::now(GameResult::Draw, EndReason::Repetition));
        }
        if self.insufficient_material() {
            return Some(Ending::now(
                GameResult::Draw,
                EndReason::InsufficientMaterial,
            ));
        }
        None
    }

    /// The bare-king rules of the variant (Robado, Great Shatranj's bare king). In the
    /// search (and quiescence) a bare side to move that cannot take the opponent's last piece is lost
    /// one turn early (or stalemated).
    #[inline]
    fn bare_king_ending(&mut self, probe: EndProbe) -> Option<Ending> {
        let us = self.side();
        let them = us.flip();
        match self.rules.def.end.bare_king {
            BareKingRule::None => None,
            BareKingRule::RobadoDraw => (self.is_bare(Color::White, true)
                || self.is_bare(Color::Black, true))
            .then(|| Ending::now(GameResult::Draw, EndReason::Robado)),
            BareKingRule::ShatranjWin => {
                let us_bare = self.is_bare(us, false);
                let them_bare = self.is_bare(them, false);
                if us_bare && them_bare {
                    return Some(Ending::now(GameResult::Draw, EndReason::BareKings));
                }
                if them_bare {
                    return Some(Ending::now(GameResult::win_for(us), EndReason::BareKing));
                }
                if !(us_bare && probe != EndProbe::Game) {
                    return None;
                }
                // Only taking the opponent's last piece saves us, and only when it is
                // the last one.
                let others =
                    (self.pieces_of_color(them) & !self.pieces(them, self.rules.king)).count();
                if others < 2 {
                    return None;
                }
                if !self.has_legal_move() {
                    return Some(self.no_move_ending());
                }
                Some(Ending {
                    result: GameResult::win_for(them),
                    reason: EndReason::BareKing,
                    plies_away: 1,
                })
            }
        }
    }

    /// True when the side to move has a legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        !list.is_empty()
    }

    /// How the game ends when the side to move has no legal move, as the variant reads
    /// it: mate, stalemate (a loss in Historia, a draw elsewhere), Shatar's mate rules.
    pub fn no_move_ending(&self) -> Ending {
        let them = self.side().flip();
        let check = self.in_check();
        match self.rules.def.end.no_move {
            NoMoveRule::SideToMoveLoses => Ending::now(
                GameResult::win_for(them),
                if check {
                    EndReason::Mate(them)
                } else {
                    EndReason::StalemateLoses
                },
            ),
            NoMoveRule::MateLosesStalemateDraws if !check => {
                Ending::now(GameResult::Draw, EndReason::Stalemate)
            }
            NoMoveRule::MateLosesStalemateDraws => self.mate_ending(),
        }
    }

    /// The result of a checkmate of the side to move, with Shatar's rules if the game has
    /// them.
    fn mate_ending(&self) -> Ending {
        let r = self.rules;
        let mater = self.side().flip();
        let Some(forbidden) = r.forbidden_sole_mater else {
            return Ending::now(GameResult::win_for(mater), EndReason::Mate(mater));
        };
        let checkers = self.checkers();
        if checkers
            .squares()
            .all(|s| piece_type(self.piece_on(s)) == forbidden)
        {
            return Ending::now(GameResult::win_for(self.side()), EndReason::KnightMate);
        }
        // The series: the mater's consecutive checking moves, back from the mate.
        let h = self.history();
        let mut shak = self.state().shak;
        let mut idx = h.len();
        while !shak && idx >= 2 {
            idx -= 2;
            let s = &h[idx];
            if s.checkers.is_empty() {
                break;
            }
            shak = s.shak;
        }
        if shak {
            Ending::now(GameResult::win_for(mater), EndReason::Mate(mater))
        } else {
            Ending::now(GameResult::Draw, EndReason::Niol)
        }
    }

    /// Dead material under the variant's material rule.
    pub fn insufficient_material(&self) -> bool {
        let r = self.rules;
        match r.def.end.material {
            MaterialRule::None => false,
            MaterialRule::BareKingsOnly => {
                self.is_bare(Color::White, true) && self.is_bare(Color::Black, true)
            }
            MaterialRule::Fide => {
                if !self.hand_is_empty(Color::White) || !self.hand_is_empty(Color::Black) {
                    return false;
                }
                let kings = self.pieces_of_type(r.king);
                let others = self.occupied() & !kings;
                let of = |c: char| -> B {
                    r.type_of_letter(c)
                        .map(|t: PieceType| self.pieces_of_type(t))
                        .unwrap_or(B::EMPTY)
                };
                let knights = of('N');
                let bishops = of('B');
                if others.is_empty() {
                    return true;
                }
                if others.count() == 1 && (others & (knights | bishops)).any() {
                    return true;
                }
                others == bishops
                    && ((bishops & r.dark) == bishops || (bishops & r.dark).is_empty())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::compile::BoardWidth;
    use crate::rules::position::Position;
    use crate::rules::variant::variant_id;

    /// Chess from the start position after `moves`, played as a game before a search.
    fn chess_after(moves: &str) -> Position<u64> {
        let id = variant_id("normal").expect("chess is a variant");
        let start = crate::rules::variant::all_variants()[id].start_fen;
        let mut pos = Position::<u64>::from_fen(u64::rules(id), start).expect("start FEN");
        for text in moves.split_whitespace() {
            let m = pos.parse_move(text).expect("legal move");
            pos.make(m);
        }
        pos
    }

    #[test]
    fn a_repeat_inside_the_searched_line_is_a_draw() {
        // The knights go out and back: the start position again, 4 plies later.
        let pos = chess_after("g1f3 g8f6 f3g1 f6g8");
        assert_eq!(pos.repetitions(), 1);
        // Searched from the start position (4 plies up), the earlier occurrence is
        // the root itself: not yet a draw. From 5 plies up it lies inside the line.
        assert!(!pos.repeats_in_search(4));
        assert!(pos.repeats_in_search(5));
        // A root after the first move: the start position was played before the
        // search, once, so the repeat is not a draw inside the tree.
        assert!(!pos.repeats_in_search(3));
    }

    #[test]
    fn a_third_occurrence_is_a_draw_at_any_ply() {
        let pos = chess_after("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8");
        assert_eq!(pos.repetitions(), 2);
        assert!(pos.is_threefold());
        assert!(pos.repeats_in_search(1));
    }

    #[test]
    fn no_earlier_occurrence_is_no_draw() {
        let pos = chess_after("g1f3 g8f6 f3g1");
        assert_eq!(pos.repetitions(), 0);
        assert!(!pos.repeats_in_search(100));
    }
}
