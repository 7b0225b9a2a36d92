//! A game of any variant behind one object: picks the bitboard width for the variant
//! and hides it behind a trait object, so callers (CLI, protocols, tests) need not be
//! generic. Everything inside stays monomorphised per width.

use rayon::prelude::*;

use crate::engine::eval::Eval;
use crate::engine::search::{SearchInfo, SearchOptions, SearchResult};
use crate::engine::strength::{self, LevelParams, LineRecorder};
use crate::engine::wdl::{self, Phase, Wdl};
use crate::rules::compile::BoardWidth;
use crate::rules::moves::{Move, MoveList};
use crate::rules::position::notation::MoveError;
use crate::rules::position::outcome::Outcome;
use crate::rules::position::{Color, FenError, Position};
use crate::rules::variant::{all_variants, variant_id, VariantDef};

/// Why a [`Game`] could not do what it was asked. `Display` gives the message the
/// front ends print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// No variant has this name.
    UnknownVariant(String),
    /// The FEN could not be read.
    BadFen(FenError),
    /// The move is not legal here, or not a move at all.
    IllegalMove(MoveError),
    /// The evaluation given is for another variant than the game's.
    WrongEval {
        /// The evaluation's variant.
        eval: &'static str,
        /// The game's variant.
        game: &'static str,
    },
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::UnknownVariant(name) => f.write_str(&unknown_variant(name)),
            GameError::BadFen(e) => e.fmt(f),
            GameError::IllegalMove(e) => e.fmt(f),
            GameError::WrongEval { eval, game } => {
                write!(f, "the evaluation is for {eval}, the game is {game}")
            }
        }
    }
}

impl std::error::Error for GameError {}

impl From<GameError> for String {
    /// The message, for callers whose errors are still text.
    fn from(e: GameError) -> String {
        e.to_string()
    }
}

/// Operations on a position of some width, for dynamic dispatch.
trait GameOps: Send {
    fn variant(&self) -> &'static VariantDef;
    fn fen(&self) -> String;
    fn legal_moves(&mut self) -> Vec<String>;
    fn play(&mut self, text: &str) -> Result<(), GameError>;
    fn san(&mut self, text: &str) -> Result<String, GameError>;
    fn coordinates(&mut self, text: &str) -> Result<String, GameError>;
    fn undo(&mut self) -> bool;
    fn outcome(&mut self) -> Option<Outcome>;
    fn perft(&mut self, depth: u32, threads: usize) -> u64;
    fn divide(
        &mut self,
        depth: u32,
        threads: usize,
        on_move: &(dyn Fn(u64) + Sync),
    ) -> Vec<(String, u64)>;
    fn in_check(&self) -> bool;
    fn is_noisy(&mut self, text: &str) -> Result<bool, GameError>;
    fn side_to_move(&self) -> Color;
    fn key(&self) -> u64;
    fn check_key(&self) -> bool;
    fn boxed_clone(&self) -> Box<dyn GameOps>;
    fn search(
        &mut self,
        opts: &SearchOptions,
        on_info: &mut (dyn FnMut(&SearchInfo) + Send),
    ) -> SearchResult;
    fn evaluate(&self, eval: &Eval) -> i32;
    fn wdl_phase(&self) -> Phase;
    fn material_loss(&mut self, text: &str, eval: &Eval) -> Result<i32, GameError>;
}

#[derive(Clone)]
struct Tracked<B: BoardWidth> {
    pos: Position<B>,
    played: Vec<Move>,
}

impl<B: BoardWidth> Tracked<B> {
    fn root_moves(&mut self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.pos.generate_legal(&mut list);
        list.as_slice().to_vec()
    }

    fn count_after(&self, m: Move, depth: u32) -> u64 {
        let mut p = self.pos.clone();
        p.make(m);
        p.perft(depth - 1)
    }
}

impl<B: BoardWidth> GameOps for Tracked<B> {
    fn variant(&self) -> &'static VariantDef {
        self.pos.rules.def
    }
    fn fen(&self) -> String {
        self.pos.fen()
    }
    fn legal_moves(&mut self) -> Vec<String> {
        self.pos.legal_move_texts()
    }
    fn play(&mut self, text: &str) -> Result<(), GameError> {
        let m = self.pos.parse_move(text).map_err(GameError::IllegalMove)?;
        self.pos.make(m);
        self.played.push(m);
        Ok(())
    }
    fn san(&mut self, text: &str) -> Result<String, GameError> {
        let m = self.pos.parse_move(text).map_err(GameError::IllegalMove)?;
        Ok(self.pos.san(m))
    }
    fn coordinates(&mut self, text: &str) -> Result<String, GameError> {
        let m = self.pos.parse_move(text).map_err(GameError::IllegalMove)?;
        Ok(self.pos.move_text(m))
    }
    fn undo(&mut self) -> bool {
        match self.played.pop() {
            Some(m) => {
                self.pos.unmake(m);
                true
            }
            None => false,
        }
    }
    fn outcome(&mut self) -> Option<Outcome> {
        self.pos.outcome()
    }
    fn perft(&mut self, depth: u32, threads: usize) -> u64 {
        if threads <= 1 || depth < 3 {
            return self.pos.perft(depth);
        }
        let moves = self.root_moves();
        let this = &*self;
        run_in_pool(threads, || {
            moves.par_iter().map(|&m| this.count_after(m, depth)).sum()
        })
    }
    fn divide(
        &mut self,
        depth: u32,
        threads: usize,
        on_move: &(dyn Fn(u64) + Sync),
    ) -> Vec<(String, u64)> {
        let moves = self.root_moves();
        let this = &*self;
        let count = |m: Move| {
            let n = if depth == 0 {
                1
            } else {
                this.count_after(m, depth)
            };
            on_move(n);
            n
        };
        let counts: Vec<u64> = if threads <= 1 || depth == 0 {
            moves.iter().map(|&m| count(m)).collect()
        } else {
            run_in_pool(threads, || moves.par_iter().map(|&m| count(m)).collect())
        };
        let mut out: Vec<(String, u64)> = moves
            .iter()
            .zip(counts)
            .map(|(&m, n)| (self.pos.move_text(m), n))
            .collect();
        out.sort();
        out
    }
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }
    fn is_noisy(&mut self, text: &str) -> Result<bool, GameError> {
        let m = self.pos.parse_move(text).map_err(GameError::IllegalMove)?;
        Ok(self.pos.is_noisy(m))
    }
    fn side_to_move(&self) -> Color {
        self.pos.side()
    }
    fn key(&self) -> u64 {
        self.pos.key()
    }
    fn check_key(&self) -> bool {
        self.pos.key() == self.pos.key_from_scratch()
    }
    fn boxed_clone(&self) -> Box<dyn GameOps> {
        Box::new(self.clone())
    }
    fn search(
        &mut self,
        opts: &SearchOptions,
        on_info: &mut (dyn FnMut(&SearchInfo) + Send),
    ) -> SearchResult {
        crate::engine::search::search(&self.pos, opts, on_info)
    }
    fn evaluate(&self, eval: &Eval) -> i32 {
        eval.evaluate(&self.pos)
    }
    fn wdl_phase(&self) -> Phase {
        Phase::of(&self.pos)
    }
    fn material_loss(&mut self, text: &str, eval: &Eval) -> Result<i32, GameError> {
        let m = self.pos.parse_move(text).map_err(GameError::IllegalMove)?;
        Ok(strength::material_loss(&mut self.pos, m, eval))
    }
}

fn run_in_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// `unknown variant 'NAME' (one of: ...)`, naming every variant.
pub fn unknown_variant(name: &str) -> String {
    let names: Vec<&str> = all_variants().iter().map(|v| v.name).collect();
    format!("unknown variant '{name}' (one of: {})", names.join(", "))
}

/// A game of any variant: a position plus the moves played from its setup.
pub struct Game {
    inner: Box<dyn GameOps>,
}

impl Clone for Game {
    fn clone(&self) -> Self {
        Game {
            inner: self.inner.boxed_clone(),
        }
    }
}

impl Game {
    /// A game of `variant` from `fen` (or the variant's start position).
    pub fn new(variant: &str, fen: Option<&str>) -> Result<Game, GameError> {
        let id =
            variant_id(variant).ok_or_else(|| GameError::UnknownVariant(variant.to_string()))?;
        let def = &all_variants()[id];
        let fen = fen.unwrap_or(def.start_fen);
        let inner: Box<dyn GameOps> = if def.geometry.squares() <= 64 {
            Box::new(Tracked {
                pos: Position::<u64>::from_fen(u64::rules(id), fen).map_err(GameError::BadFen)?,
                played: Vec::new(),
            })
        } else {
            Box::new(Tracked {
                pos: Position::<u128>::from_fen(u128::rules(id), fen).map_err(GameError::BadFen)?,
                played: Vec::new(),
            })
        };
        Ok(Game { inner })
    }

    /// The variant's data.
    pub fn variant(&self) -> &'static VariantDef {
        self.inner.variant()
    }
    /// The position as FEN.
    pub fn fen(&self) -> String {
        self.inner.fen()
    }
    /// Every legal move in coordinate notation, sorted by byte order.
    pub fn legal_moves(&mut self) -> Vec<String> {
        self.inner.legal_moves()
    }
    /// Plays a move given in coordinate notation or SAN; an error leaves the game
    /// unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), GameError> {
        self.inner.play(text)
    }
    /// The SAN (with `+`/`#`) of the legal move `coordinate_or_san` in the current
    /// position; the game is unchanged.
    pub fn san(&mut self, coordinate_or_san: &str) -> Result<String, GameError> {
        self.inner.san(coordinate_or_san)
    }
    /// The coordinate text (as [`Game::legal_moves`] writes it) of the legal move
    /// `coordinate_or_san` in the current position; the game is unchanged.
    pub fn coordinates(&mut self, coordinate_or_san: &str) -> Result<String, GameError> {
        self.inner.coordinates(coordinate_or_san)
    }
    /// The SAN of each move of a line played from the current position (coordinates
    /// or SAN); the game is unchanged, and the first bad move is the error.
    pub fn san_line(&mut self, moves: &[String]) -> Result<Vec<String>, GameError> {
        let mut out = Vec::with_capacity(moves.len());
        let mut result = Ok(());
        for m in moves {
            match self.san(m).and_then(|s| self.play(m).map(|()| s)) {
                Ok(s) => out.push(s),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for _ in 0..out.len() {
            self.undo();
        }
        result.map(|()| out)
    }
    /// Plays several space-separated moves; stops at the first bad one, naming it.
    pub fn play_all(&mut self, moves: &str) -> Result<(), GameError> {
        for m in moves.split_whitespace() {
            self.play(m)?;
        }
        Ok(())
    }
    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.inner.undo()
    }
    /// The result if the game has ended.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.inner.outcome()
    }
    /// `*` while the game goes on, otherwise e.g. `1-0 {White mates}`.
    pub fn result_line(&mut self) -> String {
        match self.outcome() {
            Some(o) => o.line(),
            None => "*".to_string(),
        }
    }
    /// Leaf count `depth` plies deep, using `threads` worker threads.
    pub fn perft(&mut self, depth: u32, threads: usize) -> u64 {
        self.inner.perft(depth, threads)
    }
    /// Leaf counts per root move, sorted by move text.
    pub fn divide(&mut self, depth: u32, threads: usize) -> Vec<(String, u64)> {
        self.inner.divide(depth, threads, &|_| {})
    }
    /// Like [`Game::divide`], calling `on_move` with each root move's count as soon as
    /// it is known (from the worker threads).
    pub fn divide_with_progress(
        &mut self,
        depth: u32,
        threads: usize,
        on_move: &(dyn Fn(u64) + Sync),
    ) -> Vec<(String, u64)> {
        self.inner.divide(depth, threads, on_move)
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.inner.in_check()
    }
    /// True when the legal move `text` captures or promotes (see
    /// [`Position::is_noisy`]); an error when it is not a legal move here.
    pub fn is_noisy(&mut self, text: &str) -> Result<bool, GameError> {
        self.inner.is_noisy(text)
    }
    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.inner.side_to_move()
    }
    /// The Zobrist key of the position.
    pub fn key(&self) -> u64 {
        self.inner.key()
    }
    /// Searches the current position (see [`crate::engine::search`]); `on_info` hears about
    /// every completed depth. The evaluation must be the one of this game's variant.
    pub fn search(
        &mut self,
        opts: &SearchOptions,
        on_info: &mut (dyn FnMut(&SearchInfo) + Send),
    ) -> Result<SearchResult, GameError> {
        self.check_eval(opts.eval)?;
        Ok(self.inner.search(opts, on_info))
    }
    /// Searches the current position at a strength level and returns the move the
    /// level chooses (see [`crate::engine::strength`]): `opts` get the level's limits
    /// and lines; `on_info` hears the best `opts.multipv` lines of each depth, and the
    /// search stops after the first finished depth past the node budget. `seed` makes
    /// the choice repeatable (the protocols seed it per game).
    pub fn search_at_level(
        &mut self,
        opts: &SearchOptions,
        level: &LevelParams,
        seed: u64,
        on_info: &mut (dyn FnMut(&SearchInfo) + Send),
    ) -> Result<SearchResult, GameError> {
        self.check_eval(opts.eval)?;
        let shown = opts.multipv.max(1);
        let weak = SearchOptions {
            limits: level.limits(opts.limits.clone()),
            multipv: level.lines(shown),
            exclude: opts.exclude.clone(),
            ..*opts
        };
        let mut recorder = LineRecorder::default();
        let stop = opts.stop;
        let mut report = |info: &SearchInfo| {
            if recorder.record(info) && info.nodes >= level.nodes {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            if info.multipv <= shown {
                let mut shown_info = info.clone();
                shown_info.lines = shown;
                on_info(&shown_info);
            }
        };
        let mut r = self.inner.search(&weak, &mut report);
        let lines = recorder.lines;
        let inner = &mut self.inner;
        let mut loss = |text: &str| inner.material_loss(text, opts.eval).unwrap_or(i32::MAX);
        if let Some(i) = level.choose(&lines, &mut loss, seed) {
            let line = &lines[i];
            r.best = Some(line.mv.clone());
            r.ponder = line.reply.clone();
            r.score = line.score;
        }
        Ok(r)
    }
    /// The material the move `text` loses outright by static exchange (see
    /// [`strength::material_loss`]).
    pub fn material_loss(&mut self, text: &str, eval: &Eval) -> Result<i32, GameError> {
        self.check_eval(eval)?;
        self.inner.material_loss(text, eval)
    }
    /// The static evaluation of the current position for the side to move.
    pub fn evaluate(&self, eval: &Eval) -> Result<i32, GameError> {
        self.check_eval(eval)?;
        Ok(self.inner.evaluate(eval))
    }
    /// The game-phase inputs of the win/draw/loss model ([`crate::engine::wdl`]).
    pub fn wdl_phase(&self) -> Phase {
        self.inner.wdl_phase()
    }
    /// The chances of the side to move for a search score of `score_cp` (centipawns,
    /// side to move) in this position, from its family's model (docs/wdl.md).
    pub fn wdl(&self, score_cp: i32) -> Option<Wdl> {
        wdl::wdl(self.variant(), score_cp, &self.wdl_phase())
    }
    fn check_eval(&self, eval: &Eval) -> Result<(), GameError> {
        let name = self.variant().name;
        if eval.variant == name {
            Ok(())
        } else {
            Err(GameError::WrongEval {
                eval: eval.variant,
                game: name,
            })
        }
    }
    /// True when the incrementally kept key equals a key computed from scratch.
    pub fn key_is_consistent(&self) -> bool {
        self.inner.check_key()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_wdl_phase_and_model() {
        for def in all_variants() {
            let mut game = Game::new(def.name, None).expect("start position");
            let board = def.start_fen.split(' ').next().unwrap_or("");
            let letters = board
                .chars()
                .filter(|c| c.is_ascii_alphabetic() && !c.eq_ignore_ascii_case(&'K'))
                .count() as u32;
            let phase = game.wdl_phase();
            assert_eq!((phase.pieces, phase.ply), (letters, 0), "{}", def.name);
            assert!(phase.material > 0, "{}", def.name);
            let even = game.wdl(0).expect("a model");
            assert_eq!(even.win, even.loss, "{}", def.name);
            let first = game.legal_moves()[0].clone();
            game.play(&first).expect("a legal move");
            assert_eq!(game.wdl_phase().ply, 1, "{}", def.name);
        }
    }
}
