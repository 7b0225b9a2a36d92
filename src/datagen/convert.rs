//! Reading either data format, and `sako datagen-convert`: text to binary and back,
//! and a file's counts (`--stats`).

use std::io::{BufRead, BufWriter, Write};
use std::path::Path;

use super::binary::{self, BinFile};
use super::output::Format;
use super::record::Record;
use crate::rules::position::outcome::GameResult;
use crate::rules::variant::{all_variants, variant_id};

/// Records with their places (`file#n`), each decoded or the reason it is not.
pub type PlacedRecords = Vec<(String, Result<Record, String>)>;

/// The records of a binary file of `variant` (an error when the file is another
/// variant's or not binary), each decoded (layout checked; the FEN is checked by
/// whoever reads it), with its place (`file#record`) for messages.
pub fn binary_records(path: &Path, variant: &str) -> Result<PlacedRecords, String> {
    let f = BinFile::read(path)?;
    let name = all_variants()[f.variant].name;
    if name != variant {
        return Err(format!(
            "{} holds {name} positions, not {variant}",
            path.display()
        ));
    }
    Ok(f.records()
        .enumerate()
        .map(|(i, r)| (format!("{}#{}", path.display(), i + 1), r))
        .collect())
}

/// What a conversion did.
#[derive(Clone, Debug, Default)]
pub struct ConvertSummary {
    /// Records written.
    pub written: u64,
    /// Records or lines left out (not positions of the game, malformed).
    pub rejected: u64,
    /// The first few reasons.
    pub reasons: Vec<String>,
    /// The variant.
    pub variant: String,
    /// The format written.
    pub format: Option<Format>,
}

impl ConvertSummary {
    fn reject(&mut self, why: String) {
        self.rejected += 1;
        if self.reasons.len() < 5 {
            self.reasons.push(why);
        }
    }
}

/// Reads every record of `input` (either format, told by its magic; `variant` is
/// needed for text and checked against a binary header), each checked as a position
/// of the game and its FEN rewritten in sako's writing, and hands it to `each`.
fn read_checked(
    input: &Path,
    variant: Option<&str>,
    summary: &mut ConvertSummary,
    each: &mut dyn FnMut(usize, &Record) -> Result<(), String>,
) -> Result<(), String> {
    let name = input.display().to_string();
    if binary::file_is_binary(input) {
        let f = BinFile::read(input)?;
        let found = all_variants()[f.variant].name;
        if let Some(v) = variant.filter(|v| *v != found) {
            return Err(format!("{name} holds {found} positions, not {v}"));
        }
        summary.variant = found.to_string();
        if f.partial > 0 {
            summary.reject(format!(
                "{name}: a partial record of {} bytes at the end",
                f.partial
            ));
        }
        for (i, c) in f.bytes.chunks_exact(binary::RECORD_SIZE).enumerate() {
            match binary::decode_checked(f.variant, c) {
                Ok(r) => each(f.variant, &r)?,
                Err(e) => summary.reject(format!("{name}#{}: {e}", i + 1)),
            }
        }
        return Ok(());
    }
    let variant = variant.unwrap_or("normal");
    let id = variant_id(variant).ok_or_else(|| crate::game::unknown_variant(variant))?;
    summary.variant = variant.to_string();
    let read_err = |e: std::io::Error| format!("cannot read {name}: {e}");
    let file = std::fs::File::open(input).map_err(read_err)?;
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(read_err)?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let checked = Record::parse(&line).and_then(|mut r| {
            let g = crate::Game::new(variant, Some(&r.fen)).map_err(|e| format!("bad FEN: {e}"))?;
            r.fen = g.fen();
            Ok(r)
        });
        match checked {
            Ok(r) => each(id, &r)?,
            Err(e) => summary.reject(format!("{name}:{}: {e}", n + 1)),
        }
    }
    Ok(())
}

/// Converts `input` (text or binary, told by its magic) to `output` in `format`
/// (replaced). `variant` names the game of a text input (default `normal`).
pub fn convert(
    input: &Path,
    output: &Path,
    format: Format,
    variant: Option<&str>,
) -> Result<ConvertSummary, String> {
    if input == output {
        return Err("--in and --out are the same file".into());
    }
    let out_name = output.display().to_string();
    let write_err = |e: std::io::Error| format!("cannot write {out_name}: {e}");
    let mut summary = ConvertSummary {
        format: Some(format),
        ..ConvertSummary::default()
    };
    let tmp = output.with_extension("converting");
    let file = std::fs::File::create(&tmp).map_err(write_err)?;
    let mut w = BufWriter::new(file);
    let mut header_written = false;
    let mut written = 0u64;
    read_checked(input, variant, &mut summary, &mut |id, r| {
        match format {
            Format::Text => writeln!(w, "{}", r.line()).map_err(write_err)?,
            Format::Bin => {
                if !header_written {
                    w.write_all(&binary::header(all_variants()[id].name))
                        .map_err(write_err)?;
                    header_written = true;
                }
                w.write_all(&binary::encode(id, r)?).map_err(write_err)?;
            }
        }
        written += 1;
        Ok(())
    })?;
    if format == Format::Bin && !header_written {
        let v = variant_id(&summary.variant).unwrap_or(0);
        w.write_all(&binary::header(all_variants()[v].name))
            .map_err(write_err)?;
    }
    w.flush().map_err(write_err)?;
    drop(w);
    std::fs::rename(&tmp, output).map_err(write_err)?;
    summary.written = written;
    Ok(summary)
}

/// The counts of a data file.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// The variant.
    pub variant: String,
    /// Binary or text.
    pub format: Option<Format>,
    /// Positions of the game.
    pub records: u64,
    /// Results for White.
    pub white_wins: u64,
    /// See `white_wins`.
    pub draws: u64,
    /// See `white_wins`.
    pub black_wins: u64,
    /// Mean score for White, centipawns.
    pub mean_score: f64,
    /// Mean absolute score.
    pub mean_abs_score: f64,
    /// Records that are not positions of the game.
    pub rejected: u64,
    /// The first reasons.
    pub reasons: Vec<String>,
}

impl Stats {
    /// The report, a few lines.
    pub fn text(&self) -> String {
        let n = self.records.max(1) as f64;
        let pct = |k: u64| 100.0 * k as f64 / n;
        format!(
            "{} {} positions: {}\nresults for White: {} won ({:.1}%), {} drawn ({:.1}%), {} lost ({:.1}%)\nscore for White: mean {:.1} cp, mean |score| {:.1} cp\nrejected: {}",
            self.variant,
            match self.format {
                Some(Format::Bin) => "binary",
                _ => "text",
            },
            self.records,
            self.white_wins,
            pct(self.white_wins),
            self.draws,
            pct(self.draws),
            self.black_wins,
            pct(self.black_wins),
            self.mean_score,
            self.mean_abs_score,
            self.rejected
        )
    }
}

/// Counts the positions of `input` (either format), checking each.
pub fn stats(input: &Path, variant: Option<&str>) -> Result<Stats, String> {
    let mut summary = ConvertSummary::default();
    let mut s = Stats {
        format: Some(if binary::file_is_binary(input) {
            Format::Bin
        } else {
            Format::Text
        }),
        ..Stats::default()
    };
    let (mut sum, mut abs) = (0f64, 0f64);
    read_checked(input, variant, &mut summary, &mut |_, r| {
        s.records += 1;
        match r.result {
            GameResult::WhiteWins => s.white_wins += 1,
            GameResult::Draw => s.draws += 1,
            GameResult::BlackWins => s.black_wins += 1,
        }
        sum += r.score as f64;
        abs += r.score.abs() as f64;
        Ok(())
    })?;
    s.variant = summary.variant;
    s.rejected = summary.rejected;
    s.reasons = summary.reasons;
    s.mean_score = sum / s.records.max(1) as f64;
    s.mean_abs_score = abs / s.records.max(1) as f64;
    Ok(s)
}
