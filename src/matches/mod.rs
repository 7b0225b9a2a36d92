//! `sako match`: engine-vs-engine matches in any of sako's variants, with cutechess-cli's
//! command line and output, and sako's rules core as the referee.
//!
//! - [`args`]: the cutechess-style command line;
//! - [`engine`]: driving an engine over XBoard or UCI;
//! - [`referee`]: one game, every move checked, results with their reasons;
//! - [`pgn`]: the game records;
//! - [`elo`]: score, Elo with error bar, SPRT;
//! - [`openings`]: opening files and the balanced-openings generator.
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
use std::fs::OpenOptions;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use args::{MatchConfig, OpeningOrder, Parsed, Restart};
use elo::{Score, Sprt, SprtState};
use engine::{Engine, EngineError, Mux};
use openings::{Opening, Rng};
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

enum Event {
    Started { index: usize, names: [String; 2] },
    Finished(Box<GameRecord>),
    Fatal(String),
}

/// Runs `sako match ARGS...`, printing to `out`. Errors are for bad arguments and
/// engines that cannot start; fouls during games are results, not errors.
pub fn run_cli(args: &[String], out: &mut dyn Write) -> Result<MatchSummary, String> {
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

/// Runs a parsed match.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    let book: Vec<Opening> = match &cfg.openings {
        Some(o) => openings::load(o, &cfg.variant)?,
        None => vec![Opening {
            fen: None,
            moves: Vec::new(),
        }],
    };
    let jobs = schedule(cfg, &book);
    let total = jobs.len();
    let mut pgn_file = match &cfg.pgnout {
        Some(p) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p.file)
                .map_err(|e| format!("cannot open {}: {e}", p.file.display()))?,
        ),
        None => None,
    };
    let mut epd_file = match &cfg.epdout {
        Some(p) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let meta = PgnMeta {
        event: cfg.event.clone(),
        site: cfg.site.clone(),
    };
    let adj = Adjudication {
        draw: cfg.draw.clone(),
        resign: cfg.resign.clone(),
        maxmoves: cfg.maxmoves,
    };
    let queue = Mutex::new(VecDeque::from(jobs));
    let stop = AtomicBool::new(false);
    let workers = cfg.concurrency.min(total).max(1);
    let (tx, rx) = channel::<Event>();
    let mut summary = MatchSummary::default();
    let mut fatal: Option<String> = None;
    let began = Instant::now();
    let mut w = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };

    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let queue = &queue;
            let stop = &stop;
            let adj = &adj;
            scope.spawn(move || worker(cfg, queue, stop, adj, tx));
        }
        drop(tx);

        let mut names: [String; 2] = [
            cfg.engines[0].fallback_name(),
            cfg.engines[1].fallback_name(),
        ];
        let mut as_white = Score::default();
        let mut as_black = Score::default();
        let mut colours = Score::default();
        let mut done = 0usize;
        for ev in rx.iter() {
            match ev {
                Event::Started { index, names: n } => {
                    w(&format!(
                        "Started game {} of {total} ({} vs {})",
                        index + 1,
                        n[0],
                        n[1]
                    ));
                }
                Event::Fatal(msg) => {
                    if fatal.is_none() {
                        fatal = Some(msg);
                    }
                    stop.store(true, Ordering::SeqCst);
                }
                Event::Finished(rec) => {
                    done += 1;
                    let ws = rec.white_slot;
                    names[ws] = rec.names[0].clone();
                    names[ws ^ 1] = rec.names[1].clone();
                    w(&format!(
                        "Finished game {} ({} vs {}): {} {{{}}}",
                        rec.index + 1,
                        rec.names[0],
                        rec.names[1],
                        rec.result.pgn(),
                        referee::comment_safe(&rec.reason)
                    ));
                    let first_wins = match rec.result {
                        GameResult::WhiteWins => Some(ws == 0),
                        GameResult::BlackWins => Some(ws == 1),
                        GameResult::Draw => None,
                    };
                    let side = if ws == 0 {
                        &mut as_white
                    } else {
                        &mut as_black
                    };
                    for s in [&mut summary.score, side] {
                        match first_wins {
                            Some(true) => s.wins += 1,
                            Some(false) => s.losses += 1,
                            None => s.draws += 1,
                        }
                    }
                    match rec.result {
                        GameResult::WhiteWins => colours.wins += 1,
                        GameResult::BlackWins => colours.losses += 1,
                        GameResult::Draw => colours.draws += 1,
                    }
                    let mut broken = None;
                    for &(slot, f) in &rec.fouls {
                        summary.fouls[slot].add(f);
                        if matches!(f, Foul::Crash | Foul::Stall) && !cfg.recover {
                            broken = Some(slot);
                        }
                    }
                    if let (Some(file), Some(p)) = (pgn_file.as_mut(), cfg.pgnout.as_ref()) {
                        let text = pgn::write_game(&rec, &meta, p.min);
                        if let Err(e) = file.write_all(text.as_bytes()) {
                            w(&format!("Warning: cannot write the PGN: {e}"));
                        }
                    }
                    if let Some(file) = epd_file.as_mut() {
                        let _ = writeln!(file, "{}", rec.final_fen);
                    }
                    w(&format!(
                        "Score of {} vs {}: {}",
                        names[0],
                        names[1],
                        summary.score.line()
                    ));
                    let show_elo =
                        done.is_multiple_of(cfg.ratinginterval as usize) || done == total;
                    if show_elo {
                        w(&format!(
                            "...      {} playing White: {}",
                            names[0],
                            as_white.line()
                        ));
                        w(&format!(
                            "...      {} playing Black: {}",
                            names[0],
                            as_black.line()
                        ));
                        w(&format!("...      White vs Black: {}", colours.line()));
                        w(&summary.score.elo_line());
                    }
                    if let Some(s) = &cfg.sprt {
                        let t = Sprt::new(&summary.score, s.elo0, s.elo1, s.alpha, s.beta);
                        if show_elo || t.state() != SprtState::Continue {
                            w(&t.line());
                        }
                        if t.state() != SprtState::Continue && summary.sprt.is_none() {
                            summary.sprt = Some(t.state());
                            summary.stopped = Some(format!("the SPRT decided after {done} games"));
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    let elapsed = began.elapsed();
                    let left = if done > 0 && done < total {
                        let per = elapsed.as_secs_f64() / done as f64;
                        format!(
                            ", about {} left",
                            hms(Duration::from_secs_f64(per * (total - done) as f64))
                        )
                    } else {
                        String::new()
                    };
                    w(&format!(
                        "Progress: {done} of {total} games ({}%), {} elapsed{left}; fouls: {}: {}; {}: {}",
                        done * 100 / total.max(1),
                        hms(elapsed),
                        names[0],
                        summary.fouls[0].text(),
                        names[1],
                        summary.fouls[1].text()
                    ));
                    if let Some(slot) = broken {
                        if !stop.swap(true, Ordering::SeqCst) {
                            let msg = format!(
                                "{} crashed or stopped answering; stopping the match (-recover restarts it and goes on)",
                                names[slot]
                            );
                            w(&msg);
                            summary.stopped = Some(msg);
                        }
                    }
                }
            }
        }
    });
    if let Some(msg) = fatal {
        return Err(msg);
    }
    let played = summary.score.games() as usize;
    if played < total && summary.stopped.is_none() {
        summary.stopped = Some(format!("{played} of {total} games played"));
    }
    w("Finished match");
    Ok(summary)
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
    let mut gens = [0u64; 2];
    let mut started = [false; 2];
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
                continue;
            }
            let broken = started[slot] && !restart;
            if broken && !cfg.recover {
                // The main thread stops the match; leave the game to nobody.
                break 'games;
            }
            gens[slot] += 1;
            let r = start_engine(cfg, &mut pair, slot, gens[slot]);
            if let Err(err) = r {
                if !started[slot] {
                    let _ = tx.send(Event::Fatal(format!(
                        "engine {} ({}) cannot play: {err}",
                        slot + 1,
                        cfg.engines[slot].fallback_name()
                    )));
                    break 'games;
                }
                // A restart failed: the game is forfeited by that engine (referee).
                tracing::warn!("restart of engine {} failed: {err}", slot + 1);
            }
            started[slot] = true;
        }
        for e in pair.engines.iter().flatten() {
            if let Err(err) = e.check_start(job.fen.as_deref()) {
                let _ = tx.send(Event::Fatal(err.to_string()));
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
