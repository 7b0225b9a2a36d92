//! UCI `debug on|off`: in debug mode the engine adds `info string debug: ...` lines, as
//! the UCI document allows: what each `setoption` did, the time the time manager gives
//! each search, and each search's end statistics. Off by default; may be sent at any
//! time, also while searching.

use super::Uci;
use crate::engine::search::SearchResult;
use crate::engine::time::{budgets, Limits};

impl Uci {
    /// `debug on` / `debug off` (anything else is refused).
    pub(super) fn set_debug(&mut self, rest: &str) {
        match rest.trim() {
            "on" => self.debug = true,
            "off" => self.debug = false,
            other => self.info(&format!("Error (debug takes on or off): {other}")),
        }
        self.debug_line("debug mode on");
    }

    /// One debug line, only in debug mode.
    fn debug_line(&self, text: &str) {
        if self.debug {
            self.info(&format!("debug: {text}"));
        }
    }

    /// After `setoption name NAME value VALUE`: the setting it concerns, as it now is.
    pub(super) fn debug_option(&self, name: &str, value: &str) {
        if !self.debug {
            return;
        }
        let s = &self.s;
        let state = match name.to_ascii_lowercase().as_str() {
            "uci_variant" => format!("variant {}", s.variant()),
            "hash" => format!("hash table {} MB", s.hash_mb),
            "threads" => format!("{} search threads", s.threads),
            "multipv" => format!("{} principal variations", self.multipv),
            "move overhead" => format!("move overhead {} ms", self.overhead_ms),
            "ponder" => "pondering follows go ponder / ponderhit".to_string(),
            "uci_chess960" => "Chess960 castling: not supported (off)".to_string(),
            "uci_analysemode" => format!("analyse mode {}", self.analyse_mode),
            "uci_showwdl" => format!("show WDL {}", self.show_wdl),
            "clear hash" => "hash table and histories cleared".to_string(),
            "evaltables" | "evalfile" | "use nnue" => format!(
                "evaluation: {} (Use NNUE {})",
                s.eval_description(),
                s.use_nnue
            ),
            "uci_limitstrength" | "uci_elo" | "skill level" => {
                let st = s.strength();
                let level = st
                    .target_elo(s.elo_range())
                    .map_or("full strength".to_string(), |elo| {
                        format!("plays at Elo {elo}")
                    });
                format!(
                    "{level} (UCI_LimitStrength {}, UCI_Elo {}, Skill Level {})",
                    st.limit, st.elo, st.skill
                )
            }
            _ => format!("value {value}"),
        };
        self.debug_line(&format!("option {name}: {state}"));
    }

    /// Before a search: the time it may use, as the time manager allots it.
    pub(super) fn debug_time(&self, limits: &Limits) {
        if !self.debug {
            return;
        }
        let ms = |t: Option<u64>| t.map_or("none".to_string(), |t| format!("{t} ms"));
        let (soft, hard) = budgets(limits);
        let text = if limits.infinite {
            "search until stop".to_string()
        } else {
            format!(
                "time for this move: soft {}, hard {}; depth limit {}, node limit {}",
                ms(soft),
                ms(hard),
                limits.depth.map_or("none".to_string(), |d| d.to_string()),
                limits.nodes.map_or("none".to_string(), |n| n.to_string())
            )
        };
        self.debug_line(&text);
    }

    /// After a search: its end statistics.
    pub(super) fn debug_search_end(&self, r: &SearchResult) {
        if !self.debug {
            return;
        }
        let nps = r.nodes * 1000 / r.time_ms.max(1);
        self.debug_line(&format!(
            "search ended: depth {} score {} nodes {} time {} ms nps {} best {}",
            r.depth,
            r.score,
            r.nodes,
            r.time_ms,
            nps,
            r.best.as_deref().unwrap_or("(none)")
        ));
    }
}
