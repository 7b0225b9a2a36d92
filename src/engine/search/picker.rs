//! The staged move picker of the main search: moves come out best first, and each group
//! is generated only when the moves before it have not already refuted the node.
//!
//! Out of check the stages are: the table's move (checked to be a legal move of this
//! position, since the table is shared and keyed by hash), the captures and promotions
//! that do not lose material by SEE, the two killers and the countermove (checked the
//! same way), the other quiet moves by history, and last the losing captures. In check
//! all evasions are generated and ordered at once.

use super::ordering::LOSING_CAPTURE;
use super::Worker;
use crate::rules::compile::BoardWidth;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::{LegalityInfo, MoveSet};

/// Where a picker is in its sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TableMove,
    GenerateNoisy,
    GoodNoisy,
    Refutations,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    GenerateEvasions,
    Evasions,
    Done,
}

/// The ordering score of the killers and the countermove, in that order: below every
/// good capture, above every quiet move's history.
const REFUTATION_SCORES: [i32; 3] = [(1 << 26) + 1, 1 << 26, (1 << 26) - 1];

/// The moves of one node, handed out by [`Worker::next_move`].
pub(super) struct MovePicker<B: BoardWidth> {
    stage: Stage,
    table_move: Move,
    /// Killers and countermove (`Move::NONE` where missing or repeated).
    refutations: [Move; 3],
    refutation_index: usize,
    /// The noisy moves in `list[..noisy_end]`, then the quiet ones after them.
    list: MoveList,
    scores: Vec<i32>,
    /// The next unpicked noisy move (good ones first, the losing ones after quiets).
    noisy_next: usize,
    noisy_end: usize,
    /// The next unpicked quiet (or evasion) move.
    quiet_next: usize,
    legality: Option<LegalityInfo<B>>,
    /// Moves handed out so far (for "no legal move" and the move index).
    pub(super) handed_out: usize,
}

impl<B: BoardWidth> MovePicker<B> {
    /// A picker for a node whose table move is `table_move`; `refutations` are its
    /// killers and countermove; `scores` is the node's reusable score buffer.
    pub(super) fn new(
        in_check: bool,
        table_move: Move,
        refutations: [Move; 3],
        mut scores: Vec<i32>,
    ) -> Self {
        scores.clear();
        let mut r = refutations;
        for i in 0..3 {
            if r[i] == table_move || r[..i].contains(&r[i]) {
                r[i] = Move::NONE;
            }
        }
        MovePicker {
            stage: if in_check {
                Stage::GenerateEvasions
            } else {
                Stage::TableMove
            },
            table_move,
            refutations: r,
            refutation_index: 0,
            list: MoveList::new(),
            scores,
            noisy_next: 0,
            noisy_end: 0,
            quiet_next: 0,
            legality: None,
            handed_out: 0,
        }
    }

    /// Gives the score buffer back (for the next node at this ply).
    pub(super) fn into_scores(self) -> Vec<i32> {
        self.scores
    }

    /// The index of the best-scored move in `list[from..to]`, swapped to `from`.
    fn select(&mut self, from: usize, to: usize) -> Move {
        // The first of the highest scores (ties keep the list order).
        let scores = &self.scores[from..to];
        let (mut best, mut best_score) = (from, scores[0]);
        for (j, &s) in scores.iter().enumerate().skip(1) {
            if s > best_score {
                best_score = s;
                best = from + j;
            }
        }
        if best != from {
            self.list.as_mut_slice().swap(from, best);
            self.scores.swap(from, best);
        }
        self.list.as_slice()[from]
    }

    /// True when `m` was handed out before the list of `set` was generated: the table
    /// move, and for the quiet moves the refutations (those that failed their checks are
    /// `Move::NONE` by then).
    fn handed_out_early(&self, m: Move, set: MoveSet) -> bool {
        m == self.table_move || (set == MoveSet::Quiet && self.refutations.contains(&m))
    }
}

impl<B: BoardWidth> Worker<'_, B> {
    /// The picker's next move and its ordering score, or `None` when the node's moves
    /// are all out.
    pub(super) fn next_move(&mut self, p: &mut MovePicker<B>, ply: usize) -> Option<(Move, i32)> {
        loop {
            match p.stage {
                Stage::TableMove => {
                    p.stage = Stage::GenerateNoisy;
                    p.legality = Some(self.pos.legality());
                    let m = p.table_move;
                    if self.pos.is_pseudo_legal(m) && self.legal_here(p, m) {
                        return Some(self.hand_out(p, m, 1 << 30));
                    }
                    p.table_move = Move::NONE;
                }
                Stage::GenerateNoisy => {
                    self.generate(p, MoveSet::Noisy);
                    p.noisy_end = p.list.len();
                    for i in 0..p.noisy_end {
                        p.scores[i] = self.noisy_score(p.list.as_slice()[i]);
                    }
                    p.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    if p.noisy_next < p.noisy_end {
                        let m = p.select(p.noisy_next, p.noisy_end);
                        let score = p.scores[p.noisy_next];
                        if score > LOSING_CAPTURE / 2 {
                            p.noisy_next += 1;
                            return Some(self.hand_out(p, m, score));
                        }
                    }
                    p.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    while p.refutation_index < 3 {
                        let i = p.refutation_index;
                        p.refutation_index += 1;
                        let m = p.refutations[i];
                        if m != Move::NONE
                            && self.pos.is_pseudo_legal(m)
                            && !self.pos.is_noisy(m)
                            && self.legal_here(p, m)
                        {
                            return Some(self.hand_out(p, m, REFUTATION_SCORES[i]));
                        }
                        p.refutations[i] = Move::NONE;
                    }
                    p.stage = Stage::GenerateQuiet;
                }
                Stage::GenerateQuiet => {
                    self.generate(p, MoveSet::Quiet);
                    let keys = self.continuation_keys(ply);
                    for i in p.noisy_end..p.list.len() {
                        let m = p.list.as_slice()[i];
                        p.scores[i] = self.quiet_score(self.move_slot(m), &keys, true);
                    }
                    p.quiet_next = p.noisy_end;
                    p.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if p.quiet_next < p.list.len() {
                        let m = p.select(p.quiet_next, p.list.len());
                        let score = p.scores[p.quiet_next];
                        p.quiet_next += 1;
                        return Some(self.hand_out(p, m, score));
                    }
                    p.stage = Stage::BadNoisy;
                }
                Stage::BadNoisy => {
                    if p.noisy_next < p.noisy_end {
                        let m = p.select(p.noisy_next, p.noisy_end);
                        let score = p.scores[p.noisy_next];
                        p.noisy_next += 1;
                        return Some(self.hand_out(p, m, score));
                    }
                    p.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    self.pos.generate_legal(&mut p.list);
                    p.scores.clear();
                    p.scores.resize(p.list.len(), 0);
                    self.order(&p.list, p.table_move, ply, &mut p.scores);
                    p.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    if p.quiet_next < p.list.len() {
                        let m = p.select(p.quiet_next, p.list.len());
                        let score = p.scores[p.quiet_next];
                        p.quiet_next += 1;
                        return Some(self.hand_out(p, m, score));
                    }
                    p.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    fn hand_out(&self, p: &mut MovePicker<B>, m: Move, score: i32) -> (Move, i32) {
        p.handed_out += 1;
        (m, score)
    }

    /// True when the pseudo-legal `m` is legal (the picker's legality facts are found
    /// at its first stage).
    fn legal_here(&mut self, p: &MovePicker<B>, m: Move) -> bool {
        match &p.legality {
            Some(info) => self.pos.is_legal_given(m, info),
            None => self.pos.is_legal(m),
        }
    }

    /// Appends the legal moves of `set` not handed out already, with room in the scores.
    fn generate(&mut self, p: &mut MovePicker<B>, set: MoveSet) {
        let start = p.list.len();
        self.pos.generate_set(&mut p.list, set);
        let mut kept = start;
        for i in start..p.list.len() {
            let m = p.list.as_slice()[i];
            if !p.handed_out_early(m, set) && self.legal_here(p, m) {
                p.list.as_mut_slice()[kept] = m;
                kept += 1;
            }
        }
        p.list.truncate(kept);
        p.scores.resize(kept, 0);
    }
}
