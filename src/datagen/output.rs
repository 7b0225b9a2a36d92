//! The output file: opened for appending, its lines counted at the start, each
//! finished game appended and flushed at once.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::Path;

/// The training-data file being appended to.
pub(crate) struct OutFile {
    file: File,
    name: String,
    /// Lines in the file (those found at the start plus those appended).
    pub lines: u64,
}

/// Lines of the file at `path` (0 when it does not exist) and whether its last line
/// lacks its newline (a write that was cut short).
fn count_lines(path: &Path, name: &str) -> Result<(u64, bool), String> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((0, false)),
        Err(e) => return Err(format!("cannot read {name}: {e}")),
    };
    let mut reader = BufReader::new(file);
    let mut buf = vec![0u8; 1 << 16];
    let (mut newlines, mut last) = (0u64, b'\n');
    loop {
        let n = reader
            .read(&mut buf)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        if n == 0 {
            break;
        }
        newlines += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
        last = buf[n - 1];
    }
    let partial = last != b'\n';
    Ok((newlines + partial as u64, partial))
}

impl OutFile {
    /// Opens (or creates) `path` for appending and counts its lines. A last line
    /// without its newline is ended first, so that new lines start on a line of their
    /// own; `warn` hears about it.
    pub fn open(path: &Path, warn: &mut dyn FnMut(&str)) -> Result<OutFile, String> {
        let name = path.display().to_string();
        let (lines, partial) = count_lines(path, &name)?;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {name} for appending: {e}"))?;
        if partial {
            warn(&format!(
                "{name}: the last line has no newline (an interrupted write?); ending it"
            ));
            file.write_all(b"\n")
                .map_err(|e| format!("cannot write to {name}: {e}"))?;
        }
        Ok(OutFile { file, name, lines })
    }

    /// Appends `lines` (each without its newline) in one write and flushes.
    pub fn append(&mut self, lines: &[String]) -> Result<(), String> {
        if lines.is_empty() {
            return Ok(());
        }
        let mut text = lines.join("\n");
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| format!("cannot write to {}: {e}", self.name))?;
        self.lines += lines.len() as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_and_a_cut_line_is_ended() {
        let path = std::env::temp_dir().join(format!("sako-datagen-out-{}", std::process::id()));
        std::fs::write(&path, "a\nb\ncut").expect("write");
        let mut warned = 0;
        let mut out = OutFile::open(&path, &mut |_| warned += 1).expect("open");
        assert_eq!((out.lines, warned), (3, 1));
        out.append(&["c".into(), "d".into()]).expect("append");
        assert_eq!(out.lines, 5);
        let text = std::fs::read_to_string(&path).expect("read");
        let _ = std::fs::remove_file(&path);
        assert_eq!(text, "a\nb\ncut\nc\nd\n");
    }
}
