//! Reference move generator for Chesquerque (rules: `rules/chesquerque.md`).
//!
//! Deliberately slow and simple: a 9x9 mailbox, loops over directions, a full
//! attack scan for every legality test. It shares no code with the engine and
//! exists only to cross-check the engine's generator in tests.

/// Board width and height (9x9 points).
const SIZE: i32 = 9;

/// The four orthogonal unit steps (these lines exist through every point).
const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The four diagonal unit steps (these lines exist only through D-points).
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Pieces a pawn may promote to (uppercase; the move suffix is lowercase).
const PROMOTIONS: [char; 5] = ['Q', 'R', 'B', 'N', 'A'];

/// A point as (file, rank), both 0-based: a1 = (0, 0), i9 = (8, 8).
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

    /// Index into the castling-rights array: kingside (h side) right of this colour.
    fn kingside_index(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 2,
        }
    }

    /// Index into the castling-rights array: queenside (a side) right of this colour.
    fn queenside_index(self) -> usize {
        self.kingside_index() + 1
    }

    /// 0-based home rank of this colour.
    fn home_rank(self) -> i32 {
        match self {
            Color::White => 0,
            Color::Black => SIZE - 1,
        }
    }
}

/// One board cell: empty, or a piece (colour, uppercase letter K Q R B N A P).
type Cell = Option<(Color, char)>;

/// What a move does besides moving one piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    PawnDoubleStep,
    EnPassant,
    Castle,
}

/// A move in internal form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Move {
    from: Sq,
    to: Sq,
    promotion: Option<char>,
    kind: Kind,
}

impl Move {
    fn text(&self) -> String {
        let mut s = square_name(self.from);
        s.push_str(&square_name(self.to));
        if let Some(p) = self.promotion {
            s.push(p.to_ascii_lowercase());
        }
        s
    }
}

fn on_board(sq: Sq) -> bool {
    sq.0 >= 0 && sq.0 < SIZE && sq.1 >= 0 && sq.1 < SIZE
}

/// A D-point (with diagonal lines) has an even `file + rank`.
fn is_d_point(sq: Sq) -> bool {
    (sq.0 + sq.1) % 2 == 0
}

fn square_name(sq: Sq) -> String {
    let file = (b'a' + sq.0 as u8) as char;
    format!("{}{}", file, sq.1 + 1)
}

fn parse_square(text: &str) -> Option<Sq> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let file = bytes[0] as i32 - 'a' as i32;
    let rank = bytes[1] as i32 - '1' as i32;
    let sq = (file, rank);
    if on_board(sq) {
        Some(sq)
    } else {
        None
    }
}

/// A Chesquerque position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    /// `board[rank][file]`, 0-based.
    board: [[Cell; 9]; 9],
    side: Color,
    /// Castling rights in FEN order: K (White, i-rook), Q (White, a-rook), k, q.
    castling: [bool; 4],
    /// En-passant target point, set only after a double step over a D-point.
    ep: Option<Sq>,
    halfmove: u32,
    fullmove: u32,
}

impl Pos {
    /// Parses a FEN (holdings bracket, if any, must be empty; the last two fields are optional).
    pub fn from_fen(fen: &str) -> Result<Pos, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 4 || fields.len() > 6 {
            return Err(format!("expected 4 to 6 FEN fields, got {}", fields.len()));
        }

        // Board, with an optional (necessarily empty) holdings bracket.
        let mut placement = fields[0];
        if let Some(open) = placement.find('[') {
            let holdings = &placement[open..];
            if holdings != "[]" && holdings != "[-]" {
                return Err(format!("Chesquerque has no holdings: {holdings}"));
            }
            placement = &placement[..open];
        }
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != SIZE as usize {
            return Err(format!("expected 9 ranks, got {}", rows.len()));
        }
        let mut board: [[Cell; 9]; 9] = [[None; 9]; 9];
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
                if !"KQRBNAP".contains(kind) {
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
                return Err(format!("rank {row:?} does not have 9 points"));
            }
        }

        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("bad side to move {other:?}")),
        };

        let mut castling = [false; 4];
        if fields[2] != "-" {
            for c in fields[2].chars() {
                let index = match c {
                    'K' => 0,
                    'Q' => 1,
                    'k' => 2,
                    'q' => 3,
                    _ => return Err(format!("bad castling letter {c:?}")),
                };
                if castling[index] {
                    return Err(format!("repeated castling letter {c:?}"));
                }
                castling[index] = true;
            }
        }

        let ep = if fields[3] == "-" {
            None
        } else {
            match parse_square(fields[3]) {
                Some(sq) => Some(sq),
                None => return Err(format!("bad en-passant field {:?}", fields[3])),
            }
        };

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
            castling,
            ep,
            halfmove,
            fullmove,
        };
        pos.validate()?;
        Ok(pos)
    }

    /// Checks what `from_fen` cannot check field by field.
    fn validate(&self) -> Result<(), String> {
        for color in [Color::White, Color::Black] {
            let kings = self
                .all_points()
                .filter(|&sq| self.at(sq) == Some((color, 'K')))
                .count();
            if kings != 1 {
                return Err(format!("{color:?} has {kings} kings, expected 1"));
            }
        }
        for sq in self.all_points() {
            if let Some((_, 'P')) = self.at(sq) {
                if sq.1 == 0 || sq.1 == SIZE - 1 {
                    return Err(format!("pawn on {}", square_name(sq)));
                }
            }
        }
        for color in [Color::White, Color::Black] {
            let home = color.home_rank();
            let king_home = self.at((4, home)) == Some((color, 'K'));
            if self.castling[color.kingside_index()]
                && !(king_home && self.at((8, home)) == Some((color, 'R')))
            {
                return Err("castling right without king on e / rook on i".to_string());
            }
            if self.castling[color.queenside_index()]
                && !(king_home && self.at((0, home)) == Some((color, 'R')))
            {
                return Err("castling right without king on e / rook on a".to_string());
            }
        }
        if let Some(target) = self.ep {
            // The target is the skipped D-point of a double step the opponent just made.
            let mover = self.side.other();
            let start = (target.0, target.1 - mover.forward());
            let arrived = (target.0, target.1 + mover.forward());
            let good = is_d_point(target)
                && start.1 == mover.home_rank() + mover.forward()
                && self.at(target).is_none()
                && self.at(start).is_none()
                && self.at(arrived) == Some((mover, 'P'));
            if !good {
                return Err(format!(
                    "impossible en-passant target {}",
                    square_name(target)
                ));
            }
        }
        if self.king_attacked(self.side.other()) {
            return Err("the side not to move is in check".to_string());
        }
        Ok(())
    }

    /// Writes the position as FEN (no holdings bracket).
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
        out.push_str(match self.side {
            Color::White => " w ",
            Color::Black => " b ",
        });
        let mut rights = String::new();
        for (index, letter) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
            if self.castling[index] {
                rights.push(*letter);
            }
        }
        if rights.is_empty() {
            rights.push('-');
        }
        out.push_str(&rights);
        out.push(' ');
        match self.ep {
            Some(sq) => out.push_str(&square_name(sq)),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }

    /// All legal moves in coordinate notation, sorted and deduplicated.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut texts: Vec<String> = self.legal().iter().map(Move::text).collect();
        texts.sort();
        texts.dedup();
        texts
    }

    /// Plays a move given in coordinate notation (`e1a1`/`e1i1` are accepted for castling).
    pub fn play(&self, mv: &str) -> Result<Pos, String> {
        let legal = self.legal();
        if let Some(m) = legal.iter().find(|m| m.text() == mv) {
            return Ok(self.apply(m));
        }
        // King-takes-own-rook spelling of castling.
        let alias = match mv {
            "e1a1" => "e1b1",
            "e1i1" => "e1h1",
            "e9a9" => "e9b9",
            "e9i9" => "e9h9",
            _ => "",
        };
        if let Some(m) = legal
            .iter()
            .find(|m| m.kind == Kind::Castle && m.text() == alias)
        {
            return Ok(self.apply(m));
        }
        Err(format!("illegal move {mv:?} in {}", self.to_fen()))
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

    /// Whether the side to move's king is attacked.
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

    fn all_points(&self) -> impl Iterator<Item = Sq> {
        (0..SIZE).flat_map(|rank| (0..SIZE).map(move |file| (file, rank)))
    }

    // ----- attacks ------------------------------------------------------------------

    /// Points a non-pawn piece of kind `kind` standing on `from` attacks: every point it
    /// could move to if that point held an enemy piece. May include friendly pieces.
    fn piece_targets(&self, from: Sq, kind: char) -> Vec<Sq> {
        let d_point = is_d_point(from);
        let mut out = Vec::new();
        match kind {
            'K' => {
                self.add_steps(from, &ORTHOGONAL, &mut out);
                if d_point {
                    self.add_steps(from, &DIAGONAL, &mut out);
                }
            }
            'Q' => {
                self.add_slides(from, &ORTHOGONAL, &mut out);
                if d_point {
                    self.add_slides(from, &DIAGONAL, &mut out);
                }
            }
            'R' => {
                self.add_slides(from, &ORTHOGONAL, &mut out);
                if d_point {
                    self.add_steps(from, &DIAGONAL, &mut out);
                }
            }
            'B' => {
                self.add_steps(from, &ORTHOGONAL, &mut out);
                if d_point {
                    self.add_slides(from, &DIAGONAL, &mut out);
                }
            }
            'N' => self.add_knight(from, &mut out),
            'A' => {
                self.add_steps(from, &ORTHOGONAL, &mut out);
                if d_point {
                    self.add_slides(from, &DIAGONAL, &mut out);
                }
                self.add_knight(from, &mut out);
            }
            _ => {}
        }
        out
    }

    /// One step in each direction.
    fn add_steps(&self, from: Sq, dirs: &[(i32, i32)], out: &mut Vec<Sq>) {
        for &(dx, dy) in dirs {
            let to = (from.0 + dx, from.1 + dy);
            if on_board(to) {
                out.push(to);
            }
        }
    }

    /// Slides along each direction up to and including the first occupied point.
    fn add_slides(&self, from: Sq, dirs: &[(i32, i32)], out: &mut Vec<Sq>) {
        for &(dx, dy) in dirs {
            let mut to = (from.0 + dx, from.1 + dy);
            while on_board(to) {
                out.push(to);
                if self.at(to).is_some() {
                    break;
                }
                to = (to.0 + dx, to.1 + dy);
            }
        }
    }

    /// The lame Chesquerque knight: first step along a line (orthogonal from an
    /// O-point, diagonal from a D-point) to an EMPTY point, then one step outward
    /// along the other kind of line.
    fn add_knight(&self, from: Sq, out: &mut Vec<Sq>) {
        let (x, y) = from;
        if is_d_point(from) {
            for &(dx, dy) in &DIAGONAL {
                let middle = (x + dx, y + dy);
                if !on_board(middle) || self.at(middle).is_some() {
                    continue;
                }
                for to in [(x + 2 * dx, y + dy), (x + dx, y + 2 * dy)] {
                    if on_board(to) {
                        out.push(to);
                    }
                }
            }
        } else {
            for &(dx, dy) in &ORTHOGONAL {
                let middle = (x + dx, y + dy);
                if !on_board(middle) || self.at(middle).is_some() {
                    continue;
                }
                // The two unit vectors perpendicular to (dx, dy) are (dy, dx) and (-dy, -dx).
                for (px, py) in [(dy, dx), (-dy, -dx)] {
                    let to = (x + 2 * dx + px, y + 2 * dy + py);
                    if on_board(to) {
                        out.push(to);
                    }
                }
            }
        }
    }

    /// Points a pawn of `color` on `from` attacks: straight ahead on an O-point,
    /// the two forward diagonals on a D-point.
    fn pawn_attacks(&self, from: Sq, color: Color) -> Vec<Sq> {
        let f = color.forward();
        let candidates = if is_d_point(from) {
            vec![(from.0 - 1, from.1 + f), (from.0 + 1, from.1 + f)]
        } else {
            vec![(from.0, from.1 + f)]
        };
        candidates.into_iter().filter(|&sq| on_board(sq)).collect()
    }

    /// Whether any piece of colour `by` attacks `target`.
    fn attacked_by(&self, target: Sq, by: Color) -> bool {
        self.all_points().any(|sq| match self.at(sq) {
            Some((color, kind)) if color == by => {
                if kind == 'P' {
                    self.pawn_attacks(sq, color).contains(&target)
                } else {
                    self.piece_targets(sq, kind).contains(&target)
                }
            }
            _ => false,
        })
    }

    fn king_square(&self, color: Color) -> Option<Sq> {
        self.all_points()
            .find(|&sq| self.at(sq) == Some((color, 'K')))
    }

    /// Whether the king of `color` is attacked by the other side.
    fn king_attacked(&self, color: Color) -> bool {
        match self.king_square(color) {
            Some(sq) => self.attacked_by(sq, color.other()),
            None => false,
        }
    }

    // ----- move generation ----------------------------------------------------------

    /// Moves obeying piece movement (castling conditions included), not yet tested
    /// for leaving the own king attacked.
    fn pseudo_legal(&self) -> Vec<Move> {
        let us = self.side;
        let mut moves = Vec::new();
        for from in self.all_points() {
            let kind = match self.at(from) {
                Some((color, kind)) if color == us => kind,
                _ => continue,
            };
            if kind == 'P' {
                self.add_pawn_moves(from, &mut moves);
                continue;
            }
            for to in self.piece_targets(from, kind) {
                match self.at(to) {
                    Some((color, _)) if color == us => {}
                    _ => moves.push(Move {
                        from,
                        to,
                        promotion: None,
                        kind: Kind::Normal,
                    }),
                }
            }
            if kind == 'K' {
                self.add_castling(from, &mut moves);
            }
        }
        moves
    }

    fn add_pawn_moves(&self, from: Sq, moves: &mut Vec<Move>) {
        let us = self.side;
        let f = us.forward();
        let last_rank = us.other().home_rank();
        let push = |moves: &mut Vec<Move>, to: Sq, kind: Kind| {
            if to.1 == last_rank {
                for p in PROMOTIONS {
                    moves.push(Move {
                        from,
                        to,
                        promotion: Some(p),
                        kind,
                    });
                }
            } else {
                moves.push(Move {
                    from,
                    to,
                    promotion: None,
                    kind,
                });
            }
        };

        // One step straight forward: onto an empty point on either point type, and
        // also capturing there on an O-point.
        let one = (from.0, from.1 + f);
        if on_board(one) {
            match self.at(one) {
                None => push(moves, one, Kind::Normal),
                Some((color, _)) if color != us && !is_d_point(from) => {
                    push(moves, one, Kind::Normal)
                }
                _ => {}
            }
        }

        // Diagonal captures (and en passant) from a D-point only.
        if is_d_point(from) {
            for dx in [-1, 1] {
                let to = (from.0 + dx, from.1 + f);
                if !on_board(to) {
                    continue;
                }
                match self.at(to) {
                    Some((color, _)) if color != us => push(moves, to, Kind::Normal),
                    None if self.ep == Some(to) => push(moves, to, Kind::EnPassant),
                    _ => {}
                }
            }
        }

        // Double step from the start rank, both points empty, on either point type.
        let start_rank = us.home_rank() + f;
        let two = (from.0, from.1 + 2 * f);
        if from.1 == start_rank && on_board(two) && self.at(one).is_none() && self.at(two).is_none()
        {
            push(moves, two, Kind::PawnDoubleStep);
        }
    }

    /// Castling: king e->b with rook a->c, or king e->h with rook i->g.
    fn add_castling(&self, from: Sq, moves: &mut Vec<Move>) {
        let us = self.side;
        let them = us.other();
        let home = us.home_rank();
        if from != (4, home) || self.king_attacked(us) {
            return;
        }
        // (right index, rook point, points that must be empty, points that must not be attacked, king target)
        let options = [
            (
                us.kingside_index(),
                (8, home),
                vec![(5, home), (6, home), (7, home)],
                (7, home),
            ),
            (
                us.queenside_index(),
                (0, home),
                vec![(1, home), (2, home), (3, home)],
                (1, home),
            ),
        ];
        for (right, rook, between, target) in options {
            if !self.castling[right] || self.at(rook) != Some((us, 'R')) {
                continue;
            }
            // For both sides the points strictly between king and rook are exactly the
            // points the king crosses and lands on.
            if between.iter().any(|&sq| self.at(sq).is_some()) {
                continue;
            }
            if between.iter().any(|&sq| self.attacked_by(sq, them)) {
                continue;
            }
            moves.push(Move {
                from,
                to: target,
                promotion: None,
                kind: Kind::Castle,
            });
        }
    }

    /// Legal moves: pseudo-legal moves after which the mover's king is not attacked.
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
        let mut is_capture = self.at(m.to).is_some();

        next.set(m.from, None);
        let placed = m.promotion.unwrap_or(kind);
        next.set(m.to, Some((us, placed)));

        match m.kind {
            Kind::EnPassant => {
                // The passed pawn stands beside the capturer: target's file, capturer's rank.
                next.set((m.to.0, m.from.1), None);
                is_capture = true;
            }
            Kind::Castle => {
                let home = us.home_rank();
                let (rook_from, rook_to) = if m.to.0 == 7 {
                    ((8, home), (6, home))
                } else {
                    ((0, home), (2, home))
                };
                next.set(rook_from, None);
                next.set(rook_to, Some((us, 'R')));
            }
            Kind::Normal | Kind::PawnDoubleStep => {}
        }

        // En passant target: only after a double step over a D-point.
        next.ep = None;
        if m.kind == Kind::PawnDoubleStep {
            let skipped = (m.from.0, m.from.1 + us.forward());
            if is_d_point(skipped) {
                next.ep = Some(skipped);
            }
        }

        // Castling rights: lost by a king move, and by any move from or to a rook corner.
        if kind == 'K' {
            next.castling[us.kingside_index()] = false;
            next.castling[us.queenside_index()] = false;
        }
        for color in [Color::White, Color::Black] {
            let home = color.home_rank();
            for (corner, right) in [
                ((8, home), color.kingside_index()),
                ((0, home), color.queenside_index()),
            ] {
                if m.from == corner || m.to == corner {
                    next.castling[right] = false;
                }
            }
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
