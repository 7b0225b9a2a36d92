//! cutechess-cli style arguments: `-engine key=value ... -engine ... -each ... -variant V
//! -games N ...`. The words after `sako match` are parsed here (clap passes them through
//! untouched), so that a cutechess-cli command line works with `sako match` in its place.

use std::path::PathBuf;

use crate::rules::variant::{all_variants, variant_id};

mod error;
pub use error::*;
mod config;
pub use config::*;
#[cfg(test)]
mod tests;

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
  -pgnmoves san|coord  the PGN's moves in SAN (default) or coordinates (g1f3)
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
        pgn_moves: PgnMoves::San,
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
        "pgnmoves" => cfg.pgn_moves = parse_pgn_moves(one()?)?,
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

/// `-pgnmoves san|coord`.
fn parse_pgn_moves(v: &str) -> Result<PgnMoves, ArgsError> {
    match v {
        "san" => Ok(PgnMoves::San),
        "coord" => Ok(PgnMoves::Coord),
        _ => Err(ArgsError::BadChoice {
            what: "-pgnmoves: unknown notation",
            text: v.to_string(),
            choices: "san, coord",
        }),
    }
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
