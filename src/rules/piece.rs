//! Piece movement as data: a subset of Betza's funny notation, parsed into move rules.
//!
//! Supported atoms: `W F D N A C Z K R B Q` (a digit after an atom limits a rider's range,
//! `W0`/`F0` make riders). Modifiers before an atom: `m` (move only), `c` (capture only),
//! `f b l r v s` (forward, backward, left, right, vertical, sideways: a union when
//! several are given), `n` (lame: every square on the way must be empty), `i` (only
//! from the piece's initial squares). Chesquerque's two-step moves are written
//! `t[WF]` (orthogonal step, then a diagonal step outward) and `t[FW]` (diagonal, then
//! orthogonal outward); both are lame.
//!
//! Offsets are from White's point of view (`f` = towards rank 8); Black's moves are the
//! same rules mirrored vertically.

/// Whether a move may go to an empty square, capture, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modality {
    /// Move to an empty square or capture.
    Both,
    /// Only to an empty square.
    MoveOnly,
    /// Only capturing.
    CaptureOnly,
}

impl Modality {
    /// True when the move may end on an empty square.
    pub fn quiet(self) -> bool {
        self != Modality::CaptureOnly
    }
    /// True when the move may capture.
    pub fn captures(self) -> bool {
        self != Modality::MoveOnly
    }
}

/// The geometric shape of one move rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A jump by (`df`, `dr`); whatever stands in between does not matter.
    Leap(i32, i32),
    /// A sequence of one-square steps; every square before the last must be empty and
    /// every step must exist on the board's topology.
    Path(Vec<(i32, i32)>),
    /// An unlimited slide in direction (`df`, `dr`), each a unit step.
    Ride(i32, i32),
}

/// One way a piece moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRule {
    /// Where it goes.
    pub shape: Shape,
    /// Move, capture or both.
    pub modality: Modality,
    /// Only from the piece's initial squares (a pawn's double step).
    pub initial: bool,
}

/// Why a Betza string was rejected; each kind carries the whole string (`text`).
/// `Display` gives the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BetzaError {
    /// A lowercase modifier outside the supported set.
    UnsupportedModifier {
        /// The modifier.
        modifier: char,
        /// The Betza string.
        text: String,
    },
    /// Modifiers with no atom after them.
    EndsWithModifiers {
        /// The Betza string.
        text: String,
    },
    /// A `t[..]` two-step other than `t[WF]` and `t[FW]`.
    UnsupportedTwoStep {
        /// The form as written (up to five characters).
        spec: String,
        /// The Betza string.
        text: String,
    },
    /// An atom outside the supported set.
    UnsupportedAtom {
        /// The atom.
        atom: char,
        /// The Betza string.
        text: String,
    },
    /// Forward/backward and left/right modifiers on one atom (such as `fl`).
    CompoundDirections {
        /// The Betza string.
        text: String,
    },
    /// Direction modifiers that keep none of the atom's moves.
    NoMoveSelected {
        /// The Betza string.
        text: String,
    },
}

impl std::fmt::Display for BetzaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BetzaError::UnsupportedModifier { modifier, text } => {
                write!(f, "unsupported Betza modifier '{modifier}' in {text}")
            }
            BetzaError::EndsWithModifiers { text } => {
                write!(f, "Betza string {text} ends with modifiers")
            }
            BetzaError::UnsupportedTwoStep { spec, text } => {
                write!(f, "unsupported two-step form at {spec} in {text}")
            }
            BetzaError::UnsupportedAtom { atom, text } => {
                write!(f, "unsupported Betza atom '{atom}' in {text}")
            }
            BetzaError::CompoundDirections { text } => write!(
                f,
                "compound directions (such as fl) are not supported in {text}"
            ),
            BetzaError::NoMoveSelected { text } => {
                write!(f, "direction modifiers select no move in {text}")
            }
        }
    }
}

impl std::error::Error for BetzaError {}

/// The message text, for callers whose errors are still strings (so `?` works there).
impl From<BetzaError> for String {
    fn from(e: BetzaError) -> String {
        e.to_string()
    }
}

/// Parses a Betza string into move rules (White's point of view).
pub fn parse_betza(text: &str) -> Result<Vec<MoveRule>, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let mut rules = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let mut modality = Modality::Both;
        let mut dirs = String::new();
        let mut lame = false;
        let mut initial = false;
        // modifiers
        while i < chars.len() && chars[i].is_ascii_lowercase() && chars[i] != 't' {
            match chars[i] {
                'm' => modality = Modality::MoveOnly,
                'c' => modality = Modality::CaptureOnly,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' => dirs.push(chars[i]),
                'n' => lame = true,
                'i' => initial = true,
                other => {
                    return Err(BetzaError::UnsupportedModifier {
                        modifier: other,
                        text: text.to_string(),
                    })
                }
            }
            i += 1;
        }
        if i >= chars.len() {
            return Err(BetzaError::EndsWithModifiers {
                text: text.to_string(),
            });
        }
        if chars[i] == 't' {
            // t[XY]: two unit steps, the second outward
            let spec: String = chars[i..].iter().take(5).collect();
            let shapes = match spec.as_str() {
                "t[WF]" => two_step(true),
                "t[FW]" => two_step(false),
                _ => {
                    return Err(BetzaError::UnsupportedTwoStep {
                        spec,
                        text: text.to_string(),
                    })
                }
            };
            i += 5;
            push_filtered(&mut rules, shapes, &dirs, modality, initial, text)?;
            continue;
        }
        let atom = chars[i];
        i += 1;
        let mut range: Option<u32> = None;
        if i < chars.len() && chars[i].is_ascii_digit() {
            range = chars[i].to_digit(10);
            i += 1;
        }
        let shapes = atom_shapes(atom, range, lame).ok_or_else(|| BetzaError::UnsupportedAtom {
            atom,
            text: text.to_string(),
        })?;
        push_filtered(&mut rules, shapes, &dirs, modality, initial, text)?;
    }
    Ok(rules)
}

fn push_filtered(
    rules: &mut Vec<MoveRule>,
    shapes: Vec<Shape>,
    dirs: &str,
    modality: Modality,
    initial: bool,
    text: &str,
) -> Result<(), BetzaError> {
    let forward_back = dirs.contains('f') || dirs.contains('b');
    let left_right = dirs.contains('l') || dirs.contains('r');
    if forward_back && left_right {
        return Err(BetzaError::CompoundDirections {
            text: text.to_string(),
        });
    }
    let before = rules.len();
    for shape in shapes {
        let (df, dr) = net_offset(&shape);
        if dirs.is_empty() || dirs.chars().any(|d| direction_matches(d, df, dr)) {
            rules.push(MoveRule {
                shape,
                modality,
                initial,
            });
        }
    }
    if rules.len() == before {
        return Err(BetzaError::NoMoveSelected {
            text: text.to_string(),
        });
    }
    Ok(())
}

fn direction_matches(d: char, df: i32, dr: i32) -> bool {
    match d {
        'f' => dr > 0,
        'b' => dr < 0,
        'l' => df < 0,
        'r' => df > 0,
        'v' => dr.abs() > df.abs(),
        's' => df.abs() > dr.abs(),
        _ => false,
    }
}

/// Net displacement of a move shape (for rides, the direction).
pub fn net_offset(shape: &Shape) -> (i32, i32) {
    match shape {
        Shape::Leap(df, dr) | Shape::Ride(df, dr) => (*df, *dr),
        Shape::Path(steps) => steps.iter().fold((0, 0), |(a, b), (x, y)| (a + x, b + y)),
    }
}

/// The 8 (or 4) symmetric offsets of a leap (x, y).
fn symmetric(x: i32, y: i32) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for (a, b) in [(x, y), (y, x)] {
        for sa in [1, -1] {
            for sb in [1, -1] {
                let o = (a * sa, b * sb);
                if !out.contains(&o) {
                    out.push(o);
                }
            }
        }
    }
    out
}

fn atom_shapes(atom: char, range: Option<u32>, lame: bool) -> Option<Vec<Shape>> {
    let leap = |x: i32, y: i32| -> Vec<Shape> {
        symmetric(x, y)
            .into_iter()
            .map(|(df, dr)| {
                if lame {
                    Shape::Path(lame_path(df, dr))
                } else if df.abs() <= 1 && dr.abs() <= 1 {
                    Shape::Path(vec![(df, dr)])
                } else {
                    Shape::Leap(df, dr)
                }
            })
            .collect()
    };
    let ride = |x: i32, y: i32, range: Option<u32>| -> Vec<Shape> {
        symmetric(x, y)
            .into_iter()
            .flat_map(|(df, dr)| match range {
                None | Some(0) => vec![Shape::Ride(df, dr)],
                Some(n) => (1..=n as usize)
                    .map(|k| Shape::Path(vec![(df, dr); k]))
                    .collect(),
            })
            .collect()
    };
    let shapes = match atom {
        'W' if range == Some(0) => ride(1, 0, None),
        'F' if range == Some(0) => ride(1, 1, None),
        'W' => leap(1, 0),
        'F' => leap(1, 1),
        'D' => leap(2, 0),
        'N' => leap(2, 1),
        'A' => leap(2, 2),
        'C' => leap(3, 1),
        'Z' => leap(3, 2),
        'K' => [leap(1, 0), leap(1, 1)].concat(),
        'R' => ride(1, 0, range),
        'B' => ride(1, 1, range),
        'Q' => [ride(1, 0, range), ride(1, 1, range)].concat(),
        _ => return None,
    };
    Some(shapes)
}

/// The unit steps of a lame leap: a straight line for D and A, orthogonal then diagonal
/// for N (the xiangqi horse).
fn lame_path(df: i32, dr: i32) -> Vec<(i32, i32)> {
    if df.abs() == dr.abs() || df == 0 || dr == 0 {
        let n = df.abs().max(dr.abs());
        vec![(df.signum(), dr.signum()); n as usize]
    } else if df.abs() > dr.abs() {
        vec![(df.signum(), 0), (df - df.signum(), dr)]
    } else {
        vec![(0, dr.signum()), (df, dr - dr.signum())]
    }
}

/// Chesquerque's two-step knight moves, each as a two-step path.
fn two_step(orthogonal_first: bool) -> Vec<Shape> {
    let mut out = Vec::new();
    if orthogonal_first {
        for (dx, dy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            for side in [1, -1] {
                let second = if dx == 0 { (side, dy) } else { (dx, side) };
                out.push(Shape::Path(vec![(dx, dy), second]));
            }
        }
    } else {
        for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            out.push(Shape::Path(vec![(dx, dy), (dx, 0)]));
            out.push(Shape::Path(vec![(dx, dy), (0, dy)]));
        }
    }
    out
}

/// What a piece type is and how it moves: the data a variant declares per piece.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// FEN letter, uppercase (White); Black uses the lowercase letter.
    pub letter: char,
    /// English name.
    pub name: &'static str,
    /// Betza movement (on an alquerque grid: on the points without diagonals).
    pub betza: &'static str,
    /// Betza movement on alquerque points with diagonals, when different.
    pub betza_on_diagonal_points: Option<&'static str>,
    /// The king: must not be left attacked; checkmate ends the game.
    pub royal: bool,
    /// A pawn: promotes, its initial moves are its double steps, it can take en passant.
    pub pawn: bool,
    /// False for a piece that never attacks a king (the Hia).
    pub gives_check: bool,
}

impl PieceDef {
    /// An ordinary piece moving by `betza`.
    pub const fn new(letter: char, name: &'static str, betza: &'static str) -> PieceDef {
        PieceDef {
            letter,
            name,
            betza,
            betza_on_diagonal_points: None,
            royal: false,
            pawn: false,
            gives_check: true,
        }
    }

    /// A royal piece.
    pub const fn king(letter: char, betza: &'static str) -> PieceDef {
        let mut p = PieceDef::new(letter, "king", betza);
        p.royal = true;
        p
    }

    /// A pawn.
    pub const fn pawn(betza: &'static str) -> PieceDef {
        let mut p = PieceDef::new('P', "pawn", betza);
        p.pawn = true;
        p
    }

    /// The same piece with a different movement on alquerque points with diagonals.
    pub const fn on_diagonal_points(mut self, betza: &'static str) -> PieceDef {
        self.betza_on_diagonal_points = Some(betza);
        self
    }

    /// The same piece, never giving check.
    pub const fn without_check(mut self) -> PieceDef {
        self.gives_check = false;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offsets(betza: &str) -> Vec<(i32, i32)> {
        let mut v: Vec<_> = parse_betza(betza)
            .unwrap()
            .iter()
            .map(|r| net_offset(&r.shape))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn pawn_and_elephant() {
        let rules = parse_betza("fmWfcFifmnD").unwrap();
        assert_eq!(rules.len(), 4);
        assert!(rules[3].initial && rules[3].modality == Modality::MoveOnly);
        assert_eq!(rules[3].shape, Shape::Path(vec![(0, 1), (0, 1)]));
        assert_eq!(
            offsets("FvW"),
            vec![(-1, -1), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 1)]
        );
    }

    #[test]
    fn compound_leapers_have_sixteen_targets() {
        assert_eq!(offsets("WDFA").len(), 16);
        assert_eq!(offsets("WDN").len(), 16);
        assert_eq!(offsets("FAN").len(), 16);
        assert_eq!(parse_betza("Q2").unwrap().len(), 16);
    }

    #[test]
    fn two_step_knights_reach_knight_squares() {
        let mut a = offsets("t[WF]");
        let mut b = offsets("t[FW]");
        let mut n = offsets("N");
        a.dedup();
        b.dedup();
        n.dedup();
        assert_eq!(a, n);
        assert_eq!(b, n);
    }

    #[test]
    fn bad_strings_are_errors() {
        assert!(parse_betza("X").is_err());
        assert!(parse_betza("fm").is_err());
        assert!(parse_betza("flW").is_err());
        assert!(parse_betza("vF").is_err());
        assert_eq!(
            parse_betza("X").unwrap_err().to_string(),
            "unsupported Betza atom 'X' in X"
        );
    }
}
