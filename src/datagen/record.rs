//! One line of training data: `FEN | score | result`, written and read back.

use crate::rules::position::outcome::GameResult;

/// A position of a finished self-play game as a line of training data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The position (side to move not in check).
    pub fen: String,
    /// The search's score in centipawns from White's point of view.
    pub score: i32,
    /// How the game ended.
    pub result: GameResult,
}

/// The result field: `1` (White won), `0.5` (draw) or `0` (Black won).
pub fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "1",
        GameResult::Draw => "0.5",
        GameResult::BlackWins => "0",
    }
}

impl Record {
    /// The line, without its newline: `FEN | score | result`.
    pub fn line(&self) -> String {
        format!(
            "{} | {} | {}",
            self.fen,
            self.score,
            result_text(self.result)
        )
    }

    /// Reads a line written by [`Record::line`]; the error says what is wrong. The FEN
    /// is not checked against any variant's rules.
    pub fn parse(line: &str) -> Result<Record, String> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [fen, score, result] = fields[..] else {
            return Err(format!("not three '|'-separated fields: '{line}'"));
        };
        if fen.is_empty() {
            return Err(format!("empty FEN: '{line}'"));
        }
        let score = score
            .parse::<i32>()
            .map_err(|_| format!("score '{score}' is not an integer: '{line}'"))?;
        let result = match result {
            "1" => GameResult::WhiteWins,
            "0.5" => GameResult::Draw,
            "0" => GameResult::BlackWins,
            _ => return Err(format!("result '{result}' is not 1, 0.5 or 0: '{line}'")),
        };
        Ok(Record {
            fen: fen.to_string(),
            score,
            result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let r = Record {
            fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
            score: -23,
            result: GameResult::Draw,
        };
        assert_eq!(
            r.line(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -23 | 0.5"
        );
        assert_eq!(Record::parse(&r.line()), Ok(r));
    }

    #[test]
    fn bad_lines_are_refused() {
        for bad in [
            "",
            "a | 1",
            "a | x | 1",
            "a | 1 | 2",
            " | 1 | 1",
            "a | 1 | 1 | 1",
        ] {
            assert!(Record::parse(bad).is_err(), "{bad}");
        }
    }
}
