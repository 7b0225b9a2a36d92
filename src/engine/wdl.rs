//! The win/draw/loss model: the chances of the side to move from a search score and a
//! game-phase input, fitted per game family to self-play data by `scripts/fit-wdl`
//! (docs/wdl.md). The fitted parameters are data, `eval-tables/wdl.txt`, built into the
//! binary and read at first use.
//!
//! For a score `s` (centipawns, side to move) and `x = clamp(input, lo, hi) / hi`:
//! `win = logistic((s - a(x)) / b(x))`, `loss = logistic((-s - a(x)) / b(x))`, the rest
//! a draw, with `a` and `b` polynomials. A line of the file serves the games it names
//! (`games=`); a game no line names takes the line of a game its built-in network also
//! plays (the network files' games are the families the engine already has).

use std::fmt;

use once_cell::sync::Lazy;

use crate::engine::eval::tables::EvalTables;
use crate::engine::nnue::built_in;
use crate::engine::search::MATE_BOUND;
use crate::rules::compile::BoardWidth;
use crate::rules::position::{Color, Position};
use crate::rules::variant::{all_variants, VariantDef};

/// The built-in table (`eval-tables/wdl.txt`).
const TABLE: &str = include_str!("../../eval-tables/wdl.txt");
/// The most coefficients a polynomial may have.
const MAX_COEFFICIENTS: usize = 8;
/// The smallest `b` the model divides by (centipawns).
const MIN_B: f64 = 1.0;

/// Chances per mille for the side to move; the three sum to exactly 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Per mille the side to move wins.
    pub win: u32,
    /// Per mille the game is drawn.
    pub draw: u32,
    /// Per mille the side to move loses.
    pub loss: u32,
}

/// Which game-phase input a model reads (the `input=` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhaseInput {
    /// [`Phase::material`].
    Material,
    /// [`Phase::pieces`].
    Pieces,
    /// [`Phase::ply`].
    Ply,
    /// No phase: the score alone.
    None,
}

impl PhaseInput {
    fn named(word: &str) -> Option<PhaseInput> {
        match word {
            "material" => Some(PhaseInput::Material),
            "pieces" => Some(PhaseInput::Pieces),
            "ply" => Some(PhaseInput::Ply),
            "none" => Some(PhaseInput::None),
            _ => None,
        }
    }
}

/// The game-phase inputs of a position, as the fitter computes them from a datagen
/// record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phase {
    /// The built-in evaluation table's middlegame values (centipawns) of every piece but
    /// the king, on the board and in hand, both sides.
    pub material: u32,
    /// The number of those pieces.
    pub pieces: u32,
    /// The game's ply from its FEN: `2 * (fullmove - 1)`, plus 1 with Black to move.
    pub ply: u32,
}

impl Phase {
    /// The inputs of `pos`.
    pub fn of<B: BoardWidth>(pos: &Position<B>) -> Phase {
        let rules = pos.rules;
        let values = piece_values(rules.id);
        let (mut material, mut pieces) = (0u32, 0u32);
        for t in 0..rules.types {
            if t == rules.king {
                continue;
            }
            let hand: u32 = [Color::White, Color::Black]
                .iter()
                .map(|&c| u32::from(pos.in_hand(c, t)))
                .sum();
            let n = pos.pieces_of_type(t).count() + hand;
            pieces += n;
            material += n * values.get(t).copied().unwrap_or(0);
        }
        Phase {
            material,
            pieces,
            ply: fen_ply(&pos.fen()),
        }
    }

    fn value(&self, input: PhaseInput) -> f64 {
        match input {
            PhaseInput::Material => f64::from(self.material),
            PhaseInput::Pieces => f64::from(self.pieces),
            PhaseInput::Ply => f64::from(self.ply),
            PhaseInput::None => 0.0,
        }
    }
}

/// The ply of a FEN from its side and full-move fields (0 where they are missing).
fn fen_ply(fen: &str) -> u32 {
    let words: Vec<&str> = fen.split_whitespace().collect();
    let black = words.get(1) == Some(&"b");
    let full: u32 = words.get(5).and_then(|w| w.parse().ok()).unwrap_or(1);
    2 * full.saturating_sub(1) + u32::from(black)
}

/// Middlegame piece values of variant `id`'s built-in table, by piece type (empty if the
/// table does not read, which the table tests rule out).
fn piece_values(id: usize) -> &'static [u32] {
    static VALUES: Lazy<Vec<Vec<u32>>> = Lazy::new(|| {
        all_variants()
            .iter()
            .map(|def| match EvalTables::embedded(def) {
                Ok(t) => t.pieces.iter().map(|p| p.value.mg.max(0) as u32).collect(),
                Err(_) => Vec::new(),
            })
            .collect()
    });
    VALUES.get(id).map(Vec::as_slice).unwrap_or(&[])
}

/// One fitted line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The family's name (the line's first word).
    pub family: String,
    /// The variants the line serves.
    pub games: Vec<String>,
    /// The phase input.
    pub input: PhaseInput,
    /// The input is clamped to `lo..=hi`.
    pub lo: f64,
    /// ... and divided by `hi`.
    pub hi: f64,
    /// `a`'s coefficients, highest power first (centipawns).
    pub a: Vec<f64>,
    /// `b`'s coefficients, highest power first (centipawns).
    pub b: Vec<f64>,
}

impl Model {
    /// `a` and `b` at `phase`.
    fn ab(&self, phase: &Phase) -> (f64, f64) {
        let x = phase.value(self.input).clamp(self.lo, self.hi) / self.hi;
        (polynomial(&self.a, x), polynomial(&self.b, x))
    }

    /// The chances of the side to move for `score_cp` (centipawns, side to move; a mate
    /// score beyond [`MATE_BOUND`] is a certain win or loss).
    pub fn wdl(&self, score_cp: i32, phase: &Phase) -> Wdl {
        if score_cp >= MATE_BOUND {
            return Wdl::certain(true);
        }
        if score_cp <= -MATE_BOUND {
            return Wdl::certain(false);
        }
        let (a, b) = self.ab(phase);
        // a >= 0 keeps win + loss <= 1; b is kept away from 0.
        let (a, b) = (a.max(0.0), b.max(MIN_B));
        let s = f64::from(score_cp);
        let per_mille = |z: f64| (1000.0 / (1.0 + (-z).exp())).round() as u32;
        let mut win = per_mille((s - a) / b);
        let mut loss = per_mille((-s - a) / b);
        // Rounding can overshoot by one; the larger gives it back (the sum is then odd
        // before, so the two differ and the choice is symmetric).
        if win + loss > 1000 {
            if win > loss {
                win -= win + loss - 1000;
            } else {
                loss -= win + loss - 1000;
            }
        }
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

impl Wdl {
    fn certain(win: bool) -> Wdl {
        let (w, l) = if win { (1000, 0) } else { (0, 1000) };
        Wdl {
            win: w,
            draw: 0,
            loss: l,
        }
    }
}

/// `c[0] x^d + ... + c[d]`.
fn polynomial(c: &[f64], x: f64) -> f64 {
    c.iter().fold(0.0, |acc, &k| acc * x + k)
}

/// A mistake in a line of the table: the 1-based line and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct WdlError {
    /// The 1-based line.
    pub line: usize,
    /// What is wrong.
    pub kind: WdlErrorKind,
}

/// What is wrong at a [`WdlError`]'s line.
#[derive(Clone, Debug, PartialEq)]
pub enum WdlErrorKind {
    /// A word that is not `key=value`.
    NotAField(String),
    /// A key no line has.
    UnknownField(String),
    /// A key given twice.
    SecondField(String),
    /// A required key is missing.
    MissingField(&'static str),
    /// A number that does not read (or is not finite).
    BadNumber(String),
    /// An `input=` that is none of `material`, `pieces`, `ply`, `none`.
    UnknownInput(String),
    /// A polynomial with no coefficients or more than the limit.
    Coefficients(usize),
    /// Not `0 <= lo <= hi` with `hi > 0`.
    BadRange,
    /// `b` is not positive somewhere in the input's range.
    NonPositiveB,
    /// A game that no variant is.
    UnknownGame(String),
    /// A game already served by an earlier line.
    SecondGame(String),
}

impl fmt::Display for WdlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wdl.txt:{}: ", self.line)?;
        match &self.kind {
            WdlErrorKind::NotAField(w) => write!(f, "'{w}' is not KEY=VALUE"),
            WdlErrorKind::UnknownField(k) => write!(f, "unknown field '{k}'"),
            WdlErrorKind::SecondField(k) => write!(f, "field '{k}' given twice"),
            WdlErrorKind::MissingField(k) => write!(f, "field '{k}' missing"),
            WdlErrorKind::BadNumber(w) => write!(f, "'{w}' is not a finite number"),
            WdlErrorKind::UnknownInput(w) => {
                write!(f, "input '{w}' (one of: material, pieces, ply, none)")
            }
            WdlErrorKind::Coefficients(n) => {
                write!(f, "{n} coefficients (1 to {MAX_COEFFICIENTS})")
            }
            WdlErrorKind::BadRange => write!(f, "lo and hi must satisfy 0 <= lo <= hi, hi > 0"),
            WdlErrorKind::NonPositiveB => write!(f, "b is not positive over lo..hi"),
            WdlErrorKind::UnknownGame(g) => write!(f, "unknown game '{g}'"),
            WdlErrorKind::SecondGame(g) => write!(f, "game '{g}' served by an earlier line"),
        }
    }
}

impl std::error::Error for WdlError {}

/// Reads a table: one [`Model`] per line that is not blank or a `#` comment.
pub fn parse(text: &str) -> Result<Vec<Model>, WdlError> {
    let mut models: Vec<Model> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |kind| WdlError { line: i + 1, kind };
        let model = parse_line(line).map_err(err)?;
        for g in &model.games {
            if !all_variants().iter().any(|v| v.name == g) {
                return Err(err(WdlErrorKind::UnknownGame(g.clone())));
            }
            if models.iter().any(|m| m.games.contains(g)) {
                return Err(err(WdlErrorKind::SecondGame(g.clone())));
            }
        }
        models.push(model);
    }
    Ok(models)
}

/// The fields of one line, by key.
#[derive(Default)]
struct Fields<'a> {
    games: Option<&'a str>,
    input: Option<&'a str>,
    lo: Option<&'a str>,
    hi: Option<&'a str>,
    a: Option<&'a str>,
    b: Option<&'a str>,
}

fn parse_line(line: &str) -> Result<Model, WdlErrorKind> {
    let mut words = line.split_whitespace();
    let family = words.next().unwrap_or("").to_string();
    let mut f = Fields::default();
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| WdlErrorKind::NotAField(word.to_string()))?;
        let slot = match key {
            "games" => &mut f.games,
            "input" => &mut f.input,
            "lo" => &mut f.lo,
            "hi" => &mut f.hi,
            "a" => &mut f.a,
            "b" => &mut f.b,
            _ => return Err(WdlErrorKind::UnknownField(key.to_string())),
        };
        if slot.replace(value).is_some() {
            return Err(WdlErrorKind::SecondField(key.to_string()));
        }
    }
    let games = f.games.ok_or(WdlErrorKind::MissingField("games"))?;
    let input = f.input.ok_or(WdlErrorKind::MissingField("input"))?;
    let input =
        PhaseInput::named(input).ok_or_else(|| WdlErrorKind::UnknownInput(input.to_string()))?;
    let lo = number(f.lo.ok_or(WdlErrorKind::MissingField("lo"))?)?;
    let hi = number(f.hi.ok_or(WdlErrorKind::MissingField("hi"))?)?;
    if !(0.0 <= lo && lo <= hi && hi > 0.0) {
        return Err(WdlErrorKind::BadRange);
    }
    let a = coefficients(f.a.ok_or(WdlErrorKind::MissingField("a"))?)?;
    let b = coefficients(f.b.ok_or(WdlErrorKind::MissingField("b"))?)?;
    let model = Model {
        family,
        games: games.split(',').map(str::to_string).collect(),
        input,
        lo,
        hi,
        a,
        b,
    };
    // b > 0 over the whole clamped range (checked at 65 points).
    if (0..=64).any(|k| {
        let x = (lo + (hi - lo) * f64::from(k) / 64.0) / hi;
        polynomial(&model.b, x) <= 0.0
    }) {
        return Err(WdlErrorKind::NonPositiveB);
    }
    Ok(model)
}

fn number(word: &str) -> Result<f64, WdlErrorKind> {
    match word.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(WdlErrorKind::BadNumber(word.to_string())),
    }
}

fn coefficients(list: &str) -> Result<Vec<f64>, WdlErrorKind> {
    let c = list.split(',').map(number).collect::<Result<Vec<_>, _>>()?;
    if c.is_empty() || c.len() > MAX_COEFFICIENTS {
        return Err(WdlErrorKind::Coefficients(c.len()));
    }
    Ok(c)
}

/// The built-in models, each variant's resolved (by variant id).
struct Table {
    models: Vec<Model>,
    by_variant: Vec<Option<usize>>,
}

static BUILT_IN: Lazy<Result<Table, WdlError>> = Lazy::new(|| {
    let models = parse(TABLE)?;
    let by_variant = all_variants()
        .iter()
        .map(|def| family_line(&models, def))
        .collect();
    Ok(Table { models, by_variant })
});

/// The line serving `def`: the one naming it, else one naming a game that `def`'s
/// built-in network also plays.
fn family_line(models: &[Model], def: &VariantDef) -> Option<usize> {
    line_for_game(models, def.name, &built_in::games_by_file())
}

/// The line naming `game`, else one naming a game that shares a network with it; each
/// entry of `nets` is the games one network file plays.
fn line_for_game(models: &[Model], game: &str, nets: &[Vec<String>]) -> Option<usize> {
    let named = |name: &str| {
        models
            .iter()
            .position(|m| m.games.iter().any(|g| g == name))
    };
    named(game).or_else(|| {
        nets.iter()
            .filter(|games| games.iter().any(|g| g == game))
            .find_map(|games| games.iter().find_map(|g| named(g)))
    })
}

/// The built-in model of `variant`'s family, or `None` when it has none (or, which the
/// tests rule out, the built-in table does not read).
pub fn model(variant: &VariantDef) -> Option<&'static Model> {
    let table = BUILT_IN.as_ref().ok()?;
    let id = all_variants().iter().position(|v| v.name == variant.name)?;
    table.by_variant[id].map(|i| &table.models[i])
}

/// Whether the built-in table reads (its error otherwise).
pub fn check_built_in() -> Result<(), WdlError> {
    BUILT_IN.as_ref().map(|_| ()).map_err(Clone::clone)
}

/// The chances of the side to move in `variant` for a search score (centipawns, side to
/// move's view) at `phase`, from the built-in model of the variant's family.
pub fn wdl(variant: &VariantDef, score_cp: i32, phase: &Phase) -> Option<Wdl> {
    model(variant).map(|m| m.wdl(score_cp, phase))
}

#[cfg(test)]
mod tests;
