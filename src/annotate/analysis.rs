//! One game analysed: every position before and after each move searched (forward,
//! with one transposition table for the game), then each move valued and judged.
//!
//! A move's value is the search score of the position before it when it is the move
//! the search chose (it is that search's line), else the negated score of the
//! position after it; a move that ends the game is worth its result.

use std::sync::atomic::AtomicBool;

use crate::engine::eval::Eval;
use crate::engine::history::HistoryBank;
use crate::engine::search::{Score, SearchInfo, SearchOptions};
use crate::engine::time::Limits;
use crate::engine::tt::Tt;
use crate::matches::pgn::PgnGame;
use crate::rules::position::outcome::GameResult;
use crate::rules::position::Color;
use crate::Game;

use super::judge::{self, Judgement};
use super::pgn_out::pgn_move_text;
use super::source::SourceGame;
use super::AnnotateError;

/// The most plies of a better line written.
pub const BETTER_LINE_PLIES: usize = 8;

/// One annotated move.
#[derive(Clone, Debug)]
pub struct MoveNote {
    /// The move in the rules core's coordinate spelling.
    pub coordinate: String,
    /// The move as the PGN writes it.
    pub text: String,
    /// The move's value from White's point of view.
    pub score: Score,
    /// The depth of the search that gave the value (0: the game ended).
    pub depth: u32,
    /// The mover's expected result lost against the best move (0 to 1).
    pub loss: f64,
    /// `?!`, `?` or `??` when the loss crossed a threshold.
    pub judgement: Option<Judgement>,
    /// The search's line where the move was judged.
    pub better: Option<Better>,
}

/// The line the search preferred to a judged move.
#[derive(Clone, Debug)]
pub struct Better {
    /// The moves as the PGN writes them, the first one instead of the move played.
    pub moves: Vec<String>,
    /// Its value from White's point of view.
    pub score: Score,
    /// The depth of its search.
    pub depth: u32,
}

/// A game with a note on every move.
#[derive(Clone, Debug)]
pub struct AnnotatedGame {
    /// 1-based number of the game in the input file.
    pub number: usize,
    /// The game as read.
    pub pgn: PgnGame,
    /// The variant's name.
    pub variant: &'static str,
    /// The start FEN when the game had one.
    pub start_fen: Option<String>,
    /// One note per move.
    pub notes: Vec<MoveNote>,
    /// Why the game ended: the rules core's reason when the last position is an end,
    /// else the input's closing comment when it is no engine score.
    pub ending: Option<String>,
}

/// What every search of a game is given.
pub(super) struct Ctx<'a> {
    pub limits: &'a Limits,
    pub threads: usize,
    pub hash_mb: usize,
    pub eval: &'a Eval,
    /// Called after each position (for the progress bar).
    pub on_position: &'a (dyn Fn() + Sync),
}

/// A searched position, scores for its side to move.
struct Searched {
    best: Option<String>,
    score: Score,
    depth: u32,
    pv: Vec<String>,
}

/// A position's value for its side to move: searched, or the game's end.
enum Value {
    Searched(Searched),
    Ended(Option<GameResult>),
}

/// Searches every position of `g` and writes a note for each of its moves.
pub(super) fn analyse(g: &SourceGame, ctx: &Ctx) -> Result<AnnotatedGame, AnnotateError> {
    let tt = Tt::try_new(ctx.hash_mb).map_err(AnnotateError::Hash)?;
    let histories = HistoryBank::new();
    let mut game = start(g)?;
    let mut values = Vec::with_capacity(g.moves.len() + 1);
    for i in 0..=g.moves.len() {
        values.push(value(&mut game, ctx, &tt, &histories)?);
        (ctx.on_position)();
        if let Some(m) = g.moves.get(i) {
            game.play(m).map_err(AnnotateError::Game)?;
        }
    }
    let mut game = start(g)?;
    let mut notes = Vec::with_capacity(g.moves.len());
    for (i, m) in g.moves.iter().enumerate() {
        notes.push(note(&mut game, m, &values[i], &values[i + 1]));
        game.play(m).map_err(AnnotateError::Game)?;
    }
    let ending = match game.outcome() {
        Some(o) => Some(o.reason),
        None => g
            .pgn
            .comments
            .last()
            .filter(|c| !looks_like_score(c))
            .cloned(),
    };
    Ok(AnnotatedGame {
        number: g.number,
        pgn: g.pgn.clone(),
        variant: g.variant,
        start_fen: g.start_fen.clone(),
        notes,
        ending,
    })
}

fn start(g: &SourceGame) -> Result<Game, AnnotateError> {
    Game::new(g.variant, g.start_fen.as_deref()).map_err(AnnotateError::Game)
}

/// True for an engine's move comment (`+0.35/18 0.81s`, `-M3/20`, `n/a 0.10s`).
fn looks_like_score(c: &str) -> bool {
    let mut chars = c.chars();
    match chars.next() {
        Some('+' | '-') => chars.next().is_some_and(|d| d.is_ascii_digit() || d == 'M'),
        _ => c.starts_with("n/a"),
    }
}

/// The value of the current position: the game's end when there is no legal move,
/// else a search.
fn value(
    game: &mut Game,
    ctx: &Ctx,
    tt: &Tt,
    histories: &HistoryBank,
) -> Result<Value, AnnotateError> {
    if game.legal_moves().is_empty() {
        return Ok(Value::Ended(game.outcome().map(|o| o.result)));
    }
    let stop = AtomicBool::new(false);
    let opts = SearchOptions {
        threads: ctx.threads,
        histories: Some(histories),
        ..SearchOptions::new(ctx.limits.clone(), tt, ctx.eval, &stop)
    };
    let mut pv: Vec<String> = Vec::new();
    let result = game
        .search(&opts, &mut |info: &SearchInfo| {
            if info.multipv == 1 {
                pv = info.pv.clone();
            }
        })
        .map_err(AnnotateError::Game)?;
    if pv.first() != result.best.as_ref() {
        pv = result
            .best
            .iter()
            .chain(result.ponder.iter())
            .cloned()
            .collect();
    }
    Ok(Value::Searched(Searched {
        best: result.best,
        score: result.score,
        depth: result.depth,
        pv,
    }))
}

/// The note on move `m` played from the current position (worth `before` to its side
/// to move), `after` the value of the position it leads to.
fn note(game: &mut Game, m: &str, before: &Value, after: &Value) -> MoveNote {
    let mover = game.side_to_move();
    let text = pgn_move_text(game, m);
    let white = |s: Score| {
        if mover == Color::White {
            s
        } else {
            judge::negate(s)
        }
    };
    let played = match after {
        Value::Searched(s) => (judge::negate(s.score), s.depth),
        Value::Ended(result) => (ended_value(*result, mover), 0),
    };
    let Value::Searched(best) = before else {
        // No legal move before this one: cannot happen for a replayed game.
        return MoveNote {
            coordinate: m.to_string(),
            text,
            score: white(played.0),
            depth: played.1,
            loss: 0.0,
            judgement: None,
            better: None,
        };
    };
    let chosen = best.best.as_deref() == Some(m);
    let (score, depth, loss) = if chosen {
        (best.score, best.depth, 0.0)
    } else {
        (played.0, played.1, judge::loss(best.score, played.0))
    };
    let judgement = Judgement::from_loss(loss);
    let better = judgement.map(|_| Better {
        moves: line_texts(game, &best.pv),
        score: white(best.score),
        depth: best.depth,
    });
    MoveNote {
        coordinate: m.to_string(),
        text,
        score: white(score),
        depth,
        loss,
        judgement,
        better,
    }
}

/// What the game's end is worth to `mover`, who made the last move.
fn ended_value(result: Option<GameResult>, mover: Color) -> Score {
    match (result, mover) {
        (Some(GameResult::WhiteWins), Color::White)
        | (Some(GameResult::BlackWins), Color::Black) => Score::Mate(1),
        (Some(GameResult::WhiteWins), _) | (Some(GameResult::BlackWins), _) => Score::Mate(-1),
        _ => Score::Cp(0),
    }
}

/// The PGN texts of the first [`BETTER_LINE_PLIES`] moves of `pv` from the current
/// position (up to the first that is not legal).
fn line_texts(game: &Game, pv: &[String]) -> Vec<String> {
    let mut g = game.clone();
    let mut out = Vec::new();
    for m in pv.iter().take(BETTER_LINE_PLIES) {
        let text = pgn_move_text(&mut g, m);
        if g.play(m).is_err() {
            break;
        }
        out.push(text);
    }
    out
}
