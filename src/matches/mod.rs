//! `sako match`: engine-vs-engine matches in any of sako's variants, with cutechess-cli's
//! command line and output, and sako's rules core as the referee.
//!
//! - `args`: the cutechess-style command line;
//! - [`engine`]: driving an engine over XBoard or UCI;
//! - `referee`: one game, every move checked, results with their reasons;
//! - `pgn`: the game records;
//! - `elo`: score, Elo with error bar, SPRT;
//! - `openings`: opening files and the balanced-openings generator.
//!
//! Games run on `-concurrency` worker threads, each with its own pair of engine
//! processes; the main thread prints the running score and writes the PGN.

pub mod args;
pub mod elo;
pub mod engine;
pub mod openings;
pub mod pgn;
pub mod referee;

use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use args::{ArgsError, MatchConfig, OpeningOrder, Parsed, Restart};
use elo::{Score, Sprt, SprtState};
use engine::{Engine, EngineError, Mux};
use openings::{Opening, OpeningsError, Rng};
use pgn::PgnMeta;
use referee::{Adjudication, Foul, GameRecord, GameSetup, Pair};

use crate::rules::position::outcome::GameResult;

/// Fouls of one engine over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FoulCounts {
    /// Process exits.
    pub crashes: u32,
    /// Stalls (no answer, engine killed).
    pub stalls: u32,
    /// Time forfeits.
    pub time_losses: u32,
    /// Illegal moves (or no move).
    pub illegal_moves: u32,
    /// False result claims.
    pub false_claims: u32,
    /// Legal moves refused.
    pub refused_moves: u32,
}

impl FoulCounts {
    fn add(&mut self, f: Foul) {
        match f {
            Foul::Crash => self.crashes += 1,
            Foul::Stall => self.stalls += 1,
            Foul::TimeLoss => self.time_losses += 1,
            Foul::IllegalMove => self.illegal_moves += 1,
            Foul::FalseClaim => self.false_claims += 1,
            Foul::RefusedMove => self.refused_moves += 1,
        }
    }

    /// `none`, or e.g. `1 crash, 2 time losses`.
    pub fn text(&self) -> String {
        let mut parts = Vec::new();
        let mut add = |n: u32, one: &str, many: &str| {
            if n == 1 {
                parts.push(format!("1 {one}"));
            } else if n > 1 {
                parts.push(format!("{n} {many}"));
            }
        };
        add(self.crashes, "crash", "crashes");
        add(self.stalls, "stall", "stalls");
        add(self.time_losses, "time loss", "time losses");
        add(self.illegal_moves, "illegal move", "illegal moves");
        add(self.false_claims, "false claim", "false claims");
        add(self.refused_moves, "refused move", "refused moves");
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }
}

/// What a match came to.
#[derive(Clone, Debug, Default)]
pub struct MatchSummary {
    /// The first engine's score.
    pub score: Score,
    /// Fouls by engine.
    pub fouls: [FoulCounts; 2],
    /// The SPRT decision, if one was asked for and reached.
    pub sprt: Option<SprtState>,
    /// Why the match stopped before its last game, if it did.
    pub stopped: Option<String>,
}

/// Why a match could not be played. Fouls during games are results, not errors.
/// `Display` gives the one-line message the CLI prints after `sako: `.
#[derive(Debug)]
pub enum MatchError {
    /// A bad command line (or none).
    Args(ArgsError),
    /// The openings file cannot be used.
    Openings(OpeningsError),
    /// An output file (`-pgnout`, `-epdout`) cannot be opened.
    Output {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An engine cannot play at its first start.
    CannotPlay {
        /// 0-based engine slot.
        slot: usize,
        /// Its name from the command line.
        name: String,
        /// Why.
        source: EngineError,
    },
    /// An engine cannot play a game's start position (e.g. an XBoard engine without
    /// `setboard` given a position with pieces in hand).
    Engine(EngineError),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Args(e) => e.fmt(f),
            MatchError::Openings(e) => e.fmt(f),
            MatchError::Output { path, source } => {
                write!(f, "cannot open {}: {source}", path.display())
            }
            MatchError::CannotPlay { slot, name, source } => {
                write!(f, "engine {} ({name}) cannot play: {source}", slot + 1)
            }
            MatchError::Engine(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<ArgsError> for MatchError {
    fn from(e: ArgsError) -> MatchError {
        MatchError::Args(e)
    }
}

impl From<OpeningsError> for MatchError {
    fn from(e: OpeningsError) -> MatchError {
        MatchError::Openings(e)
    }
}

/// The message, for callers whose errors are text (`sako`'s `main`).
impl From<MatchError> for String {
    fn from(e: MatchError) -> String {
        e.to_string()
    }
}

enum Event {
    Started { index: usize, names: [String; 2] },
    Finished(Box<GameRecord>),
    Fatal(MatchError),
}

/// Runs `sako match ARGS...`, printing to `out`. Errors are for bad arguments (no
/// arguments at all is one: the message carries the usage) and engines that cannot
/// start; fouls during games are results, not errors.
pub fn run_cli(args: &[String], out: &mut dyn Write) -> Result<MatchSummary, MatchError> {
    match args::parse(args)? {
        Parsed::Help => {
            let _ = out.write_all(args::USAGE.as_bytes());
            Ok(MatchSummary::default())
        }
        Parsed::Run(cfg) => run_match(&cfg, out),
    }
}

fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The games of the match in order: opening, colours, round.
fn schedule(cfg: &MatchConfig, book: &[Opening]) -> Vec<GameSetup> {
    let total = (cfg.games as usize) * (cfg.rounds as usize);
    let mut order: Vec<usize> = (0..book.len()).collect();
    let mut rng = Rng::new(cfg.srand);
    let start = match &cfg.openings {
        Some(o) if o.order == OpeningOrder::Random => {
            rng.shuffle(&mut order);
            0
        }
        Some(o) => o.start - 1,
        None => 0,
    };
    (0..total)
        .map(|i| {
            let k = start + i / cfg.repeat as usize;
            let opening = &book[order[k % order.len()]];
            GameSetup {
                index: i,
                round: (i / cfg.games as usize) as u32 + 1,
                variant: cfg.variant.clone(),
                fen: opening.fen.clone(),
                opening_moves: opening.moves.clone(),
                white_slot: if cfg.noswap { 0 } else { i % 2 },
            }
        })
        .collect()
}

/// The openings of the match: its file's, or the variant's start position alone.
fn load_book(cfg: &MatchConfig) -> Result<Vec<Opening>, MatchError> {
    Ok(match &cfg.openings {
        Some(o) => openings::load(o, &cfg.variant)?,
        None => vec![Opening {
            fen: None,
            moves: Vec::new(),
        }],
    })
}

/// Opens an output file for appending (created if missing).
fn open_append(path: &Path) -> Result<File, MatchError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|source| MatchError::Output {
            path: path.to_path_buf(),
            source,
        })
}

/// Runs a parsed match: worker threads play the games, this thread reports them.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, MatchError> {
    let book = load_book(cfg)?;
    let jobs = schedule(cfg, &book);
    let total = jobs.len();
    let mut tally = Tally::new(cfg, total, out)?;
    let adj = Adjudication {
        draw: cfg.draw.clone(),
        resign: cfg.resign.clone(),
        maxmoves: cfg.maxmoves,
    };
    let queue = Mutex::new(VecDeque::from(jobs));
    let stop = AtomicBool::new(false);
    let workers = cfg.concurrency.min(total).max(1);
    let (tx, rx) = channel::<Event>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let queue = &queue;
            let stop = &stop;
            let adj = &adj;
            scope.spawn(move || worker(cfg, queue, stop, adj, tx));
        }
        drop(tx);
        for ev in rx.iter() {
            tally.on_event(ev, &stop);
        }
    });
    tally.finish()
}

/// The main thread's account of a running match: the scores, the fouls, the output
/// and the record files.
struct Tally<'a> {
    cfg: &'a MatchConfig,
    out: &'a mut dyn Write,
    /// Games in the match.
    total: usize,
    /// Games finished.
    done: usize,
    /// The engines' names by slot (as announced once they have played).
    names: [String; 2],
    /// The first engine's score with White.
    as_white: Score,
    /// The first engine's score with Black.
    as_black: Score,
    /// White's score (wins are White's).
    colours: Score,
    summary: MatchSummary,
    /// The first error that stops the match.
    fatal: Option<MatchError>,
    pgn_file: Option<File>,
    epd_file: Option<File>,
    meta: PgnMeta,
    began: Instant,
}

impl<'a> Tally<'a> {
    /// A match of `total` games about to start, its record files open.
    fn new(cfg: &'a MatchConfig, total: usize, out: &'a mut dyn Write) -> Result<Self, MatchError> {
        let pgn_file = match &cfg.pgnout {
            Some(p) => Some(open_append(&p.file)?),
            None => None,
        };
        let epd_file = match &cfg.epdout {
            Some(p) => Some(open_append(p)?),
            None => None,
        };
        Ok(Tally {
            cfg,
            out,
            total,
            done: 0,
            names: [
                cfg.engines[0].fallback_name(),
                cfg.engines[1].fallback_name(),
            ],
            as_white: Score::default(),
            as_black: Score::default(),
            colours: Score::default(),
            summary: MatchSummary::default(),
            fatal: None,
            pgn_file,
            epd_file,
            meta: PgnMeta {
                event: cfg.event.clone(),
                site: cfg.site.clone(),
            },
            began: Instant::now(),
        })
    }

    /// Prints a line of the match output.
    fn say(&mut self, s: &str) {
        let _ = writeln!(self.out, "{s}");
        let _ = self.out.flush();
    }

    /// Handles a worker's report; `stop` tells the workers to take no more games.
    fn on_event(&mut self, ev: Event, stop: &AtomicBool) {
        match ev {
            Event::Started { index, names: n } => {
                let total = self.total;
                self.say(&format!(
                    "Started game {} of {total} ({} vs {})",
                    index + 1,
                    n[0],
                    n[1]
                ));
            }
            Event::Fatal(err) => {
                if self.fatal.is_none() {
                    self.fatal = Some(err);
                }
                stop.store(true, Ordering::SeqCst);
            }
            Event::Finished(rec) => self.finished(&rec, stop),
        }
    }

    /// Reports a finished game: result, score, Elo and SPRT, progress; stops the match
    /// when the SPRT decides or a broken engine is not to be restarted.
    fn finished(&mut self, rec: &GameRecord, stop: &AtomicBool) {
        self.done += 1;
        let ws = rec.white_slot;
        self.names[ws] = rec.names[0].clone();
        self.names[ws ^ 1] = rec.names[1].clone();
        self.say(&format!(
            "Finished game {} ({} vs {}): {} {{{}}}",
            rec.index + 1,
            rec.names[0],
            rec.names[1],
            rec.result.pgn(),
            referee::comment_safe(&rec.reason)
        ));
        self.count_result(rec);
        let broken = self.count_fouls(rec);
        self.write_records(rec);
        let line = format!(
            "Score of {} vs {}: {}",
            self.names[0],
            self.names[1],
            self.summary.score.line()
        );
        self.say(&line);
        let show_elo =
            self.done.is_multiple_of(self.cfg.ratinginterval as usize) || self.done == self.total;
        if show_elo {
            self.print_elo();
        }
        self.check_sprt(show_elo, stop);
        self.print_progress();
        if let Some(slot) = broken {
            if !stop.swap(true, Ordering::SeqCst) {
                let msg = format!(
                    "{} crashed or stopped answering; stopping the match (-recover restarts it and goes on)",
                    self.names[slot]
                );
                self.say(&msg);
                self.summary.stopped = Some(msg);
            }
        }
    }

    /// Adds the game to the first engine's score (overall and by colour) and to the
    /// colours' score.
    fn count_result(&mut self, rec: &GameRecord) {
        let ws = rec.white_slot;
        let first_wins = match rec.result {
            GameResult::WhiteWins => Some(ws == 0),
            GameResult::BlackWins => Some(ws == 1),
            GameResult::Draw => None,
        };
        let side = if ws == 0 {
            &mut self.as_white
        } else {
            &mut self.as_black
        };
        for s in [&mut self.summary.score, side] {
            match first_wins {
                Some(true) => s.wins += 1,
                Some(false) => s.losses += 1,
                None => s.draws += 1,
            }
        }
        match rec.result {
            GameResult::WhiteWins => self.colours.wins += 1,
            GameResult::BlackWins => self.colours.losses += 1,
            GameResult::Draw => self.colours.draws += 1,
        }
    }

    /// Counts the game's fouls; returns the slot of an engine that crashed or stalled
    /// when the match does not `-recover`.
    fn count_fouls(&mut self, rec: &GameRecord) -> Option<usize> {
        let mut broken = None;
        for &(slot, f) in &rec.fouls {
            self.summary.fouls[slot].add(f);
            if matches!(f, Foul::Crash | Foul::Stall) && !self.cfg.recover {
                broken = Some(slot);
            }
        }
        broken
    }

    /// Appends the game to the `-pgnout` file and its final position to the `-epdout`
    /// file.
    fn write_records(&mut self, rec: &GameRecord) {
        if let (Some(file), Some(p)) = (self.pgn_file.as_mut(), self.cfg.pgnout.as_ref()) {
            let text = pgn::write_game_as(rec, &self.meta, p.min, self.cfg.pgn_moves);
            if let Err(e) = file.write_all(text.as_bytes()) {
                self.say(&format!("Warning: cannot write the PGN: {e}"));
            }
        }
        if let Some(file) = self.epd_file.as_mut() {
            let _ = writeln!(file, "{}", rec.final_fen);
        }
    }

    /// The first engine's score by colour, the colours' score and the Elo line.
    fn print_elo(&mut self) {
        let lines = [
            format!(
                "...      {} playing White: {}",
                self.names[0],
                self.as_white.line()
            ),
            format!(
                "...      {} playing Black: {}",
                self.names[0],
                self.as_black.line()
            ),
            format!("...      White vs Black: {}", self.colours.line()),
            self.summary.score.elo_line(),
        ];
        for line in &lines {
            self.say(line);
        }
    }

    /// Prints the SPRT line (with the Elo lines, or when it decides); a decision stops
    /// the match.
    fn check_sprt(&mut self, show_elo: bool, stop: &AtomicBool) {
        let Some(s) = &self.cfg.sprt else { return };
        let t = Sprt::new(&self.summary.score, s.elo0, s.elo1, s.alpha, s.beta);
        if show_elo || t.state() != SprtState::Continue {
            self.say(&t.line());
        }
        if t.state() != SprtState::Continue && self.summary.sprt.is_none() {
            self.summary.sprt = Some(t.state());
            self.summary.stopped = Some(format!("the SPRT decided after {} games", self.done));
            stop.store(true, Ordering::SeqCst);
        }
    }

    /// Games played, time elapsed and left, fouls so far.
    fn print_progress(&mut self) {
        let (done, total) = (self.done, self.total);
        let elapsed = self.began.elapsed();
        let left = if done > 0 && done < total {
            let per = elapsed.as_secs_f64() / done as f64;
            format!(
                ", about {} left",
                hms(Duration::from_secs_f64(per * (total - done) as f64))
            )
        } else {
            String::new()
        };
        let line = format!(
            "Progress: {done} of {total} games ({}%), {} elapsed{left}; fouls: {}: {}; {}: {}",
            done * 100 / total.max(1),
            hms(elapsed),
            self.names[0],
            self.summary.fouls[0].text(),
            self.names[1],
            self.summary.fouls[1].text()
        );
        self.say(&line);
    }

    /// The match's summary once every worker has stopped, or its fatal error.
    fn finish(mut self) -> Result<MatchSummary, MatchError> {
        if let Some(err) = self.fatal.take() {
            return Err(err);
        }
        let played = self.summary.score.games() as usize;
        if played < self.total && self.summary.stopped.is_none() {
            self.summary.stopped = Some(format!("{played} of {} games played", self.total));
        }
        self.say("Finished match");
        Ok(self.summary)
    }
}

/// Starts (or restarts) the engine in `slot`.
fn start_engine(
    cfg: &MatchConfig,
    pair: &mut Pair,
    slot: usize,
    gen: u64,
) -> Result<(), EngineError> {
    let mut e = Engine::spawn(&cfg.engines[slot], slot, gen, &mut pair.mux, cfg.debug)?;
    let r = e
        .handshake(&mut pair.mux)
        .and_then(|_| e.check_variant(&cfg.variant));
    match r {
        Ok(()) => {
            pair.engines[slot] = Some(e);
            Ok(())
        }
        Err(err) => {
            e.kill();
            pair.mux.retire(slot);
            Err(err)
        }
    }
}

/// The engine processes a worker has started, by slot.
#[derive(Default)]
struct Lives {
    /// Processes started so far (the generation of the current one).
    gens: [u64; 2],
    /// The engine has been started once.
    started: [bool; 2],
}

impl Lives {
    /// Gets the engine in `slot` ready for the next game: restarted when its policy
    /// (or its own request) says so, started when it is not running. False when the
    /// worker must stop: an engine that cannot play at all (reported on `tx`), or a
    /// broken one without `-recover`. A failed restart is left to the referee (that
    /// engine forfeits).
    fn ready(
        &mut self,
        cfg: &MatchConfig,
        pair: &mut Pair,
        slot: usize,
        tx: &Sender<Event>,
    ) -> bool {
        let restart = pair.engines[slot].as_ref().is_some_and(|e| {
            cfg.engines[slot].restart == Restart::On
                || (cfg.engines[slot].restart == Restart::Auto && e.wants_restart)
        });
        if restart {
            if let Some(e) = pair.engines[slot].take() {
                e.quit();
            }
            pair.mux.retire(slot);
        }
        if pair.engines[slot].is_some() {
            return true;
        }
        let broken = self.started[slot] && !restart;
        if broken && !cfg.recover {
            // The main thread stops the match; leave the game to nobody.
            return false;
        }
        self.gens[slot] += 1;
        let r = start_engine(cfg, pair, slot, self.gens[slot]);
        if let Err(err) = r {
            if !self.started[slot] {
                let _ = tx.send(Event::Fatal(MatchError::CannotPlay {
                    slot,
                    name: cfg.engines[slot].fallback_name(),
                    source: err,
                }));
                return false;
            }
            // A restart failed: the game is forfeited by that engine (referee).
            tracing::warn!("restart of engine {} failed: {err}", slot + 1);
        }
        self.started[slot] = true;
        true
    }
}

/// Plays games from `queue` until it is empty or `stop` is set, with its own pair of
/// engine processes, reporting on `tx`.
fn worker(
    cfg: &MatchConfig,
    queue: &Mutex<VecDeque<GameSetup>>,
    stop: &AtomicBool,
    adj: &Adjudication,
    tx: Sender<Event>,
) {
    let mut pair = Pair {
        mux: Mux::new(),
        engines: [None, None],
    };
    let mut lives = Lives::default();
    'games: loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let job = match queue.lock() {
            Ok(mut q) => q.pop_front(),
            Err(_) => None,
        };
        let Some(job) = job else { break };
        for slot in 0..2 {
            if !lives.ready(cfg, &mut pair, slot, &tx) {
                break 'games;
            }
        }
        for e in pair.engines.iter().flatten() {
            if let Err(err) = e.check_start(job.fen.as_deref()) {
                let _ = tx.send(Event::Fatal(MatchError::Engine(err)));
                break 'games;
            }
        }
        let ws = job.white_slot;
        let name = |slot: usize| {
            pair.engines[slot]
                .as_ref()
                .map(|e| e.name.clone())
                .unwrap_or_else(|| cfg.engines[slot].fallback_name())
        };
        let names = [name(ws), name(ws ^ 1)];
        let _ = tx.send(Event::Started {
            index: job.index,
            names: names.clone(),
        });
        let rec = referee::play_game(&mut pair, &job, adj, names);
        if tx.send(Event::Finished(Box::new(rec))).is_err() {
            break;
        }
        if cfg.wait_ms > 0 {
            std::thread::sleep(Duration::from_millis(cfg.wait_ms));
        }
    }
    for slot in 0..2 {
        if let Some(e) = pair.engines[slot].take() {
            e.quit();
        }
    }
}
