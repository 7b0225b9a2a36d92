//! Reading and writing `.nnue` files (the format is in `docs/nnue.md`), with a typed
//! error for every way a file can be wrong.

use std::fmt;
use std::path::Path;

use crate::rules::position::accumulator::HAND_INPUTS;

/// The first eight bytes of a net file.
pub const MAGIC: &[u8; 8] = b"SAKONNUE";
/// The format version this engine reads and writes.
pub const VERSION: u32 = 1;
/// Smallest and largest hidden-layer width accepted.
pub const WIDTH_RANGE: (usize, usize) = (8, 4096);

/// A net file's contents, with the numbers as stored (quantised).
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    /// The games it is for (sako variant names).
    pub games: Vec<String>,
    /// Piece types, squares and hand inputs per type of its input layer.
    pub types: usize,
    /// Squares of the board.
    pub squares: usize,
    /// Hand inputs per piece type (must be [`HAND_INPUTS`]).
    pub hand: usize,
    /// Hidden-layer width `H`.
    pub width: usize,
    /// Input columns, input-major (`inputs · H`).
    pub columns: Vec<i16>,
    /// Hidden-layer bias (`H`).
    pub bias: Vec<i16>,
    /// Output weights: `H` for the side to move, then `H` for the other side.
    pub out_weights: Vec<i16>,
    /// Output bias.
    pub out_bias: i32,
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io(String),
    /// The file does not start with `SAKONNUE`.
    NotANet,
    /// A version this engine does not read.
    Version(u32),
    /// The file ends before its numbers do (`needed` bytes, `found`).
    Truncated {
        /// Bytes the header promises.
        needed: usize,
        /// Bytes in the file.
        found: usize,
    },
    /// Bytes after the last number.
    TrailingBytes(usize),
    /// A header field out of range.
    BadHeader(String),
    /// The net is not made for the game being played.
    WrongGame {
        /// The game being played.
        game: String,
        /// The games the file names.
        games: Vec<String>,
    },
    /// The net's input layer does not fit the game's board and pieces.
    WrongShape(String),
    /// The file names a game sako does not know.
    UnknownGame(String),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read it: {e}"),
            NetError::NotANet => write!(f, "not a sako net (no SAKONNUE header)"),
            NetError::Version(v) => write!(f, "format version {v}; this sako reads {VERSION}"),
            NetError::Truncated { needed, found } => {
                write!(f, "truncated: {found} bytes, the header promises {needed}")
            }
            NetError::TrailingBytes(n) => write!(f, "{n} bytes after the last weight"),
            NetError::BadHeader(e) => write!(f, "bad header: {e}"),
            NetError::WrongGame { game, games } => {
                write!(f, "made for {}, not {game}", games.join(", "))
            }
            NetError::WrongShape(e) => write!(f, "does not fit the game: {e}"),
            NetError::UnknownGame(g) => write!(f, "made for '{g}', a game sako does not know"),
        }
    }
}

impl std::error::Error for NetError {}

/// Reads little-endian numbers from a byte slice, remembering how far it got.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(NetError::Truncated {
            needed: self.at.saturating_add(n),
            found: self.bytes.len(),
        })?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, NetError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetError> {
        let b = self.take(n.saturating_mul(2))?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl NetFile {
    /// Inputs per point of view.
    pub fn inputs(&self) -> usize {
        2 * self.types * (self.squares + self.hand)
    }

    /// Parses a net file's bytes.
    pub fn parse(bytes: &[u8]) -> Result<NetFile, NetError> {
        let mut r = Reader { bytes, at: 0 };
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::NotANet);
        }
        r.take(MAGIC.len())?;
        let version = r.u32()?;
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let len = r.u32()? as usize;
        if len > 4096 {
            return Err(NetError::BadHeader(format!("a games text of {len} bytes")));
        }
        let text = std::str::from_utf8(r.take(len)?)
            .map_err(|_| NetError::BadHeader("the games text is not UTF-8".into()))?;
        let games: Vec<String> = text.split(',').map(|g| g.trim().to_string()).collect();
        let mut dims = [0usize; 4];
        for d in &mut dims {
            *d = r.u32()? as usize;
        }
        let [types, squares, hand, width] = dims;
        check_header(types, squares, hand, width)?;
        let inputs = 2 * types * (squares + hand);
        let columns = r.i16s(inputs * width)?;
        let bias = r.i16s(width)?;
        let out_weights = r.i16s(2 * width)?;
        let b = r.take(4)?;
        let out_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if r.at != bytes.len() {
            return Err(NetError::TrailingBytes(bytes.len() - r.at));
        }
        Ok(NetFile {
            games,
            types,
            squares,
            hand,
            width,
            columns,
            bias,
            out_weights,
            out_bias,
        })
    }

    /// Reads and parses the file at `path`.
    pub fn read(path: &Path) -> Result<NetFile, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(e.to_string()))?;
        NetFile::parse(&bytes)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 2 * (self.columns.len() + 3 * self.width));
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        let games = self.games.join(",");
        b.extend_from_slice(&(games.len() as u32).to_le_bytes());
        b.extend_from_slice(games.as_bytes());
        for d in [self.types, self.squares, self.hand, self.width] {
            b.extend_from_slice(&(d as u32).to_le_bytes());
        }
        for v in self
            .columns
            .iter()
            .chain(&self.bias)
            .chain(&self.out_weights)
        {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b.extend_from_slice(&self.out_bias.to_le_bytes());
        b
    }
}

fn check_header(types: usize, squares: usize, hand: usize, width: usize) -> Result<(), NetError> {
    let bad = |e: String| Err(NetError::BadHeader(e));
    if !(1..=crate::rules::compile::MAX_TYPES).contains(&types) {
        return bad(format!("{types} piece types"));
    }
    if !(1..=crate::rules::geometry::MAX_SQUARES).contains(&squares) {
        return bad(format!("{squares} squares"));
    }
    if hand != HAND_INPUTS {
        return bad(format!(
            "{hand} hand inputs per type (this sako uses {HAND_INPUTS})"
        ));
    }
    if width < WIDTH_RANGE.0 || width > WIDTH_RANGE.1 || !width.is_multiple_of(8) {
        return bad(format!(
            "hidden width {width} (a multiple of 8 from {} to {})",
            WIDTH_RANGE.0, WIDTH_RANGE.1
        ));
    }
    Ok(())
}
