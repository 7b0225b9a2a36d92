//! `sako datagen`: training data for evaluation tuning from self-play games of sako's
//! own search.
//!
//! # Format
//! A text file with one position a line, `FEN | score | result`, for example
//!
//! ```text
//! rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -23 | 0.5
//! ```
//!
//! * FEN: the position in the variant's FEN (as `sako moves --fen` reads it);
//! * score: the search's score in centipawns from **White's** point of view;
//! * result: how the game ended for White, `1`, `0.5` or `0`.
//!
//! With `format: Format::Bin` the file is the fixed 80-byte records of [`binary`]
//! (`SAKODATA`, laid out byte by byte in `docs/datagen.md`).
//!
//! # Games
//! A game starts from a random line of the openings file (or the variant's start
//! position), plays `random_plies` uniformly random legal plies, then lets sako's
//! search (one thread, a node or depth limit, a fresh transposition table and fresh
//! histories per game) choose every move until the rules end the game. A game still
//! going after 800 plies (`PLY_CAP`) is stopped and counted as a draw. Of the searched
//! positions, those where the side to move is in check, the best move captures or
//! promotes, or the score is a mate are left out; the opening and the random plies are
//! never searched, so never written.
//!
//! # Resuming
//! The file is appended to, one whole game at a time (written and flushed when the
//! game ends, synced at least every 3 s), so an interrupted run loses only its games in
//! progress; a partial last line or record is cut off when the run starts again. With
//! one thread a game's random numbers come from the seed, the records in the file
//! before the game and the games since that count last grew, so a run stopped anywhere
//! and resumed writes the same bytes as one never stopped. With more threads game `g`
//! of a run draws from the seed, `g` and the records the file held at the start: the
//! same command run again continues with new games.

pub mod binary;
pub mod convert;
pub mod features;
mod output;
mod record;
mod selfplay;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub use output::Format;
pub use record::{result_text, Record};
pub use selfplay::{Adjudication, FinishedGame, Skipped, PLY_CAP};

use crate::engine::eval::Eval;
use crate::engine::history::HistoryBank;
use crate::engine::time::Limits;
use crate::engine::tt::Tt;
use crate::game::unknown_variant;
use crate::matches::openings::{load_epd_skipping_bad, Rng};
use crate::rules::variant::{all_variants, variant_id};
use output::OutFile;
use selfplay::{play_game, GamePlan};

/// When a run stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// After this many games in this run.
    Games(u64),
    /// When the file holds this many lines (those there at the start included).
    Positions(u64),
}

/// What limits each search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// About this many nodes (exactly reproducible with one thread).
    Nodes(u64),
    /// This depth.
    Depth(u32),
}

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct Options {
    /// sako's variant name.
    pub variant: String,
    /// The file appended to.
    pub out: PathBuf,
    /// When to stop (default 100 games).
    pub target: Target,
    /// The limit of each search (default 5000 nodes).
    pub limit: SearchLimit,
    /// Games played at once, each on its own thread (default 1).
    pub threads: usize,
    /// Random seed (default 1).
    pub seed: u64,
    /// An EPD or one-FEN-a-line file of start positions (default: the start position).
    pub openings: Option<PathBuf>,
    /// Random plies before the search takes over (default 8); with
    /// `random_plies_max`, the fewest.
    pub random_plies: usize,
    /// The most random plies: each game draws its count from `random_plies..=max`
    /// (default `None`: exactly `random_plies`).
    pub random_plies_max: Option<usize>,
    /// The file's format (default text).
    pub format: Format,
    /// Ending decided games early (default `None`: on for the binary format with
    /// [`Adjudication::default`], off for text).
    pub adjudicate: Option<Option<Adjudication>>,
    /// Transposition table size in megabytes, per thread (default 8).
    pub hash_mb: usize,
    /// Read the evaluation tables from this directory (missing files: built-in tables).
    pub eval_tables: Option<std::path::PathBuf>,
    /// Which network evaluates (default: the game's built-in one, if any).
    pub net: crate::engine::nnue::NetChoice,
}

impl Options {
    /// The defaults for `variant`, writing to `out`.
    pub fn new(variant: &str, out: impl Into<PathBuf>) -> Options {
        Options {
            variant: variant.to_string(),
            out: out.into(),
            target: Target::Games(100),
            limit: SearchLimit::Nodes(5000),
            threads: 1,
            seed: 1,
            openings: None,
            random_plies: 8,
            random_plies_max: None,
            format: Format::Text,
            adjudicate: None,
            hash_mb: 8,
            eval_tables: None,
            net: crate::engine::nnue::NetChoice::BuiltIn,
        }
    }
}

/// What a run reports while it goes.
pub enum Event<'a> {
    /// Something wrong but not fatal (a bad line in the openings file).
    Warning(&'a str),
    /// A game was written to the file.
    Game(&'a FinishedGame),
    /// The counts so far: about every two seconds, and once at the end (`done`).
    Progress(&'a Status),
}

/// How far a run has come.
#[derive(Clone, Debug)]
pub struct Status {
    /// The variant.
    pub variant: String,
    /// The run's target.
    pub target: Target,
    /// Games written in this run.
    pub games: u64,
    /// Positions written in this run.
    pub positions: u64,
    /// Searched positions left out in this run.
    pub skipped: Skipped,
    /// Games of this run ended by the adjudication.
    pub adjudicated: u64,
    /// Lines in the file now.
    pub lines_in_file: u64,
    /// Time since the run started.
    pub elapsed: Duration,
    /// True for the final report.
    pub done: bool,
}

impl Status {
    /// Positions written per second in this run.
    pub fn positions_per_second(&self) -> f64 {
        self.positions as f64 / self.elapsed.as_secs_f64().max(1e-3)
    }

    /// The share of the searched positions that were left out (0 to 1).
    pub fn skipped_fraction(&self) -> f64 {
        let skipped = self.skipped.total() as f64;
        skipped / (skipped + self.positions as f64).max(1.0)
    }

    /// The estimated time to the target, once something has been written.
    pub fn time_left(&self) -> Option<Duration> {
        let per_unit = match self.target {
            Target::Games(n) if self.games > 0 => {
                self.elapsed.as_secs_f64() * n.saturating_sub(self.games) as f64 / self.games as f64
            }
            Target::Positions(n) if self.positions > 0 => {
                n.saturating_sub(self.lines_in_file) as f64 / self.positions_per_second()
            }
            _ => return None,
        };
        Some(Duration::from_secs_f64(per_unit))
    }

    /// The progress line: `datagen normal: 3/20 games, 180 positions (180 in file), ...`.
    pub fn line(&self) -> String {
        let games = match self.target {
            Target::Games(n) => format!("{}/{n} games", self.games),
            Target::Positions(_) => format!("{} games", self.games),
        };
        let in_file = match self.target {
            Target::Positions(n) => format!("{}/{n} in file", self.lines_in_file),
            Target::Games(_) => format!("{} in file", self.lines_in_file),
        };
        let mut s = format!(
            "datagen {}: {games}, {} positions ({in_file}), {:.1}% skipped, {:.1} positions/s, {:.1} s",
            self.variant,
            self.positions,
            100.0 * self.skipped_fraction(),
            self.positions_per_second(),
            self.elapsed.as_secs_f64()
        );
        let k = &self.skipped;
        match self.time_left() {
            _ if self.done => {
                s += &format!(
                    ", done (skipped: {} in check, {} captures or promotions, {} mate scores; {} games adjudicated)",
                    k.in_check, k.noisy, k.mate, self.adjudicated
                )
            }
            Some(t) => s += &format!(", about {} left", short_duration(t)),
            None => {}
        }
        s
    }
}

/// `42 s`, `7 min 3 s` or `2 h 5 min`.
fn short_duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s / 60 % 60),
    }
}

/// How often a progress event is sent.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);
/// With a positions target, a run that has written nothing after this many games
/// gives up (the start positions end too soon, say).
const GIVE_UP_AFTER: u64 = 200;

/// Runs `opts`: plays games on `opts.threads` threads and appends their positions to
/// `opts.out`, telling `on_event` what happens. Returns the final status.
pub fn run(opts: &Options, on_event: &mut dyn FnMut(Event)) -> Result<Status, String> {
    let plan_limits = check(opts)?;
    let id = variant_id(&opts.variant).ok_or_else(|| unknown_variant(&opts.variant))?;
    let def = &all_variants()[id];
    let eval = Eval::load_with_net(def, opts.eval_tables.as_deref(), &opts.net)?;
    let starts = start_positions(opts, def.name, on_event)?;
    let mut out = OutFile::open(&opts.out, opts.format, id, &mut |w| {
        on_event(Event::Warning(w))
    })?;
    let adjudication = match opts.adjudicate {
        Some(a) => a,
        None if opts.format == Format::Bin => Some(Adjudication::default()),
        None => None,
    };
    let plan = GamePlan {
        variant: def.name,
        eval: &eval,
        starts,
        limits: plan_limits,
        random_plies: (
            opts.random_plies,
            opts.random_plies_max.unwrap_or(opts.random_plies),
        ),
        adjudication,
    };
    let mut status = Status {
        variant: def.name.to_string(),
        target: opts.target,
        games: 0,
        positions: 0,
        skipped: Skipped::default(),
        adjudicated: 0,
        lines_in_file: out.lines,
        elapsed: Duration::ZERO,
        done: false,
    };
    let result = if reached(&status) {
        Ok(())
    } else {
        play_games(opts, &plan, &mut out, &mut status, on_event)
    };
    let synced = out.sync();
    status.done = true;
    on_event(Event::Progress(&status));
    result.and(synced).map(|()| status)
}

/// The options' errors, or the limits of each search.
fn check(opts: &Options) -> Result<Limits, String> {
    if opts.threads == 0 {
        return Err("datagen needs at least one thread".into());
    }
    if opts.random_plies_max.is_some_and(|m| m < opts.random_plies) {
        return Err("--random-plies MIN-MAX needs MIN <= MAX".into());
    }
    if opts.hash_mb == 0 {
        return Err("the hash size must be at least 1 MB".into());
    }
    match opts.limit {
        SearchLimit::Nodes(0) => Err("--nodes must be at least 1".into()),
        SearchLimit::Depth(0) => Err("--depth must be at least 1".into()),
        SearchLimit::Depth(d) if d > 60 => Err(format!("--depth must be 1..60, not {d}")),
        SearchLimit::Nodes(n) => Ok(Limits::nodes(n)),
        SearchLimit::Depth(d) => Ok(Limits::depth(d)),
    }
}

/// The start positions: the usable lines of the openings file (warning about the
/// others), or the variant's start position.
fn start_positions(
    opts: &Options,
    variant: &str,
    on_event: &mut dyn FnMut(Event),
) -> Result<Vec<Option<String>>, String> {
    let Some(path) = &opts.openings else {
        return Ok(vec![None]);
    };
    let (openings, bad) = load_epd_skipping_bad(path, variant).map_err(|e| e.to_string())?;
    for e in bad {
        on_event(Event::Warning(&format!("{e} (line skipped)")));
    }
    Ok(openings.into_iter().map(|o| o.fen).collect())
}

/// True when the run's target is met.
fn reached(status: &Status) -> bool {
    match status.target {
        Target::Games(n) => status.games >= n,
        Target::Positions(n) => status.lines_in_file >= n,
    }
}

/// The random seed of game `game` of a run with `seed` on a file that held
/// `lines_at_start` lines.
fn game_seed(seed: u64, game: u64, lines_at_start: u64) -> u64 {
    let mix = |x: u64| Rng::new(x).next_u64();
    mix(mix(mix(seed) ^ game) ^ lines_at_start)
}

/// Plays the games: worker threads take game numbers from a counter and send their
/// finished games here, where they are written in the order they come.
fn play_games(
    opts: &Options,
    plan: &GamePlan,
    out: &mut OutFile,
    status: &mut Status,
    on_event: &mut dyn FnMut(Event),
) -> Result<(), String> {
    let next_game = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let lines_at_start = out.lines;
    let start = Instant::now();
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        for _ in 0..opts.threads {
            let tx = tx.clone();
            let (next_game, stop) = (&next_game, &stop);
            s.spawn(move || worker(opts, plan, next_game, stop, lines_at_start, &tx));
        }
        drop(tx);
        let result = collect(&rx, out, status, start, on_event);
        stop.store(true, Ordering::Relaxed);
        result
    })
}

/// One worker thread: plays games until the counter passes the target or `stop` is
/// set, sending each finished game (or the first error) to `tx`.
///
/// With several threads game `g` of the run has the seed of (seed, g, records at the
/// start). With one thread a game's seed is that of (seed, j, c), c the records in the
/// file before the game and j the games played since c last grew: so a run stopped
/// anywhere and resumed plays on exactly as the run that was not stopped.
fn worker(
    opts: &Options,
    plan: &GamePlan,
    next_game: &AtomicU64,
    stop: &AtomicBool,
    lines_at_start: u64,
    tx: &mpsc::Sender<Result<FinishedGame, String>>,
) {
    let (mut count, mut since) = (lines_at_start, 0u64);
    let tt = match Tt::try_new(opts.hash_mb) {
        Ok(t) => t,
        Err(e) => {
            let _ = tx.send(Err(e));
            return;
        }
    };
    let histories = HistoryBank::new();
    while !stop.load(Ordering::Relaxed) {
        let g = next_game.fetch_add(1, Ordering::Relaxed);
        if matches!(opts.target, Target::Games(n) if g >= n) {
            return;
        }
        let seed = if opts.threads == 1 {
            game_seed(opts.seed, since, count)
        } else {
            game_seed(opts.seed, g, lines_at_start)
        };
        let sent = match play_game(plan, g, seed, &tt, &histories, stop) {
            Ok(Some(game)) => {
                if game.records.is_empty() {
                    since += 1;
                } else {
                    count += game.records.len() as u64;
                    since = 0;
                }
                tx.send(Ok(game))
            }
            Ok(None) => return,
            Err(e) => tx.send(Err(format!("game {g}: {e}"))),
        };
        if sent.is_err() {
            return;
        }
    }
}

/// The writer: appends each finished game, reports progress every two seconds, and
/// stops the run at its target or at the first error. Games finished after the
/// target was met are dropped, so that one thread always writes the same games.
fn collect(
    rx: &mpsc::Receiver<Result<FinishedGame, String>>,
    out: &mut OutFile,
    status: &mut Status,
    start: Instant,
    on_event: &mut dyn FnMut(Event),
) -> Result<(), String> {
    let mut next_report = start + PROGRESS_EVERY;
    loop {
        let wait = next_report.saturating_duration_since(Instant::now());
        let received = rx.recv_timeout(wait);
        status.elapsed = start.elapsed();
        match received {
            Ok(Ok(game)) => {
                write_game(&game, out, status)?;
                on_event(Event::Game(&game));
                if reached(status) {
                    return Ok(());
                }
                if matches!(status.target, Target::Positions(_))
                    && status.positions == 0
                    && status.games >= GIVE_UP_AFTER
                {
                    return Err(format!(
                        "no position written after {} games: do the start positions end the game at once?",
                        status.games
                    ));
                }
            }
            Ok(Err(e)) => return Err(e),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                on_event(Event::Progress(status));
                next_report = Instant::now() + PROGRESS_EVERY;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
        }
    }
}

/// Appends `game`'s positions and counts them.
fn write_game(game: &FinishedGame, out: &mut OutFile, status: &mut Status) -> Result<(), String> {
    out.append(&game.records)?;
    status.games += 1;
    status.positions += game.records.len() as u64;
    status.skipped.add(&game.skipped);
    status.adjudicated += u64::from(game.adjudicated);
    status.lines_in_file = out.lines;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_and_every_file_length_has_its_own_seed() {
        let a = game_seed(1, 0, 0);
        assert_eq!(a, game_seed(1, 0, 0));
        for other in [game_seed(2, 0, 0), game_seed(1, 1, 0), game_seed(1, 0, 1)] {
            assert_ne!(a, other);
        }
    }

    #[test]
    fn the_time_left_follows_the_target() {
        let mut s = Status {
            variant: "normal".into(),
            target: Target::Games(10),
            games: 2,
            positions: 100,
            skipped: Skipped::default(),
            adjudicated: 0,
            lines_in_file: 100,
            elapsed: Duration::from_secs(4),
            done: false,
        };
        assert_eq!(s.time_left(), Some(Duration::from_secs(16)));
        s.target = Target::Positions(300);
        assert_eq!(s.time_left(), Some(Duration::from_secs(8)));
        assert!(s.line().contains("8 s left"), "{}", s.line());
        s.positions = 0;
        assert_eq!(s.time_left(), None);
    }
}
