//! One game between two engines, refereed by sako's rules core: every move is checked,
//! the game ends by the variant's rules (with their reasons), by adjudication on the
//! engines' scores, or by a foul — an illegal move, a false result claim, a time
//! forfeit measured here, a crash or a stall.

use std::time::{Duration, Instant};

use super::args::{DrawRule, ResignRule, TimeControl};
use super::engine::{Engine, EngineError, Envelope, Msg, Mux, Reply};
use crate::rules::position::outcome::GameResult;
use crate::rules::position::Color;
use crate::Game;
use clock::Clock;

mod clock;
mod record;
#[cfg(test)]
mod tests;

pub use record::*;

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

/// How a game ended: result, reason, termination.
type Ending = (GameResult, String, Termination);

/// A game in progress: the position, the moves so far, the clocks and the fouls.
struct Progress {
    game: Game,
    /// The moves in sako's spelling, openings first (what the engines are sent).
    texts: Vec<String>,
    /// The moves with their scores and times, for the record.
    moves: Vec<PlayedMove>,
    /// The clocks by slot.
    clocks: Vec<Clock>,
    /// Fouls committed, by slot.
    fouls: Vec<(usize, Foul)>,
    /// The slot that plays White.
    white_slot: usize,
}

impl Progress {
    /// The game after its opening moves (a move the rules refuse is left out), each
    /// engine's clock set from its time control.
    fn new(mut game: Game, pair: &Pair, setup: &GameSetup) -> Progress {
        let mut texts = Vec::new();
        let mut moves = Vec::new();
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
        let clocks = (0..2)
            .map(|slot| {
                pair.engines[slot]
                    .as_ref()
                    .map(|e| Clock::new(&e.cfg.tc))
                    .unwrap_or_else(|| Clock::new(&TimeControl::Infinite))
            })
            .collect();
        Progress {
            game,
            texts,
            moves,
            clocks,
            fouls: Vec::new(),
            white_slot: setup.white_slot,
        }
    }

    /// The slot that plays `color`.
    fn slot_of(&self, color: Color) -> usize {
        if color == Color::White {
            self.white_slot
        } else {
            self.white_slot ^ 1
        }
    }

    /// The colour the engine in `slot` plays.
    fn color_of(&self, slot: usize) -> Color {
        if slot == self.white_slot {
            Color::White
        } else {
            Color::Black
        }
    }
}

/// The end of a game that the engine in `slot` (playing `color`) loses by the illegal
/// move `what`, recorded as a foul.
fn illegal_move(p: &mut Progress, slot: usize, color: Color, what: &str) -> Turn {
    p.fouls.push((slot, Foul::IllegalMove));
    Turn::Over(
        GameResult::win_for(color.flip()),
        format!(
            "{} makes an illegal move: {what} in position {}",
            color.name(),
            p.game.fen()
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

/// Seconds since 1970 (0 if the clock is before it).
fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
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
    let time_control = pair.engines[setup.white_slot]
        .as_ref()
        .map(|e| e.cfg.tc.pgn_tag())
        .unwrap_or_else(|| "-".into());
    let mut rec = GameRecord {
        index: setup.index,
        round: setup.round,
        white_slot: setup.white_slot,
        names,
        variant: setup.variant.clone(),
        start_fen: setup.fen.clone(),
        moves: Vec::new(),
        // The result fields are set when the game ends.
        result: GameResult::Draw,
        reason: String::new(),
        termination: Termination::Abandoned,
        fouls: Vec::new(),
        final_fen: String::new(),
        time_control,
        duration: Duration::ZERO,
        started_unix: unix_seconds(),
    };
    let game = match Game::new(&setup.variant, setup.fen.as_deref()) {
        Ok(g) => g,
        Err(e) => {
            // Openings are checked when loaded; this cannot happen.
            rec.reason = format!("bad start position: {e}");
            rec.duration = start.elapsed();
            return rec;
        }
    };
    let mut p = Progress::new(game, pair, setup);
    let (result, reason, termination) = match start_engines(pair, setup, &mut p) {
        Some(end) => end,
        None => play_moves(pair, &mut p, adj),
    };
    tell_result(pair, &mut p.fouls, result, &reason);
    rec.final_fen = p.game.fen();
    rec.moves = p.moves;
    rec.fouls = p.fouls;
    (rec.result, rec.reason, rec.termination) = (result, reason, termination);
    rec.duration = start.elapsed();
    rec
}

/// Starts a new game in both engines; an engine that cannot start it is killed and
/// forfeits (White's failure first, if both fail).
fn start_engines(pair: &mut Pair, setup: &GameSetup, p: &mut Progress) -> Option<Ending> {
    let mut early_end = None;
    for color in Color::iter() {
        let color_name = color.name();
        let slot = p.slot_of(color);
        let r = {
            let Pair { mux, engines } = &mut *pair;
            match engines[slot].as_mut() {
                Some(e) => e.new_game(mux, &setup.variant, setup.fen.as_deref(), color),
                None => Err(EngineError::Crashed("the engine is not running".into())),
            }
        };
        if let Err(err) = r {
            let (foul, term) = foul_of(&err);
            p.fouls.push((slot, foul));
            pair.drop_engine(slot);
            if early_end.is_none() {
                early_end = Some((
                    GameResult::win_for(color.flip()),
                    format!("{color_name}'s engine failed to start the game: {err}"),
                    term,
                ));
            }
        }
    }
    early_end
}

/// Plays moves until the rules, an adjudication or a foul end the game.
fn play_moves(pair: &mut Pair, p: &mut Progress, adj: &Adjudication) -> Ending {
    let mut watch = ScoreWatch::default();
    loop {
        if let Some(o) = p.game.outcome() {
            return (o.result, o.reason, Termination::Normal);
        }
        if let Some(n) = adj.maxmoves {
            if p.texts.len() as u32 >= 2 * n {
                return (
                    GameResult::Draw,
                    format!("Draw by adjudication: {n} moves played"),
                    Termination::Adjudication,
                );
            }
        }
        let color = p.game.side_to_move();
        let slot = p.slot_of(color);
        if let Turn::Over(r, why, t) = play_turn(pair, p, slot, color) {
            return (r, why, t);
        }
        let Some(last) = p.moves.last() else { continue };
        let cp = last.score.map(|s| s.cp());
        if let Some(end) = watch.after_move(adj, color, cp, p) {
            return end;
        }
    }
}

/// The counters of `-resign` and `-draw`, kept from the engines' scores.
#[derive(Default)]
struct ScoreWatch {
    /// Consecutive plies with the mover's score within the draw bound.
    draw_plies: u32,
    /// Consecutive moves of each colour with its score at or below the resign bound.
    resign_count: [u32; 2],
    /// Each colour's last score in centipawns.
    last_cp: [Option<i32>; 2],
}

impl ScoreWatch {
    /// Counts the move `color` just made with score `cp`; the adjudicated end, if the
    /// scores call for one.
    fn after_move(
        &mut self,
        adj: &Adjudication,
        color: Color,
        cp: Option<i32>,
        p: &Progress,
    ) -> Option<Ending> {
        self.last_cp[color] = cp;
        if let Some(rule) = &adj.resign {
            if let Some(end) = self.resign(rule, color, cp) {
                return Some(end);
            }
        }
        match &adj.draw {
            Some(rule) => self.draw(rule, cp, p),
            None => None,
        }
    }

    /// `-resign`: `color` loses when its score stayed at or below `-score` for
    /// `movecount` moves (with `twosided`, while the other side's agreed).
    fn resign(&mut self, rule: &ResignRule, color: Color, cp: Option<i32>) -> Option<Ending> {
        match cp {
            Some(c) if c <= -rule.score => {
                let other_agrees =
                    !rule.twosided || self.last_cp[color.flip()].is_some_and(|o| o >= rule.score);
                if other_agrees {
                    self.resign_count[color] += 1;
                } else {
                    self.resign_count[color] = 0;
                }
            }
            _ => self.resign_count[color] = 0,
        }
        if rule.movecount == 0 || self.resign_count[color] < rule.movecount {
            return None;
        }
        Some((
            GameResult::win_for(color.flip()),
            format!(
                "{} wins by adjudication: {}'s score at or below -{} cp for {} moves",
                color.flip().name(),
                color.name(),
                rule.score,
                rule.movecount
            ),
            Termination::Adjudication,
        ))
    }

    /// `-draw`: a draw when both scores stayed within `score` for `movecount` moves
    /// each (counting from the last irreversible move), after move `movenumber`.
    fn draw(&mut self, rule: &DrawRule, cp: Option<i32>, p: &Progress) -> Option<Ending> {
        let irreversible = halfmove_clock(&p.game.fen()) == Some(0);
        match cp {
            _ if irreversible => self.draw_plies = 0,
            Some(c) if c.abs() <= rule.score => self.draw_plies += 1,
            _ => self.draw_plies = 0,
        }
        let full_moves = p.texts.len() as u32 / 2;
        if self.draw_plies < 2 * rule.movecount.max(1) || full_moves < rule.movenumber {
            return None;
        }
        Some((
            GameResult::Draw,
            format!(
                "Draw by adjudication: both scores within {} cp for {} moves",
                rule.score, rule.movecount
            ),
            Termination::Adjudication,
        ))
    }
}

/// Tells the engines how the game ended; one that does not catch up is broken (killed,
/// its foul recorded once).
fn tell_result(pair: &mut Pair, fouls: &mut Vec<(usize, Foul)>, result: GameResult, reason: &str) {
    let line = format!("{} {{{}}}", result.pgn(), comment_safe(reason));
    for slot in 0..2 {
        let r = {
            let Pair { mux, engines } = &mut *pair;
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
}

/// A move asked of an engine: whose, since when, and how long it may take.
struct Request {
    /// The engine's slot.
    slot: usize,
    /// The colour it plays.
    color: Color,
    /// When the request was sent.
    sent_at: Instant,
    /// Milliseconds on its clock for the move, if bounded.
    limit: Option<i64>,
    /// Milliseconds it may overstep `limit`.
    margin: u64,
    /// How long to wait when `limit` is `None`.
    timeout: Duration,
}

impl Request {
    /// When the wait for the move ends.
    fn deadline(&self) -> Instant {
        match self.limit {
            Some(ms) => self.sent_at + Duration::from_millis((ms.max(0) as u64) + self.margin),
            None => self.sent_at + self.timeout,
        }
    }

    /// The requested engine's colour name.
    fn me(&self) -> &'static str {
        self.color.name()
    }
}

/// Asks engine `slot` (playing `color`) for a move and plays it, or ends the game.
fn play_turn(pair: &mut Pair, p: &mut Progress, slot: usize, color: Color) -> Turn {
    let req = match send_request(pair, p, slot, color) {
        Ok(req) => req,
        Err(end) => return end,
    };
    let deadline = req.deadline();
    loop {
        let Some(Envelope {
            slot: from,
            msg,
            at,
            ..
        }) = pair.mux.next_any(deadline)
        else {
            return no_answer(pair, p, &req);
        };
        let line = match msg {
            Msg::Eof => {
                let from_color = p.color_of(from);
                p.fouls.push((from, Foul::Crash));
                pair.drop_engine(from);
                return Turn::Over(
                    GameResult::win_for(from_color.flip()),
                    format!("{}'s engine exited (crash)", from_color.name()),
                    Termination::Abandoned,
                );
            }
            Msg::Line(l) => l,
        };
        let reply = match pair.engines[from].as_mut() {
            Some(e) => e.interpret(&line),
            None => continue,
        };
        let heard = Heard {
            from,
            at,
            line: &line,
        };
        if let Some(turn) = on_reply(pair, p, &req, &heard, reply) {
            return turn;
        }
    }
}

/// Sends engine `slot` its clocks and the moves so far and asks for a move; an engine
/// that cannot be asked is killed and loses.
fn send_request(
    pair: &mut Pair,
    p: &mut Progress,
    slot: usize,
    color: Color,
) -> Result<Request, Turn> {
    let clock = &p.clocks[slot];
    let limit = clock.limit_ms();
    let clock_pair = match clock.tc {
        TimeControl::Clock { .. } => Some((clock.remaining_ms, p.clocks[slot ^ 1].remaining_ms)),
        _ => None,
    };
    let moves_to_go = clock.moves_to_go();
    let (margin, timeout) = match pair.engines[slot].as_ref() {
        Some(e) => (
            e.cfg.timemargin_ms,
            Duration::from_secs_f64(e.cfg.timeout_s),
        ),
        None => (0, Duration::from_secs(1)),
    };
    let sent = match pair.engine(slot) {
        Ok(e) => e.request_move(&p.texts, clock_pair, moves_to_go),
        Err(e) => Err(e),
    };
    match sent {
        Ok(sent_at) => Ok(Request {
            slot,
            color,
            sent_at,
            limit,
            margin,
            timeout,
        }),
        Err(err) => {
            let (foul, term) = foul_of(&err);
            p.fouls.push((slot, foul));
            pair.drop_engine(slot);
            Err(Turn::Over(
                GameResult::win_for(color.flip()),
                format!("{}'s engine exited ({err})", color.name()),
                term,
            ))
        }
    }
}

/// The requested engine lost on time.
fn lost_on_time(p: &mut Progress, req: &Request) -> Turn {
    p.fouls.push((req.slot, Foul::TimeLoss));
    Turn::Over(
        GameResult::win_for(req.color.flip()),
        format!("{} loses on time", req.me()),
        Termination::TimeForfeit,
    )
}

/// Nothing came before the deadline: a time loss on a clock, else a stall (the
/// engine is killed).
fn no_answer(pair: &mut Pair, p: &mut Progress, req: &Request) -> Turn {
    if req.limit.is_some() {
        return lost_on_time(p, req);
    }
    p.fouls.push((req.slot, Foul::Stall));
    pair.drop_engine(req.slot);
    Turn::Over(
        GameResult::win_for(req.color.flip()),
        format!(
            "{}'s engine stalls: no move in {} s",
            req.me(),
            req.timeout.as_secs_f64()
        ),
        Termination::StalledConnection,
    )
}

/// A line read from an engine while a move is awaited.
struct Heard<'a> {
    /// The engine's slot.
    from: usize,
    /// When it was read.
    at: Instant,
    /// The line.
    line: &'a str,
}

/// Acts on an engine's reply while a move is awaited: the turn's end, or `None` to
/// go on waiting (analysis, a stale move of the other engine, ...).
fn on_reply(
    pair: &mut Pair,
    p: &mut Progress,
    req: &Request,
    heard: &Heard,
    reply: Reply,
) -> Option<Turn> {
    let from = heard.from;
    let from_color = p.color_of(from);
    let who = from_color.name();
    match reply {
        Reply::Move(text) if from == req.slot => Some(take_move(pair, p, req, &text, heard.at)),
        Reply::NoMove if from == req.slot => Some(illegal_move(
            p,
            req.slot,
            req.color,
            "none, though the game goes on",
        )),
        // A stale move of the other engine, analysis, anything else: ignore.
        Reply::Move(_) | Reply::NoMove | Reply::Info | Reply::Other => None,
        Reply::Resign => Some(Turn::Over(
            GameResult::win_for(from_color.flip()),
            format!("{who} resigns"),
            Termination::Normal,
        )),
        Reply::Claim { result, comment } => Some(judge_claim(p, from, result, &comment)),
        Reply::Rejected(m) => {
            p.fouls.push((from, Foul::RefusedMove));
            Some(Turn::Over(
                GameResult::win_for(from_color.flip()),
                format!(
                    "{who}'s engine refuses the legal move {} ({})",
                    comment_safe(&m),
                    comment_safe(heard.line.trim())
                ),
                Termination::RulesInfraction,
            ))
        }
    }
}

/// Plays the requested engine's move `text`, read at `at`: a time loss if it came too
/// late, a loss if it is illegal.
fn take_move(pair: &mut Pair, p: &mut Progress, req: &Request, text: &str, at: Instant) -> Turn {
    let elapsed = at.saturating_duration_since(req.sent_at).as_millis() as u64;
    if let Some(ms) = req.limit {
        if elapsed as i64 > ms + req.margin as i64 {
            return lost_on_time(p, req);
        }
    }
    let Some(canon) = canonical_move(&mut p.game, text) else {
        return illegal_move(p, req.slot, req.color, &comment_safe(text));
    };
    if p.game.play(&canon).is_err() {
        return illegal_move(p, req.slot, req.color, &canon);
    }
    let (score, depth) = match pair.engines[req.slot].as_mut() {
        Some(e) => {
            e.moved();
            (e.last_score, e.last_depth)
        }
        None => (None, None),
    };
    p.clocks[req.slot].charge(elapsed);
    p.texts.push(canon.clone());
    p.moves.push(PlayedMove {
        text: canon,
        score,
        depth,
        time_ms: Some(elapsed),
    });
    Turn::Played
}

/// A result claim by the engine in `from`: the game ends as claimed when the rules
/// agree, or when the claimant claims its own loss (a resignation); any other claim
/// is false and loses.
fn judge_claim(p: &mut Progress, from: usize, result: GameResult, comment: &str) -> Turn {
    let from_color = p.color_of(from);
    let who = from_color.name();
    if let Some(o) = p.game.outcome() {
        if o.result == result {
            return Turn::Over(o.result, o.reason, Termination::Normal);
        }
    }
    if result == GameResult::win_for(from_color.flip()) {
        return Turn::Over(result, format!("{who} resigns"), Termination::Normal);
    }
    p.fouls.push((from, Foul::FalseClaim));
    Turn::Over(
        GameResult::win_for(from_color.flip()),
        format!(
            "{who} makes a false result claim: {} ({}) in position {}",
            result.pgn(),
            comment_safe(comment),
            p.game.fen()
        ),
        Termination::RulesInfraction,
    )
}
