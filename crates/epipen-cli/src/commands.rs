//! The commands: each reads its story, runs it, prints what it found and returns the
//! exit code.

use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::Instant;

use clap::{CommandFactory, FromArgMatches};
use epipen::engine::{History, Options, Strategy};
use epipen::explore;
use epipen::views::{Report, Tally};

use crate::args::{Cli, Command, single_values};
use crate::graph::Drawing;
use crate::output::{self, err, errln, out, outln};
use crate::story::{Failure, exit_code, print_report, read_source, with_story};
use crate::{graph, sweep, watchdog};

/// Parses the arguments, runs the command, and returns the process's exit code.
pub fn main() -> ExitCode {
    main_with_args(std::env::args_os())
}

/// [`main`] with the command line `args` (the program's name first): the `epipen`
/// command of the Python package calls it.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> ExitCode {
    let code = run_command(args.into_iter().collect());
    // What is left in stdout's buffer: a failure to write it is an error too.
    output::flush_stdout();
    code
}

fn run_command(args: Vec<std::ffi::OsString>) -> ExitCode {
    // Like any Unix filter, end quietly when stdout is closed (`epipen … | head`) instead
    // of failing to print.
    // SAFETY: restoring the default action of SIGPIPE, before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // Ctrl-C ends epipen like any command (exit status 130), also inside a solver call,
    // where Z3 would otherwise catch it and answer `unknown` (a solver failure, exit 1).
    epipen::engine::leave_ctrl_c_to_the_process();
    let version = format!(
        "{} (Z3 {})",
        env!("CARGO_PKG_VERSION"),
        epipen::z3_version()
    );
    let matches = Cli::command().version(version).get_matches_from(args);
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let settings = match cli.settings() {
        Ok(settings) => settings,
        Err(why) => {
            errln!("error: {why}");
            return ExitCode::from(2);
        }
    };
    // The timeout of a story command is the whole command's; sweep, serve and bench
    // give it to each run.
    let per_run = matches!(
        cli.command,
        Command::Sweep { .. }
            | Command::Bench { .. }
            | Command::Serve { .. }
            | Command::Repl { .. }
    );
    let deadline = match per_run {
        true => None,
        false => settings.timeout.map(|t| Instant::now() + t),
    };
    if let Some(deadline) = deadline {
        watchdog::start(deadline);
    }
    init_tracing(cli.verbose);
    tracing::debug!(
        "Z3 {} (linked from: {})",
        epipen::z3_version(),
        epipen::z3_source()
    );
    let mut options = Options {
        strategy: Strategy::of(settings.backend),
        deadline,
        stats: settings.stats,
        ..Options::default()
    };
    let sets = match &cli.command {
        Command::Sweep { .. } => Vec::new(),
        _ => match single_values(&settings.sets) {
            Ok(sets) => sets,
            Err(code) => return code,
        },
    };
    match &cli.command {
        Command::Worlds {
            file,
            limit,
            json,
            dot,
            trust_hints,
            ..
        } => with_story(file, &sets, settings.seed, deadline, |story| {
            options.trust_hints = *trust_hints;
            options.skip_worlds_statements = true;
            options.keep_refuted_hints = true;
            // The hints taken on trust, said before the worlds; the checks that fail,
            // hints refuted and plans that found none, said on stderr (the worlds are
            // printed all the same, and the exit code is 1).
            let (mut trusted, mut failing) = (Vec::new(), Vec::new());
            let mut engine = story.run(&options, &mut |report| {
                if matches!(&report, Report::Hint(v) if v.trusted) {
                    trusted.push(report);
                } else if report.fails_run() {
                    failing.push(report);
                }
            })?;
            say_failing(&failing);
            if *dot {
                out!("{}", story.graph(&mut engine, None)?);
                return failed_if(!failing.is_empty());
            }
            let set = story.final_worlds(&mut engine, *limit)?;
            let worlds = story.worlds(&mut engine, &set)?;
            if *json {
                let mut json = serde_json::to_value(&worlds).expect("views serialise");
                if !trusted.is_empty() {
                    json["unverified_hints"] = trusted.iter().map(Report::line).collect();
                }
                if !failing.is_empty() {
                    json["failing"] = serde_json::to_value(&failing).expect("views serialise");
                }
                outln!("{}", epipen::text::json(&json));
            } else {
                for report in &trusted {
                    print_report(report);
                }
                out!(
                    "{}",
                    epipen::text::worlds(&worlds, "raise --limit to see more")
                );
            }
            failed_if(!failing.is_empty())
        }),
        Command::Run {
            file,
            trust_hints,
            trace: false,
            json,
            limit,
            ..
        } => with_story(file, &sets, settings.seed, deadline, |story| {
            options.trust_hints = *trust_hints;
            options.keep_refuted_hints = true;
            if let (false, Some(_)) = (*json, limit) {
                return Err(Failure::usage(
                    &story.path,
                    "--limit is for `run --trace` and `run --json`".into(),
                    Some("`epipen worlds --limit N FILE` lists the worlds at the end".into()),
                ));
            }
            // Without `--json` nothing lists worlds: the histories may be forgotten.
            if !*json {
                options.history = History::ForgottenWhereUnread;
            }
            let mut reports = Vec::new();
            let mut printed = false;
            let mut engine = story.run(&options, &mut |report| {
                if !*json {
                    printed |= print_report(&report);
                }
                reports.push(report);
            })?;
            let tally = Tally::of(&reports);
            if *json {
                let set = story.final_worlds(&mut engine, limit.unwrap_or(10))?;
                let worlds = story.worlds(&mut engine, &set)?;
                reports.retain(Report::printed_by_run);
                let json = serde_json::json!({
                    "reports": reports,
                    "worlds": worlds,
                    "tally": tally,
                });
                outln!("{}", epipen::text::json(&json));
            } else if !printed {
                errln!(
                    "note: the story printed nothing; `epipen worlds FILE` prints the worlds at its end"
                );
            }
            // A check that fails, a hint refuted, a verdict that holds only because no
            // world is left, a plan that found none: the run went on past them, so that
            // everything after them printed, and exits with 1.
            failed_if(tally.failed())
        }),
        Command::Run {
            file,
            trust_hints,
            trace: true,
            json,
            limit,
            ..
        } => with_story(file, &sets, settings.seed, deadline, |story| {
            options.trust_hints = *trust_hints;
            options.keep_refuted_hints = true;
            let limit = usize::try_from(limit.unwrap_or(10)).unwrap_or(usize::MAX);
            story.trace(&options, limit, *json)
        }),
        Command::Graph {
            file,
            at,
            event,
            svg,
            ..
        } => with_story(file, &sets, settings.seed, deadline, |story| {
            if let Some(out) = svg {
                graph::check_svg_path(out)?;
            }
            if let Some(name) = event {
                match svg {
                    None => out!("{}", story.event_graph(name, Drawing::Dot)?),
                    Some(out) => graph::write_svg(&story.event_graph(name, Drawing::Svg)?, out)?,
                }
                return Ok(());
            }
            options.skip_worlds_statements = true;
            options.keep_refuted_hints = true;
            let checkpoint = story.checkpoint(at.as_deref())?;
            let mut failing = Vec::new();
            let mut engine = story.run(&options, &mut |report| {
                if report.fails_run() {
                    failing.push(report);
                }
            })?;
            say_failing(&failing);
            match svg {
                None => out!("{}", story.graph(&mut engine, checkpoint)?),
                Some(out) => graph::write_svg(&story.svg(&mut engine, checkpoint)?, out)?,
            }
            failed_if(!failing.is_empty())
        }),
        Command::Sweep {
            file,
            samples,
            json,
            ..
        } => {
            let seeds = samples.unwrap_or(1);
            let runs = explore::sweep::run_count(&settings.sets, seeds);
            if runs > explore::sweep::MAX_RUNS {
                let sizes: Vec<String> = (settings.sets.iter())
                    .map(|(name, values)| format!("{} values of {name}", values.len()))
                    .chain(samples.map(|n| format!("{n} samples")))
                    .collect();
                errln!(
                    "error: the sweep would make {} runs ({}), more than the {} it makes at most",
                    if runs == u64::MAX {
                        "more than 2^64".to_string()
                    } else {
                        runs.to_string()
                    },
                    sizes.join(" × "),
                    explore::sweep::MAX_RUNS
                );
                errln!("  = hint: sweep fewer values at a time");
                return ExitCode::from(2);
            }
            let jobs = explore::sweep::jobs(&settings.sets, settings.seed, seeds);
            let (path, source) = match read_source(file) {
                Ok(read) => read,
                Err(code) => return code,
            };
            // What no value changes is checked once; whatever a run's values break
            // is that run's `error` row.
            let names = settings.sets.iter().map(|(name, _)| name.as_str());
            if let Err(failure) = explore::sweep::precheck(
                &path,
                &source,
                names,
                jobs.first(),
                settings.seed,
                *samples,
                settings.timeout.map(|t| Instant::now() + t),
            ) {
                return exit_code(Err(failure.into()));
            }
            let sweep = sweep::Sweep { source: &source };
            exit_code(sweep.run(jobs, &options, settings.timeout, samples.is_some(), *json))
        }
        Command::Check { file, json, .. } => {
            with_story(file, &sets, settings.seed, deadline, |story| {
                options.keep_refuted_hints = true;
                options.skip_worlds_statements = true;
                // `check` lists no worlds: the histories may be forgotten.
                options.history = History::ForgottenWhereUnread;
                // What `check` prints: shows, plans and verdicts, in story order.
                let mut reports = Vec::new();
                story.run(&options, &mut |report| {
                    let line = match &report {
                        Report::Show { .. } => epipen::text::report(&report),
                        Report::Plan(plan) => format!("{}\n", epipen::text::plan(plan)),
                        Report::Check(v) | Report::Hint(v) => {
                            format!("{}\n", epipen::text::verdict(v))
                        }
                        _ => return,
                    };
                    if !*json {
                        out!("{line}");
                    }
                    reports.push(report);
                })?;
                let tally = Tally::of(&reports);
                match json {
                    true => outln!(
                        "{}",
                        epipen::text::json(&serde_json::json!({
                            "reports": reports,
                            "tally": tally,
                        }))
                    ),
                    false => outln!("{}", epipen::text::tally(&tally)),
                }
                failed_if(tally.failed())
            })
        }
        Command::Smcdel {
            file, json, story, ..
        } => {
            // `-` is the standard input, as for SMCDEL's own command.
            let read = match file.as_os_str() == "-" {
                true => {
                    use std::io::Read;
                    let mut source = String::new();
                    match std::io::stdin().read_to_string(&mut source) {
                        Ok(_) => Ok(("<stdin>".to_string(), source)),
                        Err(e) => {
                            errln!("error: cannot read the standard input: {e}");
                            Err(ExitCode::from(2))
                        }
                    }
                }
                false => read_source(file),
            };
            let (path, source) = match read {
                Ok(read) => read,
                Err(code) => return code,
            };
            watchdog::compiling(&path);
            exit_code((|| {
                let file = epipen::smcdel::read(&path, &source)?;
                if *story {
                    out!("{}", file.translation.story);
                    return Ok(());
                }
                watchdog::running(&path, &source);
                let answers = file.answer(&options)?;
                if *json {
                    outln!("{}", epipen::text::json(&answers));
                } else {
                    out!("{}", epipen::text::smcdel(&answers));
                }
                Ok(())
            })())
        }
        Command::Plan {
            file,
            max,
            json,
            story,
            ..
        } => {
            let (path, source) = match read_source(file) {
                Ok(read) => read,
                Err(code) => return code,
            };
            if !is_mastar(file, &source) {
                if *story {
                    errln!("error: {path} is a story already: --story prints mA* files as stories");
                    return ExitCode::from(2);
                }
                return with_story(file, &sets, settings.seed, deadline, |story| {
                    options.skip_worlds_statements = true;
                    let (mut plans, mut unplanned) = (0, 0);
                    story.run(&options, &mut |report| {
                        if let Some(plan) = report.plan() {
                            plans += 1;
                            if !plan.solvable {
                                unplanned += 1;
                            }
                            match *json {
                                true => outln!(
                                    "{}",
                                    epipen::text::json(&serde_json::json!({
                                        "line": plan.line,
                                        "solvable": plan.solvable,
                                        "length": plan.length,
                                        "plan": plan.plans.first().cloned().unwrap_or_default(),
                                    }))
                                ),
                                false => outln!("{}", epipen::text::plan(plan)),
                            }
                        }
                    })?;
                    if plans == 0 {
                        errln!("error: {path} has no `plan` statement");
                        errln!(
                            "  = hint: `epipen plan` answers a story's `plan φ` lines (or an \
                             mA* file's goal); `epipen run` runs the rest"
                        );
                        return Err(Failure::Quiet(2));
                    }
                    match unplanned {
                        0 => Ok(()),
                        _ => Err(Failure::Quiet(1)),
                    }
                });
            }
            watchdog::compiling(&path);
            exit_code((|| {
                let file = epipen::mastar::read(&path, &source, *max)?;
                if *story {
                    out!("{}", file.translation.story);
                    return Ok(());
                }
                watchdog::running(&path, &file.translation.story);
                let found = file.plan(&options)?;
                match *json {
                    true => outln!("{}", epipen::text::json(&found)),
                    false => outln!("{found}"),
                }
                match found.solvable {
                    true => Ok(()),
                    false => Err(Failure::Quiet(1)),
                }
            })())
        }
        Command::Repl { file, .. } => {
            // As `epipen run` tells a story: a check that fails is reported, and the
            // story goes on.
            options.keep_refuted_hints = true;
            crate::repl::main(
                file.as_ref(),
                options,
                &sets,
                settings.seed,
                settings.timeout,
            )
        }
        Command::Serve {
            host, port, open, ..
        } => crate::serve::main(
            &crate::serve::Config {
                host: *host,
                port: *port,
                timeout: settings.timeout.unwrap_or(crate::serve::DEFAULT_TIMEOUT),
                ..crate::serve::Config::default()
            },
            *open,
        ),
        Command::Bench {
            files, runs, json, ..
        } => crate::bench::main(&crate::bench::Args {
            stories: files.clone(),
            runs: *runs as usize,
            sets: sets.clone(),
            timeout: settings.timeout,
            backend: settings.backend,
            json: *json,
        }),
    }
}

fn init_tracing(verbose: u8) {
    use tracing_subscriber::EnvFilter;
    let level = match verbose {
        0 => "warn",
        1 => "epipen=info,epipen_cli=info",
        2 => "epipen=debug,epipen_cli=debug",
        _ => "epipen=trace,epipen_cli=trace",
    };
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(level));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| output::LogWriter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_target(false)
        .try_init();
}

/// Whether `epipen plan` reads `file` as mA*: a `.txt` or `.mastar` file, or one whose
/// text looks like mA* (a `.story` file never is).
fn is_mastar(file: &std::path::Path, source: &str) -> bool {
    match file.extension().and_then(|e| e.to_str()) {
        Some("story") => false,
        Some("txt" | "mastar") => true,
        _ => epipen::mastar::recognised(source),
    }
}

/// Says on stderr, in `epipen run`'s words, the checks that failed, the hints refuted
/// and the plans that found none (for commands that print something else on stdout).
fn say_failing(failing: &[Report]) {
    for report in failing {
        err!("{}", epipen::text::report(report));
    }
}

/// The outcome of a command whose run went on past a failing check, a refuted hint or
/// a plan that found none (everything already printed): exit code 1 when it did.
fn failed_if(failed: bool) -> Result<(), Failure> {
    match failed {
        true => Err(Failure::Quiet(1)),
        false => Ok(()),
    }
}
