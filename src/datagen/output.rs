//! The output file: opened for appending, its records counted at the start (a partial
//! last record cut off), each finished game appended and flushed at once, and synced to
//! the disk at least every few seconds.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use super::binary;
use super::record::Record;

/// The format of a data file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One `FEN | score | result` line a position.
    Text,
    /// The binary records of `docs/datagen.md` (`SAKODATA`).
    Bin,
}

impl Format {
    /// The format named by `--format` (`text` or `bin`).
    pub fn from_name(name: &str) -> Result<Format, String> {
        match name {
            "text" | "txt" => Ok(Format::Text),
            "bin" | "binary" => Ok(Format::Bin),
            other => Err(format!("unknown format '{other}' (text or bin)")),
        }
    }

    /// The format a file name implies: `.bin` and `.sakobin` are binary, the rest text.
    pub fn from_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some("bin" | "sakobin") => Format::Bin,
            _ => Format::Text,
        }
    }
}

/// The longest time between two syncs of the file to the disk.
const SYNC_EVERY: Duration = Duration::from_secs(3);

/// The training-data file being appended to.
pub(crate) struct OutFile {
    file: File,
    name: String,
    format: Format,
    variant: usize,
    last_sync: Instant,
    /// Records in the file (those found at the start plus those appended).
    pub lines: u64,
}

/// Bytes of the whole lines of the text file at `path` (0 when it does not exist), the
/// number of those lines and the file's length.
fn count_lines(path: &Path, name: &str) -> Result<(u64, u64, u64), String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, 0, 0)),
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    let mut reader = BufReader::new(file);
    let mut buf = vec![0u8; 1 << 16];
    let (mut newlines, mut len, mut whole) = (0u64, 0u64, 0u64);
    loop {
        let n = reader
            .read(&mut buf)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        if n == 0 {
            break;
        }
        for (i, &b) in buf[..n].iter().enumerate() {
            if b == b'\n' {
                newlines += 1;
                whole = len + i as u64 + 1;
            }
        }
        len += n as u64;
    }
    Ok((whole, newlines, len))
}

impl OutFile {
    /// Opens (or creates) `path` for appending and counts its records. A last line
    /// without its newline (or a partial binary record), a write cut short, is cut off;
    /// `warn` hears about it.
    pub fn open(
        path: &Path,
        format: Format,
        variant: usize,
        warn: &mut dyn FnMut(&str),
    ) -> Result<OutFile, String> {
        let name = path.display().to_string();
        let (file, lines) = match format {
            Format::Bin => {
                let def = &crate::rules::variant::all_variants()[variant];
                binary::open_for_append(path, def.name, warn)?
            }
            Format::Text => {
                let (whole, lines, len) = count_lines(path, &name)?;
                if binary::file_is_binary(path) {
                    return Err(format!(
                        "{name} is a binary data file: use --format bin (or a .bin name)"
                    ));
                }
                let file = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open {name} for appending: {e}"))?;
                if whole < len {
                    warn(&format!(
                        "{name}: the last line has no newline (an interrupted write?); cutting it off"
                    ));
                    file.set_len(whole)
                        .map_err(|e| format!("cannot write to {name}: {e}"))?;
                }
                (file, lines)
            }
        };
        Ok(OutFile {
            file,
            name,
            format,
            variant,
            last_sync: Instant::now(),
            lines,
        })
    }

    /// Appends `records` in one write and flushes; syncs to the disk when the last
    /// sync is a few seconds old.
    pub fn append(&mut self, records: &[Record]) -> Result<(), String> {
        if records.is_empty() {
            return Ok(());
        }
        let bytes = match self.format {
            Format::Text => {
                let mut text = String::new();
                for r in records {
                    text += &r.line();
                    text.push('\n');
                }
                text.into_bytes()
            }
            Format::Bin => {
                let mut b = Vec::with_capacity(records.len() * binary::RECORD_SIZE);
                for r in records {
                    b.extend_from_slice(&binary::encode(self.variant, r)?);
                }
                b
            }
        };
        let err = |e: std::io::Error| format!("cannot write to {}: {e}", self.name);
        self.file
            .write_all(&bytes)
            .and_then(|()| self.file.flush())
            .map_err(err)?;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        self.lines += records.len() as u64;
        Ok(())
    }

    /// Syncs the file's data to the disk.
    pub fn sync(&mut self) -> Result<(), String> {
        self.last_sync = Instant::now();
        self.file
            .sync_data()
            .map_err(|e| format!("cannot write to {}: {e}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::outcome::GameResult;

    fn rec(fen: &str) -> Record {
        Record {
            fen: fen.into(),
            score: 5,
            result: GameResult::Draw,
        }
    }

    #[test]
    fn lines_are_counted_and_a_cut_line_is_cut_off() {
        let path = std::env::temp_dir().join(format!("sako-datagen-out-{}", std::process::id()));
        std::fs::write(&path, "a\nb\ncut").expect("write");
        let mut warned = 0;
        let mut out = OutFile::open(&path, Format::Text, 0, &mut |_| warned += 1).expect("open");
        assert_eq!((out.lines, warned), (2, 1));
        out.append(&[rec("c"), rec("d")]).expect("append");
        assert_eq!(out.lines, 4);
        let text = std::fs::read_to_string(&path).expect("read");
        let _ = std::fs::remove_file(&path);
        assert_eq!(text, "a\nb\nc | 5 | 0.5\nd | 5 | 0.5\n");
    }

    #[test]
    fn a_partial_binary_record_is_cut_off() {
        let path = std::env::temp_dir().join(format!("sako-datagen-bin-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        let mut out = OutFile::open(&path, Format::Bin, 0, &mut |_| {}).expect("open");
        assert_eq!(out.lines, 0);
        out.append(&[rec(fen), rec(fen)]).expect("append");
        drop(out);
        let mut bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), binary::HEADER_SIZE + 2 * binary::RECORD_SIZE);
        bytes.truncate(bytes.len() - 7);
        std::fs::write(&path, &bytes).unwrap();
        let mut warned = 0;
        let out = OutFile::open(&path, Format::Bin, 0, &mut |_| warned += 1).expect("open");
        assert_eq!((out.lines, warned), (1, 1));
        drop(out);
        let len = std::fs::metadata(&path).unwrap().len() as usize;
        assert_eq!(len, binary::HEADER_SIZE + binary::RECORD_SIZE);
        assert!(OutFile::open(&path, Format::Bin, 1, &mut |_| {}).is_err());
        assert!(OutFile::open(&path, Format::Text, 0, &mut |_| {}).is_err());
        let _ = std::fs::remove_file(&path);
    }
}
