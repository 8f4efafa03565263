//! `epipen bench`: runs the real executable on stories as child processes and reports
//! wall time (median, min, max over the runs), peak memory (the child's maximum resident
//! set size, from `wait4`'s rusage) and κ's size after each statement (one more run with
//! `--stats`). Benchmarks are never timed tests: the numbers are printed, not checked.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::output::{errln, out, outln};

/// The bench's child is killed this long after its own `--timeout` should have stopped it.
const KILL_GRACE: Duration = Duration::from_secs(1);

/// What `epipen bench` was asked to do.
pub struct Args {
    /// The stories; empty means every `stories/*.story`, sorted by name.
    pub stories: Vec<PathBuf>,
    /// Timed runs per story.
    pub runs: usize,
    /// `--set NAME=VALUE`, passed to every child.
    pub sets: Vec<(String, i64)>,
    /// Passed to every child; the bench kills a child still running a second after it.
    pub timeout: Option<Duration>,
    /// `--backend`, passed to every child.
    pub backend: epipen::syntax::ast::Backend,
    /// One JSON object per story per line instead of a table.
    pub json: bool,
}

/// One statement's line of `--stats`.
#[derive(Debug, Clone, PartialEq)]
pub struct StepStat {
    pub line: usize,
    pub ms: f64,
    pub kappa: usize,
    pub statement: String,
}

/// A story's measurements, or why it has none.
struct Report {
    name: String,
    path: String,
    result: Result<Measured, Failed>,
}

struct Measured {
    times: Vec<Duration>,
    peak_kb: u64,
    steps: Vec<StepStat>,
}

struct Failed {
    /// "timeout" or "failed".
    status: &'static str,
    /// A short form for the table: "timeout", "exit 2", "signal 9".
    short: String,
    /// What the child said on stderr (or what the bench saw).
    text: String,
}

/// Runs the benchmark and returns the exit code: 0 when every story ran, 1 when any
/// failed or timed out, 2 when there was nothing to run.
pub fn main(args: &Args) -> ExitCode {
    // `EPIPEN_EXE`: the command that runs epipen when this process is not it (the Python
    // package's `epipen` runs inside the Python interpreter).
    let exe = match std::env::var_os("EPIPEN_EXE")
        .map_or_else(std::env::current_exe, |exe| Ok(exe.into()))
    {
        Ok(exe) => exe,
        Err(e) => {
            errln!("error: cannot find the epipen executable: {e}");
            return ExitCode::from(2);
        }
    };
    let stories = if args.stories.is_empty() {
        match default_stories(Path::new("stories")) {
            Ok(s) if !s.is_empty() => s,
            Ok(_) => {
                errln!("error: no stories given and no stories/*.story here");
                return ExitCode::from(2);
            }
            Err(e) => {
                errln!("error: no stories given and cannot read stories/: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        args.stories.clone()
    };
    let mut reports = Vec::new();
    for (i, path) in stories.iter().enumerate() {
        let name = display_name(path, &args.sets);
        errln!("[{}/{}] {name}", i + 1, stories.len());
        let result = measure(&exe, path, args);
        let report = Report {
            name,
            path: path.display().to_string(),
            result,
        };
        if args.json {
            outln!("{}", report_json(&report, args));
        }
        reports.push(report);
    }
    if !args.json {
        out!("{}", table(&reports));
        for r in &reports {
            if let Err(f) = &r.result {
                errln!("error: {}: {}", r.name, f.short);
                for line in f.text.lines() {
                    errln!("  {line}");
                }
            }
        }
    }
    if reports.iter().any(|r| r.result.is_err()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn default_stories(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut stories = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "story") {
            stories.push(path);
        }
    }
    stories.sort();
    Ok(stories)
}

/// The story's file name, followed by the `--set`s when there are any.
fn display_name(path: &Path, sets: &[(String, i64)]) -> String {
    let mut name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    for (k, v) in sets {
        name.push_str(&format!(" {k}={v}"));
    }
    name
}

/// The timed runs, then one run with `--stats`; stops at the first failure.
fn measure(exe: &Path, story: &Path, args: &Args) -> Result<Measured, Failed> {
    let command = |stats: bool| {
        let mut c = Command::new(exe);
        c.arg("worlds").arg(story);
        for (k, v) in &args.sets {
            c.arg("--set").arg(format!("{k}={v}"));
        }
        if let Some(t) = args.timeout {
            c.arg("--timeout").arg(t.as_secs_f64().to_string());
        }
        c.arg("--backend").arg(args.backend.name());
        if stats {
            c.arg("--stats");
        }
        c.env_remove("RUST_LOG");
        c
    };
    let kill_after = args.timeout.map(|t| t + KILL_GRACE);
    let mut times = Vec::with_capacity(args.runs);
    let mut peak_kb = 0;
    for _ in 0..args.runs {
        let run = run_child(&mut command(false), kill_after)?;
        times.push(run.wall);
        peak_kb = peak_kb.max(run.maxrss_kb);
    }
    let run = run_child(&mut command(true), kill_after)?;
    let steps = run.stderr.lines().filter_map(parse_stats_line).collect();
    Ok(Measured {
        times,
        peak_kb,
        steps,
    })
}

/// One finished child.
struct Run {
    wall: Duration,
    maxrss_kb: u64,
    stderr: String,
}

/// Runs `command` (stdout discarded, stderr kept) and measures it; a non-zero exit, a
/// signal or running past `kill_after` is a failure.
fn run_child(command: &mut Command, kill_after: Option<Duration>) -> Result<Run, Failed> {
    let bench_failure = |text: String| Failed {
        status: "failed",
        short: "bench error".to_string(),
        text,
    };
    let start = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| bench_failure(format!("cannot start epipen: {e}")))?;
    let pid = child.id() as libc::pid_t;
    let mut pipe = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    });
    // A thread waits for the child to exit without reaping it, and notes the time: until
    // we reap it below, its pid cannot be reused, so killing it on timeout is safe.
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(wait_exited(pid).map(|()| Instant::now()));
    });
    let mut killed = false;
    let exited = match kill_after {
        None => rx.recv(),
        Some(limit) => match rx.recv_timeout(limit) {
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // SAFETY: kill(2) on our own unreaped child.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                killed = true;
                rx.recv()
            }
            other => other.map_err(|_| mpsc::RecvError),
        },
    };
    let end = match exited {
        Ok(Ok(end)) => end,
        Ok(Err(e)) => return Err(bench_failure(format!("waitid: {e}"))),
        Err(_) => return Err(bench_failure("the waiting thread died".to_string())),
    };
    let (status, usage) = reap(pid).map_err(|e| bench_failure(format!("wait4: {e}")))?;
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    let maxrss_kb = maxrss_kb(&usage);
    let wall = end - start;
    if killed {
        return Err(Failed {
            status: "timeout",
            short: "timeout".to_string(),
            text: format!(
                "killed after {:.1} s (--timeout), peak memory {:.1} MB{}",
                wall.as_secs_f64(),
                maxrss_kb as f64 / 1024.0,
                if stderr.trim().is_empty() {
                    String::new()
                } else {
                    format!("\n{}", stderr.trim_end())
                }
            ),
        });
    }
    if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        return Ok(Run {
            wall,
            maxrss_kb,
            stderr,
        });
    }
    let text = stderr.trim_end().to_string();
    if libc::WIFEXITED(status) {
        let code = libc::WEXITSTATUS(status);
        // The child's own --timeout: exit code 1 with the solver's timeout message.
        let timeout = code == 1 && text.contains("(timeout)");
        Err(Failed {
            status: if timeout { "timeout" } else { "failed" },
            short: if timeout {
                "timeout".to_string()
            } else {
                format!("exit {code}")
            },
            text,
        })
    } else {
        Err(Failed {
            status: "failed",
            short: format!("signal {}", libc::WTERMSIG(status)),
            text,
        })
    }
}

/// Blocks until the child `pid` has exited, leaving it to be reaped.
fn wait_exited(pid: libc::pid_t) -> std::io::Result<()> {
    loop {
        // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid(2).
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT,
            )
        };
        if r == 0 {
            return Ok(());
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reaps the exited child `pid`: its wait status and resource usage.
fn reap(pid: libc::pid_t) -> std::io::Result<(libc::c_int, libc::rusage)> {
    loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid out-parameter for wait4(2).
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// The peak resident set size in KB (Linux reports KB, macOS bytes).
fn maxrss_kb(usage: &libc::rusage) -> u64 {
    let raw = usage.ru_maxrss.max(0) as u64;
    if cfg!(target_os = "macos") {
        raw / 1024
    } else {
        raw
    }
}

/// Parses one line of `--stats`:
/// `stats: line N  T ms  κ K UNIT  <statement>` (UNIT: nodes or worlds).
pub fn parse_stats_line(line: &str) -> Option<StepStat> {
    let rest = line.strip_prefix("stats: line")?;
    // The unit is the first of the words that can name it.
    let (numbers, statement) = [" nodes", " worlds"]
        .iter()
        .filter_map(|unit| rest.split_once(unit))
        .min_by_key(|(numbers, _)| numbers.len())?;
    let fields: Vec<&str> = numbers.split_whitespace().collect();
    match fields.as_slice() {
        [line, ms, "ms", "κ", kappa] => Some(StepStat {
            line: line.parse().ok()?,
            ms: ms.parse().ok()?,
            kappa: kappa.parse().ok()?,
            statement: statement.trim().to_string(),
        }),
        _ => None,
    }
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}

/// Milliseconds, rounded to the microsecond.
fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 1e6).round() / 1000.0
}

/// "41.2 ms" under a second, "2.31 s" from there.
fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        format!("{:.1} ms", s * 1000.0)
    } else {
        format!("{s:.2} s")
    }
}

/// The aligned table: one row per story.
fn table(reports: &[Report]) -> String {
    let header = [
        "story", "median", "min", "max", "peak MB", "κ max", "κ final",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    for r in reports {
        let row = match &r.result {
            Ok(m) => vec![
                r.name.clone(),
                human(median(&m.times)),
                human(*m.times.iter().min().expect("at least one run")),
                human(*m.times.iter().max().expect("at least one run")),
                format!("{:.1}", m.peak_kb as f64 / 1024.0),
                m.steps
                    .iter()
                    .map(|s| s.kappa)
                    .max()
                    .map_or("-".to_string(), |k| k.to_string()),
                m.steps
                    .last()
                    .map_or("-".to_string(), |s| s.kappa.to_string()),
            ],
            Err(f) => {
                let mut row = vec![r.name.clone(), f.short.clone()];
                row.resize(header.len(), "-".to_string());
                row
            }
        };
        rows.push(row);
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &rows {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            let pad = " ".repeat(widths[c] - cell.chars().count());
            if c == 0 {
                line.push_str(cell);
                line.push_str(&pad);
            } else {
                line.push_str("  ");
                line.push_str(&pad);
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn report_json(r: &Report, args: &Args) -> String {
    let sets: serde_json::Map<String, serde_json::Value> = args
        .sets
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    let value = match &r.result {
        Ok(m) => json!({
            "story": r.path,
            "sets": sets,
            "ok": true,
            "runs": m.times.len(),
            "median_ms": ms(median(&m.times)),
            "min_ms": ms(*m.times.iter().min().expect("at least one run")),
            "max_ms": ms(*m.times.iter().max().expect("at least one run")),
            "times_ms": m.times.iter().map(|t| ms(*t)).collect::<Vec<_>>(),
            "peak_rss_kb": m.peak_kb,
            "kappa_max": m.steps.iter().map(|s| s.kappa).max(),
            "kappa_final": m.steps.last().map(|s| s.kappa),
            "steps": m.steps.iter().map(|s| json!({
                "line": s.line,
                "ms": s.ms,
                "kappa": s.kappa,
                "statement": s.statement,
            })).collect::<Vec<_>>(),
        }),
        Err(f) => json!({
            "story": r.path,
            "sets": sets,
            "ok": false,
            "status": f.status,
            "error": f.text,
        }),
    };
    value.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stats_lines() {
        assert_eq!(
            parse_stats_line(
                "stats: line   12       3.250 ms  κ 42 nodes  Anne: not knows_value(B)"
            ),
            Some(StepStat {
                line: 12,
                ms: 3.25,
                kappa: 42,
                statement: "Anne: not knows_value(B)".to_string(),
            })
        );
        assert_eq!(
            parse_stats_line("stats: line    3       0.001 ms  κ 7 worlds  announce nodes > 2"),
            Some(StepStat {
                line: 3,
                ms: 0.001,
                kappa: 7,
                statement: "announce nodes > 2".to_string(),
            })
        );
        assert_eq!(parse_stats_line("1 possible world:"), None);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        let d = Duration::from_millis;
        assert_eq!(median(&[d(5), d(1), d(3)]), d(3));
        assert_eq!(
            median(&[d(4), d(1), d(3), d(2)]),
            Duration::from_micros(2500)
        );
    }
}
