//! The configuration a `sako match` command line is parsed into: engines, time
//! controls, adjudication rules, openings and outputs.

use std::path::PathBuf;

use super::ArgsError;

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

/// How `-pgnout` writes the moves (`-pgnmoves san|coord`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PgnMoves {
    /// Standard algebraic notation (`Nf3`, `O-O`, `K@e1`), the default.
    #[default]
    San,
    /// The engines' coordinate notation (`g1f3`), the format before SAN.
    Coord,
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
    /// The notation of the PGN's moves.
    pub pgn_moves: PgnMoves,
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
