//! `sako bench`: a fixed set of positions from every variant searched to a fixed depth.
//! With one thread the node count is a signature of the search: it changes only when
//! the search or the evaluation changes.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::engine::eval::Eval;
use crate::engine::history::HistoryBank;
use crate::engine::nnue::{NetChoice, NetError, NetFile, Network};
use crate::engine::search::SearchOptions;
use crate::engine::time::Limits;
use crate::engine::tt::Tt;
use crate::game::Game;
use crate::rules::variant::{all_variants, variant_id};

/// A bench position: variant, FEN (or the start position) and moves played from it.
pub struct BenchPosition {
    /// Variant name.
    pub variant: &'static str,
    /// FEN, or `None` for the start position.
    pub fen: Option<&'static str>,
    /// Moves played first.
    pub moves: &'static str,
}

const fn bp(
    variant: &'static str,
    fen: Option<&'static str>,
    moves: &'static str,
) -> BenchPosition {
    BenchPosition {
        variant,
        fen,
        moves,
    }
}

/// The bench positions: openings, middlegames and endgames of every variant.
pub const POSITIONS: &[BenchPosition] = &[
    bp("normal", None, ""),
    bp(
        "normal",
        Some("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
        "",
    ),
    bp(
        "normal",
        Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        "",
    ),
    bp("chancellor", None, "e2e4 e7e5 g1f3 b8c6"),
    bp("chancellorx", None, "d2d4 d7d5"),
    bp("kingsleap", None, "e2e4 e7e5"),
    bp("great", None, ""),
    bp("great", None, "e2e3 f7f6 b1c3 i8h6"),
    bp("historia", None, ""),
    bp(
        "historia",
        Some("rkbeqbnr/2enpppp/pppp4/8/8/4PPPP/PPPPNE2/RNBQEBKR w - - 0 11"),
        "",
    ),
    bp("shatarhia", None, "g1f3 g8f6"),
    bp("shatar", None, "e2e3 e7e6 b1c3"),
    bp("chesquerque", None, ""),
    bp("chesquerque", None, "e2e4 e8e6"),
];

/// Totals of a bench run.
pub struct BenchTotals {
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub ms: u64,
}

/// Runs the bench: every position to `depth` with `threads` threads and a fresh table
/// of `hash_mb` megabytes; `on_line` gets one line per position. With a network file
/// `net`, the games it is made for are evaluated with it, the others with their tables.
pub fn run(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    eval_dir: Option<&Path>,
    net: &NetChoice,
    on_line: &mut dyn FnMut(&str),
) -> Result<BenchTotals, String> {
    // A chosen file serves the games it names; the others keep their usual evaluation.
    let net_file = match net {
        NetChoice::File(path) => {
            let named = |e: NetError| format!("net file {}: {e}", path.display());
            let file = NetFile::read(path).map_err(named)?;
            Network::check_games(&file).map_err(named)?;
            Some((path.display().to_string(), file))
        }
        _ => None,
    };
    let tt = Tt::new(hash_mb);
    let histories = HistoryBank::new();
    let mut evals: Vec<Option<Eval>> = vec![None; all_variants().len()];
    let mut nodes = 0;
    let start = Instant::now();
    for (i, p) in POSITIONS.iter().enumerate() {
        let id = variant_id(p.variant).ok_or_else(|| format!("unknown variant {}", p.variant))?;
        if evals[id].is_none() {
            let def = &all_variants()[id];
            let network = match &net_file {
                Some((source, f)) => Network::for_game(f, def, source).ok(),
                None => net.network_for(def)?,
            };
            evals[id] = Some(Eval::load(def, eval_dir)?.with_net(network));
        }
        let eval = evals[id]
            .as_ref()
            .ok_or_else(|| "evaluation not loaded".to_string())?;
        let mut game = Game::new(p.variant, p.fen)?;
        game.play_all(p.moves)?;
        tt.clear();
        histories.clear();
        let stop = AtomicBool::new(false);
        let opts = SearchOptions {
            threads,
            histories: Some(&histories),
            ..SearchOptions::new(Limits::depth(depth), &tt, eval, &stop)
        };
        let r = game.search(&opts, &mut |_| {})?;
        nodes += r.nodes;
        on_line(&format!(
            "position {}/{} {}: bestmove {} nodes {} time {}",
            i + 1,
            POSITIONS.len(),
            p.variant,
            r.best.as_deref().unwrap_or("(none)"),
            r.nodes,
            r.time_ms
        ));
    }
    Ok(BenchTotals {
        nodes,
        ms: start.elapsed().as_millis() as u64,
    })
}
