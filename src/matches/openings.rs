//! Openings: reading EPD and PGN opening files, and generating balanced EPD openings
//! for any variant (`sako openings`): random legal plies from the start position
//! (in Historia every ply of the deployment is a random legal drop), kept when a
//! fixed-depth search of sako's finds the position within a margin of equality.
//! Everything is seeded, so the same command writes the same file.

use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::args::{OpeningFormat, OpeningsConfig};
use super::pgn::{is_standard_start, parse_pgn, PgnError};
use crate::engine::eval::Eval;
use crate::engine::search::{Score, SearchOptions};
use crate::engine::time::Limits;
use crate::engine::tt::Tt;
use crate::rules::variant::{all_variants, variant_id};
use crate::Game;

/// Where a game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Start FEN (`None`: the variant's start position).
    pub fen: Option<String>,
    /// Moves played from it before the engines think.
    pub moves: Vec<String>,
}

/// A small seeded random number generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Shuffles a slice (Fisher-Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// Turns an EPD line (four FEN fields, then either the two counters or EPD operations
/// such as `hmvc 3; fmvn 12;`) into a FEN.
pub fn epd_to_fen(line: &str) -> Option<String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return None;
    }
    let base = fields[..4].join(" ");
    let rest = &fields[4..];
    if rest.len() >= 2 && rest[0].parse::<u32>().is_ok() && rest[1].parse::<u32>().is_ok() {
        return Some(format!("{base} {} {}", rest[0], rest[1]));
    }
    let ops = rest.join(" ");
    let mut hmvc = 0u32;
    let mut fmvn = 1u32;
    for op in ops.split(';') {
        let mut w = op.split_whitespace();
        match (w.next(), w.next().and_then(|v| v.parse::<u32>().ok())) {
            (Some("hmvc"), Some(v)) => hmvc = v,
            (Some("fmvn"), Some(v)) => fmvn = v.max(1),
            _ => {}
        }
    }
    Some(format!("{base} {hmvc} {fmvn}"))
}

/// Why an openings file cannot be used. `Display` gives the message the CLI prints.
#[derive(Debug)]
pub enum OpeningsError {
    /// The file cannot be read.
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// An EPD line that is not one.
    NotEpd {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
    },
    /// An EPD position the variant's rules refuse.
    BadPosition {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// The match's variant.
        variant: String,
        /// The rules core's message.
        reason: String,
    },
    /// The PGN does not parse.
    Pgn {
        /// The file.
        file: String,
        /// Why.
        source: PgnError,
    },
    /// A PGN game of another variant.
    WrongVariant {
        /// The file.
        file: String,
        /// 1-based game number.
        game: usize,
        /// Its `Variant` tag.
        found: String,
        /// The match's variant.
        wanted: String,
    },
    /// A PGN game whose `FEN` tag the variant's rules refuse.
    BadFen {
        /// The file.
        file: String,
        /// 1-based game number.
        game: usize,
        /// The rules core's message.
        reason: String,
    },
    /// A PGN move that is not legal.
    IllegalMove {
        /// The file.
        file: String,
        /// 1-based game number.
        game: usize,
        /// The move as written.
        mv: String,
        /// The position it was played in.
        fen: String,
    },
    /// A PGN move the rules core refuses to play (its message).
    Move {
        /// The file.
        file: String,
        /// 1-based game number.
        game: usize,
        /// The rules core's message.
        reason: String,
    },
    /// A file without a single opening.
    Empty {
        /// The file.
        file: String,
    },
}

impl std::fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningsError::Read { file, source } => {
                write!(f, "cannot read openings {file}: {source}")
            }
            OpeningsError::NotEpd { file, line } => write!(f, "{file}:{line}: not an EPD line"),
            OpeningsError::BadPosition {
                file,
                line,
                variant,
                reason,
            } => write!(f, "{file}:{line}: bad {variant} position: {reason}"),
            OpeningsError::Pgn { file, source } => write!(f, "{file}: {source}"),
            OpeningsError::WrongVariant {
                file,
                game,
                found,
                wanted,
            } => write!(f, "{file}: game {game} is {found}, the match is {wanted}"),
            OpeningsError::BadFen { file, game, reason } => {
                write!(f, "{file}: game {game}: bad FEN: {reason}")
            }
            OpeningsError::IllegalMove {
                file,
                game,
                mv,
                fen,
            } => {
                write!(f, "{file}: game {game}: illegal move {mv} at {fen}")
            }
            OpeningsError::Move { file, game, reason } => {
                write!(f, "{file}: game {game}: {reason}")
            }
            OpeningsError::Empty { file } => write!(f, "{file}: no openings"),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// Reads the openings file for `variant`, checking every position and move.
pub fn load(cfg: &OpeningsConfig, variant: &str) -> Result<Vec<Opening>, OpeningsError> {
    let file = cfg.file.display().to_string();
    let text = std::fs::read_to_string(&cfg.file).map_err(|source| OpeningsError::Read {
        file: file.clone(),
        source,
    })?;
    let out = match cfg.format {
        OpeningFormat::Epd => load_epd(&text, &file, variant)?,
        OpeningFormat::Pgn => load_pgn(&text, &file, variant, cfg.plies)?,
    };
    if out.is_empty() {
        return Err(OpeningsError::Empty { file });
    }
    Ok(out)
}

/// The positions of an EPD text (`file` names it in errors); blank lines and `#`
/// comments are skipped.
fn load_epd(text: &str, file: &str, variant: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        out.extend(epd_line(line, i + 1, file, variant)?);
    }
    Ok(out)
}

/// The opening on line `number` of an EPD file: `None` for a blank line or a `#`
/// comment, an error for a line that is not a position of `variant`.
fn epd_line(
    line: &str,
    number: usize,
    file: &str,
    variant: &str,
) -> Result<Option<Opening>, OpeningsError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let fen = epd_to_fen(line).ok_or_else(|| OpeningsError::NotEpd {
        file: file.to_string(),
        line: number,
    })?;
    Game::new(variant, Some(&fen)).map_err(|e| OpeningsError::BadPosition {
        file: file.to_string(),
        line: number,
        variant: variant.to_string(),
        reason: e.to_string(),
    })?;
    let fen = (!is_standard_start(variant, &fen)).then_some(fen);
    Ok(Some(Opening {
        fen,
        moves: Vec::new(),
    }))
}

/// Reads an EPD (or one-FEN-a-line) file leniently: the usable positions of `variant`,
/// and an error for each line that is not one (to warn about). Fails only when the file
/// cannot be read or holds no usable position.
pub fn load_epd_skipping_bad(
    path: &Path,
    variant: &str,
) -> Result<(Vec<Opening>, Vec<OpeningsError>), OpeningsError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| OpeningsError::Read {
        file: file.clone(),
        source,
    })?;
    let mut openings = Vec::new();
    let mut bad = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match epd_line(line, i + 1, &file, variant) {
            Ok(o) => openings.extend(o),
            Err(e) => bad.push(e),
        }
    }
    if openings.is_empty() {
        return Err(OpeningsError::Empty { file });
    }
    Ok((openings, bad))
}

/// The games of a PGN text (`file` names it in errors), each cut to `plies` moves and
/// at the game's end, every move in the rules core's spelling.
fn load_pgn(
    text: &str,
    file: &str,
    variant: &str,
    plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningsError> {
    let games = parse_pgn(text).map_err(|source| OpeningsError::Pgn {
        file: file.to_string(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, g) in games.iter().enumerate() {
        if let Some(v) = g.tag("Variant") {
            let same = variant_id(v).map(|id| all_variants()[id].name) == Some(variant);
            let standard = variant == "normal" && v.eq_ignore_ascii_case("standard");
            if !(same || standard) {
                return Err(OpeningsError::WrongVariant {
                    file: file.to_string(),
                    game: i + 1,
                    found: v.to_string(),
                    wanted: variant.to_string(),
                });
            }
        }
        let fen = g.tag("FEN").map(str::to_string);
        let mut game = Game::new(variant, fen.as_deref()).map_err(|e| OpeningsError::BadFen {
            file: file.to_string(),
            game: i + 1,
            reason: e.to_string(),
        })?;
        let mut moves = Vec::new();
        for m in g.moves.iter().take(plies.unwrap_or(usize::MAX)) {
            if game.outcome().is_some() {
                break;
            }
            let canon = super::referee::canonical_move(&mut game, m).ok_or_else(|| {
                OpeningsError::IllegalMove {
                    file: file.to_string(),
                    game: i + 1,
                    mv: m.clone(),
                    fen: game.fen(),
                }
            })?;
            game.play(&canon).map_err(|e| OpeningsError::Move {
                file: file.to_string(),
                game: i + 1,
                reason: e.to_string(),
            })?;
            moves.push(canon);
        }
        let fen = fen.filter(|f| !is_standard_start(variant, f));
        out.push(Opening { fen, moves });
    }
    Ok(out)
}

/// Settings of the generator.
#[derive(Clone, Debug)]
pub struct GenOptions {
    /// sako's variant name.
    pub variant: String,
    /// Openings wanted.
    pub count: usize,
    /// Random seed.
    pub seed: u64,
    /// Random plies from the start position.
    pub plies: usize,
    /// Depth of the balance search.
    pub depth: u32,
    /// Keep positions whose score is within this many centipawns of zero.
    pub margin_cp: i32,
}

/// Writes `count` balanced openings as EPD lines (`FEN-fields hmvc N; fmvn N; ce X;`
/// with `ce` the search score for the side to move). Returns the number written.
pub fn generate(
    opts: &GenOptions,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&str),
) -> Result<usize, String> {
    let id =
        variant_id(&opts.variant).ok_or_else(|| format!("unknown variant '{}'", opts.variant))?;
    let def = &all_variants()[id];
    let eval = Eval::load(def, None)?;
    let tt = Tt::new(16);
    let mut rng = Rng::new(opts.seed);
    let mut seen = HashSet::new();
    let mut written = 0;
    let max_tries = opts.count.saturating_mul(500).max(1000);
    let mut tries = 0;
    while written < opts.count {
        tries += 1;
        if tries > max_tries {
            return Err(format!(
                "only {written} of {} openings found in {max_tries} tries (widen --margin or use fewer plies)",
                opts.count
            ));
        }
        let mut game = Game::new(def.name, None)?;
        let mut ok = true;
        for _ in 0..opts.plies {
            if game.outcome().is_some() {
                ok = false;
                break;
            }
            let legal = game.legal_moves();
            let m = &legal[rng.below(legal.len())];
            game.play(m)?;
        }
        if !ok || game.outcome().is_some() || game.in_check() {
            continue;
        }
        let fen = game.fen();
        // XBoard engines know no promotion pools: keep Great Shatranj's empty.
        if def.captures_to_pool && fen.contains('[') {
            continue;
        }
        if !seen.insert(game.key()) {
            continue;
        }
        tt.clear();
        let stop = AtomicBool::new(false);
        let sopts = SearchOptions::new(Limits::depth(opts.depth), &tt, &eval, &stop);
        let r = game.search(&sopts, &mut |_| {})?;
        let Score::Cp(cp) = r.score else { continue };
        if cp.abs() > opts.margin_cp {
            continue;
        }
        let f: Vec<&str> = fen.split_whitespace().collect();
        if f.len() < 6 {
            return Err(format!("unexpected FEN '{fen}'"));
        }
        writeln!(
            out,
            "{} {} {} {} hmvc {}; fmvn {}; ce {cp};",
            f[0], f[1], f[2], f[3], f[4], f[5]
        )
        .map_err(|e| format!("cannot write: {e}"))?;
        written += 1;
        if written % 10 == 0 || written == opts.count {
            progress(&format!(
                "{}: {written}/{} openings ({tries} tried)",
                def.name, opts.count
            ));
        }
    }
    Ok(written)
}

/// Loads openings from a path that need not follow a format flag (tests, tools):
/// `.pgn` is PGN, anything else EPD.
pub fn load_path(path: &Path, variant: &str) -> Result<Vec<Opening>, OpeningsError> {
    let format = if path.extension().is_some_and(|e| e == "pgn") {
        OpeningFormat::Pgn
    } else {
        OpeningFormat::Epd
    };
    load(
        &OpeningsConfig {
            file: path.to_path_buf(),
            format,
            order: super::args::OpeningOrder::Sequential,
            plies: None,
            start: 1,
        },
        variant,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines() {
        assert_eq!(
            epd_to_fen(
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1; ce 10;"
            )
            .as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(
            epd_to_fen("8/8/8/8/8/8/8/K6k w - - 3 40").as_deref(),
            Some("8/8/8/8/8/8/8/K6k w - - 3 40")
        );
        assert_eq!(epd_to_fen("8/8 w"), None);
    }

    #[test]
    fn generator_is_seeded_and_balanced() {
        let opts = GenOptions {
            variant: "normal".into(),
            count: 3,
            seed: 42,
            plies: 4,
            depth: 3,
            margin_cp: 80,
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        generate(&opts, &mut a, &mut |_| {}).expect("generates");
        generate(&opts, &mut b, &mut |_| {}).expect("generates");
        assert_eq!(a, b);
        let text = String::from_utf8(a).expect("utf8");
        assert_eq!(text.lines().count(), 3);
        for line in text.lines() {
            let fen = epd_to_fen(line).expect("epd");
            Game::new("normal", Some(&fen)).expect("legal position");
            let ce: i32 = line
                .split("ce ")
                .nth(1)
                .and_then(|s| s.trim_end_matches(';').trim().parse().ok())
                .expect("ce");
            assert!(ce.abs() <= 80);
        }
    }

    #[test]
    fn rng_is_deterministic() {
        let mut a = Rng::new(1);
        let mut b = Rng::new(1);
        assert_eq!(a.next_u64(), b.next_u64());
        let mut v: Vec<u32> = (0..10).collect();
        a.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }
}
