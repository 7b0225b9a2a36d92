//! Driving one engine process over XBoard (CECP v2) or UCI: start and handshake, a new
//! game per variant and start position, clocks, moves in and out, result claims, and
//! the signs of trouble (the process ended, an answer that never came).
//!
//! Every engine's output is read on a thread of its own and sent, stamped with the
//! time it arrived, to the [`Mux`] of the worker that plays the game; so the referee
//! hears both engines while it waits for one (a result claim can come from either).

use std::collections::VecDeque;
use std::fs::OpenOptions;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::args::{EngineConfig, Proto, TimeControl};
use crate::rules::position::outcome::GameResult;
use crate::rules::position::{fen_board_cells, Color};

/// What an engine's reader thread reports.
#[derive(Debug)]
pub enum Msg {
    /// One line of output (without the line end).
    Line(String),
    /// Standard output closed: the process ended.
    Eof,
}

/// A message with its origin and arrival time.
#[derive(Debug)]
pub struct Envelope {
    /// Which engine of the pair (0 or 1).
    pub slot: usize,
    /// Which process of that engine (it is restarted after a crash).
    pub gen: u64,
    /// When the line was read.
    pub at: Instant,
    /// The line.
    pub msg: Msg,
}

/// Both engines' output for one worker, in arrival order.
pub struct Mux {
    rx: Receiver<Envelope>,
    tx: Sender<Envelope>,
    pending: VecDeque<Envelope>,
    current: [u64; 2],
}

impl Default for Mux {
    fn default() -> Self {
        Mux::new()
    }
}

impl Mux {
    /// An empty multiplexer.
    pub fn new() -> Mux {
        let (tx, rx) = channel();
        Mux {
            rx,
            tx,
            pending: VecDeque::new(),
            current: [0; 2],
        }
    }

    /// Ignores everything still to come from the current process of `slot` (it was
    /// killed).
    pub fn retire(&mut self, slot: usize) {
        if slot < 2 {
            self.current[slot] = u64::MAX;
        }
    }

    fn is_current(&self, e: &Envelope) -> bool {
        e.slot < 2 && self.current[e.slot] == e.gen
    }

    /// The next message from any current engine, or `None` at `deadline`.
    pub fn next_any(&mut self, deadline: Instant) -> Option<Envelope> {
        while let Some(e) = self.pending.pop_front() {
            if self.is_current(&e) {
                return Some(e);
            }
        }
        loop {
            let now = Instant::now();
            let wait = deadline.saturating_duration_since(now);
            match self.rx.recv_timeout(wait) {
                Ok(e) if self.is_current(&e) => return Some(e),
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => return None,
                // We hold a sender ourselves: this cannot happen; treat as a timeout.
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// The next message from engine `slot`, keeping the other's for later; `None` at
    /// `deadline`.
    pub fn next_for(&mut self, slot: usize, deadline: Instant) -> Option<Envelope> {
        if let Some(i) = self
            .pending
            .iter()
            .position(|e| e.slot == slot && self.current[slot] == e.gen)
        {
            return self.pending.remove(i);
        }
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(wait) {
                Ok(e) if !self.is_current(&e) => continue,
                Ok(e) if e.slot == slot => return Some(e),
                Ok(e) => self.pending.push_back(e),
                Err(_) => return None,
            }
        }
    }
}

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

/// Splits `feature a=1 b="x y"` into pairs.
fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else { break };
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, remaining) = if let Some(stripped) = after.strip_prefix('"') {
            match stripped.find('"') {
                Some(end) => (stripped[..end].to_string(), &stripped[end + 1..]),
                None => (stripped.to_string(), ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (after[..end].to_string(), &after[end..]),
                None => (after.to_string(), ""),
            }
        };
        out.push((key, value));
        rest = remaining.trim_start();
    }
    out
}

/// XBoard `level` base time: `M` or `M:SS` (whole seconds, at least one).
fn level_base(ms: u64) -> String {
    let secs = ms.div_ceil(1000).max(1);
    if secs.is_multiple_of(60) {
        format!("{}", secs / 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
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

    fn uci_handshake(&mut self, mux: &mut Mux) -> Result<(), EngineError> {
        self.send("uci")?;
        let announced = self.read_uci_answer(mux)?;
        if self.cfg.name.is_none() {
            if let Some(n) = announced {
                self.name = n;
            }
        }
        for (name, value) in self.cfg.options.clone() {
            if !self.uci_options.contains(&name.to_ascii_lowercase()) {
                tracing::warn!("{}: the engine has no option '{name}'", self.name);
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        // An option such as Fairy-Stockfish's `VariantPath` loads more variants; the
        // list of the first answer is then out of date. Fairy-Stockfish announces the
        // new list in its answer to a second `uci`.
        if self.loads_variants() {
            self.send("uci")?;
            self.read_uci_answer(mux)?;
        }
        Ok(())
    }

    /// Reads a UCI engine's answer to `uci` up to `uciok`, recording its options and
    /// `UCI_Variant` choices; returns the name it gave (`id name`).
    fn read_uci_answer(&mut self, mux: &mut Mux) -> Result<Option<String>, EngineError> {
        let deadline = Instant::now() + self.timeout();
        let mut announced = None;
        self.uci_options.clear();
        loop {
            let line = self.next_line(mux, deadline, "waiting for uciok")?;
            let line = line.trim();
            if line == "uciok" {
                return Ok(announced);
            }
            if let Some(n) = line.strip_prefix("id name ") {
                announced = Some(n.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    let vars: Vec<String> = rest
                        .split(" var ")
                        .skip(1)
                        .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
                        .collect();
                    self.uci_variants = Some(vars);
                }
                self.uci_options.push(name.to_ascii_lowercase());
            }
        }
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

    fn xboard_handshake(&mut self, mux: &mut Mux) -> Result<(), EngineError> {
        self.send("xboard")?;
        self.send("protover 2")?;
        // Protocol: an engine that says nothing within two seconds is a version 1
        // engine; `done=0` asks for more time (here: up to the timeout).
        let mut deadline = Instant::now() + Duration::from_secs(2).min(self.timeout());
        let mut any_feature = false;
        loop {
            let line = match self.next_line(mux, deadline, "waiting for feature done=1") {
                Ok(l) => l,
                Err(EngineError::Timeout(e)) => {
                    if any_feature {
                        return Err(EngineError::Timeout(e));
                    }
                    break; // protocol version 1
                }
                Err(e) => return Err(e),
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            any_feature = true;
            let mut done = None;
            for (k, v) in parse_features(rest) {
                if k == "done" {
                    done = Some(v == "1");
                    continue;
                }
                let verdict = if self.take_feature(&k, &v) {
                    "accepted"
                } else {
                    "rejected"
                };
                self.send(&format!("{verdict} {k}"))?;
            }
            match done {
                Some(true) => break,
                Some(false) => deadline = Instant::now() + self.timeout(),
                None => {}
            }
        }
        if self.cfg.name.is_none() {
            if let Some(n) = self.xb.myname.clone() {
                self.name = n;
            }
        }
        for (name, value) in self.cfg.options.clone() {
            match name.to_ascii_lowercase().as_str() {
                "hash" if self.xb.memory => self.send(&format!("memory {value}"))?,
                "threads" | "cores" if self.xb.smp => self.send(&format!("cores {value}"))?,
                _ => self.send(&format!("option {name}={value}"))?,
            }
        }
        Ok(())
    }

    /// Records the XBoard feature `k=v`; false for a feature sako cannot use (it is
    /// rejected).
    fn take_feature(&mut self, k: &str, v: &str) -> bool {
        let on = v == "1";
        match k {
            "ping" => self.xb.ping = on,
            "setboard" => self.xb.setboard = on,
            "usermove" => self.xb.usermove = on,
            "reuse" => self.xb.reuse = on,
            "memory" => self.xb.memory = on,
            "smp" => self.xb.smp = on,
            "variants" => {
                self.xb.variants = Some(v.split(',').map(|s| s.trim().to_string()).collect())
            }
            "myname" => self.xb.myname = Some(v.to_string()),
            "option" => {
                let name = v.split(" -").next().unwrap_or("").trim().to_string();
                self.xb.options.push(name);
            }
            "san" => return false, // we speak coordinates only
            "sigint" | "sigterm" | "time" | "draw" | "colors" | "name" | "analyze" | "pause"
            | "nps" | "debug" | "playother" | "ics" | "exclude" | "setscore" | "highlight"
            | "egt" | "reuse_" | "smp_" => {}
            _ => return false,
        }
        true
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

    /// UCI's new game: the variant when it changes (or was asked for by name), then
    /// `ucinewgame`.
    fn new_game_uci(&mut self, vname: String) -> Result<(), EngineError> {
        let explicit = self.cfg.variant.is_some();
        if (vname != "normal" || explicit) && self.uci_variant_set.as_deref() != Some(&vname) {
            self.send(&format!("setoption name UCI_Variant value {vname}"))?;
            self.uci_variant_set = Some(vname);
        }
        self.send("ucinewgame")
    }

    /// XBoard's new game: `new`, the variant, the start position (by `setboard` or edit
    /// mode), the clock and depth limits, `post` and `easy`.
    fn new_game_xboard(&mut self, vname: &str) -> Result<(), EngineError> {
        self.send("new")?;
        if vname != "normal" {
            self.send(&format!("variant {vname}"))?;
        }
        self.send("force")?;
        if let Some(f) = self.start_fen.clone() {
            self.xboard_set_up(&f)?;
        }
        match &self.cfg.tc {
            TimeControl::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                let line = format!(
                    "level {moves} {} {}",
                    level_base(*base_ms),
                    super::args::seconds(*inc_ms)
                );
                self.send(&line)?;
            }
            TimeControl::PerMove(ms) => self.send(&format!("st {}", super::args::seconds(*ms)))?,
            TimeControl::Infinite => {}
        }
        if let Some(d) = self.cfg.depth {
            self.send(&format!("sd {d}"))?;
        }
        self.send("post")?;
        self.send("easy")
    }

    /// Sends an XBoard engine the position `fen`: `setboard` when it has the feature,
    /// else the commands of edit mode.
    fn xboard_set_up(&mut self, fen: &str) -> Result<(), EngineError> {
        if self.xb.setboard {
            return self.send(&format!("setboard {fen}"));
        }
        let lines = edit_commands(fen).map_err(|e| {
            EngineError::Failed(format!(
                "{} has no setboard feature, and edit mode cannot set up {fen}: {e}",
                self.name
            ))
        })?;
        for l in lines {
            self.send(&l)?;
        }
        Ok(())
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

    /// UCI's `position` line for the game so far.
    fn uci_position(&self, moves: &[String]) -> String {
        let mut line = match &self.start_fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            line += " moves";
            for m in moves {
                line.push(' ');
                line += &self.move_to_engine(m);
            }
        }
        line
    }

    /// UCI's `go` line: the clocks (White's and Black's) or the time per move, and the
    /// node and depth limits.
    fn uci_go(&self, clocks: Option<(i64, i64)>, moves_to_go: Option<u32>) -> String {
        let mut go = String::from("go");
        match (&self.cfg.tc, clocks) {
            (TimeControl::Clock { inc_ms, .. }, Some((own, opp))) => {
                let (w, b) = if self.color == Color::White {
                    (own, opp)
                } else {
                    (opp, own)
                };
                go += &format!(
                    " wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                    w.max(1),
                    b.max(1)
                );
                if let Some(n) = moves_to_go {
                    go += &format!(" movestogo {n}");
                }
            }
            (TimeControl::PerMove(ms), _) => go += &format!(" movetime {ms}"),
            _ => {}
        }
        if let Some(n) = self.cfg.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(d) = self.cfg.depth {
            go += &format!(" depth {d}");
        }
        go
    }

    /// XBoard's move request: the moves the engine has not seen, the clocks, and `go`
    /// (after `force` when more than the opponent's last move is new); a single new move
    /// to an engine that is not in force mode is sent after the clocks and starts it.
    fn request_move_xboard(
        &mut self,
        moves: &[String],
        clocks: Option<(i64, i64)>,
    ) -> Result<(), EngineError> {
        let pending: Vec<String> = moves[self.told.min(moves.len())..]
            .iter()
            .map(|m| self.move_to_engine(m))
            .collect();
        let prefix = if self.xb.usermove { "usermove " } else { "" };
        if self.forced || pending.len() != 1 {
            if !self.forced {
                self.send("force")?;
            }
            for m in &pending {
                self.send(&format!("{prefix}{m}"))?;
            }
            self.xboard_clocks(clocks)?;
            self.send("go")?;
            self.forced = false;
            Ok(())
        } else {
            self.xboard_clocks(clocks)?;
            self.send(&format!("{prefix}{}", pending[0]))
        }
    }

    /// XBoard's `time` and `otim` (centiseconds, rounded up) when there is a clock.
    fn xboard_clocks(&mut self, clocks: Option<(i64, i64)>) -> Result<(), EngineError> {
        if let Some((own, opp)) = clocks {
            self.send(&format!("time {}", (own.max(0) + 9) / 10))?;
            self.send(&format!("otim {}", (opp.max(0) + 9) / 10))?;
        }
        Ok(())
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

    fn interpret_uci(&mut self, line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("bestmove") => match words.get(1) {
                None | Some(&"(none)") | Some(&"0000") | Some(&"none") => Reply::NoMove,
                Some(m) => Reply::Move(self.move_from_engine(m)),
            },
            Some("info") => {
                if words.contains(&"string") {
                    return Reply::Other;
                }
                // Upper and lower bounds are not the engine's verdict.
                if words.contains(&"lowerbound") || words.contains(&"upperbound") {
                    return Reply::Other;
                }
                let mut depth = None;
                let mut score = None;
                let mut i = 1;
                while i < words.len() {
                    match words[i] {
                        "depth" => depth = words.get(i + 1).and_then(|w| w.parse().ok()),
                        "score" => {
                            let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                            score = match (words.get(i + 1), value) {
                                (Some(&"cp"), Some(v)) => Some(EngineScore::Cp(v)),
                                (Some(&"mate"), Some(v)) => Some(EngineScore::Mate(v)),
                                _ => score,
                            };
                        }
                        "pv" => break,
                        _ => {}
                    }
                    i += 1;
                }
                match score {
                    Some(s) => {
                        self.keep_score(s, depth);
                        Reply::Info
                    }
                    None => Reply::Other,
                }
            }
            _ => Reply::Other,
        }
    }

    fn interpret_xboard(&mut self, line: &str) -> Reply {
        if let Some(m) = line.strip_prefix("move ") {
            return Reply::Move(self.move_from_engine(m.trim()));
        }
        if line == "resign" {
            return Reply::Resign;
        }
        for (prefix, result) in [
            ("1-0", GameResult::WhiteWins),
            ("0-1", GameResult::BlackWins),
            ("1/2-1/2", GameResult::Draw),
        ] {
            if let Some(rest) = line.strip_prefix(prefix) {
                if rest.is_empty() || rest.starts_with(' ') {
                    let comment = rest
                        .trim()
                        .trim_start_matches('{')
                        .trim_end_matches('}')
                        .trim()
                        .to_string();
                    return Reply::Claim { result, comment };
                }
            }
        }
        if let Some(rest) = line.strip_prefix("Illegal move") {
            let m = rest.rsplit(':').next().unwrap_or("").trim().to_string();
            return Reply::Rejected(m);
        }
        // Thinking output: ply score time nodes pv
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() >= 4 {
            let ply = words[0].trim_end_matches(['.', '&']).parse::<u32>();
            let score = words[1].parse::<i64>();
            if let (Ok(ply), Ok(score), Ok(_), Ok(_)) =
                (ply, score, words[2].parse::<i64>(), words[3].parse::<i64>())
            {
                let s = if score.abs() >= 100_000 {
                    let m = (score.abs() - 100_000) as i32;
                    EngineScore::Mate(if score > 0 { m } else { -m })
                } else {
                    EngineScore::Cp(score.clamp(-99_999, 99_999) as i32)
                };
                self.keep_score(s, Some(ply));
                return Reply::Info;
            }
        }
        Reply::Other
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

/// XBoard's `edit` mode commands that set up `fen` (for engines without `setboard`).
/// Black to move is reached the protocol's way: a dummy move `a2a3` before `edit`.
/// Positions with pieces in hand cannot be set up so.
pub fn edit_commands(fen: &str) -> Result<Vec<String>, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board = fields.first().ok_or("empty FEN")?;
    let (board, hand) = match board.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (*board, ""),
    };
    if !hand.is_empty() {
        return Err("pieces in hand".into());
    }
    let rows = fen_board_cells(board)?;
    let ranks = rows.len();
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let rank = ranks - r;
        for (file, cell) in row.iter().enumerate() {
            let Some(c) = *cell else { continue };
            let square = format!("{}{rank}", (b'a' + file as u8) as char);
            let cmd = format!("{}{square}", c.to_ascii_uppercase());
            if c.is_ascii_uppercase() {
                white.push(cmd);
            } else {
                black.push(cmd);
            }
        }
    }
    let mut out = Vec::new();
    if fields.get(1) == Some(&"b") {
        out.push("a2a3".to_string());
    }
    out.push("edit".into());
    out.push("#".into());
    out.extend(white);
    out.push("c".into());
    out.extend(black);
    out.push(".".into());
    Ok(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features() {
        let f = parse_features(r#"myname="sako 0.1" variants="normal,great" ping=1 done=0"#);
        assert_eq!(
            f,
            vec![
                ("myname".into(), "sako 0.1".into()),
                ("variants".into(), "normal,great".into()),
                ("ping".into(), "1".into()),
                ("done".into(), "0".into())
            ]
        );
    }

    #[test]
    fn move_translation() {
        let up = |c: char| {
            if c.eq_ignore_ascii_case(&'q') {
                if c == 'q' {
                    'j'
                } else {
                    'J'
                }
            } else {
                c
            }
        };
        assert_eq!(translate_move("e7e8q", up), "e7e8j");
        assert_eq!(translate_move("Q@b1", up), "J@b1");
        assert_eq!(translate_move("e2e4", up), "e2e4");
        assert_eq!(translate_move("b8b9a", up), "b8b9a");
    }

    #[test]
    fn edit_mode() {
        let cmds = edit_commands("k9/10/10/10/10/10/PP8/K9 b - - 0 1").expect("edit");
        assert_eq!(
            cmds,
            vec!["a2a3", "edit", "#", "Pa2", "Pb2", "Ka1", "c", "Ka8", "."]
        );
        assert!(edit_commands("8/8/8/8/8/8/8/8[Kk] w - - 0 1").is_err());
    }

    #[test]
    fn scores() {
        assert_eq!(EngineScore::Cp(23).text(), "+0.23");
        assert_eq!(EngineScore::Cp(-150).text(), "-1.50");
        assert_eq!(EngineScore::Cp(-5).text(), "-0.05");
        assert_eq!(EngineScore::Mate(3).text(), "+M3");
        assert_eq!(EngineScore::Mate(-2).text(), "-M2");
        assert_eq!(level_base(300_000), "5");
        assert_eq!(level_base(5_000), "0:05");
        assert_eq!(level_base(90_500), "1:31");
    }
}
