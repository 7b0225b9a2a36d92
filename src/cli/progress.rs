//! A progress line on standard error for long perft and bench runs: shown only when
//! standard error is a terminal and the run has taken a few seconds, so scripts and
//! pipes see exactly the same output as before.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a run goes before its progress line appears.
const QUIET_FOR: Duration = Duration::from_secs(2);

/// True when progress lines are shown (standard error is a terminal).
pub fn shown() -> bool {
    std::io::stderr().is_terminal()
}

/// A progress line rewritten in place (`\r`) on standard error.
pub struct Progress {
    start: Instant,
    enabled: bool,
    shown: Mutex<bool>,
}

impl Progress {
    /// A progress line, enabled when standard error is a terminal.
    pub fn new() -> Progress {
        Progress {
            start: Instant::now(),
            enabled: shown(),
            shown: Mutex::new(false),
        }
    }

    /// True when updates are shown at all (standard error is a terminal).
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// Rewrites the line with `text` and the time so far, once the run is long enough.
    pub fn update(&self, text: &str) {
        let elapsed = self.start.elapsed();
        if !self.enabled || elapsed < QUIET_FOR {
            return;
        }
        let Ok(mut shown) = self.shown.lock() else {
            return;
        };
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{text}, {:.1} s", elapsed.as_secs_f64());
        let _ = err.flush();
        *shown = true;
    }

    /// Clears the line if it was shown.
    pub fn finish(&self) {
        if let Ok(shown) = self.shown.lock() {
            if *shown {
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[K");
                let _ = err.flush();
            }
        }
    }
}

/// Runs `work` while a thread redraws the progress line from `status` five times a
/// second (when enabled), then clears the line.
pub fn with_progress<T>(status: impl Fn() -> String + Sync, work: impl FnOnce() -> T) -> T {
    let progress = Progress::new();
    if !progress.enabled() {
        return work();
    }
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if !done.load(Ordering::Relaxed) {
                    progress.update(&status());
                }
            }
        });
        let r = work();
        done.store(true, Ordering::Relaxed);
        r
    });
    progress.finish();
    result
}
