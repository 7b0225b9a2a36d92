//! The binary training-data format (`--format bin`): a 32-byte header, then fixed
//! 80-byte records, each one position with its score and result. The layout, byte by
//! byte, is in `docs/datagen.md`; in short (all numbers little-endian):
//!
//! ```text
//! header  0  8  magic "SAKODATA"
//!         8  4  version (1)
//!        12  4  record size (80)
//!        16 16  variant name, NUL-padded
//! record  0 16  occupancy: bit s set when square s holds a piece (s = rank·files + file)
//!        16 28  the occupied squares' piece codes in square order, 5 bits each, LSB first
//!               (code = 2·type + colour, type = index in the variant's piece list)
//!        44 20  pieces in hand: byte 10·colour + type
//!        64  1  side to move (0 White, 1 Black)
//!        65  1  result for White (0 Black won, 1 draw, 2 White won)
//!        66  1  en-passant square (255: none)
//!        67  1  variant id (index in `sako variants`)
//!        68  4  castling letters: bit 0 K, 1 Q, 2 k, 3 q, 4+f file letter f upper
//!               case, 14+f lower case (f = 0 for a/A .. 9 for j/J)
//!        72  2  halfmove clock
//!        74  2  fullmove number
//!        76  2  score, centipawns for White (i16)
//!        78  2  reserved, 0
//! ```
//!
//! A record holds everything a FEN does, so a position is rebuilt exactly: decoding
//! writes the FEN and the variant's FEN reader checks it, refusing what is not a
//! position of the game (two kings of a side, the side not to move in check, a pawn on
//! its promotion rank, ...).

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::record::Record;
use crate::rules::position::fen_board_cells;
use crate::rules::position::outcome::GameResult;
use crate::rules::variant::{all_variants, variant_id, VariantDef};

/// The first eight bytes of a binary data file.
pub const MAGIC: &[u8; 8] = b"SAKODATA";
/// The format version written and read.
pub const VERSION: u32 = 1;
/// Bytes of the header.
pub const HEADER_SIZE: usize = 32;
/// Bytes of every record.
pub const RECORD_SIZE: usize = 80;
/// Most pieces a record holds on the board.
pub const MAX_BOARD_PIECES: usize = 44;
/// Scores are clamped to this many centipawns either way.
pub const SCORE_LIMIT: i32 = 32000;

const HAND_TYPES: usize = 10;

/// True when `bytes` (a file's start) is a binary data file's.
pub fn is_binary(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// True when the file at `path` starts with the binary magic (false when it cannot be
/// read: the text reader will say why).
pub fn file_is_binary(path: &Path) -> bool {
    let mut head = [0u8; 8];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .map(|()| is_binary(&head))
        .unwrap_or(false)
}

/// The header of a file of `variant`'s records.
pub fn header(variant: &str) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    let name = variant.as_bytes();
    let n = name.len().min(16);
    h[16..16 + n].copy_from_slice(&name[..n]);
    h
}

/// Reads a header: the variant's id, or why the bytes are not a header of this format.
pub fn parse_header(h: &[u8], name: &str) -> Result<usize, String> {
    if h.len() < HEADER_SIZE {
        return Err(format!(
            "{name}: too short for a sako binary data header ({} of {HEADER_SIZE} bytes)",
            h.len()
        ));
    }
    if !is_binary(h) {
        return Err(format!(
            "{name}: not a sako binary data file (no SAKODATA magic)"
        ));
    }
    let word = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    if word(8) != VERSION {
        return Err(format!(
            "{name}: binary data version {} (this sako reads version {VERSION})",
            word(8)
        ));
    }
    if word(12) as usize != RECORD_SIZE {
        return Err(format!(
            "{name}: record size {} (this sako reads {RECORD_SIZE})",
            word(12)
        ));
    }
    let raw = &h[16..32];
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    let variant = std::str::from_utf8(&raw[..end]).unwrap_or("");
    variant_id(variant).ok_or_else(|| format!("{name}: unknown variant '{variant}' in the header"))
}

/// The type of the FEN letter `c` in `def` (either case).
fn type_of_letter(def: &VariantDef, c: char) -> Option<usize> {
    let up = c.to_ascii_uppercase();
    def.pieces.iter().position(|p| p.letter == up)
}

/// The castling bit of letter `c`.
fn castling_bit(c: char) -> Option<u32> {
    match c {
        'K' => Some(0),
        'Q' => Some(1),
        'k' => Some(2),
        'q' => Some(3),
        'A'..='J' => Some(4 + (c as u32 - 'A' as u32)),
        'a'..='j' => Some(14 + (c as u32 - 'a' as u32)),
        _ => None,
    }
}

/// The castling field of bits `bits`.
fn castling_text(bits: u32) -> String {
    let mut s = String::new();
    for (bit, c) in [(0, 'K'), (1, 'Q')] {
        if bits & (1 << bit) != 0 {
            s.push(c);
        }
    }
    for f in 0..10 {
        if bits & (1 << (4 + f)) != 0 {
            s.push((b'A' + f as u8) as char);
        }
    }
    for (bit, c) in [(2, 'k'), (3, 'q')] {
        if bits & (1 << bit) != 0 {
            s.push(c);
        }
    }
    for f in 0..10 {
        if bits & (1 << (14 + f)) != 0 {
            s.push((b'a' + f as u8) as char);
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// The result byte.
fn result_byte(r: GameResult) -> u8 {
    match r {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    }
}

/// Encodes `r` (a position of variant `id`) as a record. The FEN is read only as text
/// here (the position was legal when it was played or read).
pub fn encode(id: usize, r: &Record) -> Result<[u8; RECORD_SIZE], String> {
    let def = all_variants()
        .get(id)
        .ok_or_else(|| format!("no variant {id}"))?;
    let geo = def.geometry;
    let bad = |why: &str| format!("cannot encode '{}': {why}", r.fen);
    let fields: Vec<&str> = r.fen.split_whitespace().collect();
    let placement = *fields.first().ok_or_else(|| bad("empty FEN"))?;
    let (board, holdings) = match placement.find('[') {
        Some(i) => (
            &placement[..i],
            placement[i + 1..]
                .strip_suffix(']')
                .ok_or_else(|| bad("holdings not closed"))?,
        ),
        None => (placement, ""),
    };
    let mut rec = [0u8; RECORD_SIZE];
    let cells = fen_board_cells(board).map_err(|e| bad(&e.to_string()))?;
    if cells.len() != geo.ranks {
        return Err(bad("wrong number of ranks"));
    }
    let mut occupancy = 0u128;
    let mut codes: Vec<u8> = Vec::new();
    let mut squares: Vec<(usize, u8)> = Vec::new();
    for (i, row) in cells.iter().enumerate() {
        if row.len() != geo.files {
            return Err(bad("a rank of the wrong length"));
        }
        let rank = geo.ranks - 1 - i;
        for (file, cell) in row.iter().enumerate() {
            if let Some(c) = cell {
                let t = type_of_letter(def, *c).ok_or_else(|| bad("unknown piece"))?;
                let color = u8::from(!c.is_ascii_uppercase());
                squares.push((geo.square(file, rank), (2 * t) as u8 + color));
            }
        }
    }
    squares.sort_unstable();
    if squares.len() > MAX_BOARD_PIECES {
        return Err(bad("more than 44 pieces on the board"));
    }
    for &(sq, code) in &squares {
        occupancy |= 1u128 << sq;
        codes.push(code);
    }
    rec[0..16].copy_from_slice(&occupancy.to_le_bytes());
    for (k, &code) in codes.iter().enumerate() {
        let bit = 5 * k;
        let v = (code as u16) << (bit % 8);
        rec[16 + bit / 8] |= v as u8;
        if bit % 8 > 3 {
            rec[16 + bit / 8 + 1] |= (v >> 8) as u8;
        }
    }
    for c in holdings.chars().filter(|&c| c != '-') {
        let t = type_of_letter(def, c).ok_or_else(|| bad("unknown piece in hand"))?;
        let i = 44 + HAND_TYPES * usize::from(!c.is_ascii_uppercase()) + t;
        rec[i] = rec[i].checked_add(1).ok_or_else(|| bad("hand overflow"))?;
    }
    rec[64] = match fields.get(1).copied().unwrap_or("w") {
        "w" | "W" => 0,
        "b" | "B" => 1,
        _ => return Err(bad("bad side to move")),
    };
    rec[65] = result_byte(r.result);
    rec[66] = match fields.get(3).copied().unwrap_or("-") {
        "-" => 255,
        s => geo
            .parse_square(s)
            .ok_or_else(|| bad("bad en-passant square"))? as u8,
    };
    rec[67] = id as u8;
    let mut castling = 0u32;
    let field = fields.get(2).copied().unwrap_or("-");
    if field != "-" {
        for c in field.chars() {
            castling |= 1 << castling_bit(c).ok_or_else(|| bad("bad castling letter"))?;
        }
    }
    rec[68..72].copy_from_slice(&castling.to_le_bytes());
    let number = |i: usize, default: u32| -> Result<u16, String> {
        match fields.get(i) {
            None => Ok(default as u16),
            Some(t) => t
                .parse::<u32>()
                .map(|n| n.min(u16::MAX as u32) as u16)
                .map_err(|_| bad("bad counter")),
        }
    };
    rec[72..74].copy_from_slice(&number(4, 0)?.to_le_bytes());
    rec[74..76].copy_from_slice(&number(5, 1)?.to_le_bytes());
    let score = r.score.clamp(-SCORE_LIMIT, SCORE_LIMIT) as i16;
    rec[76..78].copy_from_slice(&score.to_le_bytes());
    Ok(rec)
}

/// Decodes a record of variant `id` back to a [`Record`] (its FEN in sako's FEN). Only
/// the layout is checked here (codes, squares, bytes); see [`decode_checked`].
pub fn decode(id: usize, rec: &[u8]) -> Result<Record, String> {
    let def = all_variants()
        .get(id)
        .ok_or_else(|| format!("no variant {id}"))?;
    if rec.len() != RECORD_SIZE {
        return Err(format!(
            "a record is {RECORD_SIZE} bytes, not {}",
            rec.len()
        ));
    }
    if rec[67] as usize != id {
        return Err(format!(
            "record of variant {} in a file of {}",
            rec[67], def.name
        ));
    }
    let geo = def.geometry;
    let types = def.pieces.len();
    let occupancy = u128::from_le_bytes(rec[0..16].try_into().expect("16 bytes"));
    if geo.squares() < 128 && occupancy >> geo.squares() != 0 {
        return Err("a piece off the board".into());
    }
    if occupancy.count_ones() as usize > MAX_BOARD_PIECES {
        return Err("more than 44 pieces".into());
    }
    let letter = |code: u8| -> Result<char, String> {
        let t = (code / 2) as usize;
        if t >= types {
            return Err(format!("piece code {code} not of {}", def.name));
        }
        let c = def.pieces[t].letter;
        Ok(if code.is_multiple_of(2) {
            c
        } else {
            c.to_ascii_lowercase()
        })
    };
    let mut board = vec![None; geo.squares()];
    let mut k = 0;
    for (sq, cell) in board.iter_mut().enumerate() {
        if occupancy & (1u128 << sq) != 0 {
            let bit = 5 * k;
            let two =
                rec[16 + bit / 8] as u16 | (*rec.get(16 + bit / 8 + 1).unwrap_or(&0) as u16) << 8;
            *cell = Some(letter(((two >> (bit % 8)) & 31) as u8)?);
            k += 1;
        }
    }
    let mut fen = String::new();
    for rank in (0..geo.ranks).rev() {
        let mut empty = 0;
        for file in 0..geo.files {
            match board[geo.square(file, rank)] {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        fen += &empty.to_string();
                        empty = 0;
                    }
                    fen.push(c);
                }
            }
        }
        if empty > 0 {
            fen += &empty.to_string();
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let hands = &rec[44..64];
    if hands.iter().any(|&n| n > 0) {
        fen.push('[');
        for color in 0..2 {
            for t in (0..HAND_TYPES).rev() {
                let n = hands[HAND_TYPES * color + t];
                if n > 0 && t >= types {
                    return Err(format!("a piece in hand not of {}", def.name));
                }
                for _ in 0..n {
                    fen.push(letter((2 * t + color) as u8)?);
                }
            }
        }
        fen.push(']');
    }
    fen += match rec[64] {
        0 => " w ",
        1 => " b ",
        s => return Err(format!("side to move {s}")),
    };
    let castling = u32::from_le_bytes(rec[68..72].try_into().expect("4 bytes"));
    if castling >> 24 != 0 {
        return Err("bad castling bits".into());
    }
    fen += &castling_text(castling);
    fen.push(' ');
    match rec[66] {
        255 => fen.push('-'),
        sq if (sq as usize) < geo.squares() => fen += &geo.name(sq as usize),
        sq => return Err(format!("en-passant square {sq} off the board")),
    }
    let word = |i: usize| u16::from_le_bytes([rec[i], rec[i + 1]]);
    fen += &format!(" {} {}", word(72), word(74));
    let result = match rec[65] {
        0 => GameResult::BlackWins,
        1 => GameResult::Draw,
        2 => GameResult::WhiteWins,
        r => return Err(format!("result byte {r}")),
    };
    Ok(Record {
        fen,
        score: i16::from_le_bytes([rec[76], rec[77]]) as i32,
        result,
    })
}

/// [`decode`], then the FEN read by the variant's rules: an error when the record is
/// not a legal position of its game. The FEN returned is sako's own writing of it.
pub fn decode_checked(id: usize, rec: &[u8]) -> Result<Record, String> {
    let mut r = decode(id, rec)?;
    let def = &all_variants()[id];
    let game = crate::Game::new(def.name, Some(&r.fen))
        .map_err(|e| format!("not a position of {}: {e} ({})", def.name, r.fen))?;
    r.fen = game.fen();
    Ok(r)
}

/// A binary file read whole: its variant and its records (a partial last record is
/// reported, not read).
pub struct BinFile {
    /// The variant's id.
    pub variant: usize,
    /// The bytes of the records.
    pub bytes: Vec<u8>,
    /// Bytes of a partial record at the end (0 when the file is whole).
    pub partial: usize,
}

impl BinFile {
    /// Reads the file at `path`.
    pub fn read(path: &Path) -> Result<BinFile, String> {
        let name = path.display().to_string();
        let mut bytes = std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        let variant = parse_header(&bytes, &name)?;
        bytes.drain(..HEADER_SIZE);
        let partial = bytes.len() % RECORD_SIZE;
        bytes.truncate(bytes.len() - partial);
        Ok(BinFile {
            variant,
            bytes,
            partial,
        })
    }

    /// The number of whole records.
    pub fn len(&self) -> usize {
        self.bytes.len() / RECORD_SIZE
    }

    /// True when no record is there.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The records, decoded (layout checked only).
    pub fn records(&self) -> impl Iterator<Item = Result<Record, String>> + '_ {
        self.bytes
            .chunks_exact(RECORD_SIZE)
            .map(move |c| decode(self.variant, c))
    }
}

/// Opens a binary file of variant `variant` for appending: writes the header of a new
/// (or empty) file, checks an existing one's, cuts a partial last record off
/// (`warn` hears about it) and returns the file and its number of records.
pub fn open_for_append(
    path: &Path,
    variant: &str,
    warn: &mut dyn FnMut(&str),
) -> Result<(std::fs::File, u64), String> {
    let name = path.display().to_string();
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {name} for appending: {e}"))?;
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read {name}: {e}"))?
        .len() as usize;
    let want = header(variant);
    let mut head = vec![0u8; len.min(HEADER_SIZE)];
    file.read_exact(&mut head)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if len < HEADER_SIZE {
        if head[..] != want[..head.len()] {
            return Err(format!(
                "{name}: not a sako binary data file of {variant} (its first bytes differ)"
            ));
        }
        if len > 0 {
            warn(&format!(
                "{name}: the header was cut short; writing it again"
            ));
        }
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)).map(|_| ()))
            .and_then(|()| file.write_all(&want))
            .map_err(|e| format!("cannot write to {name}: {e}"))?;
        return Ok((file, 0));
    }
    let id = parse_header(&head, &name)?;
    if all_variants()[id].name != variant {
        return Err(format!(
            "{name} holds {} positions, not {variant}",
            all_variants()[id].name
        ));
    }
    let body = len - HEADER_SIZE;
    let partial = body % RECORD_SIZE;
    if partial != 0 {
        warn(&format!(
            "{name}: a partial record of {partial} bytes at the end (an interrupted write?); cutting it off"
        ));
        file.set_len((len - partial) as u64)
            .map_err(|e| format!("cannot write to {name}: {e}"))?;
    }
    file.seek(SeekFrom::End(0))
        .map_err(|e| format!("cannot write to {name}: {e}"))?;
    Ok((file, (body / RECORD_SIZE) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(variant: &str, fen: &str) {
        let id = variant_id(variant).unwrap();
        let canon = crate::Game::new(variant, Some(fen)).unwrap().fen();
        let r = Record {
            fen: canon.clone(),
            score: -123,
            result: GameResult::WhiteWins,
        };
        let rec = encode(id, &r).unwrap();
        let back = decode_checked(id, &rec).unwrap();
        assert_eq!(back, r, "{variant}");
    }

    #[test]
    fn every_start_position_round_trips() {
        for def in all_variants() {
            round_trip(def.name, def.start_fen);
        }
        round_trip(
            "normal",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        );
    }

    #[test]
    fn headers_are_checked() {
        let h = header("chancellor");
        assert_eq!(
            parse_header(&h, "f"),
            variant_id("chancellor").ok_or(String::new())
        );
        assert!(parse_header(&h[..20], "f").is_err());
        let mut bad = h;
        bad[8] = 9;
        assert!(parse_header(&bad, "f").unwrap_err().contains("version"));
        assert!(parse_header(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB", "f").is_err());
    }

    #[test]
    fn illegal_records_are_refused() {
        let id = variant_id("normal").unwrap();
        let r = Record {
            fen: "4k3/8/8/8/8/8/8/4K2R w K - 0 1".into(),
            score: 0,
            result: GameResult::Draw,
        };
        let good = encode(id, &r).unwrap();
        assert!(decode_checked(id, &good).is_ok());
        // Two white kings.
        let two = Record {
            fen: "4k3/8/8/8/8/8/8/3KK2R w K - 0 1".into(),
            ..r.clone()
        };
        assert!(decode_checked(id, &encode(id, &two).unwrap()).is_err());
        // Black to move would leave White in check: White to move while Black is in check.
        let check = Record {
            fen: "4k3/8/8/8/8/8/8/4K2R w - - 0 1".into(),
            ..r.clone()
        };
        let mut rec = encode(id, &check).unwrap();
        // Move the rook to e1's file: e-file rook on e2 gives check to the black king.
        rec[64] = 0;
        assert!(decode_checked(id, &rec).is_ok());
        let checking = Record {
            fen: "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1".into(),
            ..r.clone()
        };
        assert!(decode_checked(id, &encode(id, &checking).unwrap()).is_err());
        let pawn = Record {
            fen: "P3k3/8/8/8/8/8/8/4K3 b - - 0 1".into(),
            ..r.clone()
        };
        assert!(decode_checked(id, &encode(id, &pawn).unwrap()).is_err());
        // Layout faults: a bad result byte, a piece code the game does not have.
        let mut bad = good;
        bad[65] = 7;
        assert!(decode(id, &bad).is_err());
        let mut bad = good;
        bad[16] = 31;
        assert!(decode(id, &bad).is_err());
    }
}
