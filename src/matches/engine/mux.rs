//! The [`Mux`]: the engines' output lines, stamped with the time they arrived, as the
//! worker that plays a game hears them.

use std::collections::VecDeque;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::time::Instant;

/// What an engine's reader thread reports.
#[derive(Debug)]
pub enum Msg {
    /// One line of output (without the line end).
    Line(String),
    /// Standard output closed: the process ended.
    Eof,
}

/// A message with its origin and arrival time.
#[derive(Debug)]
pub struct Envelope {
    /// Which engine of the pair (0 or 1).
    pub slot: usize,
    /// Which process of that engine (it is restarted after a crash).
    pub gen: u64,
    /// When the line was read.
    pub at: Instant,
    /// The line.
    pub msg: Msg,
}

/// Both engines' output for one worker, in arrival order.
pub struct Mux {
    rx: Receiver<Envelope>,
    pub(super) tx: Sender<Envelope>,
    pending: VecDeque<Envelope>,
    pub(super) current: [u64; 2],
}

impl Default for Mux {
    fn default() -> Self {
        Mux::new()
    }
}

impl Mux {
    /// An empty multiplexer.
    pub fn new() -> Mux {
        let (tx, rx) = channel();
        Mux {
            rx,
            tx,
            pending: VecDeque::new(),
            current: [0; 2],
        }
    }

    /// Ignores everything still to come from the current process of `slot` (it was
    /// killed).
    pub fn retire(&mut self, slot: usize) {
        if slot < 2 {
            self.current[slot] = u64::MAX;
        }
    }

    fn is_current(&self, e: &Envelope) -> bool {
        e.slot < 2 && self.current[e.slot] == e.gen
    }

    /// The next message from any current engine, or `None` at `deadline`.
    pub fn next_any(&mut self, deadline: Instant) -> Option<Envelope> {
        while let Some(e) = self.pending.pop_front() {
            if self.is_current(&e) {
                return Some(e);
            }
        }
        loop {
            let now = Instant::now();
            let wait = deadline.saturating_duration_since(now);
            match self.rx.recv_timeout(wait) {
                Ok(e) if self.is_current(&e) => return Some(e),
                Ok(_) => continue,
                Err(RecvTimeoutError::Timeout) => return None,
                // We hold a sender ourselves: this cannot happen; treat as a timeout.
                Err(RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    /// The next message from engine `slot`, keeping the other's for later; `None` at
    /// `deadline`.
    pub fn next_for(&mut self, slot: usize, deadline: Instant) -> Option<Envelope> {
        if let Some(i) = self
            .pending
            .iter()
            .position(|e| e.slot == slot && self.current[slot] == e.gen)
        {
            return self.pending.remove(i);
        }
        loop {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(wait) {
                Ok(e) if !self.is_current(&e) => continue,
                Ok(e) if e.slot == slot => return Some(e),
                Ok(e) => self.pending.push_back(e),
                Err(_) => return None,
            }
        }
    }
}
