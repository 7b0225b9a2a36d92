//! Board geometry: sizes, squares, square names, and the board's topology
//! (which one-square steps exist from which square).

/// A square index: `rank * files + file`, both 0-based from White's lower left corner.
pub type Square = usize;

/// Marks "no square" where a square is optional (an absent king, no en-passant target).
pub const NO_SQUARE: Square = 255;

/// The most squares any board of ours has (9x9).
pub const MAX_SQUARES: usize = 81;

/// Which one-square steps exist on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    /// Every orthogonal and diagonal step exists (the chess board).
    Full,
    /// The alquerque grid: orthogonal lines everywhere, diagonal lines only through the
    /// points whose file + rank is even ("D-points"). Chesquerque.
    Alquerque,
}

/// Size of a rectangular board plus its topology.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of files (columns), `a` upwards.
    pub files: usize,
    /// Number of ranks (rows), `1` upwards.
    pub ranks: usize,
    /// Which steps exist.
    pub topology: Topology,
}

impl Geometry {
    /// Number of squares.
    pub fn squares(&self) -> usize {
        self.files * self.ranks
    }

    /// The square at 0-based `file`, `rank`.
    pub fn square(&self, file: usize, rank: usize) -> Square {
        rank * self.files + file
    }

    /// 0-based file of `sq`.
    pub fn file(&self, sq: Square) -> usize {
        sq % self.files
    }

    /// 0-based rank of `sq`.
    pub fn rank(&self, sq: Square) -> usize {
        sq / self.files
    }

    /// The square `df` files and `dr` ranks away from `sq`, if it is on the board.
    pub fn offset(&self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        let f = self.file(sq) as i32 + df;
        let r = self.rank(sq) as i32 + dr;
        if f < 0 || r < 0 || f >= self.files as i32 || r >= self.ranks as i32 {
            None
        } else {
            Some(self.square(f as usize, r as usize))
        }
    }

    /// True when a line is drawn from `sq` one step in direction (`df`, `dr`), each in -1..=1.
    pub fn has_step(&self, sq: Square, df: i32, dr: i32) -> bool {
        if self.offset(sq, df, dr).is_none() {
            return false;
        }
        let diagonal = df != 0 && dr != 0;
        match self.topology {
            Topology::Full => true,
            Topology::Alquerque => !diagonal || self.has_diagonals(sq),
        }
    }

    /// True for points that have diagonal lines (every square on a full board).
    pub fn has_diagonals(&self, sq: Square) -> bool {
        match self.topology {
            Topology::Full => true,
            Topology::Alquerque => (self.file(sq) + self.rank(sq)).is_multiple_of(2),
        }
    }

    /// True for dark squares (a1 is dark).
    pub fn is_dark(&self, sq: Square) -> bool {
        (self.file(sq) + self.rank(sq)).is_multiple_of(2)
    }

    /// The name of `sq`, e.g. `e4` or `j8`.
    pub fn name(&self, sq: Square) -> String {
        let file = (b'a' + self.file(sq) as u8) as char;
        format!("{}{}", file, self.rank(sq) + 1)
    }

    /// Parses a square name such as `e4`; `None` when it is malformed or off the board.
    pub fn parse_square(&self, text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() < 2 || bytes.len() > 3 {
            return None;
        }
        let file = bytes[0].checked_sub(b'a')? as usize;
        let rank: usize = text.get(1..)?.parse().ok()?;
        if file >= self.files || rank == 0 || rank > self.ranks || text[1..].starts_with('0') {
            return None;
        }
        Some(self.square(file, rank - 1))
    }

    /// The file letter of 0-based `file`.
    pub fn file_char(&self, file: usize) -> char {
        (b'a' + file as u8) as char
    }
}

/// The eight line directions as (file step, rank step).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// Bit mask of the four orthogonal directions in [`DIRECTIONS`].
pub const ORTHOGONAL: u8 = 0b0000_1111;
/// Bit mask of the four diagonal directions in [`DIRECTIONS`].
pub const DIAGONAL: u8 = 0b1111_0000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_board() {
        for (files, ranks) in [(8, 8), (9, 9), (10, 8)] {
            let g = Geometry {
                files,
                ranks,
                topology: Topology::Full,
            };
            for sq in 0..g.squares() {
                assert_eq!(g.parse_square(&g.name(sq)), Some(sq));
            }
            assert_eq!(g.parse_square("a0"), None);
            assert_eq!(g.parse_square("z1"), None);
            assert_eq!(g.parse_square("a10"), None);
        }
    }

    #[test]
    fn alquerque_points() {
        let g = Geometry {
            files: 9,
            ranks: 9,
            topology: Topology::Alquerque,
        };
        let d = |s: &str| g.has_diagonals(g.parse_square(s).unwrap());
        assert!(d("a1") && d("e1") && d("h6") && d("f2") && d("c3") && d("c7") && d("g7"));
        assert!(!d("b5") && !d("c2") && !d("f7") && !d("f3") && !d("c4") && !d("g8"));
        let b2 = g.parse_square("b1").unwrap();
        assert!(!g.has_step(b2, 1, 1));
        assert!(g.has_step(b2, 0, 1));
    }
}
