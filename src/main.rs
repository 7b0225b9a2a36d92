//! The `sako` command line: perft, moves, result, variants; with no subcommand the
//! protocol loop.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use sako::variant::all_variants;
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
    let mut out = out.lock();
    let w = |out: &mut std::io::StdoutLock, s: &str| {
        // A closed pipe is not an error worth a panic.
        let _ = writeln!(out, "{s}");
    };
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
        Some(Command::Xboard) | Some(Command::Uci) | None => {
            protocol_loop(&mut out);
        }
    }
    Ok(())
}

/// The protocol loop. XBoard and UCI arrive with the protocols work; until then the
/// loop says so for every command and keeps serving until `quit` or end of input.
fn protocol_loop(out: &mut std::io::StdoutLock) {
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let cmd = line.trim();
        if cmd.is_empty() {
            continue;
        }
        if cmd == "quit" {
            break;
        }
        let _ = writeln!(out, "Error (protocols not yet available): {cmd}");
        let _ = out.flush();
    }
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
