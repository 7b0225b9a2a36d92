//! Reference move generator for Shatar with the Hia (`shatarhia`) and for plain
//! `shatar`, which is the same game with no Hia (rules: `rules/shatar-hia.md`).
//!
//! Deliberately slow and simple: an 8x8 mailbox, loops over directions, the Hia's
//! field recomputed from scratch wherever it is needed, a full attack scan for every
//! legality test. It shares no code with the engine and exists only to cross-check
//! the engine's generator in tests.

/// Board width and height.
const SIZE: i32 = 8;

/// The four orthogonal unit steps.
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The four diagonal unit steps.
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// All eight king directions.
const ALL_DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The eight knight leaps.
const KNIGHT_LEAPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// A square as (file, rank), both 0-based: a1 = (0, 0), h8 = (7, 7).
type Sq = (i32, i32);

/// Side to move / owner of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Color {
    White,
    Black,
}

impl Color {
    fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// Rank step of this side's pawns.
    fn forward(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// 0-based rank where this side's pawns promote.
    fn last_rank(self) -> i32 {
        match self {
            Color::White => SIZE - 1,
            Color::Black => 0,
        }
    }

    fn index(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }
}

/// One board cell: empty, or a piece (colour, uppercase letter K Q R B N P H).
/// `Q` is the Berse, `H` the Hia.
type Cell = Option<(Color, char)>;

/// A set of squares, `set[rank][file]`.
type SquareSet = [[bool; 8]; 8];

/// A move in internal form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Move {
    from: Sq,
    to: Sq,
    /// Promotion (always to a Berse).
    promotes: bool,
    /// King move that places the Hia from hand on `from`.
    gates_hia: bool,
}

impl Move {
    fn text(&self) -> String {
        let mut s = square_name(self.from);
        s.push_str(&square_name(self.to));
        if self.promotes {
            s.push('q');
        }
        if self.gates_hia {
            s.push('h');
        }
        s
    }
}

fn on_board(sq: Sq) -> bool {
    sq.0 >= 0 && sq.0 < SIZE && sq.1 >= 0 && sq.1 < SIZE
}

fn contains(set: &SquareSet, sq: Sq) -> bool {
    set[sq.1 as usize][sq.0 as usize]
}

fn square_name(sq: Sq) -> String {
    let file = (b'a' + sq.0 as u8) as char;
    format!("{}{}", file, sq.1 + 1)
}

fn is_square_name(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 2 && (b'a'..=b'h').contains(&bytes[0]) && (b'1'..=b'8').contains(&bytes[1])
}

/// A Shatar position, with or without Hias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    /// `board[rank][file]`, 0-based.
    board: [[Cell; 8]; 8],
    side: Color,
    /// Whether White / Black holds its Hia in hand.
    hia_in_hand: [bool; 2],
    /// Whether the FEN was read with a holdings bracket (kept for `to_fen`).
    bracket: bool,
    halfmove: u32,
    fullmove: u32,
}

impl Pos {
    /// Parses a FEN; holdings (`[Hh]`, `[H]`, `[]`) are optional, castling letters and the
    /// en-passant square are tolerated and ignored, the last two fields are optional.
    pub fn from_fen(fen: &str) -> Result<Pos, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(format!("expected 4 to 6 FEN fields, got {}", fields.len()));
        }

        let mut placement = fields[0];
        let mut hia_in_hand = [false; 2];
        let mut bracket = false;
        if let Some(open) = placement.find('[') {
            let holdings = &placement[open..];
            if !holdings.ends_with(']') {
                return Err(format!("bad holdings {holdings:?}"));
            }
            bracket = true;
            for c in holdings[1..holdings.len() - 1].chars() {
                let index = match c {
                    'H' => 0,
                    'h' => 1,
                    '-' => continue,
                    _ => return Err(format!("only a Hia can be in hand, not {c:?}")),
                };
                if hia_in_hand[index] {
                    return Err("at most one Hia in hand per side".to_string());
                }
                hia_in_hand[index] = true;
            }
            placement = &placement[..open];
        }

        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != SIZE as usize {
            return Err(format!("expected 8 ranks, got {}", rows.len()));
        }
        let mut board: [[Cell; 8]; 8] = [[None; 8]; 8];
        for (i, row) in rows.iter().enumerate() {
            let rank = SIZE as usize - 1 - i;
            let mut file: usize = 0;
            let mut pending_empty: usize = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    pending_empty = pending_empty * 10 + d as usize;
                    if pending_empty > SIZE as usize {
                        return Err(format!("rank {row:?} is too long"));
                    }
                    continue;
                }
                file += pending_empty;
                pending_empty = 0;
                let kind = c.to_ascii_uppercase();
                if !"KQRBNPH".contains(kind) {
                    return Err(format!("unknown piece letter {c:?}"));
                }
                if file >= SIZE as usize {
                    return Err(format!("rank {row:?} is too long"));
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                board[rank][file] = Some((color, kind));
                file += 1;
            }
            file += pending_empty;
            if file != SIZE as usize {
                return Err(format!("rank {row:?} does not have 8 squares"));
            }
        }

        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("bad side to move {other:?}")),
        };

        // Castling field: any letters tolerated (XBoard may send virginity letters).
        if !fields[2]
            .chars()
            .all(|c| c == '-' || c.is_ascii_alphabetic())
        {
            return Err(format!("bad castling field {:?}", fields[2]));
        }
        // En-passant field: never meaningful in Shatar; a square name is tolerated.
        if fields[3] != "-" && !is_square_name(fields[3]) {
            return Err(format!("bad en-passant field {:?}", fields[3]));
        }

        let halfmove = match fields.get(4) {
            Some(text) => text
                .parse::<u32>()
                .map_err(|_| format!("bad halfmove clock {text:?}"))?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(text) => text
                .parse::<u32>()
                .map_err(|_| format!("bad fullmove number {text:?}"))?,
            None => 1,
        };

        let pos = Pos {
            board,
            side,
            hia_in_hand,
            bracket,
            halfmove,
            fullmove,
        };
        pos.validate()?;
        Ok(pos)
    }

    fn validate(&self) -> Result<(), String> {
        for color in [Color::White, Color::Black] {
            let kings = self
                .all_squares()
                .filter(|&sq| self.at(sq) == Some((color, 'K')))
                .count();
            if kings != 1 {
                return Err(format!("{color:?} has {kings} kings, expected 1"));
            }
        }
        for sq in self.all_squares() {
            if let Some((_, 'P')) = self.at(sq) {
                if sq.1 == 0 || sq.1 == SIZE - 1 {
                    return Err(format!("pawn on {}", square_name(sq)));
                }
            }
        }
        if self.king_attacked(self.side.other()) {
            return Err("the side not to move is in check".to_string());
        }
        Ok(())
    }

    /// Writes the position as FEN; the holdings bracket is written if the position came
    /// from a FEN with one (so `shatarhia` keeps `[]`, plain `shatar` has none).
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..SIZE).rev() {
            let mut empty = 0;
            for file in 0..SIZE {
                match self.at((file, rank)) {
                    None => empty += 1,
                    Some((color, kind)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(match color {
                            Color::White => kind,
                            Color::Black => kind.to_ascii_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        if self.bracket || self.hia_in_hand.contains(&true) {
            out.push('[');
            if self.hia_in_hand[0] {
                out.push('H');
            }
            if self.hia_in_hand[1] {
                out.push('h');
            }
            out.push(']');
        }
        out.push_str(match self.side {
            Color::White => " w",
            Color::Black => " b",
        });
        out.push_str(&format!(" - - {} {}", self.halfmove, self.fullmove));
        out
    }

    /// All legal moves in coordinate notation, sorted and deduplicated.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut texts: Vec<String> = self.legal().iter().map(Move::text).collect();
        texts.sort();
        texts.dedup();
        texts
    }

    /// Plays a move in coordinate notation; a gating king move may omit its `h`.
    pub fn play(&self, mv: &str) -> Result<Pos, String> {
        let legal = self.legal();
        let found = legal.iter().find(|m| m.text() == mv).or_else(|| {
            legal
                .iter()
                .find(|m| m.gates_hia && m.text() == format!("{mv}h"))
        });
        match found {
            Some(m) => Ok(self.apply(m)),
            None => Err(format!("illegal move {mv:?} in {}", self.to_fen())),
        }
    }

    /// Number of leaf nodes of the legal move tree of the given depth.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.apply(m).perft(depth - 1)).sum()
    }

    /// Whether the side to move's king is attacked (Hias never attack kings, and enemy
    /// sliders are restricted by the fields of the side to move's own Hias).
    pub fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    // ----- board access -------------------------------------------------------------

    fn at(&self, sq: Sq) -> Cell {
        self.board[sq.1 as usize][sq.0 as usize]
    }

    fn set(&mut self, sq: Sq, cell: Cell) {
        self.board[sq.1 as usize][sq.0 as usize] = cell;
    }

    fn all_squares(&self) -> impl Iterator<Item = Sq> {
        (0..SIZE).flat_map(|rank| (0..SIZE).map(move |file| (file, rank)))
    }

    // ----- the Hia's field ----------------------------------------------------------

    /// The field `Z` that restricts the sliders of `mover`: every square a king step
    /// away from a Hia of the OTHER colour (a Hia's own square is not in its field).
    fn restricting_field(&self, mover: Color) -> SquareSet {
        let mut field = [[false; 8]; 8];
        for sq in self.all_squares() {
            if self.at(sq) == Some((mover.other(), 'H')) {
                for &(dx, dy) in &ALL_DIRECTIONS {
                    let near = (sq.0 + dx, sq.1 + dy);
                    if on_board(near) {
                        field[near.1 as usize][near.0 as usize] = true;
                    }
                }
            }
        }
        field
    }

    // ----- attacks and targets ------------------------------------------------------

    /// Squares a non-pawn piece of kind `kind` on `from` could move to if the square held
    /// an enemy piece, under the field `field` of the enemy Hias. May include friendly
    /// pieces and (for a Hia) the enemy king; callers filter.
    fn piece_targets(&self, from: Sq, kind: char, field: &SquareSet) -> Vec<Sq> {
        let mut out = Vec::new();
        match kind {
            'K' => self.add_steps(from, &ALL_DIRECTIONS, &mut out),
            'N' => self.add_steps(from, &KNIGHT_LEAPS, &mut out),
            'R' => self.add_rays(from, &ORTHOGONAL, SIZE, field, &mut out),
            'B' => self.add_rays(from, &DIAGONAL, SIZE, field, &mut out),
            'Q' => {
                // Berse: rook slides (restricted by the field) plus one diagonal step (never).
                self.add_rays(from, &ORTHOGONAL, SIZE, field, &mut out);
                self.add_steps(from, &DIAGONAL, &mut out);
            }
            'H' => self.add_rays(from, &ALL_DIRECTIONS, 2, field, &mut out),
            _ => {}
        }
        out
    }

    /// One jump or step per direction.
    fn add_steps(&self, from: Sq, dirs: &[(i32, i32)], out: &mut Vec<Sq>) {
        for &(dx, dy) in dirs {
            let to = (from.0 + dx, from.1 + dy);
            if on_board(to) {
                out.push(to);
            }
        }
    }

    /// Lines of at most `range` squares, each ending at the first occupied square, under
    /// the two field rules: a piece starting inside the field goes one square only
    /// (adjacency rule), and the first field square reached ends the line (stop rule).
    fn add_rays(
        &self,
        from: Sq,
        dirs: &[(i32, i32)],
        range: i32,
        field: &SquareSet,
        out: &mut Vec<Sq>,
    ) {
        let range = if contains(field, from) { 1 } else { range };
        for &(dx, dy) in dirs {
            for distance in 1..=range {
                let to = (from.0 + distance * dx, from.1 + distance * dy);
                if !on_board(to) {
                    break;
                }
                out.push(to);
                if self.at(to).is_some() || contains(field, to) {
                    break;
                }
            }
        }
    }

    /// Whether any piece of colour `by` attacks `target`. Hias attack nothing here (they
    /// never attack kings, and only kings' squares are ever tested in Shatar).
    fn attacked_by(&self, target: Sq, by: Color) -> bool {
        let field = self.restricting_field(by);
        self.all_squares().any(|sq| match self.at(sq) {
            Some((color, kind)) if color == by => match kind {
                'H' => false,
                'P' => {
                    let f = by.forward();
                    target == (sq.0 - 1, sq.1 + f) || target == (sq.0 + 1, sq.1 + f)
                }
                _ => self.piece_targets(sq, kind, &field).contains(&target),
            },
            _ => false,
        })
    }

    fn king_square(&self, color: Color) -> Option<Sq> {
        self.all_squares()
            .find(|&sq| self.at(sq) == Some((color, 'K')))
    }

    fn king_attacked(&self, color: Color) -> bool {
        match self.king_square(color) {
            Some(sq) => self.attacked_by(sq, color.other()),
            None => false,
        }
    }

    // ----- move generation ----------------------------------------------------------

    /// Moves obeying piece movement and the field, not yet tested for king safety.
    fn pseudo_legal(&self) -> Vec<Move> {
        let us = self.side;
        let field = self.restricting_field(us);
        let mut moves = Vec::new();
        for from in self.all_squares() {
            let kind = match self.at(from) {
                Some((color, kind)) if color == us => kind,
                _ => continue,
            };
            if kind == 'P' {
                self.add_pawn_moves(from, &mut moves);
                continue;
            }
            for to in self.piece_targets(from, kind, &field) {
                let allowed = match self.at(to) {
                    None => true,
                    Some((color, _)) if color == us => false,
                    // A Hia never captures a king.
                    Some((_, 'K')) => kind != 'H',
                    Some(_) => true,
                };
                if allowed {
                    moves.push(Move {
                        from,
                        to,
                        promotes: false,
                        gates_hia: kind == 'K' && self.hia_in_hand[us.index()],
                    });
                }
            }
        }
        moves
    }

    /// Pawn: one step straight forward onto an empty square, captures one step
    /// diagonally forward; promotion only to a Berse.
    fn add_pawn_moves(&self, from: Sq, moves: &mut Vec<Move>) {
        let us = self.side;
        let f = us.forward();
        let mut push = |to: Sq| {
            moves.push(Move {
                from,
                to,
                promotes: to.1 == us.last_rank(),
                gates_hia: false,
            })
        };
        let ahead = (from.0, from.1 + f);
        if on_board(ahead) && self.at(ahead).is_none() {
            push(ahead);
        }
        for dx in [-1, 1] {
            let to = (from.0 + dx, from.1 + f);
            if on_board(to) {
                if let Some((color, _)) = self.at(to) {
                    if color != us {
                        push(to);
                    }
                }
            }
        }
    }

    /// Legal moves: pseudo-legal moves after which (Hia placed) the mover's king is not attacked.
    fn legal(&self) -> Vec<Move> {
        self.pseudo_legal()
            .into_iter()
            .filter(|m| !self.apply(m).king_attacked(self.side))
            .collect()
    }

    /// Plays a pseudo-legal move and returns the resulting position.
    fn apply(&self, m: &Move) -> Pos {
        let us = self.side;
        let mut next = self.clone();
        let (_, kind) = self.at(m.from).expect("a move starts on a piece");
        let is_capture = self.at(m.to).is_some();

        next.set(m.from, None);
        next.set(m.to, Some((us, if m.promotes { 'Q' } else { kind })));
        if m.gates_hia {
            next.set(m.from, Some((us, 'H')));
            next.hia_in_hand[us.index()] = false;
        }

        next.halfmove = if kind == 'P' || is_capture {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove = self.fullmove.saturating_add(1);
        }
        next.side = us.other();
        next
    }
}
