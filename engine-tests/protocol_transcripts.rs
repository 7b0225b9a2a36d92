//! Protocol transcripts: scripted conversations with `sako` over pipes, one file per
//! protocol and topic in `engine-tests/protocol/*.txt` (every variant has an XBoard and a
//! UCI transcript). Each file is one `#[test]`; `every_transcript_file_is_run` fails when a
//! file is added without its test line below.
//!
//! # Transcript format
//!
//! One directive per line; blank lines and lines starting with `#` are ignored. The first
//! word is the directive, everything after the single space that follows it is its
//! argument, taken verbatim (trailing spaces included).
//!
//! | directive | meaning |
//! | --- | --- |
//! | `protocol xboard` / `protocol uci` | required, first: how `sync` pings the engine |
//! | `args WORD...` | command-line arguments (default: none, so the first command picks the protocol) |
//! | `send TEXT` | send `TEXT` and a newline |
//! | `sendall TEXT \| TEXT...` | send several commands (split at ` \| `) in one write, so that no output can arrive between them and be skipped by the second |
//! | `expect PATTERN` | the next output line must match `PATTERN` (waits for it up to the timeout) |
//! | `wait PATTERN` / `wait 30s PATTERN` | read lines until one matches, skipping others; fail after the timeout (default 10 s) |
//! | `none PATTERN` | no line output since the last `send` matches (only what has arrived: `sync` first) |
//! | `seen PATTERN` | some line output since the last `send` matches (same caveat) |
//! | `sync` | XBoard: send `ping N` and wait for `pong N` (N counts from 90001); UCI: `isready` / `readyok`. Does not count as a `send` for `none` / `seen` |
//! | `eof` | close the engine's standard input (the engine must then exit by itself) |
//! | `exits` | wait for the engine to exit by itself (after `send quit` or `eof`) |
//!
//! A `PATTERN` matches a whole output line. `*` matches any run of characters (also
//! none); `\*` is a literal star and `\\` a literal backslash; everything else is literal,
//! so a pattern without `*` is an exact line, and `text*` is a prefix.
//!
//! "Output since the last send" is counted from the moment of the `send`. A `send` also
//! skips output lines that arrived before it and were not matched: `expect` right after a
//! `send` looks at the first line the engine printed after that command (or at a line
//! that was still on its way).
//!
//! After the last directive the runner sends `quit` (unless the engine has exited) and
//! requires exit status 0 within 10 s. Throughout, standard error must never contain
//! `panicked`. A transcript that takes longer than 120 s is killed. On any failure the test
//! panics with the file and line, the reason, the whole conversation (`>` sent, `<`
//! received, with times) and the engine's standard error.

use crate::common;

use common::process::SakoProcess;
use std::io::Write;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Default time an `expect` / `wait` / `sync` may take.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// Longest a whole transcript may run.
const TRANSCRIPT_LIMIT: Duration = Duration::from_secs(120);

/// Matches `line` against a wildcard pattern (`*` any run, `\*` and `\\` escapes).
fn matches(pattern: &str, line: &str) -> bool {
    // Tokenise the pattern into literal chunks separated by stars.
    let mut parts: Vec<String> = vec![String::new()];
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) => parts.last_mut().unwrap().push(n),
                None => parts.last_mut().unwrap().push('\\'),
            },
            '*' => parts.push(String::new()),
            _ => parts.last_mut().unwrap().push(c),
        }
    }
    if parts.len() == 1 {
        return line == parts[0];
    }
    let first = &parts[0];
    let last = &parts[parts.len() - 1];
    if !line.starts_with(first.as_str()) || line.len() < first.len() + last.len() {
        return false;
    }
    if !line.ends_with(last.as_str()) {
        return false;
    }
    let mut rest = &line[first.len()..line.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid.as_str()) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// A running engine with its conversation log.
struct Engine {
    process: SakoProcess,
    /// Every output line received so far.
    received: Vec<String>,
    /// Index of the next unread line for `expect` / `wait`.
    cursor: usize,
    /// `received.len()` at the last `send`.
    mark: usize,
    /// Indices of the `pong N` / `readyok` lines that answered a `sync`.
    sync_replies: Vec<usize>,
    log: Arc<Mutex<Vec<String>>>,
    start: Instant,
    eof_seen: bool,
}

impl Engine {
    fn spawn(args: &[String]) -> Engine {
        let start = Instant::now();
        let log = Arc::new(Mutex::new(Vec::new()));
        let out_log = Arc::clone(&log);
        let process = SakoProcess::spawn(args, move |line: &str| {
            out_log
                .lock()
                .unwrap()
                .push(format!("[{:7.3}] < {line}", start.elapsed().as_secs_f64()));
        });
        Engine {
            process,
            received: Vec::new(),
            cursor: 0,
            mark: 0,
            sync_replies: Vec::new(),
            log,
            start,
            eof_seen: false,
        }
    }

    fn note(&self, text: &str) {
        self.log.lock().unwrap().push(format!(
            "[{:7.3}] {text}",
            self.start.elapsed().as_secs_f64()
        ));
    }

    fn conversation(&self) -> String {
        let log = self.log.lock().unwrap().join("\n");
        let err = self.process.stderr.lock().unwrap().clone();
        format!("--- conversation ---\n{log}\n--- stderr ---\n{err}--- end ---")
    }

    /// Moves every line that has arrived into `received`, waiting at most until
    /// `deadline` for at least one new line when `block` is set.
    fn pump(&mut self, deadline: Option<Instant>) -> bool {
        let mut got = false;
        while let Ok(l) = self.process.lines.try_recv() {
            self.received.push(l);
            got = true;
        }
        if got {
            return true;
        }
        let Some(deadline) = deadline else {
            return false;
        };
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        match self.process.lines.recv_timeout(deadline - now) {
            Ok(l) => {
                self.received.push(l);
                true
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => {
                self.eof_seen = true;
                std::thread::sleep(Duration::from_millis(1).min(deadline - now));
                false
            }
        }
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        self.send_all(&[text])
    }

    /// Sends `lines` in one write: output that answers the first cannot be skipped as
    /// "arrived before" the later ones.
    fn send_all(&mut self, lines: &[&str]) -> Result<(), String> {
        self.pump(None);
        for text in lines {
            self.note(&format!("> {text}"));
        }
        let Some(stdin) = self.process.stdin.as_mut() else {
            return Err("standard input is already closed".into());
        };
        let batch: String = lines.iter().map(|l| format!("{l}\n")).collect();
        stdin
            .write_all(batch.as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))?;
        self.mark = self.received.len();
        self.cursor = self.cursor.max(self.mark);
        Ok(())
    }

    /// Waits for the next unread line.
    fn next_line(&mut self, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            if self.cursor < self.received.len() {
                self.cursor += 1;
                return Some(self.received[self.cursor - 1].clone());
            }
            if !self.pump(Some(deadline)) && (Instant::now() >= deadline || self.eof_seen) {
                return None;
            }
        }
    }

    fn wait_for(&mut self, pattern: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) if matches(pattern, &l) => return Ok(l),
                Some(_) => {}
                None if self.eof_seen => {
                    return Err(format!(
                        "the engine closed its output before a line matching '{pattern}'"
                    ))
                }
                None => {
                    return Err(format!(
                        "no line matching '{pattern}' within {:.1} s",
                        timeout.as_secs_f64()
                    ))
                }
            }
        }
    }

    /// Lines output since the last `send`, without the answers to `sync`.
    fn since_mark(&mut self) -> Vec<String> {
        self.pump(None);
        (self.mark..self.received.len())
            .filter(|i| !self.sync_replies.contains(i))
            .map(|i| self.received[i].clone())
            .collect()
    }

    /// Waits for the process to end; its exit status, or an error after `timeout`.
    fn wait_exit(&mut self, timeout: Duration) -> Result<std::process::ExitStatus, String> {
        let status = self.process.wait_exit(timeout)?;
        self.note(&format!("(engine exited: {status})"));
        Ok(status)
    }
}

/// Parses `wait`'s optional `30s` / `2.5s` timeout word.
fn split_timeout(arg: &str) -> (Duration, &str) {
    if let Some((first, rest)) = arg.split_once(' ') {
        if let Some(num) = first.strip_suffix('s') {
            if let Ok(secs) = num.parse::<f64>() {
                if secs > 0.0 {
                    return (Duration::from_secs_f64(secs), rest);
                }
            }
        }
    }
    (DEFAULT_TIMEOUT, arg)
}

/// Runs one transcript file; panics with the whole conversation on failure.
fn run_transcript(name: &str) {
    let path = common::data_path(&format!("protocol/{name}"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut directives: Vec<(usize, String, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let (word, arg) = match line.split_once(' ') {
            Some((w, a)) => (w.to_string(), a.to_string()),
            None => (line.to_string(), String::new()),
        };
        directives.push((i + 1, word, arg));
    }
    let Some((_, w, proto)) = directives.first().cloned() else {
        panic!("{name}: empty transcript");
    };
    assert_eq!(
        w, "protocol",
        "{name}: the first directive must be `protocol`"
    );
    assert!(
        proto == "xboard" || proto == "uci",
        "{name}: protocol must be xboard or uci, not '{proto}'"
    );
    let mut rest = &directives[1..];
    let mut args: Vec<String> = Vec::new();
    if let Some((_, w, a)) = rest.first() {
        if w == "args" {
            args = a.split_whitespace().map(str::to_string).collect();
            rest = &rest[1..];
        }
    }
    let mut engine = Engine::spawn(&args);
    engine.note(&format!("(started: sako {})", args.join(" ")));
    let started = Instant::now();
    let mut ping = 90_000;
    let fail = |engine: &Engine, lineno: usize, directive: &str, why: &str| -> ! {
        panic!(
            "{name}:{lineno}: `{directive}` failed: {why}\n{}",
            engine.conversation()
        );
    };
    for (lineno, word, arg) in rest {
        let lineno = *lineno;
        let directive = format!("{word} {arg}");
        if started.elapsed() > TRANSCRIPT_LIMIT {
            fail(&engine, lineno, &directive, "the transcript ran over 120 s");
        }
        let result: Result<(), String> = match word.as_str() {
            "send" => engine.send(arg),
            "sendall" => engine.send_all(&arg.split(" | ").collect::<Vec<_>>()),
            "expect" => match engine.next_line(DEFAULT_TIMEOUT) {
                Some(l) if matches(arg, &l) => Ok(()),
                Some(l) => Err(format!("the next line was '{l}'")),
                None => Err("no further output line".to_string()),
            },
            "wait" => {
                let (timeout, pattern) = split_timeout(arg);
                engine.wait_for(pattern, timeout).map(|_| ())
            }
            "none" => {
                let hit = engine.since_mark().into_iter().find(|l| matches(arg, l));
                match hit {
                    Some(l) => Err(format!("the engine printed '{l}'")),
                    None => Ok(()),
                }
            }
            "seen" => {
                if engine.since_mark().iter().any(|l| matches(arg, l)) {
                    Ok(())
                } else {
                    Err("no such line since the last send".to_string())
                }
            }
            "sync" => {
                let (cmd, reply) = if proto == "xboard" {
                    ping += 1;
                    (format!("ping {ping}"), format!("pong {ping}"))
                } else {
                    ("isready".to_string(), "readyok".to_string())
                };
                let mark = engine.mark;
                let r = engine
                    .send(&cmd)
                    .and_then(|_| engine.wait_for(&reply, DEFAULT_TIMEOUT).map(|_| ()));
                engine.sync_replies.push(engine.cursor - 1);
                engine.mark = mark;
                r
            }
            "eof" => {
                engine.note("(standard input closed)");
                engine.process.stdin = None;
                Ok(())
            }
            "exits" => match engine.wait_exit(DEFAULT_TIMEOUT) {
                Ok(s) if s.success() => Ok(()),
                Ok(s) => Err(format!("exit status {s}")),
                Err(e) => Err(e),
            },
            other => Err(format!("unknown directive '{other}'")),
        };
        if let Err(why) = result {
            fail(&engine, lineno, &directive, &why);
        }
        if engine.process.panicked() {
            fail(&engine, lineno, &directive, "the engine panicked");
        }
    }
    // Finish: quit (if still running) and require a clean exit.
    if !engine.process.has_exited() && engine.process.stdin.is_some() {
        let _ = engine.send("quit");
    }
    let status = match engine.wait_exit(DEFAULT_TIMEOUT) {
        Ok(s) => s,
        Err(e) => fail(&engine, 0, "quit", &e),
    };
    // Let the reader threads drain what is left.
    std::thread::sleep(Duration::from_millis(20));
    if engine.process.panicked() {
        fail(&engine, 0, "quit", "the engine panicked");
    }
    if !status.success() {
        fail(&engine, 0, "quit", &format!("exit status {status}"));
    }
}

macro_rules! transcripts {
    ($($test:ident => $file:literal,)*) => {
        $(
            #[test]
            fn $test() {
                run_transcript($file);
            }
        )*

        const FILES: &[&str] = &[$($file),*];
    };
}

transcripts! {
    handshake_auto_detect => "handshake.txt",
    xboard_basics => "xboard_basics.txt",
    xboard_search => "xboard_search.txt",
    xboard_analyze => "xboard_analyze.txt",
    xboard_ping_during_search => "xboard_ping_during_search.txt",
    xboard_ponder => "xboard_ponder.txt",
    xboard_draw => "xboard_draw.txt",
    xboard_multipv => "xboard_multipv.txt",
    xboard_options => "xboard_options.txt",
    xboard_normal => "xboard_normal.txt",
    xboard_chancellor => "xboard_chancellor.txt",
    xboard_chancellorx => "xboard_chancellorx.txt",
    xboard_kingsleap => "xboard_kingsleap.txt",
    xboard_great => "xboard_great.txt",
    xboard_huge_numbers => "xboard_huge_numbers.txt",
    xboard_historia => "xboard_historia.txt",
    xboard_holding_order => "xboard_holding_order.txt",
    xboard_shatarhia => "xboard_shatarhia.txt",
    xboard_shatar => "xboard_shatar.txt",
    xboard_chesquerque => "xboard_chesquerque.txt",
    xboard_strength => "xboard_strength.txt",
    uci_basics => "uci_basics.txt",
    uci_go => "uci_go.txt",
    uci_huge_numbers => "uci_huge_numbers.txt",
    uci_multipv => "uci_multipv.txt",
    uci_options => "uci_options.txt",
    uci_debug => "uci_debug.txt",
    uci_wdl => "uci_wdl.txt",
    uci_normal => "uci_normal.txt",
    uci_chancellor => "uci_chancellor.txt",
    uci_chancellorx => "uci_chancellorx.txt",
    uci_kingsleap => "uci_kingsleap.txt",
    uci_great => "uci_great.txt",
    uci_historia => "uci_historia.txt",
    uci_shatarhia => "uci_shatarhia.txt",
    uci_shatar => "uci_shatar.txt",
    uci_chesquerque => "uci_chesquerque.txt",
    uci_strength => "uci_strength.txt",
}

#[test]
fn every_transcript_file_is_run() {
    let dir = common::data_path("protocol");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".txt"))
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(
        on_disk, listed,
        "every engine-tests/protocol/*.txt needs a line in the transcripts! list"
    );
}

#[test]
fn wildcard_patterns() {
    assert!(matches("move *", "move e2e4"));
    assert!(!matches("move *", "moves e2e4"));
    assert!(matches("pong 3", "pong 3"));
    assert!(!matches("pong 3", "pong 33"));
    assert!(matches("*", ""));
    assert!(matches("", ""));
    assert!(!matches("", "x"));
    assert!(matches(
        "info * multipv 2 *",
        "info depth 3 multipv 2 score cp 1 pv e2e4"
    ));
    assert!(matches("a*b*c", "abc"));
    assert!(!matches("a*b*c", "acb"));
    assert!(!matches("ab*ba", "aba"));
    assert!(matches(r"1-0 {White mates}", "1-0 {White mates}"));
    assert!(matches(r"a\*b", "a*b"));
    assert!(!matches(r"a\*b", "axb"));
    assert!(matches(r"a\\b", r"a\b"));
}
