//! The `sako` command line: clap's definitions of the subcommands and one function
//! per subcommand. With no subcommand the protocol loop runs.

mod annotate;
mod progress;

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use clap::{Args, Parser, Subcommand};
use sako::engine::search::SearchOptions;
use sako::engine::time::Limits;
use sako::protocol::Protocol;
use sako::rules::variant::all_variants;
use sako::Game;

#[derive(Parser)]
#[command(
    name = "sako",
    version,
    about = "A chess-variant engine (XBoard/UCI)",
    long_about = "A chess-variant engine (XBoard/UCI).\n\nWith no subcommand sako runs the \
                  protocol loop: the first command it reads, `xboard` or `uci`, chooses the \
                  protocol. This is how GUIs (XBoard, cutechess) start it."
)]
struct Cli {
    /// Write logs to this file instead of standard error (level from SAKO_LOG, default warn).
    #[arg(long, global = true, value_name = "FILE")]
    log_file: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// A position: variant, optional FEN and moves played from it.
#[derive(Args)]
struct PositionArgs {
    /// Variant name (see `sako variants`).
    #[arg(long, default_value = "normal")]
    variant: String,
    /// Start from this FEN instead of the variant's start position.
    #[arg(long)]
    fen: Option<String>,
    /// Moves to play first, space separated, in coordinate notation.
    #[arg(long)]
    moves: Option<String>,
}

/// How the engine searches: threads, hash size, evaluation tables.
#[derive(Args)]
struct EngineArgs {
    /// Search threads (Lazy SMP).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table size in megabytes.
    #[arg(long, default_value_t = 16)]
    hash: usize,
    /// Read evaluation tables from this directory (missing files: built-in tables).
    #[arg(long, value_name = "DIR")]
    eval_tables: Option<std::path::PathBuf>,
    /// Evaluate with this network file (`.nnue`, see docs/nnue.md) in the games it
    /// is made for, or `off` for the tables [default: the built-in net of the game,
    /// where there is one].
    #[arg(long, value_name = "FILE|off")]
    net: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree to DEPTH.
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Depth in plies.
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads (root moves split between them).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// List every legal move, one per line, sorted by byte order.
    Moves {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Print the game's result: `*` while it goes on, else e.g. `1-0 {White mates}`.
    Result {
        #[command(flatten)]
        position: PositionArgs,
    },
    /// List the variants: name, board size, description.
    Variants,
    /// Search fixed positions of every variant to a fixed depth; the last two lines are
    /// `Nodes searched: N` and `Nodes/second: M`.
    Bench {
        /// Depth in plies.
        #[arg(long, default_value_t = 9)]
        depth: u32,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Analyse a position: one `info` line per completed depth, then `bestmove MOVE`.
    Analyze {
        #[command(flatten)]
        position: PositionArgs,
        /// Search to this depth (default 8 when neither --movetime nor --nodes is given).
        #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
        depth: Option<u32>,
        /// Search this many milliseconds.
        #[arg(long, conflicts_with = "nodes")]
        movetime: Option<u64>,
        /// Search about this many nodes (as UCI `go nodes`).
        #[arg(long)]
        nodes: Option<u64>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// Run an engine-vs-engine match with cutechess-cli's arguments, refereed by sako's
    /// rules (`sako match -help` lists the options; docs/matches.md explains them).
    #[command(disable_help_flag = true)]
    Match {
        /// cutechess-cli style arguments: -engine ... -engine ... -each ... -variant V ...
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
    /// Write balanced openings as EPD to standard output: random legal plies from the
    /// start position (in Historia the random plies are the deployment drops), kept
    /// when a fixed-depth search scores them within --margin centipawns. Seeded: the
    /// same arguments write the same file.
    Openings {
        /// Variant name (see `sako variants`).
        #[arg(long, default_value = "normal")]
        variant: String,
        /// Number of openings.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies from the start position (Historia: 20 deploys every piece).
        #[arg(long, default_value_t = 8)]
        plies: usize,
        /// Depth of the balance search.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Largest accepted score in centipawns (either side).
        #[arg(long, default_value_t = 50)]
        margin: i32,
    },
    /// Fit the numbers of a variant's evaluation table to training positions
    /// (`sako datagen` lines) by logistic regression; prints the loss per epoch and
    /// writes the tuned table (comments kept) to --out.
    Tune(TuneArgs),
    /// Write training data for evaluation tuning from self-play games of sako's search:
    /// one `FEN | score | result` line per quiet position (score in centipawns for
    /// White, result 1, 0.5 or 0 for White). The file is appended to, one finished game
    /// at a time, so the same command run again resumes.
    Datagen(DatagenArgs),
    /// Convert training data between the text lines and the binary records of
    /// `sako datagen` (the input's format is told by its magic, the output's by
    /// --format or the --out name), or count a file's positions (--stats).
    DatagenConvert(DatagenConvertArgs),
    /// Turn training lines (`sako datagen` files) into the network trainer's input:
    /// each position's active network inputs from both sides' points of view (the
    /// `SAKOFEAT` format of docs/nnue.md; the trainer is in scripts/nnue/).
    NnueFeatures {
        /// Variant name (see `sako variants`).
        #[arg(long, default_value = "normal")]
        variant: String,
        /// Data files: `FEN | score | result` lines or `sako datagen --format bin` records.
        #[arg(long, required = true, num_args = 1..)]
        data: Vec<std::path::PathBuf>,
        /// The feature file to write (replaced).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Annotate the games of a PGN file: every move searched, a score on each, `?!`/`?`/`??`
    /// and the better line where it lost ground, an evaluation graph per game (SVG).
    Annotate(annotate::AnnotateArgs),
    /// Serve the XBoard (CECP) protocol.
    Xboard,
    /// Serve the UCI protocol.
    Uci,
}

/// The options of `sako tune` (see [`sako::tune`]).
#[derive(Args)]
struct TuneArgs {
    /// Variant name (see `sako variants`).
    #[arg(long, default_value = "normal")]
    variant: String,
    /// Data files: `FEN | score | result` lines or `sako datagen --format bin` records
    /// (told by their magic).
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<std::path::PathBuf>,
    /// Passes of Adam over all positions.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Share of the game result in the target; the rest is the search score.
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Tune only these parameters: comma-separated names or name prefixes
    /// (value, pst, pst:N, mobility, pair, safe_check, king_danger, passed, term,
    /// term:tempo, ...). Default: all.
    #[arg(long, value_delimiter = ',')]
    params: Option<Vec<String>>,
    /// Hold these parameters (same names as --params).
    #[arg(long, value_delimiter = ',')]
    hold: Vec<String>,
    /// Start from DIR/<variant>.txt instead of the built-in table.
    #[arg(long, value_name = "DIR")]
    eval_tables: Option<std::path::PathBuf>,
    /// Read at most this many positions.
    #[arg(long, default_value_t = usize::MAX)]
    limit: usize,
    /// Pull every parameter back to its starting value with this weight (an L2
    /// penalty per centipawn squared, e.g. 1e-8): keeps rarely seen terms near
    /// their old values.
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Hold parameters used by fewer positions than this (default: a thousandth of
    /// the positions): rare features would otherwise fit noise.
    #[arg(long)]
    min_count: Option<usize>,
    /// Where to write the tuned table.
    #[arg(long)]
    out: std::path::PathBuf,
}

/// The options of `sako datagen` (see [`sako::datagen`]).
#[derive(Args)]
struct DatagenArgs {
    /// Variant name (see `sako variants`).
    #[arg(long, default_value = "normal")]
    variant: String,
    /// Append the positions to this file (created if missing).
    #[arg(long, value_name = "FILE")]
    out: std::path::PathBuf,
    /// Play this many games in this run [default: 100].
    #[arg(long, value_name = "N", conflicts_with = "positions")]
    games: Option<u64>,
    /// Stop when the file holds this many lines (those already in it included).
    #[arg(long, value_name = "N")]
    positions: Option<u64>,
    /// Search each move this many nodes [default: 5000].
    #[arg(long, value_name = "K", conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Search each move to this depth instead of a node count.
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Games played at once (each searches on one thread).
    #[arg(long, value_name = "T", default_value_t = 1)]
    threads: usize,
    /// Random seed; with one thread the same seed and file give the same output.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Start from random lines of this EPD/FEN file instead of the start position.
    #[arg(long, value_name = "EPD")]
    openings: Option<std::path::PathBuf>,
    /// Uniformly random legal plies before the search takes over: P, or MIN-MAX for a
    /// count drawn per game.
    #[arg(long, value_name = "P|MIN-MAX", default_value = "8")]
    random_plies: String,
    /// The file's format: text (`FEN | score | result` lines) or bin (fixed binary
    /// records, docs/datagen.md) [default: bin for an --out name ending .bin or
    /// .sakobin, else text].
    #[arg(long, value_name = "text|bin")]
    format: Option<String>,
    /// End decided games early (docs/datagen.md) [default: on for bin, off for text].
    #[arg(long, value_name = "on|off")]
    adjudicate: Option<String>,
    /// Adjudication: a win when the score is at least this for --adj-win-plies plies.
    #[arg(long, value_name = "CP", default_value_t = 2000)]
    adj_win: i32,
    /// Adjudication: consecutive searched plies for a win.
    #[arg(long, value_name = "K", default_value_t = 6)]
    adj_win_plies: usize,
    /// Adjudication: a draw when |score| is at most this for --adj-draw-plies plies.
    #[arg(long, value_name = "CP", default_value_t = 10)]
    adj_draw: i32,
    /// Adjudication: consecutive searched plies for a draw.
    #[arg(long, value_name = "K", default_value_t = 12)]
    adj_draw_plies: usize,
    /// Adjudication: no draw before this ply.
    #[arg(long, value_name = "N", default_value_t = 80)]
    adj_draw_after: usize,
    /// Transposition table size in megabytes, per thread.
    #[arg(long, value_name = "MB", default_value_t = 8)]
    hash: usize,
    /// Read evaluation tables from this directory (missing files: built-in tables).
    #[arg(long, value_name = "DIR")]
    eval_tables: Option<std::path::PathBuf>,
    /// Play with this network file (`.nnue`) as the evaluation, or `off` for the
    /// tables [default: the built-in net of the game, where there is one].
    #[arg(long, value_name = "FILE|off")]
    net: Option<String>,
}

/// The options of `sako datagen-convert`.
#[derive(Args)]
struct DatagenConvertArgs {
    /// The file read (text or binary).
    #[arg(
        long = "in",
        value_name = "FILE",
        required_unless_present = "stats",
        requires = "output"
    )]
    input: Option<std::path::PathBuf>,
    /// The file written (replaced).
    #[arg(long = "out", value_name = "FILE")]
    output: Option<std::path::PathBuf>,
    /// The output's format [default: bin for a name ending .bin or .sakobin, else text].
    #[arg(long, value_name = "text|bin")]
    format: Option<String>,
    /// The variant of a text input [default: normal]; a binary file names its own.
    #[arg(long)]
    variant: Option<String>,
    /// Print the counts of this file (positions, results, scores) instead.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["input", "output"])]
    stats: Option<std::path::PathBuf>,
}

/// Reads `P` or `MIN-MAX`.
fn random_plies_range(text: &str) -> Result<(usize, Option<usize>), String> {
    let bad = || format!("--random-plies: '{text}' is not P or MIN-MAX");
    match text.split_once('-') {
        None => Ok((text.trim().parse().map_err(|_| bad())?, None)),
        Some((a, b)) => {
            let a: usize = a.trim().parse().map_err(|_| bad())?;
            let b: usize = b.trim().parse().map_err(|_| bad())?;
            if a > b {
                return Err(bad());
            }
            Ok((a, Some(b)))
        }
    }
}

/// `sako datagen-convert`.
fn datagen_convert(a: DatagenConvertArgs) -> Result<(), String> {
    use sako::datagen::Format;
    if let Some(path) = &a.stats {
        let s = sako::datagen::convert::stats(path, a.variant.as_deref())?;
        for r in &s.reasons {
            eprintln!("sako: rejected {r}");
        }
        say(&s.text());
        return Ok(());
    }
    let (Some(input), Some(output)) = (&a.input, &a.output) else {
        return Err("datagen-convert needs --in and --out (or --stats)".into());
    };
    let format = match &a.format {
        Some(f) => Format::from_name(f)?,
        None => Format::from_path(output),
    };
    let s = sako::datagen::convert::convert(input, output, format, a.variant.as_deref())?;
    for r in &s.reasons {
        eprintln!("sako: skipped {r}");
    }
    say(&format!(
        "wrote {} ({} {} positions as {}; {} skipped)",
        output.display(),
        s.written,
        s.variant,
        if format == Format::Bin {
            "binary records"
        } else {
            "text lines"
        },
        s.rejected
    ));
    Ok(())
}

fn setup(p: &PositionArgs) -> Result<Game, String> {
    let mut game = Game::new(&p.variant, p.fen.as_deref()).map_err(|e| match e {
        sako::GameError::BadFen(_) => format!("bad FEN: {e}"),
        _ => e.to_string(),
    })?;
    if let Some(moves) = &p.moves {
        game.play_all(moves)?;
    }
    Ok(game)
}

fn init_logging(file: Option<&std::path::Path>) -> Result<(), String> {
    let filter = tracing_subscriber::EnvFilter::try_from_env("SAKO_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false);
    match file {
        Some(path) => {
            let f = std::fs::File::create(path)
                .map_err(|e| format!("cannot open log file {}: {e}", path.display()))?;
            builder.with_writer(std::sync::Mutex::new(f)).init();
        }
        None => builder.with_writer(std::io::stderr).init(),
    }
    Ok(())
}

/// The deepest `sako perft` (the search's ply limit; deeper runs would never end).
const MAX_PERFT_DEPTH: u32 = sako::engine::search::MAX_PLY as u32;
/// The most threads a command uses, as the protocols' Threads / `cores` allow.
const MAX_THREADS: usize = 256;
/// The largest hash table in megabytes, the UCI Hash option's maximum.
const MAX_HASH_MB: usize = 1 << 16;

/// `--threads N` at least 1 and at most [`MAX_THREADS`], saying so when clamped.
fn capped_threads(n: usize) -> usize {
    if n > MAX_THREADS {
        eprintln!("sako: --threads {n} is above the maximum {MAX_THREADS}; using {MAX_THREADS}");
    }
    n.clamp(1, MAX_THREADS)
}

/// `--hash MB` at least 1 and at most [`MAX_HASH_MB`], saying so when clamped.
fn capped_hash(mb: usize) -> usize {
    if mb > MAX_HASH_MB {
        eprintln!(
            "sako: --hash {mb} MB is above the maximum {MAX_HASH_MB} MB; using {MAX_HASH_MB}"
        );
    }
    mb.clamp(1, MAX_HASH_MB)
}

/// Prints a line on standard output; a closed pipe is not worth a panic.
fn say(line: &str) {
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}

fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Some(Command::Perft {
            position,
            depth,
            divide,
            threads,
        }) => perft(&position, depth, divide, capped_threads(threads)),
        Some(Command::Moves { position }) => {
            setup(&position)?.legal_moves().iter().for_each(|m| say(m));
            Ok(())
        }
        Some(Command::Result { position }) => {
            say(&setup(&position)?.result_line());
            Ok(())
        }
        Some(Command::Variants) => {
            list_variants();
            Ok(())
        }
        Some(Command::Bench { depth, engine }) => bench(depth, &engine),
        Some(Command::Analyze {
            position,
            depth,
            movetime,
            nodes,
            engine,
        }) => analyze(&position, analyze_limits(depth, movetime, nodes)?, &engine),
        Some(Command::Match { args }) => {
            sako::matches::run_cli(&args, &mut std::io::stdout())?;
            Ok(())
        }
        Some(Command::Openings {
            variant,
            count,
            seed,
            plies,
            depth,
            margin,
        }) => openings(sako::matches::openings::GenOptions {
            variant,
            count,
            seed,
            plies,
            depth,
            margin_cp: margin,
        }),
        Some(Command::Tune(args)) => tune(args),
        Some(Command::Datagen(args)) => datagen(args),
        Some(Command::DatagenConvert(args)) => datagen_convert(args),
        Some(Command::NnueFeatures { variant, data, out }) => nnue_features(&variant, &data, &out),
        Some(Command::Annotate(args)) => annotate::annotate(args).map_err(|e| e.to_string()),
        Some(Command::Xboard) => {
            sako::protocol::run(Some(Protocol::Xboard));
            Ok(())
        }
        Some(Command::Uci) => {
            sako::protocol::run(Some(Protocol::Uci));
            Ok(())
        }
        None => {
            sako::protocol::run(None);
            Ok(())
        }
    }
}

/// `sako variants`: one line per game, its name, board size and description.
fn list_variants() {
    for v in all_variants() {
        let (files, ranks) = (v.geometry.files, v.geometry.ranks);
        say(&format!("{} {files}x{ranks} {}", v.name, v.description));
    }
}

/// `sako openings`: balanced start positions as EPD on standard output, progress on
/// standard error.
fn openings(opts: sako::matches::openings::GenOptions) -> Result<(), String> {
    if opts.depth == 0 || opts.depth > 30 {
        return Err(format!("openings depth must be 1..30, not {}", opts.depth));
    }
    let mut stdout = std::io::stdout().lock();
    sako::matches::openings::generate(&opts, &mut stdout, &mut |line| eprintln!("{line}"))?;
    Ok(())
}

/// `sako perft`: the leaf count, or with `divide` the count below each root move. On a
/// terminal a long run shows its progress (root moves done) on standard error.
fn perft(position: &PositionArgs, depth: u32, divide: bool, threads: usize) -> Result<(), String> {
    if depth > MAX_PERFT_DEPTH {
        return Err(format!(
            "perft depth must be at most {MAX_PERFT_DEPTH}, not {depth}"
        ));
    }
    let mut game = setup(position)?;
    if !divide && (depth == 0 || !progress::shown()) {
        // Nothing to show per root move: the plain count (bulk counting at the leaves).
        say(&format!("Nodes searched: {}", game.perft(depth, threads)));
        return Ok(());
    }
    let total_moves = game.legal_moves().len();
    let moves_done = AtomicU64::new(0);
    let nodes_done = AtomicU64::new(0);
    let status = || {
        format!(
            "perft {depth}: {}/{total_moves} root moves, {} nodes",
            moves_done.load(Ordering::Relaxed),
            nodes_done.load(Ordering::Relaxed)
        )
    };
    let on_move = |n: u64| {
        moves_done.fetch_add(1, Ordering::Relaxed);
        nodes_done.fetch_add(n, Ordering::Relaxed);
    };
    let rows = progress::with_progress(status, || {
        game.divide_with_progress(depth, threads, &on_move)
    });
    let total: u64 = rows.iter().map(|(_, n)| n).sum();
    if divide {
        for (m, n) in rows {
            say(&format!("{m}: {n}"));
        }
        say("");
    }
    say(&format!("Nodes searched: {total}"));
    Ok(())
}

/// `sako bench`: the fixed positions to `depth`; one line per position, then the
/// totals. On a terminal a long run shows which position it is on, on standard error.
fn bench(depth: u32, engine: &EngineArgs) -> Result<(), String> {
    let (threads, hash) = (capped_threads(engine.threads), capped_hash(engine.hash));
    let eval_tables = engine.eval_tables.as_deref();
    if depth == 0 || depth > 60 {
        return Err(format!("bench depth must be 1..60, not {depth}"));
    }
    let done = AtomicU64::new(0);
    let status = || format!("bench: {} positions done", done.load(Ordering::Relaxed));
    let totals = progress::with_progress(status, || {
        sako::bench::run(
            depth,
            threads,
            hash,
            eval_tables,
            &net_choice(&engine.net),
            &mut |line| {
                done.fetch_add(1, Ordering::Relaxed);
                say(line);
            },
        )
    })?;
    say(&format!("Total time (ms): {}", totals.ms));
    say(&format!("Nodes searched: {}", totals.nodes));
    say(&format!(
        "Nodes/second: {}",
        totals.nodes * 1000 / totals.ms.max(1)
    ));
    Ok(())
}

/// The limits of `sako analyze`: a depth, a move time, a node count, or depth 8.
fn analyze_limits(
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
) -> Result<Limits, String> {
    match (depth, movetime, nodes) {
        (Some(0), _, _) => Err("depth must be at least 1".into()),
        (_, Some(0), _) => Err("movetime must be at least 1".into()),
        (_, _, Some(0)) => Err("nodes must be at least 1".into()),
        (Some(d), _, _) => {
            if d > 100 {
                eprintln!("sako: --depth {d} is above the maximum 100; using 100");
            }
            Ok(Limits::depth(d.min(100)))
        }
        (None, Some(ms), _) => Ok(Limits::movetime(ms)),
        (None, None, Some(n)) => Ok(Limits::nodes(n)),
        (None, None, None) => Ok(Limits::depth(8)),
    }
}

/// `sako analyze`: one `info` line per completed depth, then `bestmove MOVE`.
fn analyze(position: &PositionArgs, limits: Limits, engine: &EngineArgs) -> Result<(), String> {
    let (threads, hash) = (capped_threads(engine.threads), capped_hash(engine.hash));
    let eval_tables = engine.eval_tables.as_deref();
    let mut game = setup(position)?;
    let eval = sako::engine::eval::Eval::load_with_net(
        game.variant(),
        eval_tables,
        &net_choice(&engine.net),
    )?;
    let tt = sako::engine::tt::Tt::try_new(hash)
        .map_err(|e| format!("{e} (ask for less with --hash)"))?;
    let stop = std::sync::atomic::AtomicBool::new(false);
    let opts = SearchOptions {
        threads,
        ..SearchOptions::new(limits, &tt, &eval, &stop)
    };
    let result = game.search(&opts, &mut |info| {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{}", info.line());
        let _ = o.flush();
    })?;
    say(&format!(
        "bestmove {}",
        result.best.as_deref().unwrap_or("(none)")
    ));
    Ok(())
}

/// `sako tune`: the fit, its log on standard output, then `wrote TABLE (...)`.
fn tune(a: TuneArgs) -> Result<(), String> {
    // The command as a user would type it again: `sako tune ...`.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = sako::tune::TuneOptions {
        variant: a.variant,
        data: a.data,
        epochs: a.epochs,
        rate: a.rate,
        lambda: a.lambda,
        params: a.params,
        hold: a.hold,
        eval_tables: a.eval_tables,
        limit: a.limit,
        l2: a.l2,
        min_count: a.min_count,
        out: a.out,
        command: format!("sako {}", args.join(" ")),
    };
    let summary = sako::tune::run(&opts, &mut |line| say(line))?;
    say(&format!(
        "wrote {} ({} positions, loss {:.6} -> {:.6})",
        opts.out.display(),
        summary.positions,
        summary.loss_before,
        summary.loss_after
    ));
    Ok(())
}

/// `sako datagen`: plays the games, with a progress line on standard error about every
/// two seconds (plain lines, so that log files get them too) and a summary at the end.
fn datagen(a: DatagenArgs) -> Result<(), String> {
    use sako::datagen::{Adjudication, Event, Format, Options, SearchLimit, Target};
    let defaults = Options::new(&a.variant, &a.out);
    let (random_plies, random_plies_max) = random_plies_range(&a.random_plies)?;
    let format = match &a.format {
        Some(f) => Format::from_name(f)?,
        None => Format::from_path(&a.out),
    };
    let rules = Adjudication {
        win_cp: a.adj_win,
        win_plies: a.adj_win_plies.max(1),
        draw_cp: a.adj_draw,
        draw_plies: a.adj_draw_plies.max(1),
        draw_after: a.adj_draw_after,
    };
    let adjudicate = match a.adjudicate.as_deref() {
        None => None,
        Some("on") => Some(Some(rules)),
        Some("off") => Some(None),
        Some(other) => return Err(format!("--adjudicate: '{other}' is not on or off")),
    };
    let adjudicate = match adjudicate {
        None if format == Format::Bin => Some(Some(rules)),
        other => other,
    };
    let opts = Options {
        target: match (a.games, a.positions) {
            (_, Some(n)) => Target::Positions(n),
            (Some(n), None) => Target::Games(n),
            (None, None) => defaults.target,
        },
        limit: match (a.nodes, a.depth) {
            (_, Some(d)) => SearchLimit::Depth(d),
            (Some(n), None) => SearchLimit::Nodes(n),
            (None, None) => defaults.limit,
        },
        threads: if a.threads == 0 {
            0
        } else {
            capped_threads(a.threads)
        },
        seed: a.seed,
        openings: a.openings,
        random_plies,
        random_plies_max,
        format,
        adjudicate,
        hash_mb: if a.hash == 0 { 0 } else { capped_hash(a.hash) },
        eval_tables: a.eval_tables,
        net: net_choice(&a.net),
        ..defaults
    };
    sako::datagen::run(&opts, &mut |event| match event {
        Event::Warning(w) => eprintln!("sako: warning: {w}"),
        Event::Progress(status) => eprintln!("{}", status.line()),
        Event::Game(_) => {}
    })?;
    Ok(())
}

/// The network a `--net` argument chooses (none given: the built-in one).
fn net_choice(arg: &Option<String>) -> sako::engine::nnue::NetChoice {
    arg.as_deref()
        .map(sako::engine::nnue::NetChoice::from_arg)
        .unwrap_or_default()
}

/// `sako nnue-features`: writes the file and says how many positions it holds.
fn nnue_features(
    variant: &str,
    data: &[std::path::PathBuf],
    out: &std::path::Path,
) -> Result<(), String> {
    let s = sako::datagen::features::export(variant, data, out)?;
    if s.positions == 0 {
        // Nothing but the header: not worth a file that looks like training data.
        let _ = std::fs::remove_file(out);
        let names: Vec<String> = data.iter().map(|p| p.display().to_string()).collect();
        return Err(match s.reasons.first() {
            Some(r) => format!(
                "no training positions in {}; the first bad line: {r}",
                names.join(", ")
            ),
            None => format!("no training positions in {}", names.join(", ")),
        });
    }
    for r in &s.reasons {
        eprintln!("sako: skipped {r}");
    }
    say(&format!(
        "wrote {} ({} positions, {} inputs per view; {} lines skipped)",
        out.display(),
        s.positions,
        s.inputs,
        s.rejected
    ));
    Ok(())
}

/// Parses the command line and runs it; bad input exits with status 2 and one line
/// on standard error.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Err(e) = init_logging(cli.log_file.as_deref()) {
        eprintln!("sako: {e}");
        return ExitCode::from(2);
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sako: {e}");
            ExitCode::from(2)
        }
    }
}
