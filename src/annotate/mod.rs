//! `sako annotate`: every move of the games of a PGN file searched by the engine, the
//! PGN written back with a score on every move, `$6`/`$2`/`$4` (`?!`/`?`/`??`) where
//! the move lost ground and the better line, and an evaluation graph per game as SVG.
//!
//! # Files
//! * this file: the options, the errors, the progress events and [`run`];
//! * `source.rs`: the file cut into games, each game's variant and start position;
//! * `analysis.rs`: one game's positions searched, each move valued and judged;
//! * `judge.rs`: how much a move lost, in expected score, and the verdict;
//! * `pgn_out.rs`: the annotated PGN text;
//! * `graph.rs`: the evaluation graph (plotters' SVG backend).
//!
//! Games are analysed in parallel (rayon), one search thread per game; a broken game
//! (unreadable text, unknown variant, bad FEN, illegal move) is reported with its
//! number and skipped, and the others are written in their order.

mod analysis;
pub mod graph;
pub mod judge;
pub mod pgn_out;
pub mod source;

use rayon::prelude::*;
use std::path::{Path, PathBuf};

use crate::engine::eval::Eval;
use crate::engine::nnue::NetChoice;
use crate::engine::time::Limits;
use crate::rules::variant::all_variants;

pub use analysis::{AnnotatedGame, Better, MoveNote};
pub use judge::Judgement;
pub use source::{Skipped, SourceGame};

/// What `sako annotate` is asked to do.
#[derive(Clone, Debug)]
pub struct Options {
    /// The search of every position: a node count, a depth or a move time.
    pub limits: Limits,
    /// Search threads in all: games run in parallel, one thread each (a game gets the
    /// spare threads when there are fewer games than threads).
    pub threads: usize,
    /// Transposition table of each game's search, in megabytes.
    pub hash_mb: usize,
    /// The variant of a game without a `Variant` tag.
    pub variant: String,
    /// Evaluation tables from this directory (missing files: the built-in tables).
    pub eval_tables: Option<PathBuf>,
    /// The network that evaluates (the built-in one by default).
    pub net: NetChoice,
}

impl Options {
    /// The options for `limits`: every core, 16 MB a game, chess as the fallback,
    /// the built-in evaluation.
    pub fn new(limits: Limits) -> Options {
        Options {
            limits,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 16,
            variant: "normal".into(),
            eval_tables: None,
            net: NetChoice::BuiltIn,
        }
    }
}

/// Why `sako annotate` cannot go on at all (a broken game is a [`Skipped`] instead).
#[derive(Debug)]
pub enum AnnotateError {
    /// The input file could not be read.
    Read(PathBuf, std::io::Error),
    /// An output file could not be written.
    Write(PathBuf, std::io::Error),
    /// The evaluation (tables or network) of a variant could not be loaded.
    Eval(String),
    /// The transposition table could not be allocated.
    Hash(String),
    /// A graph could not be drawn.
    Graph(graph::GraphError),
    /// The `--variant` fallback names no variant.
    UnknownVariant(String),
    /// The rules core refused a game it had read (a bug: games are replayed first).
    Game(crate::GameError),
}

impl std::fmt::Display for AnnotateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnnotateError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            AnnotateError::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            AnnotateError::Eval(e) => write!(f, "evaluation: {e}"),
            AnnotateError::Hash(e) => write!(f, "{e} (ask for less with --hash)"),
            AnnotateError::Graph(e) => e.fmt(f),
            AnnotateError::UnknownVariant(v) => f.write_str(&crate::game::unknown_variant(v)),
            AnnotateError::Game(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnnotateError {}

/// What the analysis tells its caller while it runs (from the worker threads).
#[derive(Clone, Debug)]
pub enum Event {
    /// The games were read: how many will be analysed, and their positions in all.
    Start {
        /// Games to analyse.
        games: usize,
        /// Positions to search in all.
        positions: u64,
    },
    /// A broken game, skipped.
    Skipped(Skipped),
    /// One more position searched.
    Position,
    /// A game is finished (its number in the file).
    GameDone(usize),
}

/// What a finished run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// Games annotated and written.
    pub games: usize,
    /// Moves annotated in all.
    pub moves: usize,
    /// Moves judged `?!`, `?` and `??`.
    pub judged: [usize; 3],
    /// The broken games, skipped.
    pub skipped: Vec<Skipped>,
    /// The SVG files written.
    pub graphs: Vec<PathBuf>,
}

/// Annotates the games of a PGN text: the annotated games in their order and the
/// broken ones (reported through `on_event` as well).
pub fn annotate_text(
    text: &str,
    opts: &Options,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<(Vec<AnnotatedGame>, Vec<Skipped>), AnnotateError> {
    if crate::rules::variant::variant_id(&opts.variant).is_none() {
        return Err(AnnotateError::UnknownVariant(opts.variant.clone()));
    }
    let mut games = Vec::new();
    let mut skipped = Vec::new();
    for read in source::read_games(text, &opts.variant) {
        match read {
            Ok(g) => games.push(g),
            Err(s) => {
                on_event(Event::Skipped(s.clone()));
                skipped.push(s);
            }
        }
    }
    let evals = load_evals(&games, opts)?;
    let positions = games.iter().map(|g| g.moves.len() as u64 + 1).sum();
    on_event(Event::Start {
        games: games.len(),
        positions,
    });
    let threads = opts.threads.max(1);
    let per_game = (threads / games.len().max(1)).max(1);
    let work = || {
        games
            .par_iter()
            .map(|g| {
                let eval = evals[g.variant_index].as_ref().ok_or_else(|| {
                    AnnotateError::Eval(format!("no evaluation for {}", g.variant))
                })?;
                let ctx = analysis::Ctx {
                    limits: &opts.limits,
                    threads: per_game,
                    hash_mb: opts.hash_mb,
                    eval,
                    on_position: &|| on_event(Event::Position),
                };
                let done = analysis::analyse(g, &ctx);
                on_event(Event::GameDone(g.number));
                done
            })
            .collect::<Result<Vec<_>, _>>()
    };
    let annotated = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.min(games.len().max(1)))
        .build()
    {
        Ok(pool) => pool.install(work)?,
        Err(_) => work()?,
    };
    Ok((annotated, skipped))
}

/// The evaluation of every variant the games use (indexed by variant id).
fn load_evals(games: &[SourceGame], opts: &Options) -> Result<Vec<Option<Eval>>, AnnotateError> {
    let mut evals: Vec<Option<Eval>> = all_variants().iter().map(|_| None).collect();
    for g in games {
        if evals[g.variant_index].is_none() {
            let def = &all_variants()[g.variant_index];
            let eval = Eval::load_with_net(def, opts.eval_tables.as_deref(), &opts.net)
                .map_err(AnnotateError::Eval)?;
            evals[g.variant_index] = Some(eval);
        }
    }
    Ok(evals)
}

/// `sako annotate`: reads `input`, writes the annotated games to `output` and, with
/// `svg_dir`, one graph per game (`game-<n>.svg`, `n` its number in the input).
pub fn run(
    input: &Path,
    output: &Path,
    svg_dir: Option<&Path>,
    opts: &Options,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<Summary, AnnotateError> {
    let text = std::fs::read_to_string(input).map_err(|e| AnnotateError::Read(input.into(), e))?;
    let (games, skipped) = annotate_text(&text, opts, on_event)?;
    let mut out = String::new();
    let mut summary = Summary {
        games: games.len(),
        skipped,
        ..Summary::default()
    };
    for g in &games {
        out += &pgn_out::write_game(g, &opts.limits);
        summary.moves += g.notes.len();
        for n in &g.notes {
            if let Some(j) = n.judgement {
                summary.judged[j as usize] += 1;
            }
        }
    }
    std::fs::write(output, out).map_err(|e| AnnotateError::Write(output.into(), e))?;
    if let Some(dir) = svg_dir {
        std::fs::create_dir_all(dir).map_err(|e| AnnotateError::Write(dir.into(), e))?;
        for g in &games {
            let path = dir.join(format!("game-{}.svg", g.number));
            let svg = graph::render(g).map_err(AnnotateError::Graph)?;
            std::fs::write(&path, svg).map_err(|e| AnnotateError::Write(path.clone(), e))?;
            summary.graphs.push(path);
        }
    }
    Ok(summary)
}
