//! cutechess-cli style arguments: `-engine key=value ... -engine ... -each ... -variant V
//! -games N ...`. The words after `sako match` are parsed here (clap passes them through
//! untouched), so that a cutechess-cli command line works with `sako match` in its place.

use std::path::PathBuf;

use crate::rules::variant::{all_variants, variant_id};

/// What is wrong with a `sako match` command line. `Display` gives the one-line message
/// the CLI prints after `sako: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgsError {
    /// No words after `sako match`: the message ends with the usage.
    NoArguments,
    /// A word before the first option.
    Stray(String),
    /// An option sako match does not know.
    UnknownOption(String),
    /// `-fcp`, `-scp` or `-both`.
    OldSyntax(String),
    /// An engine option sako match does not know.
    UnknownEngineOption(String),
    /// An engine option cutechess has and sako match has not (`conf`, `book`, ...).
    UnsupportedEngineOption(String),
    /// An engine option given without `=VALUE`.
    EngineOptionNeedsValue(String),
    /// An option given without its value.
    MissingValue(String),
    /// An option given more than its one value.
    TooManyValues {
        /// The option, with its dash.
        option: String,
        /// The values, joined by spaces.
        values: String,
    },
    /// A word that is not one of an option's `key=value` settings.
    UnexpectedWord {
        /// The option, with its dash.
        option: String,
        /// The word.
        word: String,
        /// The keys the option takes.
        allowed: &'static [&'static str],
    },
    /// A value that does not parse: `bad value for WHAT: 'TEXT'`.
    BadValue {
        /// The option or key.
        what: String,
        /// The value as written.
        text: String,
        /// What was expected, if the message says it.
        expected: Option<&'static str>,
    },
    /// A word that is not one of a few choices: `WHAT 'TEXT' (CHOICES)`.
    BadChoice {
        /// What the word is, e.g. `unknown protocol`, `-openings: bad format`.
        what: &'static str,
        /// The word as written.
        text: String,
        /// The choices (or the expected form).
        choices: &'static str,
    },
    /// A `tc=` that does not parse.
    BadTimeControl(String),
    /// A `-variant` sako does not know.
    UnknownVariant(String),
    /// A `-tournament` other than two-engine round-robin or gauntlet.
    Tournament(String),
    /// Not exactly two `-engine` options (the number given).
    EngineCount(usize),
    /// An engine (by name) with no time control and no node or depth limit.
    NoTimeControl(String),
    /// An XBoard engine (by name) with a node limit.
    NodesNeedUci(String),
    /// A setting that breaks its option's rule; the text says which.
    Invalid(&'static str),
}

impl std::fmt::Display for ArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgsError::NoArguments => {
                write!(f, "no match arguments given\n\n{}", USAGE.trim_end())
            }
            ArgsError::Stray(word) => write!(f, "unexpected '{word}' before any option"),
            ArgsError::UnknownOption(opt) => {
                write!(f, "unknown option '{opt}' (sako match -help lists them)")
            }
            ArgsError::OldSyntax(opt) => write!(
                f,
                "{opt} is the old cutechess syntax: use -engine (first, second) and -each (both)"
            ),
            ArgsError::UnknownEngineOption(key) => write!(f, "unknown engine option '{key}'"),
            ArgsError::UnsupportedEngineOption(key) => {
                write!(f, "engine option '{key}' is not supported by sako match")
            }
            ArgsError::EngineOptionNeedsValue(key) => {
                write!(f, "engine option '{key}' needs a value ({key}=...)")
            }
            ArgsError::MissingValue(option) => write!(f, "{option} needs a value"),
            ArgsError::TooManyValues { option, values } => {
                write!(f, "{option} takes one value, not '{values}'")
            }
            ArgsError::UnexpectedWord {
                option,
                word,
                allowed,
            } => {
                let keys: Vec<String> = allowed.iter().map(|a| format!("{a}=...")).collect();
                write!(f, "{option}: unexpected '{word}' (expected {})", keys.join(" "))
            }
            ArgsError::BadValue {
                what,
                text,
                expected,
            } => {
                write!(f, "bad value for {what}: '{text}'")?;
                match expected {
                    Some(e) => write!(f, " ({e})"),
                    None => Ok(()),
                }
            }
            ArgsError::BadChoice {
                what,
                text,
                choices,
            } => write!(f, "{what} '{text}' ({choices})"),
            ArgsError::BadTimeControl(text) => write!(
                f,
                "bad time control '{text}' (expected moves/time+increment, e.g. 40/60+0.5 or 5+0.05)"
            ),
            ArgsError::UnknownVariant(name) => {
                let names: Vec<&str> = all_variants().iter().map(|v| v.name).collect();
                write!(f, "unknown variant '{name}' (one of: {})", names.join(", "))
            }
            ArgsError::Tournament(kind) => {
                write!(f, "-tournament {kind}: only two-engine matches are supported")
            }
            ArgsError::EngineCount(n) => {
                write!(f, "a match needs exactly two -engine options, not {n}")
            }
            ArgsError::NoTimeControl(name) => write!(
                f,
                "engine {name} has no time control: give tc=, st=, nodes= or depth="
            ),
            ArgsError::NodesNeedUci(name) => write!(
                f,
                "engine {name}: nodes= needs proto=uci (XBoard has no node limit; use depth= or st=)"
            ),
            ArgsError::Invalid(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for ArgsError {}

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    /// XBoard / CECP version 2.
    Xboard,
    /// The Universal Chess Interface.
    Uci,
}

/// How much time an engine gets.
#[derive(Clone, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock: `moves` moves in `base_ms` (0 moves: the whole game), plus `inc_ms`
    /// after every move.
    Clock {
        /// Moves per period (0: one period for the whole game).
        moves: u32,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// A fixed time per move (`st=SECONDS`), in milliseconds.
    PerMove(u64),
    /// No time limit (`tc=inf`): only a node or depth limit ends a search.
    Infinite,
}

impl TimeControl {
    /// Parses cutechess's `moves/time+increment` (time in seconds or `minutes:seconds`;
    /// `inf` for no limit).
    pub fn parse(text: &str) -> Result<TimeControl, ArgsError> {
        let t = text.trim();
        if t == "inf" || t == "infinite" {
            return Ok(TimeControl::Infinite);
        }
        let bad = || ArgsError::BadTimeControl(text.to_string());
        let (moves, rest) = match t.split_once('/') {
            Some((m, r)) => (m.parse::<u32>().map_err(|_| bad())?, r),
            None => (0, t),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_s = match base.split_once(':') {
            Some((m, s)) => {
                let m = m.parse::<f64>().map_err(|_| bad())?;
                let s = s.parse::<f64>().map_err(|_| bad())?;
                m * 60.0 + s
            }
            None => base.parse::<f64>().map_err(|_| bad())?,
        };
        let inc_s = match inc {
            Some(i) => i.parse::<f64>().map_err(|_| bad())?,
            None => 0.0,
        };
        if !(base_s.is_finite() && inc_s.is_finite()) || base_s <= 0.0 || inc_s < 0.0 {
            return Err(bad());
        }
        Ok(TimeControl::Clock {
            moves,
            base_ms: (base_s * 1000.0).round() as u64,
            inc_ms: (inc_s * 1000.0).round() as u64,
        })
    }

    /// The PGN `TimeControl` tag: `40/60+0.5`, `300+0.05`, `1/move` for `st=1`, `-`
    /// without a clock.
    pub fn pgn_tag(&self) -> String {
        match self {
            TimeControl::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                let mut s = String::new();
                if *moves > 0 {
                    s += &format!("{moves}/");
                }
                s += &seconds(*base_ms);
                if *inc_ms > 0 {
                    s += &format!("+{}", seconds(*inc_ms));
                }
                s
            }
            TimeControl::PerMove(ms) => format!("{}/move", seconds(*ms)),
            TimeControl::Infinite => "-".to_string(),
        }
    }
}

/// Milliseconds as seconds without trailing zeros: `60`, `0.5`, `0.05`.
pub fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// When an engine process is restarted between games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restart {
    /// Keep it running unless it asked for a restart (XBoard `reuse=0`) or broke.
    Auto,
    /// A new process for every game.
    On,
    /// Keep it running (a broken engine is still restarted with `-recover`).
    Off,
}

/// Everything about one engine, from `-engine` and `-each`.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Display name (default: the name the engine announces, else the command).
    pub name: Option<String>,
    /// Program and its arguments (`cmd=` split at spaces, then every `arg=`).
    pub command: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
    /// Protocol.
    pub proto: Proto,
    /// `option.NAME=VALUE` settings, in order.
    pub options: Vec<(String, String)>,
    /// Time control (`tc=` or `st=`).
    pub tc: TimeControl,
    /// Node limit per move.
    pub nodes: Option<u64>,
    /// Depth limit per move.
    pub depth: Option<u32>,
    /// Milliseconds an engine may exceed its time before it forfeits.
    pub timemargin_ms: u64,
    /// Seconds to wait for answers that have no clock: the handshake, `isready`/`ping`,
    /// and moves when the time control sets no limit.
    pub timeout_s: f64,
    /// The name this engine knows the variant by (default: sako's name).
    pub variant: Option<String>,
    /// Piece letters that differ: (sako's letter, the engine's letter), uppercase.
    pub pieces: Vec<(char, char)>,
    /// The engine reports scores from White's point of view.
    pub whitepov: bool,
    /// Restart policy.
    pub restart: Restart,
    /// Write the engine's standard error here (default: discarded).
    pub stderr: Option<PathBuf>,
    /// Lines sent right after the engine starts.
    pub initstr: Vec<String>,
}

impl EngineConfig {
    /// The name used in output before the engine has announced one.
    pub fn fallback_name(&self) -> String {
        self.name.clone().unwrap_or_else(|| {
            let program = self.command.first().map(String::as_str).unwrap_or("engine");
            std::path::Path::new(program)
                .file_name()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| program.to_string())
        })
    }

    /// sako's piece letter as the engine writes it (either case).
    pub fn to_engine_letter(&self, c: char) -> char {
        map_letter(&self.pieces, c, false)
    }

    /// The engine's piece letter as sako writes it (either case).
    pub fn from_engine_letter(&self, c: char) -> char {
        map_letter(&self.pieces, c, true)
    }
}

fn map_letter(pairs: &[(char, char)], c: char, reverse: bool) -> char {
    let upper = c.to_ascii_uppercase();
    for &(ours, theirs) in pairs {
        let (from, to) = if reverse {
            (theirs, ours)
        } else {
            (ours, theirs)
        };
        if upper == from {
            return if c.is_ascii_lowercase() {
                to.to_ascii_lowercase()
            } else {
                to
            };
        }
    }
    c
}

/// `-draw movenumber=N movecount=C score=S`.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawRule {
    /// Full moves that must have been played.
    pub movenumber: u32,
    /// Consecutive moves (of each side) with both scores within `score`.
    pub movecount: u32,
    /// Centipawns from zero.
    pub score: i32,
}

/// `-resign movecount=C score=S [twosided=true]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ResignRule {
    /// Consecutive moves with the score at or below `-score`.
    pub movecount: u32,
    /// Centipawns.
    pub score: i32,
    /// The winner's scores must agree (at or above `score`) as well.
    pub twosided: bool,
}

/// `-sprt elo0=E0 elo1=E1 alpha=A beta=B`.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtConfig {
    /// Elo of hypothesis H0.
    pub elo0: f64,
    /// Elo of hypothesis H1.
    pub elo1: f64,
    /// Type I error bound.
    pub alpha: f64,
    /// Type II error bound.
    pub beta: f64,
}

/// The order openings are taken in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningOrder {
    /// From the first (or `start=`) on.
    Sequential,
    /// Shuffled with the `-srand` seed.
    Random,
}

/// The format of an openings file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// One position per line (FEN fields, EPD operations allowed).
    Epd,
    /// Games in PGN (with a FEN tag or from the start) in coordinate notation.
    Pgn,
}

/// `-openings file=F format=epd|pgn order=random|sequential plies=N start=N`.
#[derive(Clone, Debug)]
pub struct OpeningsConfig {
    /// The file.
    pub file: PathBuf,
    /// Its format.
    pub format: OpeningFormat,
    /// Order of use.
    pub order: OpeningOrder,
    /// At most this many plies of a PGN opening are played (EPD: ignored).
    pub plies: Option<usize>,
    /// First opening used in sequential order (1-based).
    pub start: usize,
}

/// `-pgnout FILE [min] [fi]`.
#[derive(Clone, Debug)]
pub struct PgnOut {
    /// The file the games are appended to.
    pub file: PathBuf,
    /// Only the seven-tag roster and the moves (no comments).
    pub min: bool,
    /// Only finished games (not games stopped by the end of the match).
    pub finished_only: bool,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines (first: the one the score is reported for).
    pub engines: Vec<EngineConfig>,
    /// sako's variant name.
    pub variant: String,
    /// Games per encounter.
    pub games: u32,
    /// Rounds (total games = games × rounds).
    pub rounds: u32,
    /// Games per opening (`-repeat` = 2).
    pub repeat: u32,
    /// Keep the first engine on White.
    pub noswap: bool,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Where the openings come from.
    pub openings: Option<OpeningsConfig>,
    /// PGN output.
    pub pgnout: Option<PgnOut>,
    /// Final positions as FEN, one per game.
    pub epdout: Option<PathBuf>,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// Draw after this many full moves.
    pub maxmoves: Option<u32>,
    /// Sequential probability ratio test.
    pub sprt: Option<SprtConfig>,
    /// Restart crashed or hung engines and go on.
    pub recover: bool,
    /// PGN `Event` tag.
    pub event: String,
    /// PGN `Site` tag.
    pub site: String,
    /// Seed for random opening order.
    pub srand: u64,
    /// Milliseconds between games.
    pub wait_ms: u64,
    /// Print the Elo lines every N games.
    pub ratinginterval: u32,
    /// Print every line sent to and read from the engines (on standard error).
    pub debug: bool,
}

/// The help text for `sako match -help`.
pub const USAGE: &str = "\
usage: sako match -engine OPTIONS -engine OPTIONS [-each OPTIONS] [options]

A cutechess-cli style match runner; sako's rules core referees every move.

Engine options (for -engine and -each; an -engine's own settings win):
  name=NAME            name in the output and the PGN (default: the engine's own)
  cmd=COMMAND          program (words after the first are its arguments)
  arg=ARG              one more argument (repeatable)
  dir=DIR              working directory
  proto=xboard|uci     protocol (default xboard, as cutechess)
  option.NAME=VALUE    engine option (UCI setoption; XBoard option, Hash -> memory,
                       Threads -> cores)
  tc=[MOVES/]TIME[+INC] clock: TIME in seconds or minutes:seconds; tc=inf: none
  st=SECONDS           fixed time per move
  nodes=N              node limit per move (UCI go nodes; XBoard engines: refused)
  depth=N              depth limit per move (UCI go depth; XBoard sd)
  timemargin=MS        time an engine may overstep before it forfeits (default 100)
  timeout=SECONDS      wait for handshake, isready/ping, and for moves without a
                       clock limit, before calling the engine stalled (default 30)
  variant=NAME         the name this engine knows the variant by
  pieces=S:E[,S:E...]  piece letters that differ: sako's S is the engine's E
                       (e.g. pieces=Q:J for Fairy-Stockfish's shatar Berse)
  whitepov             the engine's scores are from White's point of view
  restart=auto|on|off  restart the engine between games (default auto)
  stderr=FILE          append the engine's standard error to FILE
  initstr=TEXT         lines to send after start (\\n separates lines)

Options:
  -variant V           sako variant name (default normal; see sako variants)
  -games N             games per encounter (default 1)
  -rounds N            rounds; total games = games x rounds (default 1)
  -repeat [N]          play each opening N times (default 2), colours swapped
  -noswap              the first engine keeps White
  -concurrency N       games played at once (default 1)
  -openings file=FILE [format=epd|pgn] [order=random|sequential] [plies=N] [start=N]
                       (format: pgn, or epd for a FILE ending in .epd)
  -pgnout FILE [min] [fi]   append every game to FILE
  -epdout FILE         append every final position to FILE
  -draw movenumber=N movecount=C score=S   draw when both scores stay within S cp
                       for C moves each, after move N
  -resign movecount=C score=S [twosided=true]   loss when an engine's score stays
                       at or below -S cp for C of its moves
  -maxmoves N          draw after N full moves
  -sprt elo0=E0 elo1=E1 alpha=A beta=B   stop when the test decides
  -recover             restart crashed or hung engines and go on with the match
  -event NAME  -site NAME  -srand N  -wait MS  -ratinginterval N  -debug
";

fn parse_num<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, ArgsError> {
    text.trim().parse::<T>().map_err(|_| ArgsError::BadValue {
        what: what.to_string(),
        text: text.to_string(),
        expected: None,
    })
}

fn parse_bool(what: &str, text: &str) -> Result<bool, ArgsError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(ArgsError::BadValue {
            what: what.to_string(),
            text: text.to_string(),
            expected: Some("true or false"),
        }),
    }
}

/// A number of seconds that must be finite and positive (`st=`, `timeout=`).
fn parse_seconds(what: &str, text: &str) -> Result<f64, ArgsError> {
    let s: f64 = parse_num(what, text)?;
    if !(s.is_finite() && s > 0.0) {
        return Err(ArgsError::BadValue {
            what: what.to_string(),
            text: text.to_string(),
            expected: None,
        });
    }
    Ok(s)
}

/// Splits a command at whitespace, honouring single and double quotes.
pub fn split_command(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in cmd.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// One engine's settings as written, before defaults.
#[derive(Default, Clone)]
struct RawEngine {
    items: Vec<(String, Option<String>)>,
}

/// An engine's settings before a program is given: `-engine` and `-each` start here.
fn default_engine() -> EngineConfig {
    EngineConfig {
        name: None,
        command: Vec::new(),
        dir: None,
        proto: Proto::Xboard,
        options: Vec::new(),
        tc: TimeControl::Infinite,
        nodes: None,
        depth: None,
        timemargin_ms: 100,
        timeout_s: 30.0,
        variant: None,
        pieces: Vec::new(),
        whitepov: false,
        restart: Restart::Auto,
        stderr: None,
        initstr: Vec::new(),
    }
}

/// An engine's settings while its `key=value` words are read, `-each`'s first.
struct EngineBuilder {
    cfg: EngineConfig,
    /// The `cmd=` text, split when the engine is complete.
    cmd: Option<String>,
    /// Every `arg=`, in order.
    extra_args: Vec<String>,
    /// A `tc=` other than `inf`, or an `st=`, was given.
    has_clock: bool,
}

/// An engine from the `-each` settings and its own `-engine` settings (which win).
fn build_engine(each: &RawEngine, own: &RawEngine) -> Result<EngineConfig, ArgsError> {
    let mut b = EngineBuilder {
        cfg: default_engine(),
        cmd: None,
        extra_args: Vec::new(),
        has_clock: false,
    };
    for (key, value) in each.items.iter().chain(own.items.iter()) {
        b.apply(key, value.as_deref())?;
    }
    b.finish()
}

impl EngineBuilder {
    /// Applies one `key=value` (or bare `key`) engine setting.
    fn apply(&mut self, key: &str, value: Option<&str>) -> Result<(), ArgsError> {
        let need = || value.ok_or_else(|| ArgsError::EngineOptionNeedsValue(key.to_string()));
        if let Some(opt) = key.strip_prefix("option.") {
            return self.set_option(opt, value.unwrap_or(""));
        }
        let cfg = &mut self.cfg;
        match key {
            "name" => cfg.name = Some(need()?.to_string()),
            "cmd" => self.cmd = Some(need()?.to_string()),
            "arg" => self.extra_args.push(need()?.to_string()),
            "dir" => cfg.dir = Some(PathBuf::from(need()?)),
            "proto" => cfg.proto = parse_proto(need()?)?,
            "tc" | "st" | "nodes" | "depth" | "timemargin" | "timeout" => {
                self.set_limit(key, need()?)?
            }
            "variant" => cfg.variant = Some(need()?.to_string()),
            "pieces" => cfg.pieces = parse_pieces(need()?)?,
            "whitepov" => cfg.whitepov = value.map_or(Ok(true), |v| parse_bool(key, v))?,
            "restart" => cfg.restart = parse_restart(need()?)?,
            "stderr" => cfg.stderr = Some(PathBuf::from(need()?)),
            "initstr" => cfg
                .initstr
                .extend(need()?.split("\\n").map(|s| s.to_string())),
            "trust" | "ponder" => {} // claims are always checked; no pondering
            "conf" | "book" | "bookdepth" => {
                return Err(ArgsError::UnsupportedEngineOption(key.to_string()))
            }
            other => return Err(ArgsError::UnknownEngineOption(other.to_string())),
        }
        Ok(())
    }

    /// `option.NAME=VALUE`: a later setting of the same name replaces an earlier one.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), ArgsError> {
        if name.is_empty() {
            return Err(ArgsError::Invalid("empty option name in 'option.=...'"));
        }
        self.cfg.options.retain(|(n, _)| n != name);
        self.cfg.options.push((name.to_string(), value.to_string()));
        Ok(())
    }

    /// The time and search limits: `tc=`, `st=`, `nodes=`, `depth=`, `timemargin=`,
    /// `timeout=`.
    fn set_limit(&mut self, key: &str, v: &str) -> Result<(), ArgsError> {
        let cfg = &mut self.cfg;
        match key {
            "tc" => {
                cfg.tc = TimeControl::parse(v)?;
                self.has_clock = cfg.tc != TimeControl::Infinite;
            }
            "st" => {
                let s = parse_seconds("st", v)?;
                cfg.tc = TimeControl::PerMove((s * 1000.0).round().max(1.0) as u64);
                self.has_clock = true;
            }
            "nodes" => cfg.nodes = Some(parse_num("nodes", v)?),
            "depth" => cfg.depth = Some(parse_num("depth", v)?),
            "timemargin" => cfg.timemargin_ms = parse_num("timemargin", v)?,
            _ => cfg.timeout_s = parse_seconds("timeout", v)?,
        }
        Ok(())
    }

    /// The engine with its command and the checks that need all of its settings.
    fn finish(self) -> Result<EngineConfig, ArgsError> {
        let mut cfg = self.cfg;
        let cmd = self
            .cmd
            .ok_or(ArgsError::Invalid("an engine has no cmd="))?;
        cfg.command = split_command(&cmd);
        if cfg.command.is_empty() {
            return Err(ArgsError::Invalid("an engine has an empty cmd="));
        }
        cfg.command.extend(self.extra_args);
        if !self.has_clock && cfg.nodes.is_none() && cfg.depth.is_none() {
            return Err(ArgsError::NoTimeControl(cfg.fallback_name()));
        }
        if cfg.proto == Proto::Xboard && cfg.nodes.is_some() {
            return Err(ArgsError::NodesNeedUci(cfg.fallback_name()));
        }
        Ok(cfg)
    }
}

/// `proto=xboard|uci` (`cecp` and `winboard` are XBoard).
fn parse_proto(v: &str) -> Result<Proto, ArgsError> {
    match v {
        "xboard" | "cecp" | "winboard" => Ok(Proto::Xboard),
        "uci" => Ok(Proto::Uci),
        other => Err(ArgsError::BadChoice {
            what: "unknown protocol",
            text: other.to_string(),
            choices: "xboard or uci",
        }),
    }
}

/// `pieces=S:E[,S:E...]`, letters made uppercase.
fn parse_pieces(v: &str) -> Result<Vec<(char, char)>, ArgsError> {
    let mut pieces = Vec::new();
    for pair in v.split(',').filter(|p| !p.is_empty()) {
        let chars: Vec<char> = pair.chars().collect();
        match chars.as_slice() {
            [a, ':', b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => {
                pieces.push((a.to_ascii_uppercase(), b.to_ascii_uppercase()));
            }
            _ => {
                return Err(ArgsError::BadChoice {
                    what: "bad pieces pair",
                    text: pair.to_string(),
                    choices: "expected SAKO:ENGINE letters, e.g. Q:J",
                })
            }
        }
    }
    Ok(pieces)
}

/// `restart=auto|on|off`.
fn parse_restart(v: &str) -> Result<Restart, ArgsError> {
    match v {
        "auto" => Ok(Restart::Auto),
        "on" => Ok(Restart::On),
        "off" => Ok(Restart::Off),
        other => Err(ArgsError::BadChoice {
            what: "bad restart mode",
            text: other.to_string(),
            choices: "auto, on, off",
        }),
    }
}

fn key_values(words: &[String]) -> Vec<(String, Option<String>)> {
    words
        .iter()
        .map(|w| match w.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (w.clone(), None),
        })
        .collect()
}

fn kv_map(
    option: &str,
    words: &[String],
    allowed: &'static [&'static str],
) -> Result<Vec<(String, String)>, ArgsError> {
    let mut out = Vec::new();
    for w in words {
        match w.split_once('=') {
            Some((k, v)) if allowed.contains(&k) => out.push((k.to_string(), v.to_string())),
            _ => {
                return Err(ArgsError::UnexpectedWord {
                    option: option.to_string(),
                    word: w.clone(),
                    allowed,
                })
            }
        }
    }
    Ok(out)
}

fn one_value<'a>(option: &str, words: &'a [String]) -> Result<&'a str, ArgsError> {
    match words {
        [v] => Ok(v.as_str()),
        [] => Err(ArgsError::MissingValue(option.to_string())),
        _ => Err(ArgsError::TooManyValues {
            option: option.to_string(),
            values: words.join(" "),
        }),
    }
}

/// True for a word that starts a new option: `-x...` with a letter after the dash.
fn is_option(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('-') && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
}

/// What the command line asks for.
pub enum Parsed {
    /// Run this match.
    Run(Box<MatchConfig>),
    /// Print the usage.
    Help,
}

/// The match-wide settings before the command line changes them.
fn default_config() -> MatchConfig {
    MatchConfig {
        engines: Vec::new(),
        variant: "normal".into(),
        games: 1,
        rounds: 1,
        repeat: 1,
        noswap: false,
        concurrency: 1,
        openings: None,
        pgnout: None,
        epdout: None,
        draw: None,
        resign: None,
        maxmoves: None,
        sprt: None,
        recover: false,
        event: "?".into(),
        site: "?".into(),
        srand: 0,
        wait_ms: 0,
        ratinginterval: 1,
        debug: false,
    }
}

/// The words grouped by option: `-games 2 -pgnout f min` is `[("games", ["2"]),
/// ("pgnout", ["f", "min"])]`.
fn group_options(args: &[String]) -> Result<Vec<(String, Vec<String>)>, ArgsError> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for a in args {
        if is_option(a) {
            let name = a.trim_start_matches('-').to_string();
            groups.push((name, Vec::new()));
        } else {
            match groups.last_mut() {
                Some((_, values)) => values.push(a.clone()),
                None => return Err(ArgsError::Stray(a.clone())),
            }
        }
    }
    Ok(groups)
}

/// Parses the words after `sako match`.
pub fn parse(args: &[String]) -> Result<Parsed, ArgsError> {
    if args.is_empty() {
        return Err(ArgsError::NoArguments);
    }
    if args
        .iter()
        .any(|a| a == "--help" || a == "-help" || a == "-h")
    {
        return Ok(Parsed::Help);
    }
    let mut each = RawEngine::default();
    let mut raw_engines: Vec<RawEngine> = Vec::new();
    let mut cfg = default_config();
    let mut srand_given = false;
    for (name, values) in &group_options(args)? {
        match name.as_str() {
            "help" | "h" => return Ok(Parsed::Help),
            "engine" => raw_engines.push(RawEngine {
                items: key_values(values),
            }),
            "each" => each.items.extend(key_values(values)),
            "srand" => {
                cfg.srand = parse_num("-srand", one_value("-srand", values)?)?;
                srand_given = true;
            }
            _ => apply_match_option(&mut cfg, name, values)?,
        }
    }
    complete(cfg, &each, &raw_engines, srand_given).map(|cfg| Parsed::Run(Box::new(cfg)))
}

/// Applies one match-wide option (`name` without its dash) and its values.
fn apply_match_option(
    cfg: &mut MatchConfig,
    name: &str,
    values: &[String],
) -> Result<(), ArgsError> {
    let opt = format!("-{name}");
    let one = || one_value(&opt, values);
    match name {
        "variant" => cfg.variant = parse_variant(one()?)?,
        "games" => cfg.games = parse_num(&opt, one()?)?,
        "rounds" => cfg.rounds = parse_num(&opt, one()?)?,
        "repeat" => {
            cfg.repeat = match values {
                [] => 2,
                [n] => parse_num(&opt, n)?,
                _ => return Err(ArgsError::Invalid("-repeat takes at most one value")),
            }
        }
        "noswap" => cfg.noswap = true,
        "concurrency" => cfg.concurrency = parse_num(&opt, one()?)?,
        "openings" => cfg.openings = Some(parse_openings(&opt, values)?),
        "pgnout" => cfg.pgnout = Some(parse_pgnout(values)?),
        "epdout" => cfg.epdout = Some(PathBuf::from(one()?)),
        "draw" => cfg.draw = Some(parse_draw(&opt, values)?),
        "resign" => cfg.resign = Some(parse_resign(&opt, values)?),
        "maxmoves" => {
            let n: u32 = parse_num(&opt, one()?)?;
            cfg.maxmoves = (n > 0).then_some(n);
        }
        "sprt" => cfg.sprt = Some(parse_sprt(&opt, values)?),
        "recover" => cfg.recover = true,
        "event" => cfg.event = values.join(" "),
        "site" => cfg.site = values.join(" "),
        "wait" => cfg.wait_ms = parse_num(&opt, one()?)?,
        "ratinginterval" => cfg.ratinginterval = parse_num(&opt, one()?)?,
        "debug" => cfg.debug = true,
        "tournament" => {
            let t = one()?;
            if t != "round-robin" && t != "gauntlet" {
                return Err(ArgsError::Tournament(t.to_string()));
            }
        }
        "outcomeinterval" | "bookmode" | "seeds" => {}
        "fcp" | "scp" | "both" => return Err(ArgsError::OldSyntax(opt)),
        _ => return Err(ArgsError::UnknownOption(opt)),
    }
    Ok(())
}

/// sako's own name of the variant `v` names.
fn parse_variant(v: &str) -> Result<String, ArgsError> {
    let id = variant_id(v).ok_or_else(|| ArgsError::UnknownVariant(v.to_string()))?;
    Ok(all_variants()[id].name.to_string())
}

/// `-openings file=F format=epd|pgn order=random|sequential plies=N start=N`.
fn parse_openings(opt: &str, values: &[String]) -> Result<OpeningsConfig, ArgsError> {
    const KEYS: &[&str] = &["file", "format", "order", "plies", "start", "policy"];
    let mut o = OpeningsConfig {
        file: PathBuf::new(),
        format: OpeningFormat::Pgn,
        order: OpeningOrder::Sequential,
        plies: None,
        start: 1,
    };
    let mut file = None;
    let mut format_given = false;
    for (k, v) in kv_map(opt, values, KEYS)? {
        let bad = |what, choices| ArgsError::BadChoice {
            what,
            text: v.clone(),
            choices,
        };
        match k.as_str() {
            "file" => file = Some(PathBuf::from(&v)),
            "format" => {
                format_given = true;
                o.format = match v.as_str() {
                    "epd" => OpeningFormat::Epd,
                    "pgn" => OpeningFormat::Pgn,
                    _ => return Err(bad("-openings: bad format", "epd or pgn")),
                }
            }
            "order" => {
                o.order = match v.as_str() {
                    "random" => OpeningOrder::Random,
                    "sequential" => OpeningOrder::Sequential,
                    _ => return Err(bad("-openings: bad order", "random or sequential")),
                }
            }
            "plies" => o.plies = Some(parse_num("plies", &v)?),
            "start" => {
                o.start = parse_num("start", &v)?;
                if o.start == 0 {
                    return Err(ArgsError::Invalid("-openings: start counts from 1"));
                }
            }
            _ => {} // policy: every game takes the next opening per -repeat
        }
    }
    o.file = file.ok_or(ArgsError::Invalid("-openings needs file="))?;
    if !format_given && o.file.extension().is_some_and(|e| e == "epd") {
        o.format = OpeningFormat::Epd; // cutechess would read PGN; be kind
    }
    Ok(o)
}

/// `-pgnout FILE [min] [fi]`.
fn parse_pgnout(values: &[String]) -> Result<PgnOut, ArgsError> {
    let (file, flags) = values
        .split_first()
        .ok_or(ArgsError::Invalid("-pgnout needs a file"))?;
    let mut p = PgnOut {
        file: PathBuf::from(file),
        min: false,
        finished_only: false,
    };
    for f in flags {
        match f.as_str() {
            "min" => p.min = true,
            "fi" => p.finished_only = true,
            _ => {
                return Err(ArgsError::BadChoice {
                    what: "-pgnout: unknown flag",
                    text: f.clone(),
                    choices: "min, fi",
                })
            }
        }
    }
    Ok(p)
}

/// `-draw movenumber=N movecount=C score=S` (`score=` required).
fn parse_draw(opt: &str, values: &[String]) -> Result<DrawRule, ArgsError> {
    let mut d = DrawRule {
        movenumber: 0,
        movecount: 1,
        score: 0,
    };
    let mut has_score = false;
    for (k, v) in kv_map(opt, values, &["movenumber", "movecount", "score"])? {
        match k.as_str() {
            "movenumber" => d.movenumber = parse_num("movenumber", &v)?,
            "movecount" => d.movecount = parse_num("movecount", &v)?,
            _ => {
                d.score = parse_num("score", &v)?;
                has_score = true;
            }
        }
    }
    if !has_score {
        return Err(ArgsError::Invalid("-draw needs score="));
    }
    Ok(d)
}

/// `-resign movecount=C score=S [twosided=true]` (`score=` required).
fn parse_resign(opt: &str, values: &[String]) -> Result<ResignRule, ArgsError> {
    let mut r = ResignRule {
        movecount: 1,
        score: 0,
        twosided: false,
    };
    let mut has_score = false;
    for (k, v) in kv_map(opt, values, &["movecount", "score", "twosided"])? {
        match k.as_str() {
            "movecount" => r.movecount = parse_num("movecount", &v)?,
            "twosided" => r.twosided = parse_bool("twosided", &v)?,
            _ => {
                r.score = parse_num("score", &v)?;
                has_score = true;
            }
        }
    }
    if !has_score {
        return Err(ArgsError::Invalid("-resign needs score="));
    }
    Ok(r)
}

/// `-sprt elo0=E0 elo1=E1 alpha=A beta=B`, checked for a test that can decide.
fn parse_sprt(opt: &str, values: &[String]) -> Result<SprtConfig, ArgsError> {
    let mut s = SprtConfig {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for (k, v) in kv_map(opt, values, &["elo0", "elo1", "alpha", "beta"])? {
        let x: f64 = parse_num(&k, &v)?;
        match k.as_str() {
            "elo0" => s.elo0 = x,
            "elo1" => s.elo1 = x,
            "alpha" => s.alpha = x,
            _ => s.beta = x,
        }
    }
    let p_ok = |p: f64| p > 0.0 && p < 1.0;
    if !(p_ok(s.alpha) && p_ok(s.beta)) {
        return Err(ArgsError::Invalid(
            "-sprt: alpha and beta must be between 0 and 1",
        ));
    }
    if s.elo0 >= s.elo1 {
        return Err(ArgsError::Invalid("-sprt: elo0 must be below elo1"));
    }
    Ok(s)
}

/// The match with its two engines, after the checks that need every option; without
/// `-srand` the seed comes from the clock.
fn complete(
    mut cfg: MatchConfig,
    each: &RawEngine,
    raw_engines: &[RawEngine],
    srand_given: bool,
) -> Result<MatchConfig, ArgsError> {
    if raw_engines.len() != 2 {
        return Err(ArgsError::EngineCount(raw_engines.len()));
    }
    for raw in raw_engines {
        cfg.engines.push(build_engine(each, raw)?);
    }
    if cfg.games == 0 || cfg.rounds == 0 {
        return Err(ArgsError::Invalid("-games and -rounds must be at least 1"));
    }
    if cfg.repeat == 0 {
        return Err(ArgsError::Invalid("-repeat must be at least 1"));
    }
    if cfg.concurrency == 0 {
        return Err(ArgsError::Invalid("-concurrency must be at least 1"));
    }
    if cfg.ratinginterval == 0 {
        cfg.ratinginterval = 1;
    }
    if !srand_given {
        cfg.srand = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1);
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("40/60+0.5"),
            Ok(TimeControl::Clock {
                moves: 40,
                base_ms: 60_000,
                inc_ms: 500
            })
        );
        assert_eq!(
            TimeControl::parse("2:30"),
            Ok(TimeControl::Clock {
                moves: 0,
                base_ms: 150_000,
                inc_ms: 0
            })
        );
        assert_eq!(TimeControl::parse("inf"), Ok(TimeControl::Infinite));
        assert!(TimeControl::parse("40/").is_err());
        assert!(TimeControl::parse("x+1").is_err());
        assert_eq!(
            TimeControl::parse("5+0.05").map(|t| t.pgn_tag()),
            Ok("5+0.05".into())
        );
        assert_eq!(TimeControl::PerMove(50).pgn_tag(), "0.05/move");
    }

    #[test]
    fn full_command_line() {
        let args = words(
            "-engine name=A cmd=sako arg=uci proto=uci option.Hash=32 -engine cmd=/usr/games/fairy-stockfish \
             proto=uci variant=shatar pieces=Q:J -each tc=40/60+0.5 timemargin=50 -variant shatar -games 2 \
             -rounds 3 -repeat -concurrency 2 -openings file=x.epd format=epd order=random \
             -pgnout out.pgn min -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=500 \
             -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 -recover -srand 7",
        );
        let Ok(Parsed::Run(c)) = parse(&args) else {
            panic!("parse failed: {:?}", parse(&args).err());
        };
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name.as_deref(), Some("A"));
        assert_eq!(c.engines[0].command, vec!["sako", "uci"]);
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "32".into())]);
        assert_eq!(c.engines[1].pieces, vec![('Q', 'J')]);
        assert_eq!(c.engines[1].to_engine_letter('q'), 'j');
        assert_eq!(c.engines[1].from_engine_letter('J'), 'Q');
        assert_eq!(c.engines[1].timemargin_ms, 50);
        assert_eq!(c.variant, "shatar");
        assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (2, 3, 2, 2));
        assert!(c.recover);
        assert_eq!(c.srand, 7);
        assert_eq!(
            c.draw,
            Some(DrawRule {
                movenumber: 40,
                movecount: 8,
                score: 10
            })
        );
        assert!(c.pgnout.as_ref().is_some_and(|p| p.min));
        assert!(c.sprt.is_some());
    }

    #[test]
    fn errors_are_explained() {
        let err = |s: &str| match parse(&words(s)) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("'{s}' should fail"),
        };
        assert!(err("-engine cmd=a tc=1 -engine cmd=b tc=1 -bogus").contains("unknown option"));
        assert!(err("-engine cmd=a -engine cmd=b").contains("no time control"));
        assert!(err("-engine cmd=a st=1").contains("exactly two"));
        assert!(
            err("-engine cmd=a st=1 -engine cmd=b st=1 -variant nope").contains("unknown variant")
        );
        assert!(err("-engine cmd=a nodes=5 -engine cmd=b st=1").contains("proto=uci"));
        assert!(err("-engine cmd=a st=1 pieces=QJ -engine cmd=b st=1").contains("pieces"));
        assert!(matches!(parse(&[]), Err(ArgsError::NoArguments)));
        assert!(err("").contains("usage: sako match"));
    }

    #[test]
    fn quoted_commands() {
        assert_eq!(
            split_command("python3 'my engine.py' -x"),
            vec!["python3", "my engine.py", "-x"]
        );
    }
}
