//! A `sako` child process for the protocol tests: piped standard streams, output lines
//! delivered over a channel, standard error collected, and the process killed when the
//! value is dropped, whatever happened in the test.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `sako` with its standard streams.
pub struct SakoProcess {
    child: Child,
    /// The engine's standard input; `None` once the test has closed it.
    pub stdin: Option<ChildStdin>,
    /// Output lines, line ends removed, in the order printed.
    pub lines: Receiver<String>,
    /// Everything written to standard error so far.
    pub stderr: Arc<Mutex<String>>,
}

impl SakoProcess {
    /// Starts `sako ARGS`. `on_line` sees each output line (from the reader thread)
    /// before it is put on [`SakoProcess::lines`].
    pub fn spawn<S: AsRef<OsStr>>(
        args: &[S],
        mut on_line: impl FnMut(&str) + Send + 'static,
    ) -> SakoProcess {
        let mut child = Command::new(super::sako_bin())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sako");
        let (tx, rx) = channel();
        let stdout = child.stdout.take().expect("piped stdout");
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buf);
                        let line = text.trim_end_matches(['\n', '\r']).to_string();
                        on_line(&line);
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let collected = Arc::clone(&stderr);
        let mut err_pipe = child.stderr.take().expect("piped stderr");
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                collected
                    .lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&chunk[..n]));
            }
        });
        let stdin = child.stdin.take();
        SakoProcess {
            child,
            stdin,
            lines: rx,
            stderr,
        }
    }

    /// The operating system's id of the process.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// True when the process has ended.
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// True when the engine has printed `panicked` on standard error.
    pub fn panicked(&self) -> bool {
        self.stderr.lock().unwrap().contains("panicked")
    }

    /// Waits for the process to end: its exit status, or an error after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Result<ExitStatus, String> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Ok(status),
                Ok(None) if Instant::now() >= deadline => {
                    return Err(format!(
                        "the engine did not exit within {:.1} s",
                        timeout.as_secs_f64()
                    ))
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(10)),
                Err(e) => return Err(format!("waiting for the engine: {e}")),
            }
        }
    }
}

impl Drop for SakoProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
