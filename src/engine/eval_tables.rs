//! Evaluation tables as data: one human-editable text file per variant in
//! `eval-tables/<variant>.txt`, built into the binary as defaults and replaceable at run
//! time by a directory of files of the same names.
//!
//! # The text format
//!
//! A file is a list of lines. `#` starts a comment that runs to the end of the line;
//! blank lines are ignored. Every number is an integer in centipawns (a pawn is about
//! 100). "MG" is the middlegame value, "EG" the endgame value; the evaluation blends the
//! two by the game phase (see `piece`). Piece letters are the variant's FEN letters,
//! uppercase (`sako variants` and the rules files list them). The statements are:
//!
//! * `piece X MG EG PHASE` — the material value of piece `X` and its weight in the game
//!   phase. The phase is the sum of the weights of all pieces on the board and in hand;
//!   its value in the variant's start position counts as "full middlegame", zero as
//!   "pure endgame". Every piece of the variant needs exactly one `piece` line (the
//!   king's value is not used, write 0).
//! * `pst X mg`, `pst X eg` or `pst X both` — a piece-square table for `X`, followed by
//!   one row per rank with one number per file. The first row is the rank furthest
//!   from White (rank 8 on 8x8 boards), so the block looks like the board seen by White,
//!   files `a` on the left. The numbers are added to the piece's value for White; Black
//!   uses the same table mirrored top to bottom. A missing table counts as all zeros.
//! * `mobility X MG EG` — added per square that a piece `X` could move to or capture on
//!   (its moves from the move tables, ignoring pins and whose turn it is).
//! * `pair X MG EG` — bonus for a side that has pieces `X` on both square colours (the
//!   bishop pair; Great Shatranj's elephants on both colours).
//! * `term NAME MG EG` — one of the named terms below (missing terms count as 0):
//!   - `tempo`: bonus for the side to move.
//!   - `doubled_pawn`: penalty (write it negative) per pawn behind another own pawn on
//!     its file; `isolated_pawn`: per pawn with no own pawn on a neighbouring file.
//!   - `passed_pawn`: bonus for a passed pawn one step from promotion; a passed pawn
//!     further back gets a share that falls with the square of its distance from the
//!     promotion rank (the variant's own promotion rank).
//!   - `king_shelter`: per own pawn on the three squares in front of the king, or
//!     two ranks in front of it (half).
//!   - `king_attack`: per unit of enemy pressure on the squares next to the king: each
//!     enemy piece that attacks them adds one unit per attacked square, and the
//!     penalty grows with the square of the units (divided by 8).
//!   - `hand_piece`: per piece still in hand (Historia's deployment, the Hia), on top of
//!     its material value.
//!   - `deploy_king_cover`: while a side still has pieces to drop, per own piece or pawn
//!     next to its king.
//!   - `mop_up`: when one side has a bare king and the other can still force a win,
//!     the stronger side gets this many centipawns per step of the bare king away
//!     from the centre, and a fifth of it per step the kings come closer.
//!
//! A mistake (an unknown statement, letter or term, a row of the wrong length, a
//! missing `piece` line) is an error naming the file and line; the engine never ignores
//! a broken table.

use std::path::Path;

use crate::rules::compile::MAX_TYPES;
use crate::rules::geometry::MAX_SQUARES;
use crate::rules::variant::VariantDef;

/// A middlegame and an endgame value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pair {
    /// Middlegame value.
    pub mg: i32,
    /// Endgame value.
    pub eg: i32,
}

impl Pair {
    /// Both values.
    pub const fn new(mg: i32, eg: i32) -> Pair {
        Pair { mg, eg }
    }
}

/// The named scalar terms of a table file.
#[derive(Clone, Copy, Debug, Default)]
pub struct Terms {
    /// Bonus for the side to move.
    pub tempo: Pair,
    /// Per doubled pawn (negative).
    pub doubled_pawn: Pair,
    /// Per isolated pawn (negative).
    pub isolated_pawn: Pair,
    /// Passed pawn one step from promotion.
    pub passed_pawn: Pair,
    /// Per pawn sheltering the king.
    pub king_shelter: Pair,
    /// Scale of the king-attack penalty.
    pub king_attack: Pair,
    /// Per piece in hand, on top of its value.
    pub hand_piece: Pair,
    /// Per own unit next to the king during deployment.
    pub deploy_king_cover: Pair,
    /// Driving a bare king to the edge.
    pub mop_up: Pair,
}

const TERM_NAMES: [&str; 9] = [
    "tempo",
    "doubled_pawn",
    "isolated_pawn",
    "passed_pawn",
    "king_shelter",
    "king_attack",
    "hand_piece",
    "deploy_king_cover",
    "mop_up",
];

impl Terms {
    fn slot(&mut self, name: &str) -> Option<&mut Pair> {
        Some(match name {
            "tempo" => &mut self.tempo,
            "doubled_pawn" => &mut self.doubled_pawn,
            "isolated_pawn" => &mut self.isolated_pawn,
            "passed_pawn" => &mut self.passed_pawn,
            "king_shelter" => &mut self.king_shelter,
            "king_attack" => &mut self.king_attack,
            "hand_piece" => &mut self.hand_piece,
            "deploy_king_cover" => &mut self.deploy_king_cover,
            "mop_up" => &mut self.mop_up,
            _ => return None,
        })
    }
}

/// The tables of one piece type.
#[derive(Clone, Debug)]
pub struct PieceTable {
    /// Material value.
    pub value: Pair,
    /// Weight in the game phase.
    pub phase: i32,
    /// Piece-square bonus for White, indexed by square (`rank * files + file`).
    pub pst: Vec<Pair>,
    /// Per-square mobility weight.
    pub mobility: Pair,
}

/// A variant's evaluation tables as read from a file.
#[derive(Clone, Debug)]
pub struct EvalTables {
    /// Variant name.
    pub variant: &'static str,
    /// Where the tables came from (a path, or `embedded:<variant>.txt`).
    pub source: String,
    /// Per piece type, in the variant's type order.
    pub pieces: Vec<PieceTable>,
    /// `pair` bonuses: piece type and value.
    pub pairs: Vec<(usize, Pair)>,
    /// Named terms.
    pub terms: Terms,
}

/// The embedded default table text of a variant, if there is one.
pub fn embedded_text(variant: &str) -> Option<&'static str> {
    Some(match variant {
        "normal" => include_str!("../../eval-tables/normal.txt"),
        "chancellor" => include_str!("../../eval-tables/chancellor.txt"),
        "chancellorx" => include_str!("../../eval-tables/chancellorx.txt"),
        "kingsleap" => include_str!("../../eval-tables/kingsleap.txt"),
        "great" => include_str!("../../eval-tables/great.txt"),
        "historia" => include_str!("../../eval-tables/historia.txt"),
        "shatarhia" => include_str!("../../eval-tables/shatarhia.txt"),
        "shatar" => include_str!("../../eval-tables/shatar.txt"),
        "chesquerque" => include_str!("../../eval-tables/chesquerque.txt"),
        _ => return None,
    })
}

impl EvalTables {
    /// The built-in tables of `def`'s variant.
    pub fn embedded(def: &'static VariantDef) -> Result<EvalTables, String> {
        let text = embedded_text(def.name)
            .ok_or_else(|| format!("no embedded evaluation table for {}", def.name))?;
        parse(def, text, &format!("embedded:{}.txt", def.name))
    }

    /// The tables of `def`'s variant: `DIR/<variant>.txt` when `dir` is given and that
    /// file exists, else the built-in ones. A directory that does not exist, a file
    /// that cannot be read and a file with a mistake are errors.
    pub fn load(def: &'static VariantDef, dir: Option<&Path>) -> Result<EvalTables, String> {
        let Some(dir) = dir else {
            return EvalTables::embedded(def);
        };
        if !dir.is_dir() {
            return Err(format!(
                "evaluation table directory {} does not exist",
                dir.display()
            ));
        }
        let path = dir.join(format!("{}.txt", def.name));
        if !path.exists() {
            return EvalTables::embedded(def);
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        parse(def, &text, &path.display().to_string())
    }
}

/// Reads a table file's text for variant `def`; `source` names it in error messages.
pub fn parse(def: &'static VariantDef, text: &str, source: &str) -> Result<EvalTables, String> {
    let files = def.geometry.files;
    let ranks = def.geometry.ranks;
    let types = def.pieces.len();
    let letter_type = |word: &str, line: usize| -> Result<usize, String> {
        let mut chars = word.chars();
        let found = match (chars.next(), chars.next()) {
            (Some(c), None) => def
                .pieces
                .iter()
                .position(|p| p.letter == c.to_ascii_uppercase()),
            _ => None,
        };
        found.ok_or_else(|| {
            format!(
                "{source}:{line}: '{word}' is not a piece letter of {} (letters: {})",
                def.name,
                def.pieces.iter().map(|p| p.letter).collect::<String>()
            )
        })
    };
    let int = |word: &str, line: usize| -> Result<i32, String> {
        word.parse::<i32>()
            .ok()
            .filter(|v| v.abs() <= 100_000)
            .ok_or_else(|| format!("{source}:{line}: '{word}' is not a number (-100000..100000)"))
    };

    let mut values: Vec<Option<(Pair, i32)>> = vec![None; types];
    let mut pst = vec![vec![Pair::default(); MAX_SQUARES]; types];
    let mut mobility = vec![Pair::default(); types];
    let mut pairs = Vec::new();
    let mut terms = Terms::default();

    let lines: Vec<(usize, Vec<&str>)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let content = l.split('#').next().unwrap_or("");
            (i + 1, content.split_whitespace().collect::<Vec<_>>())
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let mut i = 0;
    while i < lines.len() {
        let (line, words) = &lines[i];
        let line = *line;
        i += 1;
        let want = |n: usize| -> Result<(), String> {
            if words.len() == n {
                Ok(())
            } else {
                Err(format!(
                    "{source}:{line}: '{}' takes {} words, found {}",
                    words[0],
                    n,
                    words.len()
                ))
            }
        };
        match words[0] {
            "piece" => {
                want(5)?;
                let t = letter_type(words[1], line)?;
                if values[t].is_some() {
                    return Err(format!(
                        "{source}:{line}: second 'piece' line for {}",
                        words[1]
                    ));
                }
                let v = Pair::new(int(words[2], line)?, int(words[3], line)?);
                let phase = int(words[4], line)?;
                if phase < 0 {
                    return Err(format!("{source}:{line}: the phase weight must not be negative"));
                }
                values[t] = Some((v, phase));
            }
            "mobility" => {
                want(4)?;
                let t = letter_type(words[1], line)?;
                mobility[t] = Pair::new(int(words[2], line)?, int(words[3], line)?);
            }
            "pair" => {
                want(4)?;
                let t = letter_type(words[1], line)?;
                pairs.push((t, Pair::new(int(words[2], line)?, int(words[3], line)?)));
            }
            "term" => {
                want(4)?;
                let mg = int(words[2], line)?;
                let eg = int(words[3], line)?;
                let slot = terms.slot(words[1]).ok_or_else(|| {
                    format!(
                        "{source}:{line}: unknown term '{}' (known: {})",
                        words[1],
                        TERM_NAMES.join(", ")
                    )
                })?;
                *slot = Pair::new(mg, eg);
            }
            "pst" => {
                want(3)?;
                let t = letter_type(words[1], line)?;
                let (set_mg, set_eg) = match words[2] {
                    "mg" => (true, false),
                    "eg" => (false, true),
                    "both" => (true, true),
                    other => {
                        return Err(format!(
                            "{source}:{line}: expected mg, eg or both after 'pst {}', found '{other}'",
                            words[1]
                        ))
                    }
                };
                for row in 0..ranks {
                    let Some((row_line, cells)) = lines.get(i) else {
                        return Err(format!(
                            "{source}:{line}: the table for {} needs {ranks} rows, the file ends after {row}",
                            words[1]
                        ));
                    };
                    if cells.len() != files {
                        return Err(format!(
                            "{source}:{row_line}: a table row needs {files} numbers, found {}",
                            cells.len()
                        ));
                    }
                    let rank = ranks - 1 - row;
                    for (file, cell) in cells.iter().enumerate() {
                        let v = int(cell, *row_line)?;
                        let p = &mut pst[t][rank * files + file];
                        if set_mg {
                            p.mg = v;
                        }
                        if set_eg {
                            p.eg = v;
                        }
                    }
                    i += 1;
                }
            }
            other => {
                return Err(format!(
                    "{source}:{line}: unknown statement '{other}' (expected piece, pst, mobility, pair or term)"
                ))
            }
        }
    }
    let mut pieces = Vec::with_capacity(types);
    for t in 0..types {
        let (value, phase) = values[t].ok_or_else(|| {
            format!(
                "{source}: no 'piece {} ...' line (every piece of {} needs one)",
                def.pieces[t].letter, def.name
            )
        })?;
        pieces.push(PieceTable {
            value,
            phase,
            pst: std::mem::take(&mut pst[t]),
            mobility: mobility[t],
        });
    }
    debug_assert!(pieces.len() <= MAX_TYPES);
    Ok(EvalTables {
        variant: def.name,
        source: source.to_string(),
        pieces,
        pairs,
        terms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::variant::{all_variants, variant_id};

    #[test]
    fn every_embedded_table_parses() {
        for def in all_variants() {
            let t = EvalTables::embedded(def).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(t.pieces.len(), def.pieces.len());
        }
    }

    #[test]
    fn mistakes_name_file_and_line() {
        let def = &all_variants()[variant_id("normal").unwrap()];
        let e = parse(def, "piece P 100 100 0\npiece X 1 1 1\n", "t.txt").unwrap_err();
        assert!(e.starts_with("t.txt:2:"), "{e}");
        let e = parse(def, "# c\n\nterm nonsense 1 2\n", "t.txt").unwrap_err();
        assert!(e.starts_with("t.txt:3:"), "{e}");
        let e = parse(def, "pst P mg\n1 2 3\n", "t.txt").unwrap_err();
        assert!(e.starts_with("t.txt:2:"), "{e}");
        let e = parse(def, "piece P 100 100 0\n", "t.txt").unwrap_err();
        assert!(e.contains("no 'piece N"), "{e}");
    }

    #[test]
    fn tables_are_oriented_as_seen_by_white() {
        let def = &all_variants()[variant_id("normal").unwrap()];
        let mut text = String::from(
            "piece P 1 1 0\npiece N 1 1 0\npiece B 1 1 0\npiece R 1 1 0\npiece Q 1 1 0\npiece K 0 0 0\npst N mg\n",
        );
        text += "8 0 0 0 0 0 0 0\n";
        for _ in 0..6 {
            text += "0 0 0 0 0 0 0 0\n";
        }
        text += "0 0 0 0 0 0 0 1\n";
        let t = parse(def, &text, "t").unwrap();
        let n = &t.pieces[1].pst;
        assert_eq!(n[7].mg, 1); // h1
        assert_eq!(n[56].mg, 8); // a8
        assert_eq!(n[56].eg, 0);
    }

    #[test]
    fn chancellor_games_use_paulowichs_own_table() {
        // David Paulowich's chancellor bonus table for GNU Chess, index 0 = a1.
        const PAULOWICH: [i32; 64] = [
            0, 2, 4, 6, 6, 4, 2, 0, 2, 4, 6, 8, 8, 6, 4, 2, 4, 6, 8, 10, 10, 8, 6, 4, 6, 8, 10, 10,
            10, 10, 8, 6, 6, 8, 10, 10, 10, 10, 8, 6, 4, 6, 8, 10, 10, 8, 6, 4, 2, 4, 6, 8, 8, 6,
            4, 2, 0, 2, 4, 6, 6, 4, 2, 0,
        ];
        for name in ["chancellor", "chancellorx", "kingsleap"] {
            let def = &all_variants()[variant_id(name).unwrap()];
            let t = EvalTables::embedded(def).unwrap();
            let c = def.pieces.iter().position(|p| p.letter == 'C').unwrap();
            for (sq, &v) in PAULOWICH.iter().enumerate() {
                assert_eq!(t.pieces[c].pst[sq].mg, v, "{name} square {sq}");
                assert_eq!(t.pieces[c].pst[sq].eg, v, "{name} square {sq}");
            }
        }
    }
}
