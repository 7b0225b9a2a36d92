//! XBoard's FEN and square spellings and the colour map of highlighted squares (the
//! `setup` and piece lines sent after `variant NAME` are in [`crate::rules::xboard_def`]).

use crate::rules::position::Color;
use crate::rules::variant::{all_variants, variant_id};

/// (file, rank) of a square name on a board of `files` x `ranks`, both 0-based.
pub(super) fn parse_xboard_square(
    text: &str,
    files: usize,
    ranks: usize,
) -> Option<(usize, usize)> {
    let mut chars = text.chars();
    let f = chars.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let file = (f as u8 - b'a') as usize;
    let rank: usize = chars.as_str().parse().ok()?;
    if file >= files || rank == 0 || rank > ranks {
        return None;
    }
    Some((file, rank - 1))
}

/// Turns a FEN as XBoard sends it into ours. XBoard only knows rooks as castling
/// partners, so in games whose partners are other pieces (the chancellor games: the
/// corner queen and chancellor) it writes rights that name the wrong corner (`Qq` for
/// the start position). There any castling letter of a colour is read as all of that
/// colour's castlings; the FEN reader keeps only those whose king and partner still
/// stand at home. (XBoard sends a FEN only at the start or after editing a position,
/// when no such piece has moved and come back.)
pub(super) fn from_xboard_fen(variant: &str, fen: &str) -> String {
    let Some(id) = variant_id(variant) else {
        return fen.trim().to_string();
    };
    let def = &all_variants()[id];
    if def.castling.iter().all(|c| c.partner_piece == 'R') {
        return fen.trim().to_string();
    }
    let mut fields: Vec<String> = fen.split_whitespace().map(String::from).collect();
    if let Some(rights) = fields.get_mut(2) {
        if rights != "-" {
            let white = rights.chars().any(|c| c.is_ascii_uppercase());
            let black = rights.chars().any(|c| c.is_ascii_lowercase());
            let mut all = String::new();
            for c in &def.castling {
                if (c.color == Color::White && white) || (c.color == Color::Black && black) {
                    all.push(c.flag);
                }
            }
            *rights = if all.is_empty() { "-".to_string() } else { all };
        }
    }
    fields.join(" ")
}

/// The board of `highlight` marks (`'.'` unmarked) in FEN's row notation: runs of
/// unmarked squares as digits, rows from the top separated by `/`.
pub(super) fn highlight_fen(marks: &[Vec<char>]) -> String {
    let mut colorfen = String::new();
    for (i, row) in marks.iter().enumerate() {
        let mut empty = 0;
        for &c in row {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    colorfen += &empty.to_string();
                    empty = 0;
                }
                colorfen.push(c);
            }
        }
        if empty > 0 {
            colorfen += &empty.to_string();
        }
        if i + 1 < marks.len() {
            colorfen.push('/');
        }
    }
    colorfen
}
