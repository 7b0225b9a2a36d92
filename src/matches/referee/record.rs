//! What a refereed game leaves behind: its moves with their comments, how it ended
//! and the fouls seen.

use std::time::Duration;

use crate::matches::engine::EngineScore;
use crate::rules::position::outcome::GameResult;

/// How a game ended, as the PGN `Termination` tag says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (mate, stalemate, repetition, ...), resignation or agreement.
    Normal,
    /// By -draw, -resign or -maxmoves.
    Adjudication,
    /// A clock ran out.
    TimeForfeit,
    /// An illegal move (or no move) was played.
    IllegalMove,
    /// A false result claim, or a legal move refused.
    RulesInfraction,
    /// An engine exited or could not start the game.
    Abandoned,
    /// An engine stopped answering.
    StalledConnection,
}

impl Termination {
    /// The tag value.
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::RulesInfraction => "rules infraction",
            Termination::Abandoned => "abandoned",
            Termination::StalledConnection => "stalled connection",
        }
    }
}

/// Something an engine did wrong (counted per engine over the match).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Foul {
    /// The process exited.
    Crash,
    /// It stopped answering.
    Stall,
    /// It overstepped its time.
    TimeLoss,
    /// It played an illegal move (or none).
    IllegalMove,
    /// It claimed a result the rules do not give.
    FalseClaim,
    /// It refused a legal move.
    RefusedMove,
}

/// One move of the game record.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    /// sako's coordinate text.
    pub text: String,
    /// The mover's score, if it reported one.
    pub score: Option<EngineScore>,
    /// Depth of that score.
    pub depth: Option<u32>,
    /// Thinking time in milliseconds (`None` for opening moves).
    pub time_ms: Option<u64>,
}

impl PlayedMove {
    /// `+0.23/12 0.81s`, or `None` for an opening move.
    pub fn comment(&self) -> Option<String> {
        let ms = self.time_ms?;
        let mut s = String::new();
        match self.score {
            Some(sc) => {
                s += &sc.text();
                if let Some(d) = self.depth {
                    s += &format!("/{d}");
                }
            }
            None => s += "n/a",
        }
        s += &format!(" {}s", crate::matches::args::seconds(ms));
        Some(s)
    }
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based number of the game in the match.
    pub index: usize,
    /// Round number for the PGN.
    pub round: u32,
    /// The slot (engine index) that had White.
    pub white_slot: usize,
    /// Names of White and Black.
    pub names: [String; 2],
    /// The variant.
    pub variant: String,
    /// Start position when it is not the variant's own.
    pub start_fen: Option<String>,
    /// Every move, openings first.
    pub moves: Vec<PlayedMove>,
    /// The result.
    pub result: GameResult,
    /// Why.
    pub reason: String,
    /// How it ended.
    pub termination: Termination,
    /// Fouls committed, by slot.
    pub fouls: Vec<(usize, Foul)>,
    /// The position at the end.
    pub final_fen: String,
    /// Time control tag value (of White's engine).
    pub time_control: String,
    /// Wall time of the game.
    pub duration: Duration,
    /// When the game started (seconds since 1970).
    pub started_unix: u64,
}
