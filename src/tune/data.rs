//! Training positions for the tuner: the lines `FEN | score | result` that
//! `sako datagen` writes (or its binary records, told by their magic), read into traces of the evaluation (which parameters each
//! position uses, see [`crate::engine::eval::Trace`]).

use std::io::BufRead;
use std::path::Path;

use rayon::prelude::*;

use crate::engine::eval::Eval;
use crate::rules::compile::BoardWidth;
use crate::rules::position::outcome::GameResult;
use crate::rules::position::Position;
use crate::rules::variant::{all_variants, variant_id};

/// One training position.
#[derive(Clone, Copy, Debug)]
pub struct Sample {
    /// Where its features start in [`Dataset::index`] and [`Dataset::coef`].
    pub start: u32,
    /// How many features it has.
    pub len: u32,
    /// Middlegame share of the phase.
    pub mg_weight: f32,
    /// Endgame share of the phase times the endgame scaling.
    pub eg_weight: f32,
    /// The game's result for White: 1, 0.5 or 0 (any value in 0..1 is accepted).
    pub result: f32,
    /// The search's score for White, centipawns.
    pub score: f32,
}

/// Positions with their features, stored flat.
#[derive(Default)]
pub struct Dataset {
    /// The positions.
    pub samples: Vec<Sample>,
    /// Parameter index of every feature.
    pub index: Vec<u32>,
    /// Coefficient of every feature.
    pub coef: Vec<f32>,
    /// Lines that could not be read (bad FEN, bad number), with the first few reasons.
    pub rejected: usize,
    /// The first reasons for rejected lines (file:line: reason).
    pub reasons: Vec<String>,
}

/// One line read from a data file, not yet traced.
struct Line {
    fen: String,
    score: f32,
    result: f32,
}

/// Reads `FEN | score | result`.
fn parse_line(text: &str) -> Result<Line, String> {
    let mut parts = text.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err("expected 'FEN | score | result'".into());
    };
    let score: f32 = score
        .parse()
        .map_err(|_| format!("score '{score}' is not a number"))?;
    let result: f32 = match result {
        "1" | "1.0" | "1-0" => 1.0,
        "0" | "0.0" | "0-1" => 0.0,
        "0.5" | "1/2-1/2" => 0.5,
        other => other
            .parse()
            .ok()
            .filter(|r: &f32| (0.0..=1.0).contains(r))
            .ok_or_else(|| format!("result '{other}' is not 1, 0.5 or 0"))?,
    };
    if !score.is_finite() {
        return Err("score is not finite".into());
    }
    Ok(Line {
        fen: fen.to_string(),
        score,
        result,
    })
}

impl Dataset {
    /// Reads every file of `paths` (at most `limit` positions in all) and traces each
    /// position with `eval`. Unreadable lines are counted, not fatal; an unreadable file
    /// is an error.
    pub fn load(eval: &Eval, paths: &[&Path], limit: usize) -> Result<Dataset, String> {
        let mut ds = Dataset::default();
        let mut lines: Vec<(String, Line)> = Vec::new();
        let variant = eval.variant;
        'files: for path in paths {
            if crate::datagen::binary::file_is_binary(path) {
                for (place, r) in crate::datagen::convert::binary_records(path, variant)? {
                    match r {
                        Ok(r) => lines.push((
                            place,
                            Line {
                                fen: r.fen,
                                score: r.score as f32,
                                result: match r.result {
                                    GameResult::WhiteWins => 1.0,
                                    GameResult::Draw => 0.5,
                                    GameResult::BlackWins => 0.0,
                                },
                            },
                        )),
                        Err(e) => ds.reject(format!("{place}: {e}")),
                    }
                    if lines.len() >= limit {
                        break 'files;
                    }
                }
                continue;
            }
            let file = std::fs::File::open(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            for (n, text) in std::io::BufReader::new(file).lines().enumerate() {
                let text = text.map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                if text.trim().is_empty() || text.starts_with('#') {
                    continue;
                }
                let place = format!("{}:{}", path.display(), n + 1);
                match parse_line(&text) {
                    Ok(line) => lines.push((place, line)),
                    Err(e) => ds.reject(format!("{place}: {e}")),
                }
                if lines.len() >= limit {
                    break 'files;
                }
            }
        }
        let id = variant_id(eval.variant).ok_or("unknown variant")?;
        if all_variants()[id].geometry.squares() <= 64 {
            ds.trace_all::<u64>(eval, id, &lines);
        } else {
            ds.trace_all::<u128>(eval, id, &lines);
        }
        Ok(ds)
    }

    fn reject(&mut self, reason: String) {
        self.rejected += 1;
        if self.reasons.len() < 5 {
            self.reasons.push(reason);
        }
    }

    /// Traces `lines` in parallel, in chunks, and appends them.
    fn trace_all<B: BoardWidth>(&mut self, eval: &Eval, id: usize, lines: &[(String, Line)]) {
        let rules = B::rules(id);
        let chunks: Vec<_> = lines
            .par_chunks(4096)
            .map(|chunk| {
                let mut part = Dataset::default();
                for (place, line) in chunk {
                    match Position::<B>::from_fen(rules, &line.fen) {
                        Ok(pos) => part.push(eval, &pos, line),
                        Err(e) => part.reject(format!("{place}: bad FEN: {e}")),
                    }
                }
                part
            })
            .collect();
        for part in chunks {
            let base = self.index.len() as u32;
            self.samples.extend(part.samples.iter().map(|s| Sample {
                start: s.start + base,
                ..*s
            }));
            self.index.extend(part.index);
            self.coef.extend(part.coef);
            self.rejected += part.rejected;
            for r in part.reasons {
                if self.reasons.len() < 5 {
                    self.reasons.push(r);
                }
            }
        }
    }

    /// Adds `pos` (read from `line`).
    fn push<B: BoardWidth>(&mut self, eval: &Eval, pos: &Position<B>, line: &Line) {
        let t = eval.trace(pos);
        self.push_trace(&t, line.result, line.score);
    }

    /// Adds a traced position with its result and score (both for White).
    pub fn push_trace(&mut self, t: &crate::engine::eval::Trace, result: f32, score: f32) {
        self.samples.push(Sample {
            start: self.index.len() as u32,
            len: t.features.len() as u32,
            mg_weight: t.mg_weight,
            eg_weight: t.eg_weight,
            result,
            score,
        });
        for &(i, c) in &t.features {
            self.index.push(i);
            self.coef.push(c);
        }
    }

    /// How many positions use each of `len` parameters.
    pub fn usage(&self, len: usize) -> Vec<usize> {
        let mut counts = vec![0; len];
        for &i in &self.index {
            if let Some(c) = counts.get_mut(i as usize) {
                *c += 1;
            }
        }
        counts
    }

    /// The features of sample `s`: (parameter index, coefficient).
    #[inline(always)]
    pub fn features(&self, s: &Sample) -> impl Iterator<Item = (usize, f32)> + '_ {
        let range = s.start as usize..(s.start + s.len) as usize;
        self.index[range.clone()]
            .iter()
            .zip(&self.coef[range])
            .map(|(&i, &c)| (i as usize, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_mistakes_are_named() {
        let l = parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 | -23 | 0.5").unwrap();
        assert_eq!((l.score, l.result), (-23.0, 0.5));
        assert!(parse_line("fen | 1").is_err());
        assert!(parse_line("fen | x | 1").is_err());
        assert!(parse_line("fen | 1 | 2").is_err());
        assert!(parse_line("fen | 1 | 1 | 1").is_err());
    }
}
