//! Game-end rules: mate and stalemate as the variant reads them, bare kings, Shatar's
//! mate rules (knight mate, Niol), Robado, the n-move rule, repetition and dead material.

use crate::rules::compile::{BoardWidth, PieceType};
use crate::rules::moves::MoveList;
use crate::rules::position::{piece_type, Position, BLACK, WHITE};
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
    pub fn win_for(c: usize) -> GameResult {
        if c == WHITE {
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

/// A finished game: result and the rule that decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Who won.
    pub result: GameResult,
    /// The rule, as printed between braces.
    pub reason: String,
}

impl Outcome {
    fn new(result: GameResult, reason: impl Into<String>) -> Outcome {
        Outcome {
            result,
            reason: reason.into(),
        }
    }

    /// `1-0 {White mates}` etc.
    pub fn line(&self) -> String {
        format!("{} {{{}}}", self.result.pgn(), self.reason)
    }
}

fn mates(c: usize) -> &'static str {
    if c == WHITE {
        "White mates"
    } else {
        "Black mates"
    }
}

impl<B: BoardWidth> Position<B> {
    /// True when colour `c` has nothing but its king on the board (and, with
    /// `count_hand`, nothing in hand either).
    pub fn is_bare(&self, c: usize, count_hand: bool) -> bool {
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
        let key = self.key();
        let h = self.history();
        let window = (self.state().halfmove as usize).min(h.len());
        let mut count = 0;
        // Walk back ply by ply; a state reached by no move (the setup, or a null move
        // in the search) ends the walk: nothing before it repeats this position.
        let mut k = h.len();
        let mut last = self.state().last_move;
        for step in 1..=window {
            if last == crate::rules::moves::Move::NONE {
                break;
            }
            k -= 1;
            last = h[k].last_move;
            if step % 2 == 0 && h[k].key == key {
                count += 1;
            }
        }
        count
    }

    /// The game's result if it has ended here, with the rule that ended it.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let r = self.rules;
        let end = &r.def.end;
        let us = self.side();
        let them = us ^ 1;
        match end.bare_king {
            BareKingRule::RobadoDraw => {
                if self.is_bare(WHITE, true) || self.is_bare(BLACK, true) {
                    return Some(Outcome::new(GameResult::Draw, "Robado"));
                }
            }
            BareKingRule::ShatranjWin => {
                let us_bare = self.is_bare(us, false);
                let them_bare = self.is_bare(them, false);
                if us_bare && them_bare {
                    return Some(Outcome::new(GameResult::Draw, "Bare kings"));
                }
                if them_bare {
                    return Some(Outcome::new(GameResult::win_for(us), "Bare king"));
                }
            }
            BareKingRule::None => {}
        }
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        if list.is_empty() {
            let check = self.in_check();
            return Some(match end.no_move {
                NoMoveRule::SideToMoveLoses => Outcome::new(
                    GameResult::win_for(them),
                    if check {
                        mates(them)
                    } else {
                        "stalemate: the side to move has no legal move"
                    },
                ),
                NoMoveRule::MateLosesStalemateDraws if !check => {
                    Outcome::new(GameResult::Draw, "Stalemate")
                }
                NoMoveRule::MateLosesStalemateDraws => self.mate_outcome(),
            });
        }
        if self.state().halfmove >= end.n_move_plies {
            return Some(Outcome::new(
                GameResult::Draw,
                format!("{}-move rule", end.n_move_plies / 2),
            ));
        }
        if self.is_threefold() {
            return Some(Outcome::new(GameResult::Draw, "Draw by repetition"));
        }
        if self.insufficient_material() {
            return Some(Outcome::new(GameResult::Draw, "Insufficient material"));
        }
        None
    }

    /// The result of a checkmate of the side to move, with Shatar's rules if the game has
    /// them.
    pub fn mate_outcome(&self) -> Outcome {
        let r = self.rules;
        let mater = self.side() ^ 1;
        let Some(forbidden) = r.forbidden_sole_mater else {
            return Outcome::new(GameResult::win_for(mater), mates(mater));
        };
        let checkers = self.checkers();
        if checkers
            .squares()
            .all(|s| piece_type(self.piece_on(s)) == forbidden)
        {
            return Outcome::new(GameResult::win_for(self.side()), "knight mate is forbidden");
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
            Outcome::new(GameResult::win_for(mater), mates(mater))
        } else {
            Outcome::new(GameResult::Draw, "Niol")
        }
    }

    /// Dead material under the variant's material rule.
    pub fn insufficient_material(&self) -> bool {
        let r = self.rules;
        match r.def.end.material {
            MaterialRule::None => false,
            MaterialRule::BareKingsOnly => self.is_bare(WHITE, true) && self.is_bare(BLACK, true),
            MaterialRule::Fide => {
                if !self.hand_is_empty(WHITE) || !self.hand_is_empty(BLACK) {
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
