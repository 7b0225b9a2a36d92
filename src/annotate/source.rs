//! The input of `sako annotate`: the PGN text cut into games (so that one unreadable
//! game does not take the file with it), each game's variant (its `Variant` tag, else
//! the fallback), start position (`FEN` tag) and moves checked to be legal.

use crate::matches::pgn::{parse_pgn, PgnGame};
use crate::matches::referee::canonical_move;
use crate::rules::variant::{all_variants, variant_id};
use crate::Game;

/// A game read and replayed: every move legal from its start position.
#[derive(Clone, Debug)]
pub struct SourceGame {
    /// 1-based number of the game in the file (broken games counted too).
    pub number: usize,
    /// The game as read (tags, moves as written, comments, result).
    pub pgn: PgnGame,
    /// The variant's name, as `sako variants` prints it.
    pub variant: &'static str,
    /// The variant's id (index into `all_variants()`).
    pub variant_index: usize,
    /// The start position's FEN when the game has a `FEN` tag.
    pub start_fen: Option<String>,
    /// The moves in the rules core's coordinate spelling.
    pub moves: Vec<String>,
}

/// A game that could not be read, with its number and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based number of the game in the file.
    pub number: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: {}", self.number, self.reason)
    }
}

/// Every game of `text` in order: read and replayed, or why not. `fallback` is the
/// variant of games without a `Variant` tag.
pub fn read_games(text: &str, fallback: &str) -> Vec<Result<SourceGame, Skipped>> {
    let mut out = Vec::new();
    for chunk in chunks(text) {
        match parse_pgn(&chunk) {
            Ok(games) => {
                for g in games {
                    let number = out.len() + 1;
                    out.push(
                        replay(g, number, fallback).map_err(|reason| Skipped { number, reason }),
                    );
                }
            }
            Err(e) => {
                let number = out.len() + 1;
                out.push(Err(Skipped {
                    number,
                    reason: e.to_string(),
                }));
            }
        }
    }
    out
}

/// The text cut before every tag line that follows a game's moves: each piece holds
/// one game (or several without tags between them), so that the reader's error in
/// one piece is that game's alone.
fn chunks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut moves_begun = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') && moves_begun {
            out.push(std::mem::take(&mut cur));
            moves_begun = false;
        } else if !trimmed.is_empty() && !trimmed.starts_with('[') {
            moves_begun = true;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// The game's variant and start position, its moves replayed with the rules core.
fn replay(pgn: PgnGame, number: usize, fallback: &str) -> Result<SourceGame, String> {
    let name = pgn.tag("Variant").unwrap_or(fallback);
    let variant_index = variant_id(name).ok_or_else(|| crate::game::unknown_variant(name))?;
    let variant = all_variants()[variant_index].name;
    let start_fen = pgn.tag("FEN").map(str::to_string);
    let mut game =
        Game::new(variant, start_fen.as_deref()).map_err(|e| format!("bad FEN tag: {e}"))?;
    let mut moves = Vec::with_capacity(pgn.moves.len());
    for (ply, text) in pgn.moves.iter().enumerate() {
        let Some(m) = canonical_move(&mut game, text) else {
            let why = game
                .play(text)
                .err()
                .map(|e| format!(": {e}"))
                .unwrap_or_default();
            return Err(format!(
                "move {} ({text}) is not legal in {}{why}",
                move_label(&game, ply, start_fen.as_deref()),
                game.fen()
            ));
        };
        game.play(&m).map_err(|e| format!("move {text}: {e}"))?;
        moves.push(m);
    }
    Ok(SourceGame {
        number,
        pgn,
        variant,
        variant_index,
        start_fen,
        moves,
    })
}

/// `12.` or `12...` for ply `ply` (0-based) of a game from `start_fen`.
fn move_label(game: &Game, ply: usize, start_fen: Option<&str>) -> String {
    let (number, black) = first_move_number(start_fen);
    let n = number as usize + (ply + usize::from(black)) / 2;
    if game.side_to_move() == crate::rules::color::Color::White {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

/// The first move's number and whether Black makes it, from the start FEN (1 and
/// White without one).
pub fn first_move_number(start_fen: Option<&str>) -> (u32, bool) {
    let Some(fen) = start_fen else {
        return (1, false);
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let black = fields.get(1) == Some(&"b");
    let number = fields
        .get(5)
        .and_then(|f| f.parse().ok())
        .unwrap_or(1)
        .max(1);
    (number, black)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &str = "[Event \"a\"]\n\n1. e2e4 e7e5 1-0\n\n[Event \"b\"]\n\n1. d2d4 {x *\n\n\
                       [Event \"c\"]\n[Variant \"nonsense\"]\n\n1. e2e4 *\n\n[Event \"d\"]\n\n\
                       1. e2e4 e7e6 2. e4e6 *\n";

    #[test]
    fn broken_games_are_numbered_and_the_others_kept() {
        let read = read_games(TWO, "normal");
        assert_eq!(read.len(), 4);
        assert_eq!(read[0].as_ref().map(|g| g.moves.len()), Ok(2));
        let reasons: Vec<String> = read
            .iter()
            .filter_map(|r| r.as_ref().err().map(|s| s.to_string()))
            .collect();
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        assert!(
            reasons[0].starts_with("game 2: an unclosed comment"),
            "{reasons:?}"
        );
        assert!(
            reasons[1].starts_with("game 3: unknown variant 'nonsense'"),
            "{reasons:?}"
        );
        assert!(
            reasons[2].starts_with("game 4: move 2. (e4e6) is not legal"),
            "{reasons:?}"
        );
    }

    #[test]
    fn variant_and_fen_tags_are_read() {
        let text = "[Variant \"great\"]\n\n1. e2e3 *\n\n\
                    [FEN \"4k3/8/8/8/8/8/8/4K2R b K - 0 7\"]\n[SetUp \"1\"]\n\n7... e8d8 *\n";
        let read = read_games(text, "normal");
        let g = read[0].as_ref().expect("great game");
        assert_eq!(g.variant, "great");
        let g = read[1].as_ref().expect("FEN game");
        assert_eq!((g.variant, g.moves.len()), ("normal", 1));
        assert_eq!(first_move_number(g.start_fen.as_deref()), (7, true));
    }
}
