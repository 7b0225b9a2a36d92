//! The UCI front end (with Fairy-Stockfish's `UCI_Variant` convention for variants).

use super::{split_command, FrontEnd, Session};

mod debug;
use crate::engine::search::{SearchInfo, SearchResult};
use crate::engine::time::Limits;
use crate::engine::wdl;
use crate::rules::position::Color;
use crate::rules::variant::{all_variants, variant_id};
use std::path::PathBuf;

/// Engine name and version as announced.
pub const ENGINE_NAME: &str = concat!("sako ", env!("CARGO_PKG_VERSION"));

/// UCI protocol state.
pub struct Uci {
    s: Session,
    multipv: usize,
    overhead_ms: u64,
    /// Limits of a `go ponder` search, used when `ponderhit` arrives.
    ponder_limits: Option<Limits>,
    /// `go infinite` or `go ponder`: `bestmove` waits for `stop` (or `ponderhit`).
    hold: bool,
    /// A held search's result, if it ended before `stop`.
    held: Option<SearchResult>,
    quit: bool,
    /// `UCI_ShowWDL`: the interface wants win/draw/loss numbers in `info` lines.
    pub show_wdl: bool,
    /// `UCI_AnalyseMode`: the interface analyses rather than plays a game.
    pub analyse_mode: bool,
    /// `debug on`: extra `info string debug: ...` lines (options set, the time a `go`
    /// gets, each search's end statistics).
    debug: bool,
}

impl Uci {
    /// A UCI front end over `session`.
    pub fn new(session: Session) -> Uci {
        Uci {
            s: session,
            multipv: 1,
            overhead_ms: 30,
            ponder_limits: None,
            hold: false,
            held: None,
            quit: false,
            show_wdl: false,
            analyse_mode: false,
            debug: false,
        }
    }

    fn info(&self, text: &str) {
        self.s.out.line(&format!("info string {text}"));
    }

    /// Stops a running search because another command needs the engine; the GUI still
    /// gets the `bestmove` it waits for.
    fn abort_search(&mut self) {
        if self.s.searching() {
            self.ponder_limits = None;
            self.hold = false;
            if let Some(r) = self.s.stop_search() {
                self.bestmove(&r);
            }
        }
    }

    fn bestmove(&self, r: &SearchResult) {
        self.debug_search_end(r);
        match (&r.best, &r.ponder) {
            (Some(b), Some(p)) => self.s.out.line(&format!("bestmove {b} ponder {p}")),
            (Some(b), None) => self.s.out.line(&format!("bestmove {b}")),
            _ => self.s.out.line("bestmove (none)"),
        }
    }

    /// Handles one command line.
    fn handle(&mut self, line: &str) {
        tracing::debug!(target: "protocol", "< {line}");
        let (cmd, rest) = split_command(line);
        match cmd {
            "" => {}
            "uci" => self.uci(),
            "isready" => {
                // Interfaces wait here after the options: make the hash table now rather
                // than on the first move's clock.
                self.s.ensure_hash();
                self.s.out.line("readyok")
            }
            "ucinewgame" => {
                self.abort_search();
                self.s.clear_hash();
                let v = self.s.variant();
                if let Err(e) = self.s.set_game(v, None) {
                    self.info(&format!("Error: {e}"));
                }
            }
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "stop" => {
                self.ponder_limits = None;
                self.hold = false;
                let r = self.s.stop_search().or(self.held.take());
                if let Some(r) = r {
                    self.bestmove(&r);
                }
            }
            "ponderhit" => self.ponderhit(),
            "debug" => self.set_debug(rest),
            "quit" => self.quit = true,
            "d" => {
                let fen = self.s.game.fen();
                self.info(&format!("variant {} fen {fen}", self.s.variant()));
            }
            "eval" => match self.s.static_eval() {
                Ok(cp) => self.info(&format!(
                    "eval {cp} cp for the side to move ({})",
                    self.s.eval_description()
                )),
                Err(e) => self.info(&format!("Error: {e}")),
            },
            _ => self.info(&format!("Error (unknown command): {line}")),
        }
    }

    fn uci(&self) {
        let o = &self.s.out;
        o.line(&format!("id name {ENGINE_NAME}"));
        o.line("id author the sako developers");
        let mut combo = String::from("option name UCI_Variant type combo default normal var chess");
        for v in all_variants() {
            combo += &format!(" var {}", v.name);
        }
        o.line(&combo);
        o.line(&format!(
            "option name Hash type spin default {} min 1 max 65536",
            super::DEFAULT_HASH_MB
        ));
        o.line("option name Threads type spin default 1 min 1 max 256");
        o.line("option name MultiPV type spin default 1 min 1 max 64");
        o.line("option name Ponder type check default false");
        o.line("option name Move Overhead type spin default 30 min 0 max 5000");
        o.line("option name EvalTables type string default <empty>");
        o.line("option name EvalFile type string default <empty>");
        o.line("option name Use NNUE type check default true");
        o.line("option name Clear Hash type button");
        o.line("option name UCI_AnalyseMode type check default false");
        o.line("option name UCI_ShowWDL type check default false");
        o.line("option name UCI_LimitStrength type check default false");
        let (lo, hi) = self.s.elo_range();
        o.line(&format!(
            "option name UCI_Elo type spin default {hi} min {lo} max {hi}"
        ));
        o.line("option name Skill Level type spin default 20 min 0 max 20");
        for line in crate::engine::search::params::uci_options() {
            o.line(&line);
        }
        o.line("uciok");
    }

    fn setoption(&mut self, rest: &str) {
        // setoption name <id with spaces> [value <x with spaces>]
        let Some(after_name) = rest.strip_prefix("name").map(str::trim) else {
            self.info(&format!("Error (bad setoption): {rest}"));
            return;
        };
        let (name, value) = match after_name.find(" value") {
            Some(i) => (after_name[..i].trim(), after_name[i + 6..].trim()),
            None => (after_name.trim(), ""),
        };
        let number = || value.parse::<u64>().ok();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                self.abort_search();
                match variant_id(value) {
                    Some(id) => {
                        let v = all_variants()[id].name;
                        if let Err(e) = self.s.set_game(v, None) {
                            self.info(&format!("Error: {e}"));
                        }
                    }
                    None => self.info(&format!("Error (unknown variant): {value}")),
                }
            }
            "hash" => match number() {
                Some(mb) => {
                    self.abort_search();
                    if mb > 1 << 16 {
                        self.info(&format!(
                            "Hash {mb} MB is above the maximum 65536; using 65536"
                        ));
                    }
                    if let Err(e) = self.s.set_hash(mb.min(1 << 16) as usize) {
                        self.info(&format!(
                            "Error: {e}; the table stays at {} MB",
                            self.s.hash_mb
                        ));
                    }
                }
                None => self.info(&format!("Error (bad value for Hash): {value}")),
            },
            "threads" => match number() {
                Some(n) if n >= 1 => self.s.threads = n.min(256) as usize,
                _ => self.info(&format!("Error (bad value for Threads): {value}")),
            },
            "multipv" => match number() {
                Some(n) if n >= 1 => self.multipv = n.min(64) as usize,
                _ => self.info(&format!("Error (bad value for MultiPV): {value}")),
            },
            "move overhead" => match number() {
                Some(n) => self.overhead_ms = n.min(5000),
                None => self.info(&format!("Error (bad value for Move Overhead): {value}")),
            },
            "ponder" => {}
            "uci_chess960" => {
                if value != "false" {
                    self.info(&format!(
                        "Error (unsupported option): UCI_Chess960 value {value} \
                         (sako has no Chess960 castling)"
                    ));
                }
            }
            "uci_analysemode" => match check_value(value) {
                Some(on) => self.analyse_mode = on,
                None => self.info(&format!("Error (bad value for UCI_AnalyseMode): {value}")),
            },
            "uci_showwdl" => match check_value(value) {
                Some(on) => self.show_wdl = on,
                None => self.info(&format!("Error (bad value for UCI_ShowWDL): {value}")),
            },
            "clear hash" => self.s.clear_hash(),
            "uci_limitstrength" => match value {
                "true" | "false" => self.s.set_limit_strength(value == "true"),
                _ => self.info(&format!("Error (bad value for UCI_LimitStrength): {value}")),
            },
            "uci_elo" | "skill level" => {
                let set = match (name.to_ascii_lowercase().as_str(), number()) {
                    ("uci_elo", Some(n)) => self.s.set_elo(n),
                    (_, Some(n)) => self.s.set_skill(n),
                    _ => Err(self.s.strength_error(name)),
                };
                if let Err(e) = set {
                    self.info(&format!("Error (bad value for {name}): {value} ({e})"));
                }
            }
            "evaltables" => {
                let dir = if value.is_empty() || value == "<empty>" {
                    None
                } else {
                    Some(PathBuf::from(value))
                };
                if let Err(e) = self.s.set_eval_dir(dir) {
                    self.info(&format!("Error: {e}"));
                }
            }
            "evalfile" => {
                let path = (!value.is_empty() && value != "<empty>").then(|| PathBuf::from(value));
                match self.s.set_net_file(path) {
                    Ok(note) => self.info(&note),
                    Err(e) => self.info(&format!("Error: {e}")),
                }
            }
            "use nnue" => match value {
                "true" | "false" => {
                    if let Err(e) = self.s.set_use_nnue(value == "true") {
                        self.info(&format!("Error: {e}"));
                    }
                }
                _ => self.info(&format!("Error (bad value for Use NNUE): {value}")),
            },
            _ => match crate::engine::search::params::set(name, value) {
                Some(Ok(())) => {}
                Some(Err(e)) => self.info(&format!("Error ({e})")),
                None => self.info(&format!("Error (unknown option): {name}")),
            },
        }
        self.debug_option(name, value);
    }

    fn position(&mut self, rest: &str) {
        self.abort_search();
        let (spec, moves) = match rest.find(" moves") {
            Some(i) => (&rest[..i], rest[i + 6..].trim()),
            None if rest.starts_with("moves") => ("", rest[5..].trim()),
            None => (rest, ""),
        };
        let (kind, arg) = split_command(spec);
        let variant = self.s.variant();
        let setup = match kind {
            "startpos" | "" => self.s.set_game(variant, None),
            "fen" => self.s.set_game(variant, Some(arg)),
            other => Err(format!("expected startpos or fen, not '{other}'")),
        };
        if let Err(e) = setup {
            self.info(&format!("Error (illegal position): {e}"));
            let _ = self.s.set_game(variant, None);
            return;
        }
        for m in moves.split_whitespace() {
            if let Err(e) = self.s.game.play(m) {
                self.info(&format!(
                    "Illegal move: {m} ({e}); the moves after it are ignored"
                ));
                break;
            }
        }
    }

    fn go(&mut self, rest: &str) {
        self.abort_search();
        let white = self.s.game.side_to_move() == Color::White;
        let request = GoRequest::parse(rest, white, self.overhead_ms);
        for e in &request.errors {
            self.info(e);
        }
        if let Some(depth) = request.perft {
            self.perft(depth);
            return;
        }
        let exclude = match request.searchmoves {
            Some(keep) => {
                let all = self.s.game.legal_moves();
                all.into_iter().filter(|m| !keep.contains(m)).collect()
            }
            None => Vec::new(),
        };
        let mut limits = request.limits;
        self.held = None;
        self.hold = request.ponder || limits.infinite;
        if request.ponder {
            self.ponder_limits = Some(limits.clone());
            limits = Limits {
                infinite: true,
                ..Limits::default()
            };
        } else {
            self.ponder_limits = None;
        }
        self.start(limits, exclude);
    }

    fn start(&mut self, limits: Limits, exclude: Vec<String>) {
        self.debug_time(&limits);
        let out = self.s.out.clone();
        // The model's inputs are the root position's (UCI_ShowWDL, docs/wdl.md).
        let model = self
            .show_wdl
            .then(|| (self.s.game.variant(), self.s.game.wdl_phase()));
        let on_info = Box::new(move |info: &SearchInfo| {
            let wdl = model.as_ref().and_then(|(variant, phase)| {
                let w = wdl::wdl(variant, info.score.centipawns_or_bound(), phase)?;
                Some([w.win, w.draw, w.loss])
            });
            out.line(&info.line_with_wdl(wdl));
        });
        self.s.start_search(limits, self.multipv, exclude, on_info);
    }

    fn ponderhit(&mut self) {
        let Some(limits) = self.ponder_limits.take() else {
            return;
        };
        // The ponder search filled the table; a fresh timed search finds its way fast.
        self.s.stop_search();
        self.held = None;
        self.hold = limits.infinite;
        self.start(limits, Vec::new());
    }

    fn perft(&mut self, depth: u32) {
        self.abort_search();
        let rows = self.s.game.divide(depth, self.s.threads);
        let total: u64 = rows.iter().map(|(_, n)| n).sum();
        for (m, n) in rows {
            self.s.out.line(&format!("{m}: {n}"));
        }
        self.s.out.line("");
        self.s.out.line(&format!("Nodes searched: {total}"));
    }
}

/// A `check` option's value: `true` or `false`.
fn check_value(value: &str) -> Option<bool> {
    match value {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

impl FrontEnd for Uci {
    fn command(&mut self, line: &str) {
        self.handle(line);
    }

    fn search_finished(&mut self, r: SearchResult) {
        if self.hold {
            // infinite / ponder: bestmove only after stop or ponderhit
            self.held = Some(r);
        } else {
            self.bestmove(&r);
        }
    }

    fn quitting(&self) -> bool {
        self.quit
    }

    fn session(&mut self) -> &mut Session {
        &mut self.s
    }
}

/// What a `go` command asks for, read from its parameters.
struct GoRequest {
    /// The search limits for the side to move.
    limits: Limits,
    /// `go ponder`: search on the expected move, with `limits` kept for `ponderhit`.
    ponder: bool,
    /// `searchmoves`: the only root moves to consider.
    searchmoves: Option<Vec<String>>,
    /// `go perft N`: count leaves instead of searching.
    perft: Option<u32>,
    /// One error text per parameter that was unknown or lacked its number.
    errors: Vec<String>,
}

impl GoRequest {
    /// Reads `go`'s parameters (`rest`) for White (`white`) or Black to move. Bad
    /// parameters are skipped with an error text; reading stops at `perft` (which takes
    /// the command over) and at `searchmoves` (the rest of the line is its moves).
    fn parse(rest: &str, white: bool, overhead_ms: u64) -> GoRequest {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let mut request = GoRequest {
            limits: Limits {
                overhead: Some(overhead_ms),
                ..Limits::default()
            },
            ponder: false,
            searchmoves: None,
            perft: None,
            errors: Vec::new(),
        };
        let limits = &mut request.limits;
        let num = |k: usize| words.get(k).and_then(|w| w.parse::<i64>().ok());
        let mut i = 0;
        while i < words.len() {
            let w = words[i];
            let value = num(i + 1);
            let mut takes_value = true;
            match w {
                "wtime" if white => limits.time_left = value.map(|v| v.max(0) as u64),
                "btime" if !white => limits.time_left = value.map(|v| v.max(0) as u64),
                "winc" if white => limits.increment = value.unwrap_or(0).max(0) as u64,
                "binc" if !white => limits.increment = value.unwrap_or(0).max(0) as u64,
                "wtime" | "btime" | "winc" | "binc" => {}
                "movestogo" => limits.moves_to_go = value.map(|v| v.max(1) as u32),
                "movetime" => limits.movetime = value.map(|v| v.max(1) as u64),
                "depth" => limits.depth = value.map(|v| v.clamp(1, 100) as u32),
                "nodes" => limits.nodes = value.map(|v| v.max(1) as u64),
                "mate" => limits.depth = value.map(|v| (2 * v.clamp(1, 50)) as u32),
                "infinite" => {
                    limits.infinite = true;
                    takes_value = false;
                }
                "ponder" => {
                    request.ponder = true;
                    takes_value = false;
                }
                "perft" => {
                    request.perft = Some(value.unwrap_or(1).clamp(0, 20) as u32);
                    break;
                }
                "searchmoves" => {
                    request.searchmoves =
                        Some(words[i + 1..].iter().map(|s| s.to_string()).collect());
                    break;
                }
                _ => {
                    request
                        .errors
                        .push(format!("Error (unknown go parameter): {w}"));
                    takes_value = false;
                }
            }
            if takes_value && value.is_none() {
                // The next word is left for the next parameter (`go depth wtime 100`).
                // With no usable limit the search runs until `stop`, as in Stockfish.
                request
                    .errors
                    .push(format!("Error (go {w} needs a number)"));
                takes_value = false;
            }
            i += if takes_value { 2 } else { 1 };
        }
        request
    }
}

#[cfg(test)]
mod tests {
    use super::GoRequest;

    #[test]
    fn go_reads_the_side_to_moves_clock() {
        let r = GoRequest::parse(
            "wtime 1000 btime 2000 winc 10 binc 20 movestogo 7",
            false,
            30,
        );
        assert_eq!(r.limits.time_left, Some(2000));
        assert_eq!(r.limits.increment, 20);
        assert_eq!(r.limits.moves_to_go, Some(7));
        assert_eq!(r.limits.overhead, Some(30));
        assert!(r.errors.is_empty() && !r.ponder && r.perft.is_none());
    }

    #[test]
    fn go_skips_bad_parameters_with_an_error_each() {
        let r = GoRequest::parse("depth wtime 100 frobnicate nodes 5000", true, 0);
        assert_eq!(r.limits.depth, None);
        assert_eq!(r.limits.time_left, Some(100));
        assert_eq!(r.limits.nodes, Some(5000));
        assert_eq!(
            r.errors,
            [
                "Error (go depth needs a number)",
                "Error (unknown go parameter): frobnicate"
            ]
        );
    }

    #[test]
    fn go_stops_at_perft_and_searchmoves() {
        let r = GoRequest::parse("perft 30 depth 3", true, 0);
        assert_eq!((r.perft, r.limits.depth), (Some(20), None));
        let r = GoRequest::parse("ponder infinite searchmoves e2e4 d2d4", true, 0);
        assert!(r.ponder && r.limits.infinite);
        assert_eq!(
            r.searchmoves,
            Some(vec!["e2e4".to_string(), "d2d4".to_string()])
        );
    }
}
