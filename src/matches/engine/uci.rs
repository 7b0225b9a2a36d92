//! The UCI side of [`Engine`]: handshake, new game, `position`/`go` and the engine's
//! answers.

use std::time::Instant;

use super::{Engine, EngineError, EngineScore, Mux, Reply};
use crate::matches::args::TimeControl;
use crate::rules::position::Color;

impl Engine {
    pub(super) fn uci_handshake(&mut self, mux: &mut Mux) -> Result<(), EngineError> {
        self.send("uci")?;
        let announced = self.read_uci_answer(mux)?;
        if self.cfg.name.is_none() {
            if let Some(n) = announced {
                self.name = n;
            }
        }
        for (name, value) in self.cfg.options.clone() {
            if !self.uci_options.contains(&name.to_ascii_lowercase()) {
                tracing::warn!("{}: the engine has no option '{name}'", self.name);
            }
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        // An option such as Fairy-Stockfish's `VariantPath` loads more variants; the
        // list of the first answer is then out of date. Fairy-Stockfish announces the
        // new list in its answer to a second `uci`.
        if self.loads_variants() {
            self.send("uci")?;
            self.read_uci_answer(mux)?;
        }
        Ok(())
    }

    /// Reads a UCI engine's answer to `uci` up to `uciok`, recording its options and
    /// `UCI_Variant` choices; returns the name it gave (`id name`).
    pub(super) fn read_uci_answer(&mut self, mux: &mut Mux) -> Result<Option<String>, EngineError> {
        let deadline = Instant::now() + self.timeout();
        let mut announced = None;
        self.uci_options.clear();
        loop {
            let line = self.next_line(mux, deadline, "waiting for uciok")?;
            let line = line.trim();
            if line == "uciok" {
                return Ok(announced);
            }
            if let Some(n) = line.strip_prefix("id name ") {
                announced = Some(n.trim().to_string());
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
                if name.eq_ignore_ascii_case("UCI_Variant") {
                    let vars: Vec<String> = rest
                        .split(" var ")
                        .skip(1)
                        .map(|v| v.split_whitespace().next().unwrap_or("").to_string())
                        .collect();
                    self.uci_variants = Some(vars);
                }
                self.uci_options.push(name.to_ascii_lowercase());
            }
        }
    }

    /// UCI's new game: the variant when it changes (or was asked for by name), then
    /// `ucinewgame`.
    pub(super) fn new_game_uci(&mut self, vname: String) -> Result<(), EngineError> {
        let explicit = self.cfg.variant.is_some();
        if (vname != "normal" || explicit) && self.uci_variant_set.as_deref() != Some(&vname) {
            self.send(&format!("setoption name UCI_Variant value {vname}"))?;
            self.uci_variant_set = Some(vname);
        }
        self.send("ucinewgame")
    }

    /// UCI's `position` line for the game so far.
    pub(super) fn uci_position(&self, moves: &[String]) -> String {
        let mut line = match &self.start_fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !moves.is_empty() {
            line += " moves";
            for m in moves {
                line.push(' ');
                line += &self.move_to_engine(m);
            }
        }
        line
    }

    /// UCI's `go` line: the clocks (White's and Black's) or the time per move, and the
    /// node and depth limits.
    pub(super) fn uci_go(&self, clocks: Option<(i64, i64)>, moves_to_go: Option<u32>) -> String {
        let mut go = String::from("go");
        match (&self.cfg.tc, clocks) {
            (TimeControl::Clock { inc_ms, .. }, Some((own, opp))) => {
                let (w, b) = if self.color == Color::White {
                    (own, opp)
                } else {
                    (opp, own)
                };
                go += &format!(
                    " wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                    w.max(1),
                    b.max(1)
                );
                if let Some(n) = moves_to_go {
                    go += &format!(" movestogo {n}");
                }
            }
            (TimeControl::PerMove(ms), _) => go += &format!(" movetime {ms}"),
            _ => {}
        }
        if let Some(n) = self.cfg.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(d) = self.cfg.depth {
            go += &format!(" depth {d}");
        }
        go
    }

    pub(super) fn interpret_uci(&mut self, line: &str) -> Reply {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("bestmove") => match words.get(1) {
                None | Some(&"(none)") | Some(&"0000") | Some(&"none") => Reply::NoMove,
                Some(m) => Reply::Move(self.move_from_engine(m)),
            },
            Some("info") => {
                if words.contains(&"string") {
                    return Reply::Other;
                }
                // Upper and lower bounds are not the engine's verdict.
                if words.contains(&"lowerbound") || words.contains(&"upperbound") {
                    return Reply::Other;
                }
                let mut depth = None;
                let mut score = None;
                let mut i = 1;
                while i < words.len() {
                    match words[i] {
                        "depth" => depth = words.get(i + 1).and_then(|w| w.parse().ok()),
                        "score" => {
                            let value = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                            score = match (words.get(i + 1), value) {
                                (Some(&"cp"), Some(v)) => Some(EngineScore::Cp(v)),
                                (Some(&"mate"), Some(v)) => Some(EngineScore::Mate(v)),
                                _ => score,
                            };
                        }
                        "pv" => break,
                        _ => {}
                    }
                    i += 1;
                }
                match score {
                    Some(s) => {
                        self.keep_score(s, depth);
                        Reply::Info
                    }
                    None => Reply::Other,
                }
            }
            _ => Reply::Other,
        }
    }
}
