//! One game between two engines, refereed by sako's rules core: every move is checked,
//! the game ends by the variant's rules (with their reasons), by adjudication on the
//! engines' scores, or by a foul — an illegal move, a false result claim, a time
//! forfeit measured here, a crash or a stall.

use std::time::{Duration, Instant};

use super::args::{DrawRule, ResignRule, TimeControl};
use super::engine::{Engine, EngineError, EngineScore, Envelope, Msg, Mux, Reply};
use crate::rules::position::outcome::GameResult;
use crate::Game;

/// The colour names used in reasons.
pub const COLOR_NAMES: [&str; 2] = ["White", "Black"];

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
        s += &format!(" {}s", super::args::seconds(ms));
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

/// Adjudication settings.
#[derive(Clone, Debug, Default)]
pub struct Adjudication {
    /// -draw.
    pub draw: Option<DrawRule>,
    /// -resign.
    pub resign: Option<ResignRule>,
    /// -maxmoves.
    pub maxmoves: Option<u32>,
}

/// What one game starts from.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// 0-based game number.
    pub index: usize,
    /// Round for the PGN.
    pub round: u32,
    /// sako's variant name.
    pub variant: String,
    /// Start FEN (`None`: the variant's start position).
    pub fen: Option<String>,
    /// Opening moves played from it before the engines think.
    pub opening_moves: Vec<String>,
    /// Which slot plays White.
    pub white_slot: usize,
}

/// A chess clock for one engine.
#[derive(Clone, Debug)]
struct Clock {
    tc: TimeControl,
    remaining_ms: i64,
    moves_made: u32,
}

impl Clock {
    fn new(tc: &TimeControl) -> Clock {
        let remaining_ms = match tc {
            TimeControl::Clock { base_ms, .. } => *base_ms as i64,
            _ => 0,
        };
        Clock {
            tc: tc.clone(),
            remaining_ms,
            moves_made: 0,
        }
    }

    /// Time allowed for the next move, if bounded.
    fn limit_ms(&self) -> Option<i64> {
        match self.tc {
            TimeControl::Clock { .. } => Some(self.remaining_ms),
            TimeControl::PerMove(ms) => Some(ms as i64),
            TimeControl::Infinite => None,
        }
    }

    fn moves_to_go(&self) -> Option<u32> {
        match self.tc {
            TimeControl::Clock { moves, .. } if moves > 0 => Some(moves - self.moves_made % moves),
            _ => None,
        }
    }

    /// Charges a move that took `ms`.
    fn charge(&mut self, ms: u64) {
        if let TimeControl::Clock {
            moves,
            base_ms,
            inc_ms,
        } = self.tc
        {
            self.remaining_ms -= ms as i64;
            self.remaining_ms += inc_ms as i64;
            self.moves_made += 1;
            if moves > 0 && self.moves_made.is_multiple_of(moves) {
                self.remaining_ms += base_ms as i64;
            }
        }
    }
}

/// Replaces braces so that a text fits in a PGN comment.
pub fn comment_safe(s: &str) -> String {
    s.replace('{', "(").replace('}', ")")
}

/// The legal move `text` denotes, in the rules core's own spelling (e.g. `e@b1` is
/// `E@b1`, an unsuffixed gate gets its suffix); `None` when it is not legal.
pub fn canonical_move(game: &mut Game, text: &str) -> Option<String> {
    let legal = game.legal_moves();
    if legal.iter().any(|m| m == text) {
        return Some(text.to_string());
    }
    let mut probe = game.clone();
    probe.play(text).ok()?;
    let target = probe.fen();
    legal.into_iter().find(|m| {
        let mut g = game.clone();
        g.play(m).is_ok() && g.fen() == target
    })
}

fn halfmove_clock(fen: &str) -> Option<u32> {
    fen.split_whitespace().nth(4).and_then(|f| f.parse().ok())
}

/// How the wait for a move ended.
enum Turn {
    Played,
    Over(GameResult, String, Termination),
}

/// The end of a game that `me` (in `slot`, playing `color`) loses by the illegal move
/// `what`, recorded as a foul.
fn illegal_move(
    fouls: &mut Vec<(usize, Foul)>,
    slot: usize,
    color: usize,
    me: &str,
    what: &str,
    game: &Game,
) -> Turn {
    fouls.push((slot, Foul::IllegalMove));
    Turn::Over(
        GameResult::win_for(color ^ 1),
        format!(
            "{me} makes an illegal move: {what} in position {}",
            game.fen()
        ),
        Termination::IllegalMove,
    )
}

/// The two engines of a worker and the output they share.
pub struct Pair {
    /// Both engines' output.
    pub mux: Mux,
    /// The engines by slot; `None` when broken (crashed, hung) and not yet restarted.
    pub engines: [Option<Engine>; 2],
}

impl Pair {
    fn engine(&mut self, slot: usize) -> Result<&mut Engine, EngineError> {
        self.engines[slot]
            .as_mut()
            .ok_or_else(|| EngineError::Crashed("the engine is not running".into()))
    }

    /// Kills a broken engine.
    pub fn drop_engine(&mut self, slot: usize) {
        if let Some(e) = self.engines[slot].take() {
            e.kill();
        }
        self.mux.retire(slot);
    }
}

fn foul_of(err: &EngineError) -> (Foul, Termination) {
    match err {
        EngineError::Timeout(_) => (Foul::Stall, Termination::StalledConnection),
        _ => (Foul::Crash, Termination::Abandoned),
    }
}

/// Plays one game; `names` are White's and Black's display names. Engines that break
/// are killed (their slot becomes `None`) and the fault is in the record.
pub fn play_game(
    pair: &mut Pair,
    setup: &GameSetup,
    adj: &Adjudication,
    names: [String; 2],
) -> GameRecord {
    let start = Instant::now();
    let started_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let ws = setup.white_slot;
    let slot_of = |color: usize| if color == 0 { ws } else { ws ^ 1 };
    let color_of = |slot: usize| if slot == ws { 0 } else { 1 };
    let time_control = pair.engines[ws]
        .as_ref()
        .map(|e| e.cfg.tc.pgn_tag())
        .unwrap_or_else(|| "-".into());
    let mut game = match Game::new(&setup.variant, setup.fen.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            // Openings are checked when loaded; this cannot happen.
            return GameRecord {
                index: setup.index,
                round: setup.round,
                white_slot: ws,
                names,
                variant: setup.variant.clone(),
                start_fen: setup.fen.clone(),
                moves: Vec::new(),
                result: GameResult::Draw,
                reason: format!("bad start position: {e}"),
                termination: Termination::Abandoned,
                fouls: Vec::new(),
                final_fen: String::new(),
                time_control,
                duration: start.elapsed(),
                started_unix,
            };
        }
    };
    let mut moves: Vec<PlayedMove> = Vec::new();
    let mut texts: Vec<String> = Vec::new();
    for m in &setup.opening_moves {
        if game.play(m).is_ok() {
            texts.push(m.clone());
            moves.push(PlayedMove {
                text: m.clone(),
                score: None,
                depth: None,
                time_ms: None,
            });
        }
    }
    let mut fouls: Vec<(usize, Foul)> = Vec::new();
    let mut clocks: Vec<Clock> = (0..2)
        .map(|slot| {
            pair.engines[slot]
                .as_ref()
                .map(|e| Clock::new(&e.cfg.tc))
                .unwrap_or_else(|| Clock::new(&TimeControl::Infinite))
        })
        .collect();

    // New game for both engines; an engine that cannot start it forfeits.
    let mut early_end: Option<(GameResult, String, Termination)> = None;
    for (color, color_name) in COLOR_NAMES.iter().enumerate() {
        let slot = slot_of(color);
        let r = {
            let Pair { mux, engines } = pair;
            match engines[slot].as_mut() {
                Some(e) => e.new_game(mux, &setup.variant, setup.fen.as_deref(), color),
                None => Err(EngineError::Crashed("the engine is not running".into())),
            }
        };
        if let Err(err) = r {
            let (foul, term) = foul_of(&err);
            fouls.push((slot, foul));
            pair.drop_engine(slot);
            if early_end.is_none() {
                early_end = Some((
                    GameResult::win_for(color ^ 1),
                    format!("{color_name}'s engine failed to start the game: {err}"),
                    term,
                ));
            }
        }
    }

    let mut draw_plies = 0u32;
    let mut resign_count = [0u32; 2];
    let mut last_cp: [Option<i32>; 2] = [None, None];
    let (result, reason, termination) = loop {
        if let Some(end) = early_end.take() {
            break end;
        }
        if let Some(o) = game.outcome() {
            break (o.result, o.reason, Termination::Normal);
        }
        if let Some(n) = adj.maxmoves {
            if texts.len() as u32 >= 2 * n {
                break (
                    GameResult::Draw,
                    format!("Draw by adjudication: {n} moves played"),
                    Termination::Adjudication,
                );
            }
        }
        let color = game.side_to_move();
        let slot = slot_of(color);
        match play_turn(
            pair,
            &mut game,
            &mut texts,
            &mut moves,
            &mut clocks,
            &mut fouls,
            slot,
            color,
            &color_of,
        ) {
            Turn::Over(r, why, t) => break (r, why, t),
            Turn::Played => {}
        }
        // Adjudication from the scores.
        let Some(last) = moves.last() else { continue };
        let cp = last.score.map(|s| s.cp());
        last_cp[color] = cp;
        if let Some(rule) = &adj.resign {
            match cp {
                Some(c) if c <= -rule.score => {
                    let other_agrees =
                        !rule.twosided || last_cp[color ^ 1].is_some_and(|o| o >= rule.score);
                    if other_agrees {
                        resign_count[color] += 1;
                    } else {
                        resign_count[color] = 0;
                    }
                }
                _ => resign_count[color] = 0,
            }
            if rule.movecount > 0 && resign_count[color] >= rule.movecount {
                break (
                    GameResult::win_for(color ^ 1),
                    format!(
                        "{} wins by adjudication: {}'s score at or below -{} cp for {} moves",
                        COLOR_NAMES[color ^ 1],
                        COLOR_NAMES[color],
                        rule.score,
                        rule.movecount
                    ),
                    Termination::Adjudication,
                );
            }
        }
        if let Some(rule) = &adj.draw {
            let irreversible = halfmove_clock(&game.fen()) == Some(0);
            match cp {
                _ if irreversible => draw_plies = 0,
                Some(c) if c.abs() <= rule.score => draw_plies += 1,
                _ => draw_plies = 0,
            }
            let full_moves = texts.len() as u32 / 2;
            if draw_plies >= 2 * rule.movecount.max(1) && full_moves >= rule.movenumber {
                break (
                    GameResult::Draw,
                    format!(
                        "Draw by adjudication: both scores within {} cp for {} moves",
                        rule.score, rule.movecount
                    ),
                    Termination::Adjudication,
                );
            }
        }
    };

    // Tell the engines; one that does not catch up is broken.
    let line = format!("{} {{{}}}", result.pgn(), comment_safe(&reason));
    for slot in 0..2 {
        let r = {
            let Pair { mux, engines } = pair;
            match engines[slot].as_mut() {
                Some(e) => e.end_game(mux, &line),
                None => Ok(()),
            }
        };
        if let Err(err) = r {
            let (foul, _) = foul_of(&err);
            if !fouls.contains(&(slot, foul)) {
                fouls.push((slot, foul));
            }
            pair.drop_engine(slot);
        }
    }
    GameRecord {
        index: setup.index,
        round: setup.round,
        white_slot: ws,
        names,
        variant: setup.variant.clone(),
        start_fen: setup.fen.clone(),
        moves,
        result,
        reason,
        termination,
        fouls,
        final_fen: game.fen(),
        time_control,
        duration: start.elapsed(),
        started_unix,
    }
}

/// Asks engine `slot` (playing `color`) for a move and plays it, or ends the game.
#[allow(clippy::too_many_arguments)]
fn play_turn(
    pair: &mut Pair,
    game: &mut Game,
    texts: &mut Vec<String>,
    moves: &mut Vec<PlayedMove>,
    clocks: &mut [Clock],
    fouls: &mut Vec<(usize, Foul)>,
    slot: usize,
    color: usize,
    color_of: &dyn Fn(usize) -> usize,
) -> Turn {
    let me = COLOR_NAMES[color];
    let limit = clocks[slot].limit_ms();
    let clock_pair = match clocks[slot].tc {
        TimeControl::Clock { .. } => {
            Some((clocks[slot].remaining_ms, clocks[slot ^ 1].remaining_ms))
        }
        _ => None,
    };
    let moves_to_go = clocks[slot].moves_to_go();
    let (margin, timeout) = match pair.engines[slot].as_ref() {
        Some(e) => (
            e.cfg.timemargin_ms,
            Duration::from_secs_f64(e.cfg.timeout_s),
        ),
        None => (0, Duration::from_secs(1)),
    };
    let sent = match pair.engine(slot) {
        Ok(e) => e.request_move(texts, clock_pair, moves_to_go),
        Err(e) => Err(e),
    };
    let sent_at = match sent {
        Ok(t) => t,
        Err(err) => {
            let (foul, term) = foul_of(&err);
            fouls.push((slot, foul));
            pair.drop_engine(slot);
            return Turn::Over(
                GameResult::win_for(color ^ 1),
                format!("{me}'s engine exited ({err})"),
                term,
            );
        }
    };
    let deadline = match limit {
        Some(ms) => sent_at + Duration::from_millis((ms.max(0) as u64) + margin),
        None => sent_at + timeout,
    };
    loop {
        let Some(Envelope {
            slot: from,
            msg,
            at,
            ..
        }) = pair.mux.next_any(deadline)
        else {
            // Nothing in time.
            if limit.is_some() {
                fouls.push((slot, Foul::TimeLoss));
                return Turn::Over(
                    GameResult::win_for(color ^ 1),
                    format!("{me} loses on time"),
                    Termination::TimeForfeit,
                );
            }
            fouls.push((slot, Foul::Stall));
            pair.drop_engine(slot);
            return Turn::Over(
                GameResult::win_for(color ^ 1),
                format!(
                    "{me}'s engine stalls: no move in {} s",
                    timeout.as_secs_f64()
                ),
                Termination::StalledConnection,
            );
        };
        let from_color = color_of(from);
        let who = COLOR_NAMES[from_color];
        let line = match msg {
            Msg::Eof => {
                fouls.push((from, Foul::Crash));
                pair.drop_engine(from);
                return Turn::Over(
                    GameResult::win_for(from_color ^ 1),
                    format!("{who}'s engine exited (crash)"),
                    Termination::Abandoned,
                );
            }
            Msg::Line(l) => l,
        };
        let reply = match pair.engines[from].as_mut() {
            Some(e) => e.interpret(&line),
            None => continue,
        };
        match reply {
            Reply::Move(text) if from == slot => {
                let elapsed = at.saturating_duration_since(sent_at).as_millis() as u64;
                if let Some(ms) = limit {
                    if elapsed as i64 > ms + margin as i64 {
                        fouls.push((slot, Foul::TimeLoss));
                        return Turn::Over(
                            GameResult::win_for(color ^ 1),
                            format!("{me} loses on time"),
                            Termination::TimeForfeit,
                        );
                    }
                }
                let Some(canon) = canonical_move(game, &text) else {
                    return illegal_move(fouls, slot, color, me, &comment_safe(&text), game);
                };
                if game.play(&canon).is_err() {
                    return illegal_move(fouls, slot, color, me, &canon, game);
                }
                let (score, depth) = match pair.engines[slot].as_mut() {
                    Some(e) => {
                        e.moved();
                        (e.last_score, e.last_depth)
                    }
                    None => (None, None),
                };
                clocks[slot].charge(elapsed);
                texts.push(canon.clone());
                moves.push(PlayedMove {
                    text: canon,
                    score,
                    depth,
                    time_ms: Some(elapsed),
                });
                return Turn::Played;
            }
            Reply::Move(_) => {} // a stale move of the other engine: ignore
            Reply::NoMove if from == slot => {
                let what = "none, though the game goes on";
                return illegal_move(fouls, slot, color, me, what, game);
            }
            Reply::NoMove => {}
            Reply::Resign => {
                return Turn::Over(
                    GameResult::win_for(from_color ^ 1),
                    format!("{who} resigns"),
                    Termination::Normal,
                );
            }
            Reply::Claim { result, comment } => {
                if let Some(o) = game.outcome() {
                    if o.result == result {
                        return Turn::Over(o.result, o.reason, Termination::Normal);
                    }
                }
                if result == GameResult::win_for(from_color ^ 1) {
                    return Turn::Over(result, format!("{who} resigns"), Termination::Normal);
                }
                fouls.push((from, Foul::FalseClaim));
                return Turn::Over(
                    GameResult::win_for(from_color ^ 1),
                    format!(
                        "{who} makes a false result claim: {} ({}) in position {}",
                        result.pgn(),
                        comment_safe(&comment),
                        game.fen()
                    ),
                    Termination::RulesInfraction,
                );
            }
            Reply::Rejected(m) => {
                fouls.push((from, Foul::RefusedMove));
                return Turn::Over(
                    GameResult::win_for(from_color ^ 1),
                    format!(
                        "{who}'s engine refuses the legal move {} ({})",
                        comment_safe(&m),
                        comment_safe(line.trim())
                    ),
                    Termination::RulesInfraction,
                );
            }
            Reply::Info | Reply::Other => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_spelling() {
        let mut g = Game::new("historia", None).expect("start");
        assert_eq!(canonical_move(&mut g, "k@e1").as_deref(), Some("K@e1"));
        assert_eq!(canonical_move(&mut g, "K@e5"), None);
        let mut g = Game::new("shatarhia", None).expect("start");
        g.play_all("e2e3 e7e6").expect("moves");
        assert_eq!(canonical_move(&mut g, "e1e2").as_deref(), Some("e1e2h"));
        assert_eq!(canonical_move(&mut g, "zz"), None);
    }

    #[test]
    fn clocks() {
        let mut c = Clock::new(&TimeControl::Clock {
            moves: 2,
            base_ms: 1000,
            inc_ms: 100,
        });
        assert_eq!(c.limit_ms(), Some(1000));
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(300);
        assert_eq!(c.remaining_ms, 800);
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(300);
        assert_eq!(c.remaining_ms, 1600);
        let st = Clock::new(&TimeControl::PerMove(50));
        assert_eq!(st.limit_ms(), Some(50));
    }

    #[test]
    fn comments() {
        let m = PlayedMove {
            text: "e2e4".into(),
            score: Some(EngineScore::Cp(23)),
            depth: Some(12),
            time_ms: Some(810),
        };
        assert_eq!(m.comment().as_deref(), Some("+0.23/12 0.81s"));
        assert_eq!(comment_safe("a {b}"), "a (b)");
    }
}
