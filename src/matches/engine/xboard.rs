//! The XBoard (CECP v2) side of [`Engine`]: handshake and features, new game and
//! set-up, clocks, moves and the engine's answers.

use std::time::{Duration, Instant};

use super::{Engine, EngineError, EngineScore, Mux, Reply};
use crate::matches::args::TimeControl;
use crate::rules::position::fen_board_cells;
use crate::rules::position::outcome::GameResult;

/// Splits `feature a=1 b="x y"` into pairs.
pub(super) fn parse_features(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else { break };
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, remaining) = if let Some(stripped) = after.strip_prefix('"') {
            match stripped.find('"') {
                Some(end) => (stripped[..end].to_string(), &stripped[end + 1..]),
                None => (stripped.to_string(), ""),
            }
        } else {
            match after.find(char::is_whitespace) {
                Some(end) => (after[..end].to_string(), &after[end..]),
                None => (after.to_string(), ""),
            }
        };
        out.push((key, value));
        rest = remaining.trim_start();
    }
    out
}

/// XBoard `level` base time: `M` or `M:SS` (whole seconds, at least one).
pub(super) fn level_base(ms: u64) -> String {
    let secs = ms.div_ceil(1000).max(1);
    if secs.is_multiple_of(60) {
        format!("{}", secs / 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// XBoard's `edit` mode commands that set up `fen` (for engines without `setboard`).
/// Black to move is reached the protocol's way: a dummy move `a2a3` before `edit`.
/// Positions with pieces in hand cannot be set up so.
pub fn edit_commands(fen: &str) -> Result<Vec<String>, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board = fields.first().ok_or("empty FEN")?;
    let (board, hand) = match board.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (*board, ""),
    };
    if !hand.is_empty() {
        return Err("pieces in hand".into());
    }
    let rows = fen_board_cells(board)?;
    let ranks = rows.len();
    let mut white = Vec::new();
    let mut black = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let rank = ranks - r;
        for (file, cell) in row.iter().enumerate() {
            let Some(c) = *cell else { continue };
            let square = format!("{}{rank}", (b'a' + file as u8) as char);
            let cmd = format!("{}{square}", c.to_ascii_uppercase());
            if c.is_ascii_uppercase() {
                white.push(cmd);
            } else {
                black.push(cmd);
            }
        }
    }
    let mut out = Vec::new();
    if fields.get(1) == Some(&"b") {
        out.push("a2a3".to_string());
    }
    out.push("edit".into());
    out.push("#".into());
    out.extend(white);
    out.push("c".into());
    out.extend(black);
    out.push(".".into());
    Ok(out)
}

impl Engine {
    pub(super) fn xboard_handshake(&mut self, mux: &mut Mux) -> Result<(), EngineError> {
        self.send("xboard")?;
        self.send("protover 2")?;
        // Protocol: an engine that says nothing within two seconds is a version 1
        // engine; `done=0` asks for more time (here: up to the timeout).
        let mut deadline = Instant::now() + Duration::from_secs(2).min(self.timeout());
        let mut any_feature = false;
        loop {
            let line = match self.next_line(mux, deadline, "waiting for feature done=1") {
                Ok(l) => l,
                Err(EngineError::Timeout(e)) => {
                    if any_feature {
                        return Err(EngineError::Timeout(e));
                    }
                    break; // protocol version 1
                }
                Err(e) => return Err(e),
            };
            let Some(rest) = line.trim().strip_prefix("feature ") else {
                continue;
            };
            any_feature = true;
            let mut done = None;
            for (k, v) in parse_features(rest) {
                if k == "done" {
                    done = Some(v == "1");
                    continue;
                }
                let verdict = if self.take_feature(&k, &v) {
                    "accepted"
                } else {
                    "rejected"
                };
                self.send(&format!("{verdict} {k}"))?;
            }
            match done {
                Some(true) => break,
                Some(false) => deadline = Instant::now() + self.timeout(),
                None => {}
            }
        }
        if self.cfg.name.is_none() {
            if let Some(n) = self.xb.myname.clone() {
                self.name = n;
            }
        }
        for (name, value) in self.cfg.options.clone() {
            match name.to_ascii_lowercase().as_str() {
                "hash" if self.xb.memory => self.send(&format!("memory {value}"))?,
                "threads" | "cores" if self.xb.smp => self.send(&format!("cores {value}"))?,
                _ => self.send(&format!("option {name}={value}"))?,
            }
        }
        Ok(())
    }

    /// Records the XBoard feature `k=v`; false for a feature sako cannot use (it is
    /// rejected).
    pub(super) fn take_feature(&mut self, k: &str, v: &str) -> bool {
        let on = v == "1";
        match k {
            "ping" => self.xb.ping = on,
            "setboard" => self.xb.setboard = on,
            "usermove" => self.xb.usermove = on,
            "reuse" => self.xb.reuse = on,
            "memory" => self.xb.memory = on,
            "smp" => self.xb.smp = on,
            "variants" => {
                self.xb.variants = Some(v.split(',').map(|s| s.trim().to_string()).collect())
            }
            "myname" => self.xb.myname = Some(v.to_string()),
            "option" => {
                let name = v.split(" -").next().unwrap_or("").trim().to_string();
                self.xb.options.push(name);
            }
            "san" => return false, // we speak coordinates only
            "sigint" | "sigterm" | "time" | "draw" | "colors" | "name" | "analyze" | "pause"
            | "nps" | "debug" | "playother" | "ics" | "exclude" | "setscore" | "highlight"
            | "egt" | "reuse_" | "smp_" => {}
            _ => return false,
        }
        true
    }

    /// XBoard's new game: `new`, the variant, the start position (by `setboard` or edit
    /// mode), the clock and depth limits, `post` and `easy`.
    pub(super) fn new_game_xboard(&mut self, vname: &str) -> Result<(), EngineError> {
        self.send("new")?;
        if vname != "normal" {
            self.send(&format!("variant {vname}"))?;
        }
        self.send("force")?;
        if let Some(f) = self.start_fen.clone() {
            self.xboard_set_up(&f)?;
        }
        match &self.cfg.tc {
            TimeControl::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                let line = format!(
                    "level {moves} {} {}",
                    level_base(*base_ms),
                    crate::matches::args::seconds(*inc_ms)
                );
                self.send(&line)?;
            }
            TimeControl::PerMove(ms) => {
                self.send(&format!("st {}", crate::matches::args::seconds(*ms)))?
            }
            TimeControl::Infinite => {}
        }
        if let Some(d) = self.cfg.depth {
            self.send(&format!("sd {d}"))?;
        }
        self.send("post")?;
        self.send("easy")
    }

    /// Sends an XBoard engine the position `fen`: `setboard` when it has the feature,
    /// else the commands of edit mode.
    pub(super) fn xboard_set_up(&mut self, fen: &str) -> Result<(), EngineError> {
        if self.xb.setboard {
            return self.send(&format!("setboard {fen}"));
        }
        let lines = edit_commands(fen).map_err(|e| {
            EngineError::Failed(format!(
                "{} has no setboard feature, and edit mode cannot set up {fen}: {e}",
                self.name
            ))
        })?;
        for l in lines {
            self.send(&l)?;
        }
        Ok(())
    }

    /// XBoard's move request: the moves the engine has not seen, the clocks, and `go`
    /// (after `force` when more than the opponent's last move is new); a single new move
    /// to an engine that is not in force mode is sent after the clocks and starts it.
    pub(super) fn request_move_xboard(
        &mut self,
        moves: &[String],
        clocks: Option<(i64, i64)>,
    ) -> Result<(), EngineError> {
        let pending: Vec<String> = moves[self.told.min(moves.len())..]
            .iter()
            .map(|m| self.move_to_engine(m))
            .collect();
        let prefix = if self.xb.usermove { "usermove " } else { "" };
        if self.forced || pending.len() != 1 {
            if !self.forced {
                self.send("force")?;
            }
            for m in &pending {
                self.send(&format!("{prefix}{m}"))?;
            }
            self.xboard_clocks(clocks)?;
            self.send("go")?;
            self.forced = false;
            Ok(())
        } else {
            self.xboard_clocks(clocks)?;
            self.send(&format!("{prefix}{}", pending[0]))
        }
    }

    /// XBoard's `time` and `otim` (centiseconds, rounded up) when there is a clock.
    pub(super) fn xboard_clocks(&mut self, clocks: Option<(i64, i64)>) -> Result<(), EngineError> {
        if let Some((own, opp)) = clocks {
            self.send(&format!("time {}", (own.max(0) + 9) / 10))?;
            self.send(&format!("otim {}", (opp.max(0) + 9) / 10))?;
        }
        Ok(())
    }

    pub(super) fn interpret_xboard(&mut self, line: &str) -> Reply {
        if let Some(m) = line.strip_prefix("move ") {
            return Reply::Move(self.move_from_engine(m.trim()));
        }
        if line == "resign" {
            return Reply::Resign;
        }
        for (prefix, result) in [
            ("1-0", GameResult::WhiteWins),
            ("0-1", GameResult::BlackWins),
            ("1/2-1/2", GameResult::Draw),
        ] {
            if let Some(rest) = line.strip_prefix(prefix) {
                if rest.is_empty() || rest.starts_with(' ') {
                    let comment = rest
                        .trim()
                        .trim_start_matches('{')
                        .trim_end_matches('}')
                        .trim()
                        .to_string();
                    return Reply::Claim { result, comment };
                }
            }
        }
        if let Some(rest) = line.strip_prefix("Illegal move") {
            let m = rest.rsplit(':').next().unwrap_or("").trim().to_string();
            return Reply::Rejected(m);
        }
        // Thinking output: ply score time nodes pv
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() >= 4 {
            let ply = words[0].trim_end_matches(['.', '&']).parse::<u32>();
            let score = words[1].parse::<i64>();
            if let (Ok(ply), Ok(score), Ok(_), Ok(_)) =
                (ply, score, words[2].parse::<i64>(), words[3].parse::<i64>())
            {
                let s = if score.abs() >= 100_000 {
                    let m = (score.abs() - 100_000) as i32;
                    EngineScore::Mate(if score > 0 { m } else { -m })
                } else {
                    EngineScore::Cp(score.clamp(-99_999, 99_999) as i32)
                };
                self.keep_score(s, Some(ply));
                return Reply::Info;
            }
        }
        Reply::Other
    }
}
