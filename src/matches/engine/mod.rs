//! Driving one engine process over XBoard (CECP v2) or UCI: start and handshake, a new
//! game per variant and start position, clocks, moves in and out, result claims, and
//! the signs of trouble (the process ended, an answer that never came).
//!
//! Every engine's output is read on a thread of its own and sent, stamped with the
//! time it arrived, to the [`Mux`] of the worker that plays the game; so the referee
//! hears both engines while it waits for one (a result claim can come from either).

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use super::args::{EngineConfig, Proto};
use crate::rules::position::outcome::GameResult;
use crate::rules::position::Color;

mod mux;
#[cfg(test)]
mod tests;
mod uci;
mod xboard;

pub use mux::{Envelope, Msg, Mux};
pub use xboard::edit_commands;

/// Why an engine could not do what it was asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process ended or its input pipe broke.
    Crashed(String),
    /// An expected answer did not come in time.
    Timeout(String),
    /// It cannot play this match (cannot start, unknown variant, no `setboard`, ...).
    Failed(String),
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Crashed(s) | EngineError::Timeout(s) | EngineError::Failed(s) => {
                f.write_str(s)
            }
        }
    }
}

/// An engine's evaluation of its move, from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineScore {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: it gets mated).
    Mate(i32),
}

impl EngineScore {
    /// Centipawns, mates as ±30000.
    pub fn cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(m) if m >= 0 => 30_000,
            EngineScore::Mate(_) => -30_000,
        }
    }

    /// `+0.23`, `-1.50`, `+M3`, `-M2` as in cutechess's PGN comments.
    pub fn text(self) -> String {
        match self {
            EngineScore::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
            }
            EngineScore::Mate(m) if m >= 0 => format!("+M{m}"),
            EngineScore::Mate(m) => format!("-M{}", -m),
        }
    }

    fn negated(self) -> EngineScore {
        match self {
            EngineScore::Cp(c) => EngineScore::Cp(-c),
            EngineScore::Mate(m) => EngineScore::Mate(-m),
        }
    }
}

/// What a line from the engine means to the referee.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, in sako's letters.
    Move(String),
    /// The engine says it has no move (UCI `bestmove (none)` / `0000`).
    NoMove,
    /// An XBoard result claim.
    Claim {
        /// The result claimed.
        result: GameResult,
        /// The reason given.
        comment: String,
    },
    /// XBoard `resign`.
    Resign,
    /// XBoard `Illegal move`: the engine refused a move it was sent.
    Rejected(String),
    /// A search report (score and depth kept).
    Info,
    /// Anything else.
    Other,
}

#[derive(Clone, Debug, Default)]
struct XbFeatures {
    ping: bool,
    setboard: bool,
    usermove: bool,
    reuse: bool,
    memory: bool,
    smp: bool,
    variants: Option<Vec<String>>,
    myname: Option<String>,
    options: Vec<String>,
}

/// One running engine process.
pub struct Engine {
    /// Its settings.
    pub cfg: EngineConfig,
    slot: usize,
    gen: u64,
    child: Child,
    stdin: Option<ChildStdin>,
    /// The name used in output and PGN.
    pub name: String,
    debug: bool,
    xb: XbFeatures,
    uci_options: Vec<String>,
    uci_variants: Option<Vec<String>>,
    uci_variant_set: Option<String>,
    /// XBoard: in force mode (the next move request must say `go`).
    forced: bool,
    /// Moves of the current game the engine has been told about (its own included).
    told: usize,
    /// The colour the engine plays in the current game.
    color: Color,
    start_fen: Option<String>,
    /// The last score and depth it reported during the current search.
    pub last_score: Option<EngineScore>,
    /// Depth of `last_score`.
    pub last_depth: Option<u32>,
    ping_counter: u32,
    /// Waiting for its move.
    pub thinking: bool,
    /// True once the engine asked for a fresh process per game (XBoard `reuse=0`).
    pub wants_restart: bool,
}

fn spawn_reader(
    mut reader: impl BufRead + Send + 'static,
    slot: usize,
    gen: u64,
    tx: Sender<Envelope>,
    debug_name: Option<String>,
) {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Envelope {
                        slot,
                        gen,
                        at: Instant::now(),
                        msg: Msg::Eof,
                    });
                    break;
                }
                Ok(_) => {
                    let at = Instant::now();
                    let line = String::from_utf8_lossy(&buf)
                        .trim_end_matches(['\r', '\n'])
                        .to_string();
                    if let Some(n) = &debug_name {
                        eprintln!("{n} > {line}");
                    }
                    if tx
                        .send(Envelope {
                            slot,
                            gen,
                            at,
                            msg: Msg::Line(line),
                        })
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    });
}

impl Engine {
    /// Starts the process (no handshake yet). `gen` tells this process apart from
    /// earlier ones of the same engine slot.
    pub fn spawn(
        cfg: &EngineConfig,
        slot: usize,
        gen: u64,
        mux: &mut Mux,
        debug: bool,
    ) -> Result<Engine, EngineError> {
        let (program, args) = cfg
            .command
            .split_first()
            .ok_or_else(|| EngineError::Failed("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &cfg.dir {
            cmd.current_dir(dir);
        }
        if let Some(path) = &cfg.stderr {
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| EngineError::Failed(format!("cannot open {}: {e}", path.display())))?;
            cmd.stderr(Stdio::from(f));
        }
        let mut child = cmd.spawn().map_err(|e| {
            EngineError::Failed(format!("cannot start '{}': {e}", cfg.command.join(" ")))
        })?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| EngineError::Failed("no standard output".into()))?;
        let stdin = child.stdin.take();
        let name = cfg.fallback_name();
        mux.current[slot] = gen;
        spawn_reader(
            BufReader::new(stdout),
            slot,
            gen,
            mux.tx.clone(),
            debug.then(|| format!("{name}({slot})")),
        );
        Ok(Engine {
            cfg: cfg.clone(),
            slot,
            gen,
            child,
            stdin,
            name,
            debug,
            xb: XbFeatures {
                reuse: true, // the protocol's default
                ..XbFeatures::default()
            },
            uci_options: Vec::new(),
            uci_variants: None,
            uci_variant_set: None,
            forced: true,
            told: 0,
            color: Color::White,
            start_fen: None,
            last_score: None,
            last_depth: None,
            ping_counter: 0,
            thinking: false,
            wants_restart: false,
        })
    }

    /// Process generation (see [`Engine::spawn`]).
    pub fn gen(&self) -> u64 {
        self.gen
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if self.debug {
            eprintln!("{}({}) < {line}", self.name, self.slot);
        }
        let ok = match self.stdin.as_mut() {
            Some(w) => writeln!(w, "{line}").and_then(|_| w.flush()).is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            self.stdin = None;
            Err(EngineError::Crashed(format!(
                "{}: cannot write to the engine (it has exited)",
                self.name
            )))
        }
    }

    fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.cfg.timeout_s)
    }

    /// Waits for a line of this engine until `deadline`.
    fn next_line(
        &mut self,
        mux: &mut Mux,
        deadline: Instant,
        what: &str,
    ) -> Result<String, EngineError> {
        match mux.next_for(self.slot, deadline) {
            Some(Envelope {
                msg: Msg::Line(l), ..
            }) => Ok(l),
            Some(Envelope { msg: Msg::Eof, .. }) => Err(EngineError::Crashed(format!(
                "{} exited while {what}",
                self.name
            ))),
            None => Err(EngineError::Timeout(format!(
                "{} did not answer in {} s while {what}",
                self.name, self.cfg.timeout_s
            ))),
        }
    }

    /// The protocol handshake and the engine options.
    pub fn handshake(&mut self, mux: &mut Mux) -> Result<(), EngineError> {
        for l in self.cfg.initstr.clone() {
            self.send(&l)?;
        }
        match self.cfg.proto {
            Proto::Uci => self.uci_handshake(mux)?,
            Proto::Xboard => self.xboard_handshake(mux)?,
        }
        self.sync(mux)
    }

    /// True when a UCI engine was given an option that loads variant definitions from a
    /// file (Fairy-Stockfish's `VariantPath`: any option other than `UCI_Variant` whose
    /// name mentions "variant").
    fn loads_variants(&self) -> bool {
        self.cfg.proto == Proto::Uci
            && self.cfg.options.iter().any(|(name, _)| {
                let n = name.to_ascii_lowercase();
                n.contains("variant") && n != "uci_variant"
            })
    }

    /// The name this engine knows the match's variant by.
    fn engine_variant(&self, variant: &str) -> String {
        self.cfg
            .variant
            .clone()
            .unwrap_or_else(|| variant.to_string())
    }

    /// Checks that the engine plays `variant` (as far as it tells).
    pub fn check_variant(&self, variant: &str) -> Result<(), EngineError> {
        let name = self.engine_variant(variant);
        if name == "normal" && self.cfg.variant.is_none() {
            return Ok(());
        }
        let list = match self.cfg.proto {
            Proto::Uci => match &self.uci_variants {
                Some(l) => l,
                None => {
                    return Err(EngineError::Failed(format!(
                        "{} has no UCI_Variant option, so it plays only chess, not {name}",
                        self.name
                    )))
                }
            },
            Proto::Xboard => match &self.xb.variants {
                Some(l) => l,
                None if name == "normal" => return Ok(()),
                None => {
                    return Err(EngineError::Failed(format!(
                        "{} announces no variants, so it plays only chess, not {name}",
                        self.name
                    )))
                }
            },
        };
        if list.iter().any(|v| v == &name) {
            Ok(())
        } else if self.loads_variants() {
            // The engine may know the name from its variants file without announcing it
            // (not every build re-announces its list): let its first move decide.
            let msg = format!(
                "{} does not announce '{name}' even after loading its variants file; \
                 playing on (an unknown variant shows as illegal moves)",
                self.name
            );
            tracing::warn!("{msg}");
            Ok(())
        } else {
            Err(EngineError::Failed(format!(
                "{} does not play '{name}' (it offers: {}); give variant=NAME for this engine",
                self.name,
                list.join(", ")
            )))
        }
    }

    /// Checks that the engine can be given this start position (an XBoard engine
    /// without `setboard` gets it in edit mode, which knows no pieces in hand).
    pub fn check_start(&self, fen: Option<&str>) -> Result<(), EngineError> {
        match fen {
            Some(f) if self.cfg.proto == Proto::Xboard && !self.xb.setboard => {
                edit_commands(&self.fen_to_engine(f))
                    .map(|_| ())
                    .map_err(|e| {
                        EngineError::Failed(format!(
                            "{} has no setboard feature, and edit mode cannot set up {f}: {e}",
                            self.name
                        ))
                    })
            }
            _ => Ok(()),
        }
    }

    /// Waits until the engine has processed everything sent so far (UCI `isready`,
    /// XBoard `ping`), dropping what it said meanwhile.
    pub fn sync(&mut self, mux: &mut Mux) -> Result<(), EngineError> {
        let deadline = Instant::now() + self.timeout();
        match self.cfg.proto {
            Proto::Uci => {
                self.send("isready")?;
                loop {
                    let l = self.next_line(mux, deadline, "waiting for readyok")?;
                    if l.trim() == "readyok" {
                        return Ok(());
                    }
                }
            }
            Proto::Xboard => {
                if !self.xb.ping {
                    return Ok(());
                }
                self.ping_counter += 1;
                let n = self.ping_counter;
                self.send(&format!("ping {n}"))?;
                let want = format!("pong {n}");
                loop {
                    let l = self.next_line(mux, deadline, "waiting for pong")?;
                    if l.trim() == want {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// sako's FEN in the engine's letters.
    pub fn fen_to_engine(&self, fen: &str) -> String {
        if self.cfg.pieces.is_empty() {
            return fen.to_string();
        }
        let mut fields = fen.splitn(2, ' ');
        let board = fields.next().unwrap_or("");
        let rest = fields.next();
        let mapped: String = board
            .chars()
            .map(|c| self.cfg.to_engine_letter(c))
            .collect();
        match rest {
            Some(r) => format!("{mapped} {r}"),
            None => mapped,
        }
    }

    /// A move of sako's in the engine's letters.
    pub fn move_to_engine(&self, m: &str) -> String {
        translate_move(m, |c| self.cfg.to_engine_letter(c))
    }

    /// A move of the engine's in sako's letters.
    pub fn move_from_engine(&self, m: &str) -> String {
        translate_move(m, |c| self.cfg.from_engine_letter(c))
    }

    /// Prepares a new game of `variant` from `fen` (`None`: the variant's own start),
    /// with the engine playing `color`.
    pub fn new_game(
        &mut self,
        mux: &mut Mux,
        variant: &str,
        fen: Option<&str>,
        color: Color,
    ) -> Result<(), EngineError> {
        self.told = 0;
        self.forced = true;
        self.thinking = false;
        self.color = color;
        self.last_score = None;
        self.last_depth = None;
        self.start_fen = fen.map(|f| self.fen_to_engine(f));
        let vname = self.engine_variant(variant);
        match self.cfg.proto {
            Proto::Uci => self.new_game_uci(vname)?,
            Proto::Xboard => self.new_game_xboard(&vname)?,
        }
        self.sync(mux)
    }

    /// Asks for a move: `moves` is the whole game so far (sako's text), `own_ms` and
    /// `opp_ms` the clocks (milliseconds) when the time control has one. Returns the
    /// moment the request was complete.
    pub fn request_move(
        &mut self,
        moves: &[String],
        clocks: Option<(i64, i64)>,
        moves_to_go: Option<u32>,
    ) -> Result<Instant, EngineError> {
        self.last_score = None;
        self.last_depth = None;
        self.thinking = true;
        match self.cfg.proto {
            Proto::Uci => {
                let position = self.uci_position(moves);
                self.send(&position)?;
                let go = self.uci_go(clocks, moves_to_go);
                self.send(&go)?;
            }
            Proto::Xboard => self.request_move_xboard(moves, clocks)?,
        }
        self.told = moves.len();
        Ok(Instant::now())
    }

    /// Records that the engine's move was accepted (it now knows one more move).
    pub fn moved(&mut self) {
        self.told += 1;
        self.thinking = false;
    }

    /// Reads one line of the engine's output.
    pub fn interpret(&mut self, line: &str) -> Reply {
        let line = line.trim();
        match self.cfg.proto {
            Proto::Uci => self.interpret_uci(line),
            Proto::Xboard => self.interpret_xboard(line),
        }
    }

    fn keep_score(&mut self, score: EngineScore, depth: Option<u32>) {
        let s = if self.cfg.whitepov && self.color == Color::Black {
            score.negated()
        } else {
            score
        };
        self.last_score = Some(s);
        if depth.is_some() {
            self.last_depth = depth;
        }
    }

    /// Tells the engine the game is over (stopping a search first) and waits until it
    /// has caught up.
    pub fn end_game(&mut self, mux: &mut Mux, result_line: &str) -> Result<(), EngineError> {
        match self.cfg.proto {
            Proto::Uci => {
                if self.thinking {
                    self.send("stop")?;
                }
            }
            Proto::Xboard => {
                self.send(&format!("result {result_line}"))?;
                self.send("force")?;
            }
        }
        self.thinking = false;
        self.forced = true;
        if self.cfg.proto == Proto::Xboard && !self.xb.reuse {
            self.wants_restart = true;
        }
        self.sync(mux)
    }

    /// Asks the engine to quit, waits a moment, then kills it.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(1000);
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the process at once.
    pub fn kill(mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // quit() and kill() have reaped the child already; otherwise do not leave it.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Maps the piece letter of a drop (`E@b1`) or a promotion/gating suffix (`e7e8q`).
fn translate_move(m: &str, map: impl Fn(char) -> char) -> String {
    if let Some((p, sq)) = m.split_once('@') {
        let p: String = p.chars().map(&map).collect();
        return format!("{p}@{sq}");
    }
    let chars: Vec<char> = m.chars().collect();
    match chars.as_slice() {
        [.., d, s] if d.is_ascii_digit() && s.is_ascii_alphabetic() => {
            let mut out: String = chars[..chars.len() - 1].iter().collect();
            out.push(map(*s));
            out
        }
        _ => m.to_string(),
    }
}
