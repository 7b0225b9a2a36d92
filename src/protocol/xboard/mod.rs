//! The XBoard / CECP version 2 front end.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use super::{split_command, FrontEnd, Session};
use crate::engine::search::{SearchInfo, SearchResult};
use crate::engine::time::Limits;
use crate::game::GameError;
use crate::rules::position::notation::MoveError;
use crate::rules::position::{fen_board_cells, Color};
use crate::rules::variant::{all_variants, variant_id};
use crate::rules::xboard_def::setup_lines;
use board::{from_xboard_fen, highlight_fen, parse_xboard_square};

mod board;
mod draw;
mod ponder;
#[cfg(test)]
mod tests;
mod thinking;

use draw::SearchView;

/// What the engine does when a search it started finishes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Waiting (force mode, or the opponent's turn).
    Idle,
    /// Thinking about its own move: play it when done.
    Thinking,
    /// Analysing (`analyze`): never moves.
    Analyzing,
    /// Pondering (`hard`): thinking on the opponent's time about the expected reply;
    /// never moves (see `ponder.rs`).
    Pondering,
}

/// The time control set by `level`, `st`, `sd`.
#[derive(Clone, Debug, Default)]
struct TimeControl {
    moves_per_session: u32,
    increment_ms: u64,
    fixed_ms: Option<u64>,
    depth: Option<u32>,
    own_clock_ms: Option<u64>,
}

/// XBoard protocol state.
pub struct Xboard {
    s: Session,
    mode: Mode,
    force: bool,
    /// The colour the engine plays, when not in force mode.
    engine_side: Option<Color>,
    post: bool,
    tc: TimeControl,
    /// Moves the engine made since the time control started.
    moves_made: u32,
    exclude: Vec<String>,
    last_info: Arc<Mutex<Option<SearchInfo>>>,
    hint: Option<String>,
    game_over: bool,
    quit: bool,
    /// `ping`s received while thinking, answered after the move.
    pending_pongs: Vec<String>,
    /// `hard` (on) / `easy` (off): ponder after the engine's own move.
    ponder: bool,
    /// The opponent's move the running ponder search expects.
    ponder_guess: Option<String>,
    /// Lines shown in analysis mode (option `MultiPV`).
    multipv: usize,
    /// The newest completed depth of any search, for draw offers.
    search_view: Arc<Mutex<Option<SearchView>>>,
    /// A `draw` offer came while thinking: answered when the move is found.
    draw_pending: bool,
}

/// Parses XBoard's `level` base time: minutes, or `minutes:seconds`.
fn parse_base(text: &str) -> Option<u64> {
    match text.split_once(':') {
        Some((m, s)) => Some(m.parse::<u64>().ok()? * 60_000 + s.parse::<u64>().ok()? * 1000),
        None => Some((text.parse::<f64>().ok()? * 60_000.0) as u64),
    }
}

impl Xboard {
    /// An XBoard front end over `session`.
    pub fn new(session: Session) -> Xboard {
        Xboard {
            s: session,
            mode: Mode::Idle,
            force: false,
            engine_side: Some(Color::Black),
            post: true,
            tc: TimeControl::default(),
            moves_made: 0,
            exclude: Vec::new(),
            last_info: Arc::new(Mutex::new(None)),
            hint: None,
            game_over: false,
            quit: false,
            pending_pongs: Vec::new(),
            ponder: false,
            ponder_guess: None,
            multipv: 1,
            search_view: Arc::new(Mutex::new(None)),
            draw_pending: false,
        }
    }

    fn out(&self, text: &str) {
        self.s.out.line(text);
    }

    fn features(&self) {
        let names: Vec<&str> = all_variants().iter().map(|v| v.name).collect();
        self.out(&format!(
            "feature myname=\"{}\" variants=\"{}\" setboard=1 usermove=1 ping=1 memory=1 smp=1 \
             analyze=1 colors=0 sigint=0 sigterm=0 name=1 san=0 debug=1 reuse=1 exclude=1 \
             playother=1 time=1 draw=1 highlight=1",
            super::uci::ENGINE_NAME,
            names.join(",")
        ));
        self.out("feature option=\"Eval tables -path \"");
        self.out("feature option=\"EvalFile -file \"");
        self.out("feature option=\"Use NNUE -check 1\"");
        self.out("feature option=\"Clear Hash -button\"");
        self.out("feature option=\"MultiPV -spin 1 1 64\"");
        self.out("feature option=\"Skill Level -spin 20 0 20\"");
        self.out("feature option=\"UCI_LimitStrength -check 0\"");
        let (lo, hi) = self.s.elo_range();
        self.out(&format!("feature option=\"UCI_Elo -spin {hi} {lo} {hi}\""));
        self.out("feature done=1");
    }

    /// Handles one command line: a table of the commands, each handled by a method.
    fn handle(&mut self, line: &str) {
        tracing::debug!(target: "protocol", "< {line}");
        let (cmd, rest) = split_command(line);
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "bk" | "otim" | "white" | "black" => {}
            "hard" | "easy" => self.set_ponder(cmd == "hard"),
            "draw" => self.draw_offered(),
            "protover" => self.features(),
            "ping" => self.ping(rest),
            "new" => self.new_game(),
            "variant" => self.variant(rest),
            "force" => {
                self.stop_thinking();
                self.force = true;
            }
            "go" => self.go(),
            "playother" => {
                self.force = false;
                self.engine_side = Some(self.s.game.side_to_move().flip());
            }
            "usermove" => self.usermove(rest),
            "level" => self.level(rest),
            "st" | "sd" | "time" => self.clock(cmd, rest, line),
            "?" => self.move_now(),
            "result" => {
                self.stop_thinking();
                self.game_over = true;
                self.force = true;
            }
            "setboard" => self.setboard(rest),
            "holding" => self.holding(rest),
            "undo" => self.take_back(1),
            "remove" => self.take_back(2),
            "post" => self.post = true,
            "nopost" => self.post = false,
            "analyze" => {
                self.stop_thinking();
                self.mode = Mode::Analyzing;
                self.analyze();
            }
            "exit" => self.exit_analysis(),
            "." => self.stat(),
            "hint" => {
                if let Some(h) = &self.hint {
                    self.out(&format!("Hint: {h}"));
                }
            }
            "memory" => self.memory(rest, line),
            "cores" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => self.s.threads = n.min(256),
                _ => self.error("bad cores value", line),
            },
            "option" => self.option(rest),
            "exclude" | "include" => self.exclude(cmd == "exclude", rest),
            "lift" => self.lift(rest),
            "put" | "hover" => {}
            "quit" => self.quit = true,
            _ => self.bare_move(line),
        }
    }

    /// `ping N`: `pong N`, after the move when thinking, so the interface knows the
    /// move came first.
    fn ping(&mut self, rest: &str) {
        // Interfaces wait here before a game: make the hash table now rather than on
        // the first move's clock.
        self.s.ensure_hash();
        if self.mode == Mode::Thinking {
            self.pending_pongs.push(rest.to_string());
        } else {
            self.out(&format!("pong {rest}"));
        }
    }

    /// `go`: play the side to move, and think now.
    fn go(&mut self) {
        self.force = false;
        self.engine_side = Some(self.s.game.side_to_move());
        self.think();
    }

    /// `st SECONDS`, `sd DEPTH`, `time CENTISECONDS`: the search limits.
    fn clock(&mut self, cmd: &str, rest: &str, line: &str) {
        match cmd {
            "st" => match rest.parse::<f64>() {
                Ok(secs) if secs > 0.0 => {
                    self.tc.fixed_ms = Some((secs * 1000.0) as u64);
                }
                _ => self.error("bad st value", line),
            },
            "sd" => match rest.parse::<u32>() {
                Ok(d) if d > 0 => self.tc.depth = Some(d.min(100)),
                _ => self.error("bad sd value", line),
            },
            _ => match rest.parse::<u64>() {
                Ok(cs) => self.tc.own_clock_ms = Some(cs.saturating_mul(10)),
                Err(_) => self.error("bad time value", line),
            },
        }
    }

    /// `?`: stop thinking and play the best move found so far.
    fn move_now(&mut self) {
        if self.mode == Mode::Thinking {
            if let Some(r) = self.s.stop_search() {
                self.move_found(r);
            }
        }
    }

    /// `exit`: leave analysis mode.
    fn exit_analysis(&mut self) {
        if self.mode == Mode::Analyzing {
            self.s.stop_search();
            self.mode = Mode::Idle;
        }
    }

    /// `memory MB`: resize the hash table (an analysis restarts).
    fn memory(&mut self, rest: &str, line: &str) {
        match rest.parse::<usize>() {
            Ok(mb) => {
                if mb > 1 << 16 {
                    self.out(&format!(
                        "telluser memory {mb} MB is above the maximum 65536; using 65536"
                    ));
                }
                let restart = self.pause_analysis();
                if let Err(e) = self.s.set_hash(mb) {
                    self.out(&format!(
                        "tellusererror {e}; the table stays at {} MB",
                        self.s.hash_mb
                    ));
                }
                self.resume_analysis(restart);
            }
            Err(_) => self.error("bad memory value", line),
        }
    }

    /// Anything else: protocol version 1 interfaces send bare moves.
    fn bare_move(&mut self, line: &str) {
        if self.s.game.clone().play(line.trim()).is_ok() {
            self.usermove(line.trim());
        } else {
            self.error("unknown command", line);
        }
    }

    fn error(&self, kind: &str, line: &str) {
        self.out(&format!("Error ({kind}): {line}"));
    }

    fn stop_thinking(&mut self) {
        if self.mode != Mode::Idle {
            self.s.stop_search();
            self.mode = Mode::Idle;
        }
        self.draw_pending = false;
        self.flush_pongs();
    }

    fn flush_pongs(&mut self) {
        for p in std::mem::take(&mut self.pending_pongs) {
            self.out(&format!("pong {p}"));
        }
    }

    /// Stops an analysis to change the position or settings; true if it ran.
    fn pause_analysis(&mut self) -> bool {
        let analyzing = self.mode == Mode::Analyzing;
        if analyzing {
            self.s.stop_search();
        } else {
            self.stop_thinking();
        }
        analyzing
    }

    fn resume_analysis(&mut self, restart: bool) {
        if restart {
            self.analyze();
        }
    }

    fn new_game(&mut self) {
        self.stop_thinking();
        let variant = "normal";
        if let Err(e) = self.s.set_game(variant, None) {
            self.out(&format!("tellusererror {e}"));
        }
        self.s.clear_hash();
        self.force = false;
        self.engine_side = Some(Color::Black);
        self.tc.fixed_ms = None;
        self.tc.depth = None;
        self.moves_made = 0;
        self.exclude.clear();
        self.game_over = false;
        self.hint = None;
    }

    fn variant(&mut self, name: &str) {
        self.stop_thinking();
        match variant_id(name) {
            Some(id) => {
                let v = &all_variants()[id];
                if let Err(e) = self.s.set_game(v.name, None) {
                    self.out(&format!("tellusererror {e}"));
                    return;
                }
                for l in setup_lines(v) {
                    self.out(&l);
                }
                self.game_over = false;
            }
            None => self.error("unknown variant", name),
        }
    }

    fn setboard(&mut self, fen: &str) {
        let restart = self.pause_analysis();
        let variant = self.s.variant();
        let fen = from_xboard_fen(variant, fen);
        match self.s.set_game(variant, Some(&fen)) {
            Ok(()) => {
                self.game_over = false;
                self.exclude.clear();
            }
            Err(e) => self.out(&format!("tellusererror Illegal position: {e}")),
        }
        self.resume_analysis(restart);
    }

    /// `holding [WHITE] [BLACK]`: the holdings as the interface sees them.
    fn holding(&mut self, rest: &str) {
        let parts: Vec<&str> = rest
            .split(['[', ']'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        let (white, black) = match parts.as_slice() {
            [] => ("", ""),
            [w] if rest.trim_start().starts_with("[]") => ("", *w),
            [w] => (*w, ""),
            [w, b, ..] => (*w, *b),
        };
        let fen = self.s.game.fen();
        let Some(open) = fen.find('[') else {
            return; // a game without hands: nothing to update
        };
        let Some(close) = fen.find(']') else {
            return;
        };
        let hand = format!(
            "{}{}",
            white.to_ascii_uppercase(),
            black.to_ascii_lowercase()
        );
        let new_fen = format!("{}[{}]{}", &fen[..open], hand, &fen[close + 1..]);
        let sorted = |s: &str| {
            let mut v: Vec<char> = s.chars().filter(|c| c.is_ascii_alphabetic()).collect();
            v.sort_unstable();
            v
        };
        // The same holdings in another order change nothing (and keep the history).
        if sorted(&hand) != sorted(&fen[open + 1..close]) {
            let restart = self.pause_analysis();
            let variant = self.s.variant();
            let candidate = from_xboard_fen(variant, &new_fen);
            if let Err(e) = self.s.set_game(variant, Some(&candidate)) {
                self.out(&format!("tellusererror Illegal holdings: {e}"));
            }
            self.resume_analysis(restart);
        }
    }

    fn take_back(&mut self, plies: usize) {
        let restart = self.pause_analysis();
        for _ in 0..plies {
            if !self.s.game.undo() {
                break;
            }
        }
        self.game_over = false;
        self.resume_analysis(restart);
    }

    fn usermove(&mut self, text: &str) {
        let text = text.trim();
        self.end_ponder(text);
        let restart = self.pause_analysis();
        if self.game_over {
            self.out(&format!("Illegal move (the game is over): {text}"));
            self.resume_analysis(restart);
            return;
        }
        if self.is_unsuffixed_gate(text) {
            // XBoard keeps the Hia in hand for a plain king move; accepting it would make
            // the two boards differ. The human gates by clicking the Hia, then the king.
            self.out(&format!(
                "Illegal move (place the Hia: click it in hand first): {text}"
            ));
            self.resume_analysis(restart);
            return;
        }
        if let Err(e) = self.s.game.play(text) {
            let reason = if matches!(e, GameError::IllegalMove(MoveError::Unparsable(_))) {
                "unparsable"
            } else {
                "not legal here"
            };
            self.out(&format!("Illegal move ({reason}): {text}"));
            self.resume_analysis(restart);
            return;
        }
        self.exclude.clear();
        if restart {
            self.analyze();
            return;
        }
        if self.claim_result() {
            return;
        }
        if !self.force && self.engine_side == Some(self.s.game.side_to_move()) {
            self.think();
        }
    }

    /// True when `text` is a legal gating move written without its suffix.
    fn is_unsuffixed_gate(&self, text: &str) -> bool {
        let Some(gate) = self.s.game.variant().gating else {
            return false;
        };
        let gated = format!("{text}{}", gate.to_ascii_lowercase());
        let moves = self.s.game.clone().legal_moves();
        !moves.iter().any(|m| m == text) && moves.contains(&gated)
    }

    /// Prints the result if the game has ended; true when it has.
    fn claim_result(&mut self) -> bool {
        match self.s.game.outcome() {
            Some(o) => {
                self.out(&o.line());
                self.game_over = true;
                true
            }
            None => false,
        }
    }

    fn level(&mut self, rest: &str) {
        let w: Vec<&str> = rest.split_whitespace().collect();
        let parsed = match w.as_slice() {
            [mps, base, inc] => match (mps.parse::<u32>(), parse_base(base), inc.parse::<f64>()) {
                (Ok(m), Some(_), Ok(i)) => Some((m, (i * 1000.0) as u64)),
                _ => None,
            },
            _ => None,
        };
        match parsed {
            Some((mps, inc)) => {
                self.tc.moves_per_session = mps;
                self.tc.increment_ms = inc;
                self.tc.fixed_ms = None;
                self.moves_made = 0;
            }
            None => self.error("bad level", rest),
        }
    }

    fn limits(&self) -> Limits {
        let mut l = Limits {
            depth: self.tc.depth,
            ..Limits::default()
        };
        if let Some(ms) = self.tc.fixed_ms {
            l.movetime = Some(ms);
        } else if let Some(clock) = self.tc.own_clock_ms {
            l.time_left = Some(clock);
            l.increment = self.tc.increment_ms;
            if self.tc.moves_per_session > 0 {
                let mps = self.tc.moves_per_session;
                l.moves_to_go = Some(mps - self.moves_made % mps);
            }
        } else if self.tc.depth.is_none() {
            // No clock was sent: a modest fixed time per move.
            l.movetime = Some(5_000);
        }
        l
    }

    fn think(&mut self) {
        if self.game_over || self.claim_result() {
            return;
        }
        self.mode = Mode::Thinking;
        let limits = self.limits();
        let exclude = self.exclude.clone();
        let on_info = self.printer(None, vec![self.s.game.key()]);
        self.s.start_search(limits, 1, exclude, on_info);
    }

    fn analyze(&mut self) {
        self.mode = Mode::Analyzing;
        if self.s.game.legal_moves().is_empty() {
            return;
        }
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let exclude = self.exclude.clone();
        let on_info = self.printer(None, vec![self.s.game.key()]);
        self.s.start_search(limits, self.multipv, exclude, on_info);
    }

    fn move_found(&mut self, r: SearchResult) {
        if self.mode != Mode::Thinking {
            return;
        }
        self.mode = Mode::Idle;
        let Some(best) = r.best else {
            self.claim_result();
            self.flush_pongs();
            return;
        };
        if self.s.game.play(&best).is_err() {
            // The search always returns a legal move; never play anything else.
            tracing::error!("search returned an unplayable move {best}");
            return;
        }
        self.moves_made += 1;
        self.answer_pending_draw(r.depth, r.score);
        self.hint = r.ponder;
        self.out(&format!("move {best}"));
        let over = self.claim_result();
        self.flush_pongs();
        if !over {
            self.start_ponder();
        }
    }

    /// `lift SQUARE`: the user picked up a piece; mark where it may go (yellow, red
    /// for captures, magenta for promotions, with the promotion `choice`), so that
    /// XBoard knows the rules of games it cannot referee.
    fn lift(&mut self, square: &str) {
        let square = square.trim();
        let fen = self.s.game.fen();
        let board = fen.split(['[', ' ']).next().unwrap_or("");
        let ranks: Vec<&str> = board.split('/').collect();
        let files = self.s.game.variant().geometry.files;
        let n_ranks = ranks.len();
        let Some(from) = parse_xboard_square(square, files, n_ranks) else {
            return;
        };
        // Which squares are occupied, to know which targets capture.
        let cells = fen_board_cells(board).unwrap_or_default();
        let occupied = |r: usize, f: usize| {
            cells
                .get(r)
                .and_then(|row| row.get(f))
                .is_some_and(|c| c.is_some())
        };
        let mut marks = vec![vec!['.'; files]; n_ranks];
        let mut choice = String::new();
        for m in self.s.game.clone().legal_moves() {
            if !m.starts_with(square) || m.contains('@') {
                continue;
            }
            let rest = &m[square.len()..];
            let digits_end = rest
                .char_indices()
                .skip(1)
                .find(|(_, c)| !c.is_ascii_digit())
                .map(|(i, _)| i)
                .unwrap_or(rest.len());
            let Some((tf, tr)) = parse_xboard_square(&rest[..digits_end], files, n_ranks) else {
                continue;
            };
            if (tf, tr) == from {
                continue;
            }
            let suffix = &rest[digits_end..];
            let row = n_ranks - 1 - tr;
            let gate = self
                .s
                .game
                .variant()
                .gating
                .map(|g| g.to_ascii_lowercase().to_string());
            if !suffix.is_empty() && Some(suffix.to_string()) != gate {
                marks[row][tf] = 'M';
                let up = suffix.to_ascii_uppercase();
                if !choice.contains(&up) {
                    choice += &up;
                }
            } else if marks[row][tf] == '.' {
                marks[row][tf] = if occupied(row, tf) { 'R' } else { 'Y' };
            }
        }
        let colorfen = highlight_fen(&marks);
        self.out(&format!("highlight {colorfen}"));
        if !choice.is_empty() {
            self.out(&format!("choice {choice}"));
        }
    }

    fn option(&mut self, rest: &str) {
        let (name, value) = match rest.split_once('=') {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        match name {
            "Eval tables" => {
                let dir = if value.is_empty() {
                    None
                } else {
                    Some(PathBuf::from(value))
                };
                if let Err(e) = self.s.set_eval_dir(dir) {
                    self.out(&format!("tellusererror {e}"));
                }
            }
            "EvalFile" => {
                let path = (!value.is_empty()).then(|| PathBuf::from(value));
                match self.s.set_net_file(path) {
                    Ok(note) => self.out(&format!("# {note}")),
                    Err(e) => self.out(&format!("tellusererror {e}")),
                }
            }
            "Use NNUE" => match value {
                "0" | "1" => {
                    if let Err(e) = self.s.set_use_nnue(value == "1") {
                        self.out(&format!("tellusererror {e}"));
                    }
                }
                _ => self.error("bad value for Use NNUE", rest),
            },
            "Clear Hash" => self.s.clear_hash(),
            "MultiPV" => match value.parse::<usize>() {
                Ok(n) if (1..=64).contains(&n) => {
                    let restart = self.pause_analysis();
                    self.multipv = n;
                    self.resume_analysis(restart);
                }
                _ => self.error("bad value for MultiPV", rest),
            },
            "UCI_LimitStrength" => match value {
                "0" | "1" => self.s.set_limit_strength(value == "1"),
                _ => self.error("bad value for UCI_LimitStrength", rest),
            },
            "UCI_Elo" | "Skill Level" => {
                let set = match value.parse::<u64>() {
                    Ok(n) if name == "UCI_Elo" => self.s.set_elo(n),
                    Ok(n) => self.s.set_skill(n),
                    Err(_) => Err(self.s.strength_error(name)),
                };
                if let Err(e) = set {
                    self.error(&format!("bad value for {name}: {e}"), rest);
                }
            }
            _ => self.error("unknown option", rest),
        }
    }

    fn exclude(&mut self, exclude: bool, what: &str) {
        let restart = self.pause_analysis();
        if what == "all" {
            self.exclude = if exclude {
                self.s.game.legal_moves()
            } else {
                Vec::new()
            };
        } else if exclude {
            if !self.exclude.iter().any(|m| m == what) {
                self.exclude.push(what.to_string());
            }
        } else {
            self.exclude.retain(|m| m != what);
        }
        self.resume_analysis(restart);
    }
}

impl FrontEnd for Xboard {
    fn command(&mut self, line: &str) {
        self.handle(line);
    }

    fn search_finished(&mut self, r: SearchResult) {
        self.move_found(r);
    }

    fn quitting(&self) -> bool {
        self.quit
    }

    fn session(&mut self) -> &mut Session {
        &mut self.s
    }
}
