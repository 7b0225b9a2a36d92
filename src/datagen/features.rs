//! `sako nnue-features`: training lines (`FEN | score | result`) turned into the
//! network trainer's binary input, the active inputs of each position from both points
//! of view (the `SAKOFEAT` format of `docs/nnue.md`).

use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::datagen::record::Record;
use crate::rules::compile::BoardWidth;
use crate::rules::position::accumulator::active_inputs;
use crate::rules::position::outcome::GameResult;
use crate::rules::position::{Color, InputShape, Position};
use crate::rules::variant::{all_variants, variant_id};

/// The first eight bytes of a feature file.
pub const MAGIC: &[u8; 8] = b"SAKOFEAT";
/// The format version written.
pub const VERSION: u32 = 1;
/// Scores are clamped to this many centipawns either way.
pub const SCORE_LIMIT: i32 = 32000;

/// What an export did.
#[derive(Clone, Debug, Default)]
pub struct ExportSummary {
    /// Positions written.
    pub positions: u64,
    /// Lines that were not positions of the game (bad line or FEN).
    pub rejected: u64,
    /// The first few reasons for rejecting a line.
    pub reasons: Vec<String>,
    /// Inputs per point of view.
    pub inputs: usize,
}

/// Writes the positions of `data` (files of `variant`'s training lines) to `out`,
/// replacing it. Comment (`#`) and empty lines are skipped; malformed lines are counted
/// in the summary, not fatal; an unreadable or unwritable file is an error.
pub fn export(variant: &str, data: &[PathBuf], out: &Path) -> Result<ExportSummary, String> {
    let id = variant_id(variant).ok_or_else(|| crate::game::unknown_variant(variant))?;
    if all_variants()[id].geometry.squares() <= 64 {
        export_width::<u64>(id, data, out)
    } else {
        export_width::<u128>(id, data, out)
    }
}

fn export_width<B: BoardWidth>(
    id: usize,
    data: &[PathBuf],
    out: &Path,
) -> Result<ExportSummary, String> {
    let rules = B::rules(id);
    let write_err = |e: std::io::Error| format!("cannot write {}: {e}", out.display());
    let file = std::fs::File::create(out).map_err(write_err)?;
    let mut w = BufWriter::new(file);
    let shape = InputShape::of_game(rules.def);
    let mut summary = ExportSummary {
        inputs: shape.inputs(),
        ..ExportSummary::default()
    };
    w.write_all(MAGIC).map_err(write_err)?;
    w.write_all(&VERSION.to_le_bytes()).map_err(write_err)?;
    w.write_all(&(shape.inputs() as u32).to_le_bytes())
        .map_err(write_err)?;
    // Every record, from either format, goes through here: written, or counted as
    // rejected with its place (the first five named).
    let mut take = |place: String, record: Result<Record, String>| -> Result<(), String> {
        let parsed = record.and_then(|r| {
            let pos =
                Position::<B>::from_fen(rules, &r.fen).map_err(|e| format!("bad FEN: {e}"))?;
            Ok((r, pos))
        });
        match parsed {
            Ok((r, pos)) => {
                write_position(&mut w, &shape, &pos, &r).map_err(write_err)?;
                summary.positions += 1;
            }
            Err(e) => {
                summary.rejected += 1;
                if summary.reasons.len() < 5 {
                    summary.reasons.push(format!("{place}: {e}"));
                }
            }
        }
        Ok(())
    };
    for path in data {
        if crate::datagen::binary::file_is_binary(path) {
            let records = crate::datagen::convert::binary_records(path, rules.def.name)?;
            for (place, r) in records {
                take(place.to_string(), r)?;
            }
            continue;
        }
        let read_err = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        let reader = std::io::BufReader::new(std::fs::File::open(path).map_err(read_err)?);
        for (n, line) in reader.lines().enumerate() {
            let line = line.map_err(read_err)?;
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            take(
                format!("{}:{}", path.display(), n + 1),
                Record::parse(&line),
            )?;
        }
    }
    w.flush().map_err(write_err)?;
    Ok(summary)
}

/// One position's record: side to move, result, score, and both views' inputs.
fn write_position<B: BoardWidth>(
    w: &mut impl Write,
    shape: &InputShape,
    pos: &Position<B>,
    r: &Record,
) -> std::io::Result<()> {
    let white = active_inputs(shape, pos, Color::White);
    let black = active_inputs(shape, pos, Color::Black);
    let result: u8 = match r.result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    };
    let score = r.score.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i16;
    w.write_all(&[pos.side().index() as u8, result])?;
    w.write_all(&score.to_le_bytes())?;
    w.write_all(&(white.len() as u16).to_le_bytes())?;
    for i in white.iter().chain(&black) {
        w.write_all(&(*i as u16).to_le_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_written_with_both_views() {
        let dir = std::env::temp_dir().join(format!("sako-feat-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("d.txt");
        std::fs::write(
            &data,
            "# comment\n\
             4k3/8/8/8/8/8/8/4K2R b K - 0 1 | 250 | 1\n\
             not a line\n\
             8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5\n",
        )
        .unwrap();
        let out = dir.join("f.bin");
        let s = export("normal", &[data], &out).unwrap();
        assert_eq!(
            (s.positions, s.rejected, s.inputs),
            (1, 2, 2 * 6 * (64 + 8))
        );
        let b = std::fs::read(&out).unwrap();
        assert_eq!(&b[..8], MAGIC);
        assert_eq!(u32::from_le_bytes([b[12], b[13], b[14], b[15]]), 864);
        let rec = &b[16..];
        assert_eq!((rec[0], rec[1]), (1, 2)); // Black to move, White won
        assert_eq!(i16::from_le_bytes([rec[2], rec[3]]), 250);
        assert_eq!(u16::from_le_bytes([rec[4], rec[5]]), 3);
        let inputs: Vec<u16> = rec[6..]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        assert_eq!(inputs.len(), 6);
        // The rook on h1 (type 3), White's own piece in White's view: input 3·64 + 7.
        assert!(inputs[..3].contains(&(3 * 64 + 7)));
        // In Black's view it is the other side's rook on h8: (6 + 3)·64 + 63.
        assert!(inputs[3..].contains(&((6 + 3) * 64 + 63)));
        // Black's king on e8 is Black's own king on e1 in Black's view: 5·64 + 4.
        assert!(inputs[3..].contains(&(5 * 64 + 4)));
        std::fs::remove_dir_all(&dir).ok();
    }
}
