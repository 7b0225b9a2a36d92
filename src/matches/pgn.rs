//! PGN for match games: the writer (tags, SAN or coordinate moves with
//! `{+0.23/12 0.81s}` comments, the result reason) and a small reader, used for PGN
//! openings and by the tests to replay what was written.

use super::args::PgnMoves;
use super::referee::{comment_safe, GameRecord};
use crate::rules::variant::{all_variants, variant_id};
use crate::rules::xboard_def::pgn_tags;
use crate::Game;

/// Tags that are the same for every game of a match.
#[derive(Clone, Debug)]
pub struct PgnMeta {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
}

/// `YYYY.MM.DD` for seconds since 1970 (UTC).
pub fn pgn_date(unix: u64) -> String {
    let days = (unix / 86_400) as i64;
    // Civil-from-days (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Appends the tag line `[NAME "VALUE"]`, the value's backslashes and quotes escaped.
pub fn tag(out: &mut String, name: &str, value: &str) {
    let v = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{v}\"]\n"));
}

/// True when `fen` is the variant's own start position.
pub fn is_standard_start(variant: &str, fen: &str) -> bool {
    let (Ok(a), Ok(b)) = (Game::new(variant, Some(fen)), Game::new(variant, None)) else {
        return false;
    };
    a.fen() == b.fen()
}

/// The game as PGN text with SAN moves (see [`write_game_as`]).
pub fn write_game(rec: &GameRecord, meta: &PgnMeta, min: bool) -> String {
    write_game_as(rec, meta, min, PgnMoves::San)
}

/// The game as PGN text (ending with a blank line), its moves in `notation`. `min`:
/// the seven tags, the variant tags and the moves without comments. The variant tags
/// of an engine-defined game are XBoard's (`VariantMen`, `FEN` in XBoard's form and
/// `SetUp`, [`pgn_tags`]), in either notation, so that XBoard reads the file; a game
/// XBoard knows gets `FEN`/`SetUp` only from a position other than its start.
pub fn write_game_as(rec: &GameRecord, meta: &PgnMeta, min: bool, notation: PgnMoves) -> String {
    let mut out = String::new();
    tag(&mut out, "Event", &meta.event);
    tag(&mut out, "Site", &meta.site);
    tag(&mut out, "Date", &pgn_date(rec.started_unix));
    tag(&mut out, "Round", &rec.round.to_string());
    tag(&mut out, "White", &rec.names[0]);
    tag(&mut out, "Black", &rec.names[1]);
    tag(&mut out, "Result", rec.result.pgn());
    let start_fen = rec.start_fen.clone().unwrap_or_else(|| {
        variant_id(&rec.variant)
            .map(|id| all_variants()[id].start_fen.to_string())
            .unwrap_or_default()
    });
    let non_standard = rec
        .start_fen
        .as_deref()
        .is_some_and(|f| !is_standard_start(&rec.variant, f));
    if rec.variant != "normal" {
        tag(&mut out, "Variant", &rec.variant);
    }
    let xboard = variant_id(&rec.variant)
        .map(|id| pgn_tags(&all_variants()[id], &start_fen))
        .unwrap_or_default();
    for (name, value) in &xboard {
        tag(&mut out, name, value);
    }
    if non_standard && xboard.is_empty() {
        tag(&mut out, "FEN", &start_fen);
        tag(&mut out, "SetUp", "1");
    }
    if !min {
        tag(&mut out, "TimeControl", &rec.time_control);
        tag(&mut out, "PlyCount", &rec.moves.len().to_string());
        tag(&mut out, "Termination", rec.termination.tag());
        let secs = rec.duration.as_secs();
        tag(
            &mut out,
            "GameDuration",
            &format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60),
        );
    }
    out.push('\n');
    let moves = match notation {
        PgnMoves::San => san_moves(rec, &start_fen),
        PgnMoves::Coord => rec.moves.iter().map(|m| m.text.clone()).collect(),
    };
    wrap(&movetext(rec, &moves, &start_fen, min), &mut out);
    out.push_str("\n\n");
    out
}

/// The record's moves in SAN, replayed from `start_fen`; from a move that does not
/// replay on (which a referee's record should not hold) the coordinate text is kept.
fn san_moves(rec: &GameRecord, start_fen: &str) -> Vec<String> {
    let mut game = Game::new(&rec.variant, Some(start_fen)).ok();
    rec.moves
        .iter()
        .map(|m| {
            let san = game
                .as_mut()
                .and_then(|g| g.san(&m.text).ok().filter(|_| g.play(&m.text).is_ok()));
            if san.is_none() {
                game = None;
            }
            san.unwrap_or_else(|| m.text.clone())
        })
        .collect()
}

/// The movetext's words: move numbers (following the start FEN), `moves`, the
/// record's comments unless `min`, the reason and the result.
fn movetext(rec: &GameRecord, moves: &[String], start_fen: &str, min: bool) -> Vec<String> {
    let fields: Vec<&str> = start_fen.split_whitespace().collect();
    let mut black = fields.get(1) == Some(&"b");
    let mut number: u32 = fields
        .get(5)
        .and_then(|f| f.parse().ok())
        .unwrap_or(1)
        .max(1);
    let mut tokens: Vec<String> = Vec::new();
    for (i, (m, text)) in rec.moves.iter().zip(moves).enumerate() {
        if !black {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(text.clone());
        if !min {
            if let Some(c) = m.comment() {
                tokens.push(format!("{{{}}}", comment_safe(&c)));
            }
        }
        if black {
            number += 1;
        }
        black = !black;
    }
    tokens.push(format!("{{{}}}", comment_safe(&rec.reason)));
    tokens.push(rec.result.pgn().to_string());
    tokens
}

/// Appends `tokens` to `out` separated by spaces, in lines of at most 79 columns (a
/// longer token alone on its line); no newline after the last line.
pub fn wrap(tokens: &[String], out: &mut String) {
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
}

/// One game read back from PGN.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// Moves as written.
    pub moves: Vec<String>,
    /// Comments in order (move comments and the final reason).
    pub comments: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: String,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let value = rest.replace("\\\"", "\"").replace("\\\\", "\\");
    Some((name.to_string(), value))
}

/// Why a PGN text cannot be read. `Display` gives the message the CLI prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// A tag line after the moves of a game began (the line).
    TagInGame(String),
    /// A `{` comment without its `}`.
    UnclosedComment,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PgnError::TagInGame(line) => write!(f, "a tag in the middle of a game: {line}"),
            PgnError::UnclosedComment => f.write_str("an unclosed comment"),
        }
    }
}

impl std::error::Error for PgnError {}

/// Reads every game of a PGN text (tags, coordinate moves, comments, results;
/// variations and `;` comments are skipped).
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut r = PgnReader::default();
    let mut chars = text.chars();
    let mut line_start = true;
    while let Some(c) = chars.next() {
        if line_start && c == '[' && !r.in_moves {
            r.read_tag_line(&mut chars)?;
            continue;
        }
        line_start = c == '\n';
        match c {
            '{' => r.read_comment(&mut chars)?,
            ';' => {
                r.flush();
                // The rest of the line is the comment.
                line_start = chars.by_ref().any(|d| d == '\n');
            }
            '(' => r.skip_variation(&mut chars),
            c if c.is_whitespace() => r.flush(),
            c => r.token.push(c),
        }
    }
    r.flush();
    let mut games = r.games;
    let mut cur = r.cur;
    if !cur.moves.is_empty() || !cur.tags.is_empty() {
        cur.result = "*".into();
        games.push(cur);
    }
    Ok(games)
}

/// The state of [`parse_pgn`]: the games read, the one being read, the word being read.
#[derive(Default)]
struct PgnReader {
    games: Vec<PgnGame>,
    cur: PgnGame,
    /// The current game's moves (or comments) have begun: a `[` is no tag.
    in_moves: bool,
    token: String,
}

impl PgnReader {
    /// Ends the word being read: a result ends the game, anything else but a move
    /// number or a `$` annotation is a move.
    fn flush(&mut self) {
        if self.token.is_empty() {
            return;
        }
        let t = std::mem::take(&mut self.token);
        match t.as_str() {
            "1-0" | "0-1" | "1/2-1/2" | "*" => {
                self.cur.result = t;
                self.games.push(std::mem::take(&mut self.cur));
                self.in_moves = false;
            }
            _ => {
                // Strip a move number (`12.`, `12...`, `12.e2e4`).
                let digits = t.chars().take_while(|c| c.is_ascii_digit()).count();
                let rest = &t[digits..];
                let rest = if digits > 0 && rest.starts_with('.') {
                    rest.trim_start_matches('.')
                } else {
                    t.as_str()
                };
                if !rest.is_empty() && !rest.starts_with('$') {
                    self.cur.moves.push(rest.to_string());
                    self.in_moves = true;
                }
            }
        }
    }

    /// Reads the rest of a line that began with `[`; a tag there belongs to the
    /// current game, which must not have begun its moves.
    fn read_tag_line(&mut self, chars: &mut std::str::Chars) -> Result<(), PgnError> {
        let mut line = String::from("[");
        line.extend(chars.by_ref().take_while(|&d| d != '\n'));
        if let Some(t) = parse_tag(&line) {
            if !self.cur.moves.is_empty() || !self.cur.comments.is_empty() {
                return Err(PgnError::TagInGame(line));
            }
            self.cur.tags.push(t);
        }
        Ok(())
    }

    /// Reads a `{...}` comment (its opening brace read), line breaks made spaces.
    fn read_comment(&mut self, chars: &mut std::str::Chars) -> Result<(), PgnError> {
        self.flush();
        let mut comment = String::new();
        let mut closed = false;
        for d in chars.by_ref() {
            if d == '}' {
                closed = true;
                break;
            }
            comment.push(if d == '\n' { ' ' } else { d });
        }
        if !closed {
            return Err(PgnError::UnclosedComment);
        }
        self.cur.comments.push(comment.trim().to_string());
        self.in_moves = true;
        Ok(())
    }

    /// Skips a `(...)` variation (its opening parenthesis read), nested ones included.
    fn skip_variation(&mut self, chars: &mut std::str::Chars) {
        self.flush();
        let mut depth = 1;
        for d in chars.by_ref() {
            match d {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::engine::EngineScore;
    use crate::matches::referee::{PlayedMove, Termination};
    use crate::rules::position::outcome::GameResult;

    #[test]
    fn dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_700_000_000), "2023.11.14");
    }

    fn mv(t: &str, c: Option<i32>) -> PlayedMove {
        PlayedMove {
            text: t.into(),
            score: c.map(EngineScore::Cp),
            depth: c.map(|_| 5),
            time_ms: c.map(|_| 120),
        }
    }

    fn record(variant: &str, start_fen: Option<&str>, moves: Vec<PlayedMove>) -> GameRecord {
        GameRecord {
            index: 0,
            round: 1,
            white_slot: 0,
            names: ["A".into(), "B".into()],
            variant: variant.into(),
            start_fen: start_fen.map(str::to_string),
            moves,
            result: GameResult::WhiteWins,
            reason: "Black's engine exited (crash)".into(),
            termination: Termination::Abandoned,
            fouls: Vec::new(),
            final_fen: String::new(),
            time_control: "5+0.05".into(),
            duration: std::time::Duration::from_secs(3),
            started_unix: 0,
        }
    }

    fn meta() -> PgnMeta {
        PgnMeta {
            event: "t".into(),
            site: "?".into(),
        }
    }

    #[test]
    fn san_or_coordinates() {
        let line = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1", "g8f6",
        ];
        let rec = record("normal", None, line.iter().map(|t| mv(t, None)).collect());
        let san = write_game(&rec, &meta(), true);
        assert!(
            san.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O Nf6 {"),
            "{san}"
        );
        let coord = write_game_as(&rec, &meta(), true, PgnMoves::Coord);
        assert!(coord.contains("1. e2e4 e7e5 2. g1f3 b8c6"), "{coord}");
        // Both read back as the same game.
        let (a, b) = (
            &parse_pgn(&san).expect("san")[0],
            &parse_pgn(&coord).expect("coord")[0],
        );
        let mut g = Game::new("normal", None).expect("start");
        for (s, c) in a.moves.iter().zip(&b.moves) {
            assert_eq!(g.coordinates(s).expect("SAN reads"), *c);
            g.play(s).expect("legal");
        }
    }

    #[test]
    fn a_move_that_does_not_replay_keeps_its_coordinates() {
        let rec = record(
            "normal",
            None,
            ["e2e4", "e2e4", "e7e5"]
                .iter()
                .map(|t| mv(t, None))
                .collect(),
        );
        let text = write_game(&rec, &meta(), true);
        // From the bad move on, nothing is replayed (e7e5 would read as SAN `e5`).
        assert!(text.contains("1. e4 e2e4 2. e7e5 {"), "{text}");
    }

    #[test]
    fn write_and_read_back() {
        let rec = record(
            "historia",
            Some("8/4pppp/pppp4/8/8/4PPPP/PPPP4/8[KQRRBBNNEEkqrrbbnnee] b - - 0 1"),
            vec![
                mv("K@e8", Some(10)),
                mv("K@e1", Some(-20)),
                mv("Q@d8", None),
            ],
        );
        let text = write_game(
            &rec,
            &PgnMeta {
                event: "t".into(),
                site: "?".into(),
            },
            false,
        );
        assert!(text.contains("[Variant \"historia\"]"), "{text}");
        assert!(text.contains("[SetUp \"1\"]"));
        assert!(
            text.contains("1... K@e8 {+0.10/5 0.12s} 2. K@e1 {-0.20/5 0.12s} Q@d8"),
            "{text}"
        );
        let games = parse_pgn(&text).expect("parses");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, vec!["K@e8", "K@e1", "Q@d8"]);
        assert_eq!(games[0].result, "1-0");
        assert_eq!(games[0].tag("Termination"), Some("abandoned"));
        assert_eq!(
            games[0].comments.last().map(String::as_str),
            Some("Black's engine exited (crash)")
        );
    }
}
