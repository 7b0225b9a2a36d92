//! The protocol front ends: XBoard/CECP v2 and UCI. Both share a `Session`: the
//! game being played, the transposition table, the evaluation and a search running on
//! a thread of its own while standard input keeps being read (so `stop`, `?`, `ping`
//! and `quit` are answered at once).

pub mod uci;
pub mod xboard;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::engine::eval::Eval;
use crate::engine::history::HistoryBank;
use crate::engine::nnue::{built_in, NetError, NetFile, Network};
use crate::engine::search::{SearchInfo, SearchOptions, SearchResult};
use crate::engine::strength::{LevelTable, Strength, LEVELS_FILE};
use crate::engine::time::Limits;
use crate::engine::tt::Tt;
use crate::game::Game;
use crate::rules::variant::VariantDef;

/// Default transposition table size in MB.
pub const DEFAULT_HASH_MB: usize = 64;

/// What the main loop reacts to.
pub enum Event {
    /// A line from standard input.
    Line(String),
    /// Standard input was closed.
    Eof,
    /// The search with this id finished on its own.
    SearchDone(u64),
}

/// Writes protocol output: one line at a time, flushed, never interleaved.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to standard output.
    pub fn stdout() -> Output {
        Output(Arc::new(Mutex::new(Box::new(std::io::stdout()))))
    }

    /// Output to any writer (tests).
    pub fn to_writer(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line.
    pub fn line(&self, text: &str) {
        tracing::debug!(target: "protocol", "> {text}");
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }
}

struct Running {
    id: u64,
    stop: Arc<AtomicBool>,
    handle: JoinHandle<Result<SearchResult, String>>,
}

/// The state both protocols share.
pub struct Session {
    /// The game being played or analysed.
    pub game: Game,
    tt: Arc<Tt>,
    /// The search threads' move-ordering statistics, kept for the whole game.
    histories: Arc<HistoryBank>,
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// False until `tt` has the size `hash_mb`. The table of the default size is made
    /// only when first needed (UCI `isready`, XBoard `ping`, a search), so that a
    /// `Hash`/`memory` setting sent after the handshake never has the default table in
    /// memory before it: peak memory follows the setting.
    tt_sized: bool,
    /// Search threads.
    pub threads: usize,
    /// Directory with evaluation tables (`None`: the built-in ones).
    pub eval_dir: Option<PathBuf>,
    /// A network file (UCI `EvalFile`, XBoard option `EvalFile`) and its contents.
    net_file: Option<(PathBuf, Arc<NetFile>)>,
    /// Evaluate with the network where one is loaded for the game (`Use NNUE`).
    pub use_nnue: bool,
    eval: Arc<Eval>,
    running: Option<Running>,
    /// The strength options (`UCI_LimitStrength`, `UCI_Elo`, `Skill Level`).
    strength: Strength,
    /// The strength levels per game family.
    levels: Arc<LevelTable>,
    /// The seed of a weakened engine's choices, new each game.
    strength_seed: u64,
    next_id: u64,
    events: Sender<Event>,
    /// Protocol output.
    pub out: Output,
}

impl Session {
    /// A session on standard chess.
    pub fn new(events: Sender<Event>, out: Output) -> Session {
        let game = Game::new("normal", None).unwrap_or_else(|e| panic!("built-in start: {e}"));
        let eval = Eval::embedded("normal").unwrap_or_else(|e| panic!("built-in tables: {e}"));
        let levels = LevelTable::built_in();
        let mut session = Session {
            game,
            tt: Arc::new(Tt::new(1)),
            histories: Arc::new(HistoryBank::new()),
            hash_mb: DEFAULT_HASH_MB,
            tt_sized: false,
            threads: 1,
            eval_dir: None,
            net_file: None,
            use_nnue: true,
            eval: Arc::new(eval),
            running: None,
            strength: Strength::full(levels.elo_range().1),
            levels: Arc::new(levels),
            strength_seed: fresh_seed(),
            next_id: 1,
            events,
            out,
        };
        // The built-in tables with the game's built-in net, if it has one.
        if let Ok(eval) = session.make_eval(session.game.variant(), None) {
            session.eval = Arc::new(eval);
        }
        session
    }

    /// Name of the current variant.
    pub fn variant(&self) -> &'static str {
        self.game.variant().name
    }

    /// Starts a new game of `variant` from `fen` (or its start), loading its evaluation.
    pub fn set_game(&mut self, variant: &str, fen: Option<&str>) -> Result<(), String> {
        let game = Game::new(variant, fen)?;
        if game.variant().name != self.eval.variant {
            self.eval = Arc::new(self.make_eval(game.variant(), self.eval_dir.as_deref())?);
        }
        self.game = game;
        Ok(())
    }

    /// The evaluation of `def`'s game: the tables of `dir` (or the built-in ones) and,
    /// unless `use_nnue` is off, the loaded network file's net when it is made for this
    /// game, else the game's built-in net if it has one.
    fn make_eval(&self, def: &'static VariantDef, dir: Option<&Path>) -> Result<Eval, String> {
        let eval = Eval::load(def, dir)?;
        if !self.use_nnue {
            return Ok(eval);
        }
        let from_file = self.net_file.as_ref().and_then(|(path, file)| {
            Network::for_game(file, def, &path.display().to_string()).ok()
        });
        Ok(eval.with_net(from_file.or_else(|| built_in::for_game(def))))
    }

    /// Reads the evaluation tables again from `dir` (or the built-in ones), and the
    /// strength levels from its `levels.txt` where it has one (else the built-in table).
    /// A broken table or level file is refused and everything stays as it was.
    pub fn set_eval_dir(&mut self, dir: Option<PathBuf>) -> Result<(), String> {
        let eval = self.make_eval(self.game.variant(), dir.as_deref())?;
        let levels = match dir.as_deref().map(|d| d.join(LEVELS_FILE)) {
            Some(path) if path.exists() => {
                LevelTable::read(&path).map_err(|e| format!("{}: {e}", path.display()))?
            }
            _ => LevelTable::built_in(),
        };
        let (lo, hi) = levels.elo_range();
        self.strength.elo = self.strength.elo.clamp(lo, hi);
        self.levels = Arc::new(levels);
        self.eval = Arc::new(eval);
        self.eval_dir = dir;
        Ok(())
    }

    /// Loads the network file `path` (`None`: no network) and says which evaluation
    /// the current game now has. A file that cannot be read, is malformed or does not
    /// fit a game it names is refused, and the evaluation stays as it was. A good file
    /// for other games is kept for them, and the answer says the current game goes on
    /// with its tables.
    pub fn set_net_file(&mut self, path: Option<PathBuf>) -> Result<String, String> {
        if let Some(path) = &path {
            let named = |e: NetError| format!("net file {}: {e}", path.display());
            let file = NetFile::read(path).map_err(named)?;
            Network::check_games(&file).map_err(named)?;
            self.net_file = Some((path.clone(), Arc::new(file)));
        } else {
            self.net_file = None;
        }
        self.eval = Arc::new(self.make_eval(self.game.variant(), self.eval_dir.as_deref())?);
        let in_use = self.eval.net().map(|n| n.source.clone());
        Ok(match &self.net_file {
            Some((path, file)) if in_use != Some(path.display().to_string()) => format!(
                "net file {} is for {}; {} uses: {}{}",
                path.display(),
                file.games.join(", "),
                self.game.variant().name,
                self.eval_description(),
                if self.use_nnue {
                    ""
                } else {
                    " (Use NNUE is off)"
                }
            ),
            _ => format!("evaluation: {}", self.eval_description()),
        })
    }

    /// Turns the network on or off (`Use NNUE`).
    pub fn set_use_nnue(&mut self, on: bool) -> Result<(), String> {
        self.use_nnue = on;
        self.eval = Arc::new(self.make_eval(self.game.variant(), self.eval_dir.as_deref())?);
        Ok(())
    }

    /// The static evaluation of the current position, for the side to move.
    pub fn static_eval(&self) -> Result<i32, String> {
        Ok(self.game.evaluate(&self.eval)?)
    }

    /// Which evaluation is in use: "network FILE", "network built-in NAME" or "tables".
    pub fn eval_description(&self) -> String {
        match self.eval.net() {
            Some(n) => format!("network {}", n.source),
            None => "tables".to_string(),
        }
    }

    /// Resizes (and clears) the transposition table; when the memory cannot be had the
    /// old size is kept (its table made again when next needed) and the error returned.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        let mb = mb.clamp(1, 1 << 16);
        if mb != self.hash_mb || !self.tt_sized {
            // Free the old table first so that its memory can be reused.
            self.tt = Arc::new(Tt::new(1));
            match Tt::try_new(mb) {
                Ok(t) => {
                    self.tt = Arc::new(t);
                    self.hash_mb = mb;
                    self.tt_sized = true;
                }
                Err(e) => {
                    // The old size, made again when next needed.
                    self.tt_sized = false;
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Makes the table of the configured size if it is not made yet (a search needs it;
    /// the protocols call this where an interface waits, before the clock runs).
    pub fn ensure_hash(&mut self) {
        if !self.tt_sized {
            self.tt = Arc::new(Tt::new(self.hash_mb));
            self.tt_sized = true;
        }
    }

    /// Clears the transposition table and the search's histories (a new game); a
    /// weakened engine's choices get a new seed.
    pub fn clear_hash(&mut self) {
        if self.tt_sized {
            self.tt.clear();
        }
        self.histories.clear();
        self.strength_seed = fresh_seed();
    }

    /// The strength options in force.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// The lowest and highest `UCI_Elo` (the level table's labels).
    pub fn elo_range(&self) -> (u32, u32) {
        self.levels.elo_range()
    }

    /// Turns `UCI_LimitStrength` on or off.
    pub fn set_limit_strength(&mut self, on: bool) {
        self.strength.limit = on;
    }

    /// Sets `UCI_Elo`; a value outside the range is refused and the setting kept.
    pub fn set_elo(&mut self, elo: u64) -> Result<(), StrengthError> {
        let (lo, hi) = self.elo_range();
        match u32::try_from(elo) {
            Ok(e) if (lo..=hi).contains(&e) => {
                self.strength.elo = e;
                Ok(())
            }
            _ => Err(StrengthError::OutOfRange {
                name: "UCI_Elo",
                min: lo,
                max: hi,
            }),
        }
    }

    /// The error for a value of the strength option `name` that is no number.
    pub fn strength_error(&self, name: &str) -> StrengthError {
        let (min, max) = if name.eq_ignore_ascii_case("UCI_Elo") {
            self.elo_range()
        } else {
            (0, crate::engine::strength::MAX_SKILL)
        };
        let name = if name.eq_ignore_ascii_case("UCI_Elo") {
            "UCI_Elo"
        } else {
            "Skill Level"
        };
        StrengthError::OutOfRange { name, min, max }
    }

    /// Sets `Skill Level` (0 to 20); a value outside is refused and the setting kept.
    pub fn set_skill(&mut self, skill: u64) -> Result<(), StrengthError> {
        let max = crate::engine::strength::MAX_SKILL;
        match u32::try_from(skill) {
            Ok(s) if s <= max => {
                self.strength.skill = s;
                Ok(())
            }
            _ => Err(StrengthError::OutOfRange {
                name: "Skill Level",
                min: 0,
                max,
            }),
        }
    }

    /// True while a search runs.
    pub fn searching(&self) -> bool {
        self.running.is_some()
    }

    /// Id of the running search.
    pub fn search_id(&self) -> Option<u64> {
        self.running.as_ref().map(|r| r.id)
    }

    /// Starts searching the current position on a thread of its own; every completed
    /// depth goes to `on_info`. Returns the search id.
    pub fn start_search(
        &mut self,
        limits: Limits,
        multipv: usize,
        exclude: Vec<String>,
        mut on_info: Box<dyn FnMut(&SearchInfo) + Send>,
    ) -> u64 {
        self.stop_search();
        self.ensure_hash();
        let id = self.next_id;
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let mut game = self.game.clone();
        let tt = Arc::clone(&self.tt);
        let histories = Arc::clone(&self.histories);
        let eval = Arc::clone(&self.eval);
        let threads = self.threads;
        let events = self.events.clone();
        let flag = Arc::clone(&stop);
        // Analysis and pondering (`infinite`) always run at full strength.
        let level = (!limits.infinite)
            .then(|| self.strength.params(&self.levels, self.game.variant().name))
            .flatten();
        let seed = self.strength_seed ^ self.game.key();
        let handle = std::thread::spawn(move || {
            let opts = SearchOptions {
                limits,
                threads,
                tt: &tt,
                eval: &eval,
                stop: &flag,
                multipv,
                exclude,
                histories: Some(&histories),
            };
            let r = match &level {
                None => game.search(&opts, &mut *on_info),
                Some(level) => game.search_at_level(&opts, level, seed, &mut *on_info),
            }
            .map_err(String::from);
            let _ = events.send(Event::SearchDone(id));
            r
        });
        self.running = Some(Running { id, stop, handle });
        id
    }

    /// Stops the running search (if any) and returns its result.
    pub fn stop_search(&mut self) -> Option<SearchResult> {
        let running = self.running.take()?;
        running.stop.store(true, Ordering::Relaxed);
        match running.handle.join() {
            Ok(Ok(r)) => Some(r),
            Ok(Err(e)) => {
                tracing::warn!("search failed: {e}");
                None
            }
            Err(_) => {
                tracing::error!("search thread panicked");
                None
            }
        }
    }

    /// Collects the result of search `id` after it reported that it finished; `None`
    /// when that search was already stopped and collected (a stale report).
    pub fn finish_search(&mut self, id: u64) -> Option<SearchResult> {
        if self.search_id() == Some(id) {
            self.stop_search()
        } else {
            None
        }
    }
}

/// A strength option's value was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StrengthError {
    /// The value is outside the option's range.
    OutOfRange {
        /// The option.
        name: &'static str,
        /// Its lowest value.
        min: u32,
        /// Its highest value.
        max: u32,
    },
}

impl std::fmt::Display for StrengthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StrengthError::OutOfRange { name, min, max } => {
                write!(f, "{name} must be a number from {min} to {max}")
            }
        }
    }
}

impl std::error::Error for StrengthError {}

/// A seed for a new game's choices at a strength level: the clock's nanoseconds.
fn fresh_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x5A4B_0C1D, |d| d.as_nanos() as u64)
}

/// A protocol front end, as the event loop sees it.
pub trait FrontEnd {
    /// Handles one command line.
    fn command(&mut self, line: &str);
    /// A search finished on its own with this result.
    fn search_finished(&mut self, result: SearchResult);
    /// True once `quit` was received.
    fn quitting(&self) -> bool;
    /// The shared session.
    fn session(&mut self) -> &mut Session;
}

/// Handles events until `quit` or end of input: the command that chose the protocol
/// (if any), then every line and every search that finishes on its own.
pub fn event_loop(front: &mut impl FrontEnd, rx: Receiver<Event>, first: Option<String>) {
    if let Some(l) = first {
        front.command(&l);
    }
    for event in rx.iter() {
        match event {
            Event::Line(l) => front.command(&l),
            Event::Eof => break,
            Event::SearchDone(id) => {
                if let Some(r) = front.session().finish_search(id) {
                    front.search_finished(r);
                }
            }
        }
        if front.quitting() {
            break;
        }
    }
    front.session().stop_search();
}

/// Which protocol the first command chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// XBoard / CECP.
    Xboard,
    /// UCI.
    Uci,
}

/// Reads standard input on a thread of its own, feeding the event channel.
fn spawn_stdin_reader(tx: Sender<Event>) {
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Event::Eof);
                    break;
                }
                Ok(_) => {
                    // Bytes that are not UTF-8 must not end the session.
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if tx.send(Event::Line(line)).is_err() {
                        break;
                    }
                }
            }
        }
    });
}

/// Runs the protocol loop on standard input and output. With `forced` the protocol is
/// fixed (`sako xboard`, `sako uci`); otherwise the first command decides.
pub fn run(forced: Option<Protocol>) {
    let (tx, rx) = channel();
    spawn_stdin_reader(tx.clone());
    serve(forced, tx, rx, Output::stdout());
}

/// Serves a protocol from an event channel (standard input, or a test's lines).
pub fn serve(forced: Option<Protocol>, tx: Sender<Event>, rx: Receiver<Event>, out: Output) {
    let mut protocol = forced;
    let mut pending: Option<String> = None;
    if protocol.is_none() {
        for event in rx.iter() {
            match event {
                Event::Line(l) => {
                    let word = l.split_whitespace().next().unwrap_or("");
                    match word {
                        "" => continue,
                        "uci" => {
                            protocol = Some(Protocol::Uci);
                            pending = Some(l);
                            break;
                        }
                        "xboard" | "protover" => {
                            protocol = Some(Protocol::Xboard);
                            pending = Some(l);
                            break;
                        }
                        "quit" => return,
                        _ => out.line(&format!(
                            "Error (unknown command): {l} (send 'xboard' or 'uci' first)"
                        )),
                    }
                }
                Event::Eof => return,
                Event::SearchDone(_) => {}
            }
        }
    }
    let session = Session::new(tx, out);
    match protocol {
        Some(Protocol::Uci) => event_loop(&mut uci::Uci::new(session), rx, pending),
        Some(Protocol::Xboard) => event_loop(&mut xboard::Xboard::new(session), rx, pending),
        None => {}
    }
}

/// Splits off the first word of a command.
pub fn split_command(line: &str) -> (&str, &str) {
    let line = line.trim();
    match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], line[i..].trim()),
        None => (line, ""),
    }
}
