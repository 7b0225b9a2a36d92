//! The evaluation's numbers as one flat vector of (middlegame, endgame) pairs, the form
//! the evaluation reads them in and `sako tune` fits them in. A [`Layout`] says where
//! each part of a variant's [`EvalTables`] lives in the vector and names every entry;
//! [`Layout::flatten`] and [`Layout::unflatten`] convert between the two forms.

use crate::engine::eval::attacks;
use crate::engine::eval::tables::{Curve, EvalTables, Pair, Term, TERM_COUNT};
use crate::rules::compile::{BoardWidth, PieceType, Rules};
use crate::rules::position::Color;
use crate::rules::variant::{variant_id, VariantDef};

/// King danger is counted up to this many units of pressure.
pub const KING_DANGER_UNITS: usize = 25;
/// Mobility tables count up to this many squares.
pub const MAX_MOBILITY: usize = 40;

/// Where each parameter of one variant's evaluation sits in the flat vector.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Squares on the board.
    pub squares: usize,
    /// Piece types.
    pub types: usize,
    /// Index of `piece` values: `value + type`.
    pub value: usize,
    /// Index of the square tables: `pst + type * squares + square` (White's squares).
    pub pst: usize,
    /// Per type: index of its mobility table and the table's length (0: no mobility,
    /// the king and the pawn).
    pub mobility: Vec<(usize, usize)>,
    /// Index of the `pair` bonuses, in the file's order.
    pub pair: usize,
    /// Number of `pair` bonuses.
    pub pairs: usize,
    /// Index of the safe-check bonuses: `safe_check + type`.
    pub safe_check: usize,
    /// Index of the king-danger table: `king_danger + units`.
    pub king_danger: usize,
    /// Index of the passed-pawn table: `passed + distance - 1`.
    pub passed: usize,
    /// Length of the passed-pawn table: the longest way a pawn can have to go.
    pub passed_len: usize,
    /// Index of the named terms: `terms + Term as usize`.
    pub terms: usize,
    /// Length of the vector.
    pub len: usize,
    /// The variant's data.
    def: &'static VariantDef,
}

impl Layout {
    /// The layout of `def`'s variant with `pairs` pair bonuses.
    pub fn new(def: &'static VariantDef, pairs: usize) -> Layout {
        let id = variant_id(def.name).unwrap_or(0);
        let squares = def.geometry.squares();
        let types = def.pieces.len();
        let longest = if squares <= 64 {
            longest_moves(u64::rules(id))
        } else {
            longest_moves(u128::rules(id))
        };
        let value = 0;
        let pst = value + types;
        let mut next = pst + types * squares;
        let mut mobility = Vec::with_capacity(types);
        for &n in &longest {
            let len = if n == 0 { 0 } else { n.min(MAX_MOBILITY) + 1 };
            mobility.push((next, len));
            next += len;
        }
        let pair = next;
        let safe_check = pair + pairs;
        let king_danger = safe_check + types;
        let passed = king_danger + KING_DANGER_UNITS;
        let passed_len = passed_table_len(def);
        let terms = passed + passed_len;
        Layout {
            squares,
            types,
            value,
            pst,
            mobility,
            pair,
            pairs,
            safe_check,
            king_danger,
            passed,
            passed_len,
            terms,
            len: terms + TERM_COUNT,
            def,
        }
    }

    /// The layout that fits `tables`.
    pub fn of(tables: &EvalTables) -> Layout {
        let id = variant_id(tables.variant).unwrap_or(0);
        Layout::new(
            &crate::rules::variant::all_variants()[id],
            tables.pairs.len(),
        )
    }

    /// Index of term `t`.
    pub fn term(&self, t: Term) -> usize {
        self.terms + t as usize
    }

    /// The vector of `tables` (formulas become tables).
    pub fn flatten(&self, tables: &EvalTables) -> Vec<Pair> {
        let mut v = vec![Pair::default(); self.len];
        for (t, p) in tables.pieces.iter().enumerate() {
            v[self.value + t] = p.value;
            v[self.pst + t * self.squares..self.pst + (t + 1) * self.squares]
                .copy_from_slice(&p.pst[..self.squares]);
            let (base, len) = self.mobility[t];
            for n in 0..len {
                v[base + n] = curve_at(&p.mobility, n, |slope| scale(slope, n as i32, 1));
            }
            v[self.safe_check + t] = p.safe_check;
        }
        for (k, &(_, bonus)) in tables.pairs.iter().enumerate() {
            v[self.pair + k] = bonus;
        }
        for u in 0..KING_DANGER_UNITS {
            let units = u as i32;
            v[self.king_danger + u] =
                curve_at(&tables.king_danger, u, |k| scale(k, -units * units, 8));
        }
        let max = self.passed_len as i32;
        for d in 1..=self.passed_len {
            let k = max - d as i32 + 1;
            v[self.passed + d - 1] =
                curve_at(&tables.passed, d - 1, |p| scale(p, k * k, max * max));
        }
        for t in Term::ALL {
            v[self.term(t)] = tables.term(t);
        }
        v
    }

    /// Puts the vector `v` back into `tables` (every curve as a table).
    pub fn unflatten(&self, v: &[Pair], tables: &mut EvalTables) {
        for (t, p) in tables.pieces.iter_mut().enumerate() {
            p.value = v[self.value + t];
            p.pst[..self.squares].copy_from_slice(
                &v[self.pst + t * self.squares..self.pst + (t + 1) * self.squares],
            );
            let (base, len) = self.mobility[t];
            p.mobility = if len == 0 {
                Curve::default()
            } else {
                Curve::Table(v[base..base + len].to_vec())
            };
            p.safe_check = v[self.safe_check + t];
        }
        for (k, pair) in tables.pairs.iter_mut().enumerate() {
            pair.1 = v[self.pair + k];
        }
        tables.king_danger =
            Curve::Table(v[self.king_danger..self.king_danger + KING_DANGER_UNITS].to_vec());
        tables.passed = Curve::Table(v[self.passed..self.passed + self.passed_len].to_vec());
        for t in Term::ALL {
            tables.terms[t as usize] = v[self.term(t)];
        }
    }

    /// The name of entry `i`: `value:N`, `pst:N:e4`, `mobility:N:5`, `pair:B`,
    /// `safe_check:Q`, `king_danger:7`, `passed:3`, `term:tempo`.
    pub fn name(&self, i: usize, pair_types: &[PieceType]) -> String {
        let letter = |t: usize| self.def.pieces[t].letter;
        if i < self.pst {
            return format!("value:{}", letter(i - self.value));
        }
        if i < self.pst + self.types * self.squares {
            let (t, sq) = ((i - self.pst) / self.squares, (i - self.pst) % self.squares);
            let g = self.def.geometry;
            let square = format!("{}{}", g.file_char(g.file(sq)), g.rank(sq) + 1);
            return format!("pst:{}:{square}", letter(t));
        }
        for (t, &(base, len)) in self.mobility.iter().enumerate() {
            if (base..base + len).contains(&i) {
                return format!("mobility:{}:{}", letter(t), i - base);
            }
        }
        if i < self.safe_check {
            let t = pair_types.get(i - self.pair).copied().unwrap_or(0);
            return format!("pair:{}", letter(t));
        }
        if i < self.king_danger {
            return format!("safe_check:{}", letter(i - self.safe_check));
        }
        if i < self.passed {
            return format!("king_danger:{}", i - self.king_danger);
        }
        if i < self.terms {
            return format!("passed:{}", i - self.passed + 1);
        }
        format!("term:{}", Term::ALL[i - self.terms].name())
    }
}

/// Entry `n` of `curve`: the table's (its last one past the end), or `formula` of the
/// one number.
fn curve_at(curve: &Curve, n: usize, formula: impl Fn(Pair) -> Pair) -> Pair {
    match curve {
        Curve::Formula(p) => formula(*p),
        Curve::Table(t) if t.is_empty() => Pair::default(),
        Curve::Table(t) => t[n.min(t.len() - 1)],
    }
}

/// `p * num / den` for both halves.
fn scale(p: Pair, num: i32, den: i32) -> Pair {
    Pair::new(p.mg * num / den, p.eg * num / den)
}

/// The longest way a pawn can have to go to promote: from the first rank.
pub fn passed_table_len(def: &VariantDef) -> usize {
    (def.promotion.rank - 1).max(1)
}

/// Per piece type, the most squares it reaches from any square of an empty board (0 for
/// the king and the pawn, which have no mobility term).
fn longest_moves<B: BoardWidth>(r: &Rules<B>) -> Vec<usize> {
    (0..r.types)
        .map(|t| {
            if t == r.king || Some(t) == r.pawn {
                return 0;
            }
            (0..r.geo.squares())
                .flat_map(|sq| Color::ALL.map(|c| attacks(r, c, t, sq, B::EMPTY).count() as usize))
                .max()
                .unwrap_or(0)
        })
        .collect()
}
