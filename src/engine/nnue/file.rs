//! Reading and writing `.nnue` files (the format is in `docs/nnue.md`), with a typed
//! error for every way a file can be wrong.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use crate::rules::position::accumulator::HAND_INPUTS;
use crate::rules::position::KingBuckets;

/// The first eight bytes of a net file.
pub const MAGIC: &[u8; 8] = b"SAKONNUE";
/// The newest format version this engine reads and writes (it reads every version from 1).
pub const VERSION: u32 = 5;
/// Smallest and largest hidden-layer width accepted.
pub const WIDTH_RANGE: (usize, usize) = (8, 4096);
/// Most output buckets a version-2 file may have.
pub const MAX_BUCKETS: usize = 16;
/// Most king buckets a version-3 file may have.
pub const MAX_KING_BUCKETS: usize = 64;
/// Centipawns per unit of the output in versions 1 to 3 (version 4 stores its own).
pub const DEFAULT_OUTPUT_SCALE: u32 = 400;
/// Largest output scale a version-4 file may have.
pub const MAX_OUTPUT_SCALE: u32 = 10_000;
/// Most entries of a version-5 material-scale table.
pub const MAX_MATERIAL_ENTRIES: usize = 512;
/// A material-scale entry's unit: 1024 leaves the evaluation as it is.
pub const MATERIAL_UNIT: u16 = 1024;
/// Largest material-scale entry (four times the evaluation).
pub const MAX_MATERIAL_FACTOR: u16 = 4 * MATERIAL_UNIT;

/// The hidden layer's activation `σ`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// `min(max(x, 0), 1)`: code 0, and the only one of version 1.
    #[default]
    ClippedRelu,
    /// `min(max(x, 0), 1)²`: code 1.
    SquaredClippedRelu,
}

impl Activation {
    /// The code a version-2 file stores.
    pub fn code(self) -> u32 {
        match self {
            Activation::ClippedRelu => 0,
            Activation::SquaredClippedRelu => 1,
        }
    }

    /// The activation of a stored code, if it is one.
    pub fn from_code(code: u32) -> Option<Activation> {
        match code {
            0 => Some(Activation::ClippedRelu),
            1 => Some(Activation::SquaredClippedRelu),
            _ => None,
        }
    }
}

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
    /// Version 3's king buckets (`None`: one set of columns, versions 1 and 2).
    pub kings: Option<KingBuckets>,
    /// Input columns, bucket-major then input-major (`king buckets · inputs · H`);
    /// shared with every network made from the file, not copied.
    pub columns: Arc<[i16]>,
    /// Hidden-layer bias (`H`).
    pub bias: Vec<i16>,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// Output buckets `O` (1 to [`MAX_BUCKETS`]).
    pub buckets: usize,
    /// Bucket divisor `D` (at least 1): a position with `n` active inputs per view is
    /// evaluated by bucket `min(n / D, O − 1)`.
    pub divisor: usize,
    /// Output weights, `2H` per bucket (bucket `b`'s at `b · 2H`): `H` for the side to
    /// move, then `H` for the other side.
    pub out_weights: Vec<i16>,
    /// Output bias of each bucket.
    pub out_bias: Vec<i32>,
    /// Centipawns per unit of the output `y` ([`DEFAULT_OUTPUT_SCALE`] before version 4).
    pub output_scale: u32,
    /// Version 5's material scale: entry `n` (in 1/[`MATERIAL_UNIT`]) multiplies the
    /// evaluation of a position with `n` active inputs per view, the last entry every
    /// larger count (`None`: every evaluation as the output gives it, versions 1 to 4).
    pub material_scale: Option<Vec<u16>>,
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
    /// A version-2 activation code other than 0 and 1.
    UnknownActivation(u32),
    /// A version-2 bucket count outside 1 to [`MAX_BUCKETS`].
    BadBuckets(u32),
    /// A version-2 bucket divisor of 0.
    BadDivisor(u32),
    /// Version 3's king buckets out of range (the royal type, the count or the map).
    BadKingBuckets(String),
    /// A version-4 output scale outside 1 to [`MAX_OUTPUT_SCALE`].
    BadOutputScale(u32),
    /// A version-5 material-scale table out of range (its length or an entry).
    BadMaterialScale(String),
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
            NetError::Version(v) => {
                write!(f, "format version {v}; this sako reads 1 to {VERSION}")
            }
            NetError::Truncated { needed, found } => {
                write!(f, "truncated: {found} bytes, the header promises {needed}")
            }
            NetError::TrailingBytes(n) => write!(f, "{n} bytes after the last weight"),
            NetError::BadHeader(e) => write!(f, "bad header: {e}"),
            NetError::UnknownActivation(a) => {
                write!(
                    f,
                    "bad header: activation code {a} (0 clipped ReLU, 1 squared)"
                )
            }
            NetError::BadBuckets(o) => {
                write!(f, "bad header: {o} output buckets (1 to {MAX_BUCKETS})")
            }
            NetError::BadDivisor(d) => write!(f, "bad header: bucket divisor {d} (at least 1)"),
            NetError::BadKingBuckets(e) => write!(f, "bad header: king buckets: {e}"),
            NetError::BadOutputScale(s) => write!(
                f,
                "bad header: output scale {s} centipawns (1 to {MAX_OUTPUT_SCALE})"
            ),
            NetError::BadMaterialScale(e) => write!(f, "bad header: material scale: {e}"),
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

    fn i32(&mut self) -> Result<i32, NetError> {
        let b = self.take(4)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
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

    /// The version [`NetFile::to_bytes`] writes: 5 for a net with a material-scale table,
    /// else 4 for a net whose output scale is not [`DEFAULT_OUTPUT_SCALE`], else 3 for a
    /// net with king buckets, 1 for a net version 1 can hold (the clipped ReLU, one
    /// bucket, divisor 1), else 2.
    pub fn version(&self) -> u32 {
        let v1 = (self.activation, self.buckets, self.divisor) == (Activation::ClippedRelu, 1, 1);
        if self.material_scale.is_some() {
            5
        } else if self.output_scale != DEFAULT_OUTPUT_SCALE {
            4
        } else if self.kings.is_some() {
            3
        } else if v1 {
            1
        } else {
            2
        }
    }

    /// The games a net file's header names, read without parsing its weights.
    pub fn games_of(bytes: &[u8]) -> Result<Vec<String>, NetError> {
        let (mut r, _) = open(bytes)?;
        read_games(&mut r)
    }

    /// Parses a net file's bytes (version 1 to 5).
    pub fn parse(bytes: &[u8]) -> Result<NetFile, NetError> {
        let (mut r, version) = open(bytes)?;
        let games = read_games(&mut r)?;
        let mut dims = [0usize; 4];
        for d in &mut dims {
            *d = r.u32()? as usize;
        }
        let [types, squares, hand, width] = dims;
        check_header(types, squares, hand, width)?;
        let (activation, buckets, divisor) = match version {
            1 => (Activation::ClippedRelu, 1, 1),
            _ => read_output_header(&mut r)?,
        };
        let output_scale = match version {
            4 | 5 => read_output_scale(&mut r)?,
            _ => DEFAULT_OUTPUT_SCALE,
        };
        let kings = match version {
            3 => Some(read_king_buckets(&mut r, types, squares)?),
            4 | 5 => match r.u32()? {
                0 => None,
                1 => Some(read_king_buckets(&mut r, types, squares)?),
                flag => return Err(NetError::BadKingBuckets(format!("presence flag {flag}"))),
            },
            _ => None,
        };
        let material_scale = match version {
            5 => Some(read_material_scale(&mut r)?),
            _ => None,
        };
        let sets = kings.as_ref().map_or(1, |k| k.count);
        let inputs = 2 * types * (squares + hand);
        let columns = r.i16s(sets * inputs * width)?.into();
        let bias = r.i16s(width)?;
        let (mut out_weights, mut out_bias) = (Vec::new(), Vec::new());
        for _ in 0..buckets {
            out_weights.extend(r.i16s(2 * width)?);
            out_bias.push(r.i32()?);
        }
        if r.at != bytes.len() {
            return Err(NetError::TrailingBytes(bytes.len() - r.at));
        }
        Ok(NetFile {
            games,
            types,
            squares,
            hand,
            width,
            kings,
            columns,
            bias,
            activation,
            buckets,
            divisor,
            out_weights,
            out_bias,
            output_scale,
            material_scale,
        })
    }

    /// Reads and parses the file at `path`.
    pub fn read(path: &Path) -> Result<NetFile, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(e.to_string()))?;
        NetFile::parse(&bytes)
    }

    /// The file's bytes, in the version [`NetFile::version`] names.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + 2 * (self.columns.len() + self.out_weights.len()));
        b.extend_from_slice(MAGIC);
        let version = self.version();
        b.extend_from_slice(&version.to_le_bytes());
        let games = self.games.join(",");
        b.extend_from_slice(&(games.len() as u32).to_le_bytes());
        b.extend_from_slice(games.as_bytes());
        let mut header = vec![self.types, self.squares, self.hand, self.width];
        if version >= 2 {
            let code = self.activation.code() as usize;
            header.extend([code, self.buckets, self.divisor]);
        }
        if version >= 4 {
            header.extend([
                self.output_scale as usize,
                usize::from(self.kings.is_some()),
            ]);
        }
        if let Some(k) = &self.kings {
            header.extend([k.royal, k.count]);
        }
        for d in header {
            b.extend_from_slice(&(d as u32).to_le_bytes());
        }
        if let Some(k) = &self.kings {
            b.extend_from_slice(&k.map);
        }
        if let Some(table) = &self.material_scale {
            b.extend_from_slice(&(table.len() as u32).to_le_bytes());
            for v in table {
                b.extend_from_slice(&v.to_le_bytes());
            }
        }
        for v in self.columns.iter().chain(&self.bias) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let per_bucket = self.out_weights.chunks(2 * self.width.max(1));
        for (weights, bias) in per_bucket.zip(&self.out_bias) {
            for v in weights {
                b.extend_from_slice(&v.to_le_bytes());
            }
            b.extend_from_slice(&bias.to_le_bytes());
        }
        b
    }
}

/// A reader past a net file's magic and version, and that version (checked).
fn open(bytes: &[u8]) -> Result<(Reader<'_>, u32), NetError> {
    let mut r = Reader { bytes, at: 0 };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(NetError::NotANet);
    }
    r.take(MAGIC.len())?;
    let version = r.u32()?;
    if !(1..=VERSION).contains(&version) {
        return Err(NetError::Version(version));
    }
    Ok((r, version))
}

/// The games text: its length, then comma-separated names.
fn read_games(r: &mut Reader<'_>) -> Result<Vec<String>, NetError> {
    let len = r.u32()? as usize;
    if len > 4096 {
        return Err(NetError::BadHeader(format!("a games text of {len} bytes")));
    }
    let text = std::str::from_utf8(r.take(len)?)
        .map_err(|_| NetError::BadHeader("the games text is not UTF-8".into()))?;
    Ok(text.split(',').map(|g| g.trim().to_string()).collect())
}

/// Version 2's activation code, bucket count and divisor, checked.
fn read_output_header(r: &mut Reader<'_>) -> Result<(Activation, usize, usize), NetError> {
    let code = r.u32()?;
    let activation = Activation::from_code(code).ok_or(NetError::UnknownActivation(code))?;
    let buckets = r.u32()?;
    if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
        return Err(NetError::BadBuckets(buckets));
    }
    let divisor = r.u32()?;
    if divisor == 0 {
        return Err(NetError::BadDivisor(divisor));
    }
    Ok((activation, buckets as usize, divisor as usize))
}

/// Version 4's output scale, checked.
fn read_output_scale(r: &mut Reader<'_>) -> Result<u32, NetError> {
    check_output_scale(r.u32()?)
}

/// `scale` if it is a valid output scale (1 to [`MAX_OUTPUT_SCALE`]), whether read from a
/// file or set in code.
pub(super) fn check_output_scale(scale: u32) -> Result<u32, NetError> {
    if (1..=MAX_OUTPUT_SCALE).contains(&scale) {
        Ok(scale)
    } else {
        Err(NetError::BadOutputScale(scale))
    }
}

/// Version 5's material-scale table: its length, then the entries, checked.
fn read_material_scale(r: &mut Reader<'_>) -> Result<Vec<u16>, NetError> {
    let len = check_material_entries(r.u32()? as usize)?;
    let table: Vec<u16> = r
        .take(2 * len)?
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    check_material_factors(&table)?;
    Ok(table)
}

/// `table` if it is a valid material scale (1 to [`MAX_MATERIAL_ENTRIES`] entries, each 1
/// to [`MAX_MATERIAL_FACTOR`]), whether read from a file or set in code.
pub(super) fn check_material_scale(table: &[u16]) -> Result<(), NetError> {
    check_material_entries(table.len())?;
    check_material_factors(table)
}

/// Every entry of a material scale between 1 and [`MAX_MATERIAL_FACTOR`].
fn check_material_factors(table: &[u16]) -> Result<(), NetError> {
    match table
        .iter()
        .position(|&v| !(1..=MAX_MATERIAL_FACTOR).contains(&v))
    {
        Some(n) => Err(NetError::BadMaterialScale(format!(
            "entry {n} is {} (1 to {MAX_MATERIAL_FACTOR}, in 1/{MATERIAL_UNIT})",
            table[n]
        ))),
        None => Ok(()),
    }
}

/// `len` if a material scale may have that many entries (checked before a file's entries
/// are read, so that a huge count is named as such rather than as a truncated file).
fn check_material_entries(len: usize) -> Result<usize, NetError> {
    if (1..=MAX_MATERIAL_ENTRIES).contains(&len) {
        Ok(len)
    } else {
        Err(NetError::BadMaterialScale(format!(
            "{len} entries (1 to {MAX_MATERIAL_ENTRIES})"
        )))
    }
}

/// Version 3's royal type, king bucket count and bucket map (one byte per square), checked.
fn read_king_buckets(
    r: &mut Reader<'_>,
    types: usize,
    squares: usize,
) -> Result<KingBuckets, NetError> {
    let bad = |e: String| Err(NetError::BadKingBuckets(e));
    let royal = r.u32()? as usize;
    if royal >= types {
        return bad(format!("royal piece type {royal} of {types} types"));
    }
    let count = r.u32()? as usize;
    if !(1..=MAX_KING_BUCKETS).contains(&count) {
        return bad(format!("{count} buckets (1 to {MAX_KING_BUCKETS})"));
    }
    let map = r.take(squares)?.to_vec();
    if let Some(sq) = map.iter().position(|&b| usize::from(b) >= count) {
        return bad(format!("square {sq} in bucket {} of {count}", map[sq]));
    }
    Ok(KingBuckets { royal, count, map })
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
