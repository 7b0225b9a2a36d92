//! One self-play game: an opening, random plies, then sako's search for every move
//! until the rules end the game (or the ply cap does), keeping the positions that
//! teach the evaluation something.

use std::sync::atomic::{AtomicBool, Ordering};

use super::record::Record;
use crate::engine::eval::Eval;
use crate::engine::history::HistoryBank;
use crate::engine::search::{Score, SearchOptions};
use crate::engine::time::Limits;
use crate::engine::tt::Tt;
use crate::matches::openings::Rng;
use crate::rules::position::outcome::GameResult;
use crate::rules::position::Color;
use crate::Game;

/// A game still going after this many plies (random plies included) is stopped and
/// counted as a draw.
pub const PLY_CAP: usize = 800;

/// What every game of a run shares.
pub(crate) struct GamePlan<'a> {
    /// sako's variant name.
    pub variant: &'static str,
    /// The variant's evaluation.
    pub eval: &'a Eval,
    /// Start positions to draw from (`None`: the variant's start position).
    pub starts: Vec<Option<String>>,
    /// The limits of every search.
    pub limits: Limits,
    /// Random plies played before the search takes over: the fewest and the most
    /// (each game draws its count uniformly; equal, no number is drawn).
    pub random_plies: (usize, usize),
    /// Ending decided games early, if at all.
    pub adjudication: Option<Adjudication>,
}

/// When a game is over before the rules say so. Scores are the searches' (for White),
/// mate scores counting as beyond every threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adjudication {
    /// A side wins when every score of `win_plies` searched plies in a row is at least
    /// this many centipawns for it.
    pub win_cp: i32,
    /// See `win_cp`.
    pub win_plies: usize,
    /// A draw when, from ply `draw_after` on (random plies counted), every score of
    /// `draw_plies` searched plies in a row is within this many centipawns of 0.
    pub draw_cp: i32,
    /// See `draw_cp`.
    pub draw_plies: usize,
    /// See `draw_cp`.
    pub draw_after: usize,
}

impl Default for Adjudication {
    /// Win at 2000 cp for 6 plies (3 searches of each side); draw within 10 cp for
    /// 12 plies from ply 80 on.
    fn default() -> Self {
        Adjudication {
            win_cp: 2000,
            win_plies: 6,
            draw_cp: 10,
            draw_plies: 12,
            draw_after: 80,
        }
    }
}

/// The adjudication's counters through a game.
#[derive(Default)]
struct Streaks {
    white: usize,
    black: usize,
    level: usize,
}

impl Streaks {
    /// Counts the score of a search made after `ply` plies; the verdict, if any.
    fn add(&mut self, a: &Adjudication, ply: usize, white_cp: i32) -> Option<GameResult> {
        self.white = if white_cp >= a.win_cp {
            self.white + 1
        } else {
            0
        };
        self.black = if white_cp <= -a.win_cp {
            self.black + 1
        } else {
            0
        };
        self.level = if ply >= a.draw_after && white_cp.abs() <= a.draw_cp {
            self.level + 1
        } else {
            0
        };
        if self.white >= a.win_plies {
            Some(GameResult::WhiteWins)
        } else if self.black >= a.win_plies {
            Some(GameResult::BlackWins)
        } else if self.level >= a.draw_plies {
            Some(GameResult::Draw)
        } else {
            None
        }
    }
}

/// Why searched positions were left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skipped {
    /// The side to move was in check.
    pub in_check: usize,
    /// The best move captured or promoted.
    pub noisy: usize,
    /// The search found a mate.
    pub mate: usize,
}

impl Skipped {
    /// All skipped positions.
    pub fn total(&self) -> usize {
        self.in_check + self.noisy + self.mate
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Skipped) {
        self.in_check += other.in_check;
        self.noisy += other.noisy;
        self.mate += other.mate;
    }
}

/// A finished game: how it went and the positions kept from it.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// The game's number in its run.
    pub number: u64,
    /// The position it started from, before the random plies.
    pub start_fen: String,
    /// Every move played: the random plies first, then the searched ones.
    pub moves: Vec<String>,
    /// How many of `moves` were random.
    pub random_plies: usize,
    /// The result: the rules' verdict, or a draw at the ply cap.
    pub result: GameResult,
    /// True when the ply cap ended the game.
    pub capped: bool,
    /// True when the adjudication ended the game.
    pub adjudicated: bool,
    /// The positions kept, in the order played.
    pub records: Vec<Record>,
    /// The positions searched but left out.
    pub skipped: Skipped,
}

/// A kept position before the game's result is known.
struct Kept {
    fen: String,
    white_cp: i32,
}

/// Plays game `number` with the random stream of `seed`, using (and first clearing)
/// `tt` and `histories`. `Ok(None)` when `abort` was set before the game ended.
pub(crate) fn play_game(
    plan: &GamePlan,
    number: u64,
    seed: u64,
    tt: &Tt,
    histories: &HistoryBank,
    abort: &AtomicBool,
) -> Result<Option<FinishedGame>, String> {
    tt.clear();
    histories.clear();
    let mut rng = Rng::new(seed);
    let start = &plan.starts[rng.below(plan.starts.len())];
    let mut game = Game::new(plan.variant, start.as_deref())?;
    let start_fen = game.fen();
    let (fewest, most) = plan.random_plies;
    let plies = if most > fewest {
        fewest + rng.below(most - fewest + 1)
    } else {
        fewest
    };
    let mut moves = random_plies(&mut game, plies, &mut rng)?;
    let random = moves.len();
    let (mut kept, mut skipped) = (Vec::new(), Skipped::default());
    let mut streaks = Streaks::default();
    let (result, capped, adjudicated) = loop {
        if let Some(o) = game.outcome() {
            break (o.result, false, false);
        }
        if moves.len() >= PLY_CAP {
            break (GameResult::Draw, true, false);
        }
        if abort.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let (best, white_cp) =
            search_move(plan, &mut game, tt, histories, &mut kept, &mut skipped)?;
        let verdict = plan
            .adjudication
            .as_ref()
            .and_then(|a| streaks.add(a, moves.len(), white_cp));
        game.play(&best)?;
        moves.push(best);
        // The rules' verdict, if the move just played ended the game, comes first.
        if let Some(r) = verdict.filter(|_| game.outcome().is_none()) {
            break (r, false, true);
        }
    };
    let records = kept
        .into_iter()
        .map(|k| Record {
            fen: k.fen,
            score: k.white_cp,
            result,
        })
        .collect();
    Ok(Some(FinishedGame {
        number,
        start_fen,
        moves,
        random_plies: random,
        result,
        capped,
        adjudicated,
        records,
        skipped,
    }))
}

/// Plays up to `plies` uniformly random legal moves (fewer if the game ends first).
fn random_plies(game: &mut Game, plies: usize, rng: &mut Rng) -> Result<Vec<String>, String> {
    let mut played = Vec::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())].clone();
        game.play(&m)?;
        played.push(m);
    }
    Ok(played)
}

/// Searches the current position and returns the best move and the score for White (a
/// mate as ±32000); the position goes to `kept` unless it is in check, the best move is
/// noisy or the score is a mate.
fn search_move(
    plan: &GamePlan,
    game: &mut Game,
    tt: &Tt,
    histories: &HistoryBank,
    kept: &mut Vec<Kept>,
    skipped: &mut Skipped,
) -> Result<(String, i32), String> {
    let stop = AtomicBool::new(false);
    let opts = SearchOptions {
        histories: Some(histories),
        ..SearchOptions::new(plan.limits.clone(), tt, plan.eval, &stop)
    };
    let found = game.search(&opts, &mut |_| {})?;
    let best = found
        .best
        .ok_or_else(|| format!("no move found in {} though the game goes on", game.fen()))?;
    let for_white = |cp: i32| {
        if game.side_to_move() == Color::White {
            cp
        } else {
            -cp
        }
    };
    let white_cp = match found.score {
        Score::Cp(cp) => for_white(cp),
        Score::Mate(m) => for_white(if m > 0 { 32000 } else { -32000 }),
    };
    if game.in_check() {
        skipped.in_check += 1;
    } else if game.is_noisy(&best)? {
        skipped.noisy += 1;
    } else {
        match found.score {
            Score::Mate(_) => skipped.mate += 1,
            Score::Cp(_) => kept.push(Kept {
                fen: game.fen(),
                white_cp,
            }),
        }
    }
    Ok((best, white_cp))
}
