//! The annotated game as PGN: the input's tags (an `Annotator` tag added), then each
//! move with its NAG (`$6` `?!`, `$2` `?`, `$4` `??`: the export form of the glyphs,
//! which PGN readers read back as the same annotations), its value as
//! `{+0.35/18}` (pawns from White's point of view, then the search depth, as
//! `sako match` writes its comments) and, for a judged move, the better line as a
//! variation `( 12. d4 d5 13. c4 {+0.30/12} )`.

use crate::engine::time::Limits;
use crate::matches::pgn::{tag, wrap};
use crate::rules::variant::{all_variants, variant_id};
use crate::rules::xboard_def::pgn_tags;
use crate::Game;

use super::analysis::{AnnotatedGame, MoveNote};
use super::judge::score_text;
use super::source::first_move_number;

/// The text a move is written with in the PGN, `coordinate` being legal in `game`'s
/// current position (the game is not changed).
/// Its SAN (docs/rules/README.md#san); the coordinate text only if the move is not legal
/// there, which the analysis never asks for.
pub fn pgn_move_text(game: &mut Game, coordinate: &str) -> String {
    game.san(coordinate)
        .unwrap_or_else(|_| coordinate.to_string())
}

/// What the `Annotator` tag says: the engine and the search of every position.
pub fn annotator(limits: &Limits) -> String {
    let search = match (limits.depth, limits.nodes, limits.movetime) {
        (Some(d), _, _) => format!("depth {d}"),
        (None, Some(n), _) => format!("{n} nodes"),
        (None, None, Some(ms)) => format!("{ms} ms"),
        _ => "default search".to_string(),
    };
    format!("sako {} ({search} per position)", env!("CARGO_PKG_VERSION"))
}

/// The annotated game as PGN text, ending with a blank line.
pub fn write_game(g: &AnnotatedGame, limits: &Limits) -> String {
    let mut out = String::new();
    for (name, value) in &output_tags(g) {
        if name != "Annotator" {
            tag(&mut out, name, value);
        }
    }
    tag(&mut out, "Annotator", &annotator(limits));
    out.push('\n');
    wrap(&movetext(g), &mut out);
    out.push_str("\n\n");
    out
}

/// The input's tags with XBoard's variant tags of an engine-defined game
/// ([`pgn_tags`]): `Variant`, `VariantMen`, `SetUp` added where missing (after the
/// `Variant` tag, or at the end), and the `FEN` given (or added) in XBoard's form,
/// the same position; the other tags as they were, in their order.
fn output_tags(g: &AnnotatedGame) -> Vec<(String, String)> {
    let def = &all_variants()[variant_id(g.variant).unwrap_or(0)];
    let start = g.start_fen.as_deref().unwrap_or(def.start_fen);
    let xboard = pgn_tags(def, start);
    let mut tags = g.pgn.tags.clone();
    if xboard.is_empty() {
        return tags;
    }
    if !tags.iter().any(|(k, _)| k == "Variant") {
        let at = tags.len().min(7);
        tags.insert(at, ("Variant".to_string(), g.variant.to_string()));
    }
    let mut at = tags
        .iter()
        .position(|(k, _)| k == "Variant")
        .map_or(tags.len(), |i| i + 1);
    for (name, value) in xboard {
        match tags.iter_mut().find(|(k, _)| k == name) {
            Some(old) => old.1 = value,
            None => {
                tags.insert(at, (name.to_string(), value));
                at += 1;
            }
        }
    }
    tags
}

/// A comment's text made safe inside braces.
fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('{', "(").replace('}', ")"))
}

/// The move-number token before a move: `12.` for White, `12...` for Black (Black's
/// moves follow a comment here, which the PGN standard wants numbered).
fn number_token(number: u32, black: bool) -> String {
    if black {
        format!("{number}...")
    } else {
        format!("{number}.")
    }
}

/// The movetext's words: numbers, moves, NAGs, comments, variations, the ending's
/// comment and the result.
fn movetext(g: &AnnotatedGame) -> Vec<String> {
    let (mut number, mut black) = first_move_number(g.start_fen.as_deref());
    let mut tokens = Vec::new();
    for n in &g.notes {
        tokens.push(number_token(number, black));
        tokens.push(n.text.clone());
        move_annotations(n, &mut tokens);
        if let Some(better) = &n.better {
            variation(&better.moves, number, black, &mut tokens);
            if let Some(last) = tokens.last_mut() {
                if last == "(" {
                    tokens.pop();
                } else {
                    let c = comment(&format!("{}/{}", score_text(better.score), better.depth));
                    tokens.push(c);
                    tokens.push(")".into());
                }
            }
        }
        if black {
            number += 1;
        }
        black = !black;
    }
    if let Some(reason) = &g.ending {
        tokens.push(comment(reason));
    }
    let result = if g.pgn.result.is_empty() {
        "*"
    } else {
        &g.pgn.result
    };
    tokens.push(result.to_string());
    tokens
}

/// The NAG and the value comment of a move.
fn move_annotations(n: &MoveNote, tokens: &mut Vec<String>) {
    if let Some(j) = n.judgement {
        tokens.push(format!("${}", j.nag()));
    }
    tokens.push(comment(&format!("{}/{}", score_text(n.score), n.depth)));
}

/// `( N. m1 m2 N+1. m3 ...` (the closing comment and parenthesis are the caller's);
/// just `(` when `moves` is empty.
fn variation(moves: &[String], mut number: u32, mut black: bool, tokens: &mut Vec<String>) {
    tokens.push("(".into());
    for (i, m) in moves.iter().enumerate() {
        if i == 0 || !black {
            tokens.push(number_token(number, black));
        }
        tokens.push(m.clone());
        if black {
            number += 1;
        }
        black = !black;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotate::analysis::Better;
    use crate::annotate::judge::Judgement;
    use crate::engine::search::Score;
    use crate::matches::pgn::{parse_pgn, PgnGame};

    fn note(text: &str, cp: i32, judgement: Option<Judgement>, better: &[&str]) -> MoveNote {
        MoveNote {
            coordinate: text.into(),
            text: text.into(),
            score: Score::Cp(cp),
            depth: 7,
            loss: 0.0,
            judgement,
            better: judgement.map(|_| Better {
                moves: better.iter().map(|m| m.to_string()).collect(),
                score: Score::Cp(-5),
                depth: 8,
            }),
        }
    }

    #[test]
    fn moves_nags_comments_and_variations() {
        let g = AnnotatedGame {
            number: 1,
            pgn: PgnGame {
                tags: vec![
                    ("Event".into(), "x".into()),
                    ("Annotator".into(), "old".into()),
                ],
                result: "0-1".into(),
                ..PgnGame::default()
            },
            variant: "normal",
            start_fen: None,
            notes: vec![
                note("e4", 30, None, &[]),
                note("d5", 40, None, &[]),
                note(
                    "Qg4",
                    -900,
                    Some(Judgement::Blunder),
                    &["exd5", "Qxd5", "Nc3"],
                ),
                note("Bxg4", -910, None, &[]),
            ],
            ending: Some("White resigns".into()),
        };
        let text = write_game(&g, &Limits::nodes(500));
        assert!(text.contains("[Annotator \"sako "), "{text}");
        assert!(!text.contains("old"), "{text}");
        let flat = text.replace('\n', " ");
        assert!(
            flat.contains(
                "1. e4 {+0.30/7} 1... d5 {+0.40/7} 2. Qg4 $4 {-9.00/7} \
                 ( 2. exd5 Qxd5 3. Nc3 {-0.05/8} ) 2... Bxg4 {-9.10/7}"
            ),
            "{text}"
        );
        assert!(text.contains("{White resigns} 0-1"), "{text}");
        let back = parse_pgn(&text).expect("reads back");
        assert_eq!(back[0].moves, vec!["e4", "d5", "Qg4", "Bxg4"]);
        assert_eq!(back[0].result, "0-1");
    }
}
