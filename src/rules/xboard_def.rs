//! A variant as XBoard is told about it, from its [`XboardDef`] data: the `setup` and
//! `piece` lines the engine sends after `variant NAME`, and the PGN tags
//! (`[VariantMen]`, `[FEN]` in XBoard's form, `[SetUp]`) that let XBoard read a game
//! file of a game it does not know. Below the protocol and the match runner, which
//! both use it, so that neither imports the other.

use crate::rules::color::Color;
use crate::rules::fen_text::board_cells;
use crate::rules::variant::{VariantDef, XboardDef};

/// What the engine sends after `variant NAME` so that XBoard shows the right board,
/// pieces and holdings for games it does not know itself, made from the variant's
/// [`XboardDef`]. Every line was tried on XBoard 4.9.1
/// (engine-tests/protocol/xboard-notes.md): the piece table puts each letter on the
/// XBoard piece whose image fits, `+7_bughouse` gives Historia hands that hold the king,
/// `_seirawan` with king files `Ee` in the castling field lets XBoard gate the Hia, and
/// `KisO2`/`KisO3` make XBoard move the corner partner when castling. Empty for the
/// games XBoard knows (no `XboardDef`).
pub fn setup_lines(def: &VariantDef) -> Vec<String> {
    let Some(xb) = &def.xboard else {
        return Vec::new();
    };
    let g = def.geometry;
    let mut fen: Vec<&str> = def.start_fen.split(' ').collect();
    if let (Some(field), Some(castling)) = (fen.get_mut(2), xb.castling_field) {
        *field = castling;
    }
    let mut lines = vec![format!(
        "setup ({}{}) {}x{}+{} {}",
        xb.piece_table,
        xb.piece_table.to_ascii_lowercase(),
        g.files,
        g.ranks,
        xb.holdings,
        fen.join(" ")
    )];
    for (letter, betza) in piece_betzas(def, xb) {
        lines.push(format!("piece {letter}& {betza}"));
    }
    lines
}

/// Each piece of the `piece` lines with XBoard's Betza for it, in the lines' order.
fn piece_betzas(def: &VariantDef, xb: &XboardDef) -> Vec<(char, String)> {
    xb.pieces
        .iter()
        .map(|&(letter, own)| {
            let betza = match own {
                Some(b) => b.to_string(),
                None => def
                    .pieces
                    .iter()
                    .find(|p| p.letter == letter)
                    .map_or_else(String::new, |p| xboard_betza(p.betza)),
            };
            (letter, betza)
        })
        .collect()
}

/// The value of the `[VariantMen]` PGN tag XBoard writes for an engine-defined game
/// (`C:RN;K:KisO2`): the `piece` lines, `LETTER:BETZA` joined by `;`. `None` for the
/// games XBoard knows.
pub fn variant_men(def: &VariantDef) -> Option<String> {
    let xb = def.xboard.as_ref()?;
    let men: Vec<String> = piece_betzas(def, xb)
        .into_iter()
        .map(|(letter, betza)| format!("{letter}:{betza}"))
        .collect();
    (!men.is_empty()).then(|| men.join(";"))
}

/// A Betza text as the tested XBoard lines spell it: in each atom the modality (`m`,
/// `c`) comes before the other modifiers (`fmWfcF` is written `mfWcfF`).
pub fn xboard_betza(betza: &str) -> String {
    let mut out = String::new();
    let mut modifiers = String::new();
    for c in betza.chars() {
        if c.is_ascii_lowercase() {
            modifiers.push(c);
            continue;
        }
        out.extend(modifiers.chars().filter(|m| matches!(m, 'm' | 'c')));
        out.extend(modifiers.chars().filter(|m| !matches!(m, 'm' | 'c')));
        modifiers.clear();
        out.push(c);
    }
    out + &modifiers
}

/// A FEN of the variant (sako's form) in the form XBoard reads in a PGN's `[FEN]` tag:
/// the castling field gets, for each side that keeps a castling (or king's leap)
/// right, its king's file letter (`KQkq` becomes `KQEkqe`). XBoard reads `K`/`Q` as
/// "the rook in that corner may castle"; where the corner pieces are no rooks
/// (Paulowich's chancellor and queen) the king's file is what tells it that the king has
/// not moved, which King's Leap needs for the leap. In the games whose `setup` line gives
/// a castling field of king files (`Ee`, Shatar's Hia gate), a side's letter is kept
/// while its king stands on its start square. sako's FEN reader reads both forms. The
/// other fields, and the FEN of a game XBoard knows, are unchanged.
pub fn xboard_fen(def: &VariantDef, fen: &str) -> String {
    let Some(xb) = &def.xboard else {
        return fen.to_string();
    };
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    let Some(board) = fields.first() else {
        return fen.to_string();
    };
    let kings = king_files(board, def);
    let start_kings = def
        .start_fen
        .split_whitespace()
        .next()
        .map(|b| king_squares(b, def))
        .unwrap_or_default();
    let here = king_squares(board, def);
    let Some(field) = fields.get_mut(2) else {
        return fen.to_string();
    };
    let mut out = String::new();
    for color in [Color::White, Color::Black] {
        let is_side = |c: &char| {
            c.is_ascii_alphabetic() && (c.is_ascii_uppercase() == (color == Color::White))
        };
        let i = color.index();
        if let Some(letters) = xb.castling_field {
            let home = here[i].is_some() && here[i] == start_kings.get(i).copied().flatten();
            if home {
                out.extend(letters.chars().filter(is_side));
            }
            continue;
        }
        let rights: String = field.chars().filter(is_side).collect();
        out.push_str(&rights);
        if let (false, Some(file)) = (rights.is_empty(), kings[i]) {
            let file = if color == Color::White {
                file.to_ascii_uppercase()
            } else {
                file
            };
            if !rights.contains(file) {
                out.push(file);
            }
        }
    }
    *field = if out.is_empty() { "-".to_string() } else { out };
    fields.join(" ")
}

/// Each side's king square on a FEN board field, as (file, rank from the top).
fn king_squares(board: &str, def: &VariantDef) -> [Option<(usize, usize)>; 2] {
    let board = board.split('[').next().unwrap_or(board);
    let mut out = [None, None];
    let Some(king) = def.pieces.iter().find(|p| p.royal).map(|p| p.letter) else {
        return out;
    };
    let Ok(cells) = board_cells(board) else {
        return out;
    };
    for (rank, row) in cells.iter().enumerate() {
        for (file, cell) in row.iter().enumerate() {
            match cell {
                Some(c) if *c == king => out[0] = Some((file, rank)),
                Some(c) if *c == king.to_ascii_lowercase() => out[1] = Some((file, rank)),
                _ => {}
            }
        }
    }
    out
}

/// Each side's king file letter (lowercase) on a FEN board field.
fn king_files(board: &str, def: &VariantDef) -> [Option<char>; 2] {
    king_squares(board, def).map(|sq| sq.map(|(f, _)| char::from(b'a' + f as u8)))
}

/// The PGN tags XBoard needs to read a game of this variant from `start_fen` (sako's
/// form): `VariantMen`, `FEN` in XBoard's form ([`xboard_fen`]) and `SetUp`, in that
/// order. Empty for the games XBoard knows itself (chess keeps a plain PGN), which
/// get a `FEN` tag only from a position other than their start, as PGN wants.
pub fn pgn_tags(def: &VariantDef, start_fen: &str) -> Vec<(&'static str, String)> {
    let Some(men) = variant_men(def) else {
        return Vec::new();
    };
    vec![
        ("VariantMen", men),
        ("FEN", xboard_fen(def, start_fen)),
        ("SetUp", "1".to_string()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{all_variants, variant_id};

    fn def(name: &str) -> &'static VariantDef {
        &all_variants()[variant_id(name).expect("variant")]
    }

    #[test]
    fn betza_modality_first() {
        assert_eq!(xboard_betza("fmWfcF"), "mfWcfF");
        assert_eq!(xboard_betza("RN"), "RN");
    }

    #[test]
    fn start_fens_in_xboard_form() {
        let start = |n: &str| xboard_fen(def(n), def(n).start_fen);
        assert_eq!(
            start("chancellor"),
            "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w KQEkqe - 0 1"
        );
        assert!(
            start("chancellorx").contains(" w KQEkqd "),
            "{}",
            start("chancellorx")
        );
        assert!(start("shatarhia").contains("[Hh] w Ee "));
        assert!(start("historia").contains(" w - "));
        assert_eq!(start("normal"), def("normal").start_fen);
        // A king that moved keeps no letter.
        let moved = xboard_fen(
            def("shatarhia"),
            "rnbqkbnr/ppp1pppp/8/3p4/3P4/3K4/PPP1PPPP/RNBQ1BNR[Hh] b - - 1 1",
        );
        assert!(moved.contains(" b e "), "{moved}");
    }

    #[test]
    fn variant_men_from_piece_lines() {
        assert_eq!(
            variant_men(def("chancellor")).as_deref(),
            Some("C:RN;K:KisO2")
        );
        assert_eq!(variant_men(def("great")), None);
        assert!(pgn_tags(def("normal"), def("normal").start_fen).is_empty());
    }
}
