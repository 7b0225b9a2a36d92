//! The `sako` command line: perft, moves, result, variants; with no subcommand the
//! protocol loop.

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sako::protocol::Protocol;
use sako::rules::variant::all_variants;
use sako::Game;

#[derive(Parser)]
#[command(name = "sako", version, about = "A chess-variant engine (XBoard/UCI)")]
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
        /// Search threads (Lazy SMP).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Read evaluation tables from this directory (missing files: built-in tables).
        #[arg(long, value_name = "DIR")]
        eval_tables: Option<std::path::PathBuf>,
    },
    /// Analyse a position: one `info` line per completed depth, then `bestmove MOVE`.
    Analyze {
        #[command(flatten)]
        position: PositionArgs,
        /// Search to this depth (default 8 when no --movetime is given).
        #[arg(long, conflicts_with = "movetime")]
        depth: Option<u32>,
        /// Search this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
        /// Search threads (Lazy SMP).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Read evaluation tables from this directory (missing files: built-in tables).
        #[arg(long, value_name = "DIR")]
        eval_tables: Option<std::path::PathBuf>,
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
    /// Serve the XBoard (CECP) protocol.
    Xboard,
    /// Serve the UCI protocol.
    Uci,
}

fn setup(p: &PositionArgs) -> Result<Game, String> {
    let mut game = Game::new(&p.variant, p.fen.as_deref()).map_err(|e| {
        if e.starts_with("unknown variant") {
            e
        } else {
            format!("bad FEN: {e}")
        }
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

fn run(cli: Cli) -> Result<(), String> {
    let out = std::io::stdout();
    let w = |out: &mut std::io::Stdout, s: &str| {
        // A closed pipe is not an error worth a panic.
        let _ = writeln!(out, "{s}");
    };
    let mut out = out;
    match cli.command {
        Some(Command::Perft {
            position,
            depth,
            divide,
            threads,
        }) => {
            let mut game = setup(&position)?;
            let threads = threads.max(1);
            if divide {
                let rows = game.divide(depth, threads);
                let total: u64 = rows.iter().map(|(_, n)| n).sum();
                for (m, n) in rows {
                    w(&mut out, &format!("{m}: {n}"));
                }
                w(&mut out, "");
                w(&mut out, &format!("Nodes searched: {total}"));
            } else {
                let n = game.perft(depth, threads);
                w(&mut out, &format!("Nodes searched: {n}"));
            }
        }
        Some(Command::Moves { position }) => {
            let mut game = setup(&position)?;
            for m in game.legal_moves() {
                w(&mut out, &m);
            }
        }
        Some(Command::Result { position }) => {
            let mut game = setup(&position)?;
            let line = game.result_line();
            w(&mut out, &line);
        }
        Some(Command::Variants) => {
            for v in all_variants() {
                w(
                    &mut out,
                    &format!(
                        "{} {}x{} {}",
                        v.name, v.geometry.files, v.geometry.ranks, v.description
                    ),
                );
            }
        }
        Some(Command::Bench {
            depth,
            threads,
            hash,
            eval_tables,
        }) => {
            if depth == 0 || depth > 60 {
                return Err(format!("bench depth must be 1..60, not {depth}"));
            }
            let totals = sako::engine::bench::run(
                depth,
                threads.max(1),
                hash.max(1),
                eval_tables.as_deref(),
                &mut |line| w(&mut out, line),
            )?;
            w(&mut out, &format!("Total time (ms): {}", totals.ms));
            w(&mut out, &format!("Nodes searched: {}", totals.nodes));
            w(
                &mut out,
                &format!("Nodes/second: {}", totals.nodes * 1000 / totals.ms.max(1)),
            );
        }
        Some(Command::Analyze {
            position,
            depth,
            movetime,
            threads,
            hash,
            eval_tables,
        }) => {
            let mut game = setup(&position)?;
            let eval = sako::engine::eval::Eval::load(game.variant(), eval_tables.as_deref())?;
            let limits = match (depth, movetime) {
                (Some(0), _) => return Err("depth must be at least 1".into()),
                (_, Some(0)) => return Err("movetime must be at least 1".into()),
                (Some(d), _) => sako::engine::time::Limits::depth(d.min(100)),
                (None, Some(ms)) => sako::engine::time::Limits::movetime(ms),
                (None, None) => sako::engine::time::Limits::depth(8),
            };
            let tt = sako::engine::tt::Tt::new(hash.max(1));
            let stop = std::sync::atomic::AtomicBool::new(false);
            let opts = sako::engine::search::SearchOptions {
                threads: threads.max(1),
                ..sako::engine::search::SearchOptions::new(limits, &tt, &eval, &stop)
            };
            let result = game.search(&opts, &mut |info| {
                let mut o = std::io::stdout().lock();
                let _ = writeln!(o, "{}", info.line());
                let _ = o.flush();
            })?;
            let best = result.best.unwrap_or_else(|| "(none)".to_string());
            w(&mut out, &format!("bestmove {best}"));
        }
        Some(Command::Match { args }) => {
            let mut stdout = std::io::stdout();
            sako::matches::run_cli(&args, &mut stdout)?;
        }
        Some(Command::Openings {
            variant,
            count,
            seed,
            plies,
            depth,
            margin,
        }) => {
            if depth == 0 || depth > 30 {
                return Err(format!("openings depth must be 1..30, not {depth}"));
            }
            let opts = sako::matches::openings::GenOptions {
                variant,
                count,
                seed,
                plies,
                depth,
                margin_cp: margin,
            };
            let mut stdout = std::io::stdout().lock();
            sako::matches::openings::generate(&opts, &mut stdout, &mut |line| eprintln!("{line}"))?;
        }
        Some(Command::Xboard) => sako::protocol::run(Some(Protocol::Xboard)),
        Some(Command::Uci) => sako::protocol::run(Some(Protocol::Uci)),
        None => sako::protocol::run(None),
    }
    Ok(())
}

fn main() -> ExitCode {
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
