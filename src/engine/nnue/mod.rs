//! An efficiently updatable neural network (NNUE) evaluation: an input layer whose
//! accumulators the position keeps up to date (`rules::position::accumulator`), a
//! clipped ReLU or its square, and one output for the side to move from the output
//! bucket the position's material picks. The format and the numbering of the inputs are
//! in `docs/nnue.md`; `scripts/nnue/` trains the nets.

pub mod built_in;
pub mod file;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::rules::compile::BoardWidth;
use crate::rules::position::{Color, InputColumns, InputShape, KingBuckets, Position};
use crate::rules::variant::{all_variants, variant_id, VariantDef};
use crate::simd;

pub use file::{Activation, NetError, NetFile, DEFAULT_OUTPUT_SCALE};

/// Scale of the input layer's weights: a hidden value of 1.0 is `QA`.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;

/// Which network evaluates a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum NetChoice {
    /// The built-in net for the game, if there is one (else the tables).
    #[default]
    BuiltIn,
    /// The net of this file (an error for a game it is not made for).
    File(PathBuf),
    /// No network: the tables.
    Off,
}

impl NetChoice {
    /// The command line's `--net` value: `off` (or `none`), else a file.
    pub fn from_arg(arg: &str) -> NetChoice {
        match arg {
            "off" | "none" => NetChoice::Off,
            path => NetChoice::File(PathBuf::from(path)),
        }
    }

    /// The network this choice gives `def`'s game, if any; a file is read here, and an
    /// error names it.
    pub fn network_for(&self, def: &VariantDef) -> Result<Option<Network>, String> {
        match self {
            NetChoice::BuiltIn => Ok(built_in::for_game(def)),
            NetChoice::File(path) => Network::load(path, def).map(Some),
            NetChoice::Off => Ok(None),
        }
    }
}

/// A network ready to evaluate positions of one game.
#[derive(Clone, Debug)]
pub struct Network {
    /// Where it came from (a file name, or "built-in").
    pub source: String,
    columns: Arc<InputColumns>,
    activation: Activation,
    divisor: usize,
    /// `2H` per bucket.
    out_weights: Vec<i16>,
    /// One per bucket (at least one).
    out_bias: Vec<i32>,
    /// Centipawns per unit of the output (the file's; 400 before version 4).
    output_scale: i64,
    /// The file's material scale, one factor in 1/1024 per count of active inputs (empty:
    /// 1024 for every count, versions 1 to 4).
    material_scale: Vec<i64>,
}

impl Network {
    /// The network of `file` for the game `def`, or why it does not fit that game.
    pub fn for_game(file: &NetFile, def: &VariantDef, source: &str) -> Result<Network, NetError> {
        if !file.games.iter().any(|g| g == def.name) {
            return Err(NetError::WrongGame {
                game: def.name.to_string(),
                games: file.games.clone(),
            });
        }
        let shape = InputShape::of_game(def);
        if (file.types, file.squares) != (shape.types, shape.squares) {
            return Err(NetError::WrongShape(format!(
                "{} piece types on {} squares, but {} has {} on {}",
                file.types, file.squares, def.name, shape.types, shape.squares
            )));
        }
        let royal = def.pieces.iter().position(|p| p.royal).unwrap_or(0);
        let kings = match &file.kings {
            Some(k) if k.royal != royal => {
                return Err(NetError::WrongShape(format!(
                    "king buckets by piece type {}, but {}'s royal piece is type {royal}",
                    k.royal, def.name
                )))
            }
            Some(k) => k.clone(),
            None => KingBuckets::single(royal, shape.squares),
        };
        let columns = InputColumns::new(shape, kings, Arc::clone(&file.columns), file.bias.clone())
            .ok_or_else(|| NetError::WrongShape("input layer size".into()))?;
        check_output_layer(file)?;
        Ok(Network {
            source: source.to_string(),
            columns: Arc::new(columns),
            activation: file.activation,
            divisor: file.divisor,
            out_weights: file.out_weights.clone(),
            out_bias: file.out_bias.clone(),
            output_scale: i64::from(file.output_scale),
            material_scale: file
                .material_scale
                .iter()
                .flatten()
                .map(|&v| i64::from(v))
                .collect(),
        })
    }

    /// Checks that every game `file` names is known and fits its input layer.
    pub fn check_games(file: &NetFile) -> Result<(), NetError> {
        for game in &file.games {
            let id = variant_id(game).ok_or_else(|| NetError::UnknownGame(game.clone()))?;
            Network::for_game(file, &all_variants()[id], "")?;
        }
        Ok(())
    }

    /// Reads `path` and makes its network for `def`; the error names the file.
    pub fn load(path: &Path, def: &VariantDef) -> Result<Network, String> {
        let named = |e: NetError| format!("net file {}: {e}", path.display());
        let file = NetFile::read(path).map_err(named)?;
        Network::for_game(&file, def, &path.display().to_string()).map_err(named)
    }

    /// The input layer, for positions to keep accumulators of
    /// ([`Position::set_input_columns`]).
    pub fn input_columns(&self) -> Arc<InputColumns> {
        Arc::clone(&self.columns)
    }

    /// Hidden-layer width.
    pub fn width(&self) -> usize {
        self.columns.width()
    }

    /// The hidden layer's activation.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Output buckets.
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The output bucket of a position with `n` active inputs per view:
    /// `min(n / D, O − 1)`.
    pub fn bucket_for_inputs(&self, n: usize) -> usize {
        (n / self.divisor).min(self.buckets() - 1)
    }

    /// The output bucket that evaluates `pos`.
    #[inline]
    pub fn bucket<B: BoardWidth>(&self, pos: &Position<B>) -> usize {
        if self.buckets() == 1 {
            0
        } else {
            self.bucket_for_inputs(pos.active_input_count())
        }
    }

    /// The evaluation of `pos` for the side to move, in centipawns: from the
    /// position's accumulators when they are this network's, else computed afresh.
    pub fn evaluate<B: BoardWidth>(&self, pos: &Position<B>) -> i32 {
        let us = pos.side();
        let n = if self.buckets() > 1 || !self.material_scale.is_empty() {
            pos.active_input_count()
        } else {
            0
        };
        let (bucket, factor) = (self.bucket_for_inputs(n), self.material_factor(n));
        match pos.accumulators() {
            Some((c, acc)) if Arc::ptr_eq(c, &self.columns) => {
                self.output(&acc[us], &acc[us.flip()], bucket, factor)
            }
            _ => {
                let acc = self.columns.refresh(pos);
                self.output(&acc[us], &acc[us.flip()], bucket, factor)
            }
        }
    }

    /// The material scale's factor (in 1/1024) for a position with `n` active inputs per
    /// view: 1024 without a table.
    pub fn material_factor(&self, n: usize) -> i64 {
        match self.material_scale.last() {
            None => i64::from(file::MATERIAL_UNIT),
            Some(last) => *self.material_scale.get(n).unwrap_or(last),
        }
    }

    /// The output layer of `bucket` on the side to move's accumulator `us` and the
    /// other's `them` in centipawns, then times the material factor `factor` in 1/1024
    /// (each division truncating; `docs/nnue.md` gives both activations' integer forms).
    fn output(&self, us: &[i16], them: &[i16], bucket: usize, factor: i64) -> i32 {
        let h = self.width();
        let w = &self.out_weights[2 * h * bucket..2 * h * (bucket + 1)];
        let bias = i64::from(self.out_bias[bucket]);
        let (sum, scale) = match self.activation {
            Activation::ClippedRelu => {
                let sum = i64::from(simd::dot_clipped::<{ QA as i16 }>(us, &w[..h]))
                    + i64::from(simd::dot_clipped::<{ QA as i16 }>(them, &w[h..]));
                (sum + bias, QA * QB)
            }
            Activation::SquaredClippedRelu => {
                let sum = i64::from(simd::dot_squared::<{ QA as i16 }>(us, &w[..h]))
                    + i64::from(simd::dot_squared::<{ QA as i16 }>(them, &w[h..]));
                (sum + bias * i64::from(QA), QA * QA * QB)
            }
        };
        let centipawns = sum * self.output_scale / i64::from(scale);
        (centipawns * factor / i64::from(file::MATERIAL_UNIT)) as i32
    }

    /// The same evaluation in floating point from the dequantised weights, with a
    /// float activation and the bucket counted from the active inputs: the reference the
    /// integer path is tested against.
    pub fn evaluate_float<B: BoardWidth>(&self, pos: &Position<B>) -> f64 {
        let h = self.width();
        let shape = self.columns.shape();
        let mut n = 0;
        let mut view = |c: Color| {
            let mut a: Vec<f64> = self.columns.bias().iter().map(|&b| b as f64).collect();
            let inputs = crate::rules::position::accumulator::active_inputs(&shape, pos, c);
            let k = self.columns.bucket_of(pos, c);
            n = inputs.len();
            for i in inputs {
                for (x, &w) in a.iter_mut().zip(self.columns.bucket_column(k, i)) {
                    *x += w as f64;
                }
            }
            a.into_iter()
                .map(|x| self.activate((x / QA as f64).clamp(0.0, 1.0)))
                .collect::<Vec<f64>>()
        };
        let us = pos.side();
        let (a, b) = (view(us), view(us.flip()));
        let bucket = self.bucket_for_inputs(n);
        let w = |j: usize| self.out_weights[2 * h * bucket + j] as f64 / QB as f64;
        let mut y = self.out_bias[bucket] as f64 / (QA * QB) as f64;
        for j in 0..h {
            y += w(j) * a[j] + w(h + j) * b[j];
        }
        let factor = self.material_factor(n) as f64 / f64::from(file::MATERIAL_UNIT);
        y * self.output_scale as f64 * factor
    }

    /// The float activation of a value already clipped to `[0, 1]`.
    fn activate(&self, x: f64) -> f64 {
        match self.activation {
            Activation::ClippedRelu => x,
            Activation::SquaredClippedRelu => x * x,
        }
    }
}

/// Checks that `file`'s output layer has `O` buckets of `2H` weights and a bias each, and
/// a divisor of at least 1 (a file that parsed has; one built in code may not).
fn check_output_layer(file: &NetFile) -> Result<(), NetError> {
    if !(1..=file::MAX_BUCKETS).contains(&file.buckets) {
        return Err(NetError::BadBuckets(file.buckets as u32));
    }
    if file.divisor == 0 {
        return Err(NetError::BadDivisor(0));
    }
    file::check_output_scale(file.output_scale)?;
    if let Some(table) = &file.material_scale {
        file::check_material_scale(table)?;
    }
    let weights = file.buckets * 2 * file.width;
    if file.out_weights.len() != weights || file.out_bias.len() != file.buckets {
        return Err(NetError::WrongShape(format!(
            "{} output weights and {} biases for {} buckets of width {}",
            file.out_weights.len(),
            file.out_bias.len(),
            file.buckets,
            file.width
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod king_bucket_tests;
