//! The text of a FEN board field, read without knowing the variant: runs of empty
//! squares and piece letters, rank by rank. A leaf below the rules compiler and the
//! position, so both can read a board field (the compiler reads its start positions).

/// One item of a FEN rank, left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankItem {
    /// A run of empty squares: one digit, or two (`10`); `0` is an item too.
    Empty(usize),
    /// Any other character but the `~` promotion marker: a piece letter, or a fault.
    Piece(char),
}

/// The one reader of FEN rank text (the text between two `/`): runs of empty squares
/// and piece characters in order, `~` promotion markers (crazyhouse style) skipped. A
/// count is one digit or two, so `100` reads as 10 and 0.
pub fn rank_items(rank: &str) -> impl Iterator<Item = RankItem> + '_ {
    let mut chars = rank.chars().peekable();
    std::iter::from_fn(move || loop {
        let c = chars.next()?;
        if let Some(d) = c.to_digit(10) {
            let mut n = d as usize;
            if let Some(e) = chars.peek().and_then(|c| c.to_digit(10)) {
                n = n * 10 + e as usize;
                chars.next();
            }
            return Some(RankItem::Empty(n));
        }
        if c != '~' {
            return Some(RankItem::Piece(c));
        }
    })
}

/// The cells of a FEN board field (holdings already cut off), top rank first: the piece
/// letter or `None` for an empty square; `Err(c)` names the first character that is
/// neither. Checks only the text, not the variant's pieces or board size.
pub fn board_cells(board: &str) -> Result<Vec<Vec<Option<char>>>, char> {
    board
        .split('/')
        .map(|rank| {
            let mut cells = Vec::new();
            for item in rank_items(rank) {
                match item {
                    RankItem::Empty(n) => cells.extend(std::iter::repeat_n(None, n)),
                    RankItem::Piece(c) if c.is_ascii_alphabetic() => cells.push(Some(c)),
                    RankItem::Piece(c) => return Err(c),
                }
            }
            Ok(cells)
        })
        .collect()
}
