//! `sako annotate`: its options, and the progress bar (indicatif, on standard error
//! and only on a terminal) over the library's [`sako::annotate::run`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sako::annotate::{AnnotateError, Event, Options, Summary};
use sako::engine::time::Limits;

/// The default search of each position when no limit is given.
pub const DEFAULT_NODES: u64 = 200_000;

/// The options of `sako annotate` (see [`sako::annotate`]).
#[derive(Args)]
pub struct AnnotateArgs {
    /// The games to annotate (sako match's or XBoard's PGN).
    #[arg(long = "in", value_name = "GAMES.pgn")]
    input: PathBuf,
    /// Where to write the annotated games (replaced).
    #[arg(long = "out", value_name = "ANNOTATED.pgn")]
    output: PathBuf,
    /// Write each game's evaluation graph here as game-<n>.svg (n: its number in the input).
    #[arg(long, value_name = "DIR")]
    svg_dir: Option<PathBuf>,
    /// Search each position this many nodes [default: 200000 when no limit is given].
    #[arg(long, value_name = "N", conflicts_with_all = ["depth", "movetime"])]
    nodes: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, value_name = "D", conflicts_with = "movetime")]
    depth: Option<u32>,
    /// Search each position this many milliseconds.
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Search threads in all, one game per thread [default: every core].
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Transposition table of each game, in megabytes.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    hash: usize,
    /// The variant of games without a Variant tag.
    #[arg(long, default_value = "normal")]
    variant: String,
    /// Read evaluation tables from this directory (missing files: built-in tables).
    #[arg(long, value_name = "DIR")]
    eval_tables: Option<PathBuf>,
    /// Evaluate with this network file (`.nnue`), or `off` for the tables [default: the
    /// built-in net of the game, where there is one].
    #[arg(long, value_name = "FILE|off")]
    net: Option<String>,
}

/// Why `sako annotate` stopped: a bad option or the run's own error.
#[derive(Debug)]
pub enum AnnotateCliError {
    /// A limit of 0.
    ZeroLimit(&'static str),
    /// The run failed.
    Run(AnnotateError),
}

impl std::fmt::Display for AnnotateCliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnnotateCliError::ZeroLimit(flag) => write!(f, "--{flag} must be at least 1"),
            AnnotateCliError::Run(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnnotateCliError {}

/// The search limit of every position.
fn limits(a: &AnnotateArgs) -> Result<Limits, AnnotateCliError> {
    match (a.nodes, a.depth, a.movetime) {
        (Some(0), _, _) => Err(AnnotateCliError::ZeroLimit("nodes")),
        (_, Some(0), _) => Err(AnnotateCliError::ZeroLimit("depth")),
        (_, _, Some(0)) => Err(AnnotateCliError::ZeroLimit("movetime")),
        (Some(n), _, _) => Ok(Limits::nodes(n)),
        (None, Some(d), _) => {
            if d > 100 {
                eprintln!("sako: --depth {d} is above the maximum 100; using 100");
            }
            Ok(Limits::depth(d.min(100)))
        }
        (None, None, Some(ms)) => Ok(Limits::movetime(ms)),
        (None, None, None) => Ok(Limits::nodes(DEFAULT_NODES)),
    }
}

/// `sako annotate`: the run with a progress bar, then one summary line on standard
/// error.
pub fn annotate(a: AnnotateArgs) -> Result<(), AnnotateCliError> {
    let mut opts = Options::new(limits(&a)?);
    if let Some(t) = a.threads {
        opts.threads = super::capped_threads(t);
    }
    opts.hash_mb = super::capped_hash(a.hash);
    opts.variant = a.variant.clone();
    opts.eval_tables = a.eval_tables.clone();
    opts.net = super::net_choice(&a.net);
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} positions, {msg}, ETA {eta}",
    );
    if let Ok(style) = style {
        bar.set_style(style);
    }
    let games = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    let on_event = |e: Event| match e {
        Event::Start {
            games: n,
            positions,
        } => {
            total.store(n, Ordering::Relaxed);
            bar.set_length(positions);
            bar.set_message(format!("0/{n} games"));
            bar.enable_steady_tick(Duration::from_millis(200));
        }
        Event::Skipped(s) => bar.suspend(|| eprintln!("sako: skipped {s}")),
        Event::Position => bar.inc(1),
        Event::GameDone(_) => {
            let done = games.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{done}/{} games", total.load(Ordering::Relaxed)));
        }
    };
    let result = sako::annotate::run(&a.input, &a.output, a.svg_dir.as_deref(), &opts, &on_event);
    bar.finish_and_clear();
    let summary = result.map_err(AnnotateCliError::Run)?;
    eprintln!("{}", summary_line(&summary, &a));
    Ok(())
}

/// `annotated 3 games (120 moves: 4 ?!, 2 ?, 1 ??), skipped 1; wrote OUT and 3 graphs in DIR`.
fn summary_line(s: &Summary, a: &AnnotateArgs) -> String {
    let [inaccuracies, mistakes, blunders] = s.judged;
    let mut line = format!(
        "sako: annotated {} games ({} moves: {inaccuracies} ?!, {mistakes} ?, {blunders} ??), \
         skipped {}; wrote {}",
        s.games,
        s.moves,
        s.skipped.len(),
        a.output.display()
    );
    if let Some(dir) = &a.svg_dir {
        line += &format!(" and {} graphs in {}", s.graphs.len(), dir.display());
    }
    line
}
