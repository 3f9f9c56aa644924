//! Background jobs, as bash 5.2 runs them without job control (`bash -c`):
//! `cmd &` runs `cmd` at once on a thread of its own, in a subshell (a copy
//! of the state, as a pipeline stage), with its stdin from `/dev/null` and
//! the shell's stdout and stderr, shared in the order written. `$!` is the
//! job's number (pid-like, distinct within a run); `wait`, `wait PID|%N…`,
//! `wait -n [-p VAR]`, `jobs [-l|-p]` and `kill [-SIG] PID|%N…` work on them.
//!
//! Limits hold across jobs: a job takes one thread of the run's allowance
//! (`MAX_THREADS`, given back when it ends), and shares the run's clock,
//! cancellation and counters; a job that hits a limit stops the whole run
//! with it. `kill` stops a job at its next check of the clock (every
//! command, every wait on a pipe or `sleep`'s step), with status 128+SIG.
//!
//! Where this differs from bash:
//! - When the run ends, the jobs still running are stopped (through the
//!   run's clock) and what they wrote so far is kept: a run never leaves a
//!   thread behind. In bash they would go on after the script; a script
//!   that wants a job's output `wait`s for it, as it must in bash to be
//!   sure of it.
//! - A subshell (and a child `bash`, and a job's own body) leaves the jobs
//!   it started running, as bash does; they are no shell's to `wait` for.
//!   A command substitution, a process substitution, a pipeline stage
//!   other than the last and a command run by `xargs` or `find -exec` wait
//!   for the jobs started inside before they end (in bash a job holding
//!   the pipe keeps the reader waiting too; one that redirected its output
//!   elsewhere would not).
//! - Jobs that ended leave the table as in bash: after the next command of
//!   the table (bash's next foreground child), a command substitution, or
//!   `jobs` (which lists them once, `Done` or `Exit N`); `wait PID` still
//!   gives their status. Starting a job also cleans up once the table holds
//!   256, so a loop of short jobs keeps a short table. `$!` counts up from
//!   4243.
//! - A job started where stdin is a pipe takes the rest of that pipe over
//!   (the shell reads its end afterwards); from a file or here-document it
//!   reads a copy of the rest.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use brush_parser::ast;

use super::command::Output;
use super::exec::{Flow, Interp, Position, Res, Runtime, Shared};
use super::expand::Expand;
use super::io::Input;
use super::pipe::Clock;
use super::state::State;
use super::{LimitHit, Limits};
use crate::storage::Storage;

/// `$!` of a run's first job is one more than this.
pub(crate) const FIRST_PID: u32 = 4242;

/// What a job's thread needs to outlive the command that started it.
pub(crate) struct JobEnv {
    pub(crate) storage: Arc<dyn Storage>,
    pub(crate) limits: Limits,
    /// The run's network (`curl`, `wget`): `None` without a policy.
    #[cfg(feature = "network")]
    pub(crate) network: Option<Arc<crate::net::Session>>,
}

/// A job's status once it ended, and its place in the order jobs ended.
type Done = Arc<Mutex<Option<(i32, u64)>>>;

/// An interpreter's background jobs.
#[derive(Default)]
pub(crate) struct JobTable {
    /// The jobs this shell started and has not waited for.
    pub(crate) running: Vec<Job>,
    /// Jobs of subshells that ended without waiting for them: no shell's
    /// to wait for, joined when an enclosing substitution (or the run) ends.
    pub(crate) left: Vec<Job>,
    /// The statuses of jobs already waited for or cleaned up, by `$!`
    /// (`wait PID` again), the latest [`MAX_REAPED`].
    pub(crate) reaped: Vec<(u32, i32)>,
    /// Where the jobs of the innermost subshell start in `running`: a
    /// cleanup takes out only jobs from here on, so that the subshell's end
    /// finds its own jobs where it left them.
    pub(crate) floor: usize,
}

/// How many statuses of ended jobs a shell remembers for `wait PID` (bash
/// keeps as many as the process limit allows, some thousands).
const MAX_REAPED: usize = 4096;

/// How many jobs the table holds before starting one cleans up those that
/// ended (bash keeps them until its next foreground command).
const MAX_TABLE: usize = 256;

/// A background job this shell started.
pub(crate) struct Job {
    /// `%N`.
    number: usize,
    /// `$!`.
    pid: u32,
    /// The command as `jobs` prints it.
    text: String,
    clock: Arc<Clock>,
    done: Done,
    handle: Option<JoinHandle<()>>,
    /// A copy of the parent shell's job, seen by a pipeline stage (`jobs |
    /// wc -l`): listed and signalled, never waited for here.
    inherited: bool,
}

impl Job {
    /// What a pipeline stage sees of this job.
    pub(crate) fn inherit(&self) -> Job {
        Job {
            number: self.number,
            pid: self.pid,
            text: self.text.clone(),
            clock: self.clock.clone(),
            done: self.done.clone(),
            handle: None,
            inherited: true,
        }
    }

    fn status(&self) -> Option<(i32, u64)> {
        *self.done.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Joins the thread (it has ended, or is about to); a panic in it
    /// goes on here, as a pipeline stage's does.
    fn join(&mut self) {
        if let Some(handle) = self.handle.take() {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    }
}

/// What a job's thread starts from.
struct JobStart {
    state: State,
    /// `/dev/null`, or the shell's stdin when it was piped or redirected.
    input: Option<Input>,
    stdout: Arc<Mutex<Output>>,
    stderr: Arc<Mutex<Output>>,
    /// Descriptors 3 to 9.
    fds: super::io::ThreadFds,
    position: Position,
    /// `timeout`'s nearer end, when a job starts inside it.
    deadline: Option<Instant>,
}

/// Jobs whose shell has ended (a job's subshells left them): the run's end
/// stops and joins them.
#[derive(Default)]
pub(crate) struct Orphans(Mutex<Vec<Job>>);

impl std::fmt::Debug for Orphans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Orphans({})", lock(&self.0).len())
    }
}

impl Orphans {
    fn take(&self) -> Vec<Job> {
        std::mem::take(&mut *lock(&self.0))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A job's thread: runs the command in a subshell of the copied shell and
/// records its status (a limit it hit stops the whole run).
fn run_job(
    env: Arc<JobEnv>,
    shared: Arc<Shared>,
    clock: Arc<Clock>,
    start: JobStart,
    command: ast::AndOrList,
    done: Done,
) {
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let rt = Runtime::for_job(&env, shared.clone(), clock.clone(), start.deadline);
        let mut interp = Interp::new(&rt, start.state);
        interp.io.outs = vec![Output::view_of(&start.stdout), Output::view_of(&start.stderr)];
        if let Some(input) = start.input {
            interp.io.ins = vec![input];
            interp.io.stdin_piped = true;
        }
        interp.io.adopt_fds(start.fds);
        interp.resume(start.position);
        let status = interp.subshell(|s| s.run_and_or(&command));
        // The jobs it left go on after it, until the run's end.
        lock(&shared.orphans.0).append(&mut interp.jobs.left);
        status
    }));
    let status = match outcome {
        Ok(Ok(status) | Err(Flow::Exit(status) | Flow::Abort(status) | Flow::Return(status))) => status,
        Ok(Err(Flow::Break(_) | Flow::Continue(_))) => 0,
        Ok(Err(Flow::Limit(LimitHit::BrokenPipe))) => LimitHit::BrokenPipe.exit_code(),
        Ok(Err(Flow::Limit(hit))) => match clock.killed() {
            Some(signal) => 128 + i32::from(signal),
            None => {
                if !clock.stopping() {
                    clock.halt(hit);
                }
                hit.exit_code()
            }
        },
        Err(_) => 134,
    };
    shared.threads.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    {
        let mut order = lock(&shared.finished);
        *order += 1;
        *lock(&done) = Some((status, *order));
    }
    shared.job_done.notify_all();
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// How long a wait for a job lasts before the clock is asked again.
const TICK: Duration = Duration::from_millis(10);

impl Interp<'_> {
    /// `list &`: starts the job and goes on at once with status 0.
    pub(crate) fn start_job(&mut self, list: &ast::AndOrList) -> Res {
        let Some(env) = self.rt.jobs_env.clone() else {
            // No way to outlive the command: run it here.
            self.run_and_or(list)?;
            self.st.last_status = 0;
            return Ok(0);
        };
        self.reap_ended();
        if self.jobs.running.len() >= MAX_TABLE {
            self.clean_up_jobs();
        }
        self.rt.reserve_threads(1)?;
        let shared = self.rt.shared.clone();
        let pid = shared.pids.fetch_add(1, std::sync::atomic::Ordering::AcqRel) + 1;
        let clock = Arc::new(Clock::child(&self.rt.clock));
        let stdout = self.io.outs[self.io.fd.out].share();
        let stderr = self.io.outs[self.io.fd.err].share();
        // Without job control bash gives a job `/dev/null` as its stdin,
        // unless the shell's stdin was piped or redirected.
        let piped = self.io.fd.input != 0 || self.io.stdin_piped;
        let input = piped.then(|| self.io.ins[self.io.fd.input].for_job());
        let start = JobStart {
            state: self.st.clone(),
            input,
            stdout,
            stderr,
            fds: self.io.thread_fds(),
            position: self.position(),
            deadline: self.rt.deadline(),
        };
        let done: Done = Arc::new(Mutex::new(None));
        let (job_clock, job_done, command) = (clock.clone(), done.clone(), list.clone());
        let handle = match super::stack::spawn_job(move || run_job(env, shared, job_clock, start, command, job_done)) {
            Ok(handle) => handle,
            Err(_) => {
                self.rt.release_threads(1);
                return Err(Flow::Limit(LimitHit::Threads));
            }
        };
        let number = self.jobs.running.iter().map(|job| job.number).max().unwrap_or(0) + 1;
        let text = job_text(&list.to_string());
        self.jobs.running.push(Job { number, pid, text, clock, done, handle: Some(handle), inherited: false });
        self.st.last_bg = Some(pid);
        self.st.last_status = 0;
        Ok(0)
    }

    /// Joins the threads of jobs that have ended (their statuses stay in
    /// the table for `wait`), so that ended threads do not pile up.
    fn reap_ended(&mut self) {
        for job in &mut self.jobs.running {
            if job.handle.as_ref().is_some_and(JoinHandle::is_finished) {
                job.join();
            }
        }
    }

    /// Takes the jobs that have ended out of the table, as bash does after a
    /// foreground command: `jobs` no longer lists them and `wait -n` no
    /// longer sees them, but `wait PID` still gives their status. A loop
    /// starting many short jobs thus keeps a short table.
    pub(crate) fn clean_up_jobs(&mut self) {
        let floor = self.jobs.floor.min(self.jobs.running.len());
        if self.jobs.running.len() == floor {
            return;
        }
        let mut index = floor;
        while index < self.jobs.running.len() {
            let job = &self.jobs.running[index];
            let ended = !job.inherited && job.clock.killed().is_none() && job.status().is_some();
            if ended && job.handle.as_ref().is_none_or(JoinHandle::is_finished) {
                let mut job = self.jobs.running.remove(index);
                job.join();
                let status = job.status().map_or(0, |(status, _)| status);
                self.remember(job.pid, status);
            } else {
                index += 1;
            }
        }
    }

    fn remember(&mut self, pid: u32, status: i32) {
        if self.jobs.reaped.len() >= MAX_REAPED {
            self.jobs.reaped.drain(..MAX_REAPED / 2);
        }
        self.jobs.reaped.push((pid, status));
    }

    /// Waits for the jobs started since `base` and those left by subshells
    /// since `left` (a waiting subshell's end), then gives `result` back.
    /// A limit stops them first.
    pub(crate) fn join_jobs(&mut self, base: usize, left: usize, result: Res) -> Res {
        if self.jobs.running.len() <= base && self.jobs.left.len() <= left {
            return result;
        }
        if let Err(Flow::Limit(hit)) = result {
            if !matches!(hit, LimitHit::BrokenPipe | LimitHit::Cancelled) {
                self.rt.clock.halt(hit);
            }
        }
        let mut ended: Vec<Job> = self.jobs.running.drain(base..).collect();
        ended.extend(self.jobs.left.drain(left..));
        for mut job in ended {
            job.join();
        }
        result
    }

    /// A subshell's end that does not wait: the jobs it started since
    /// `base` go on, no longer its.
    pub(crate) fn leave_jobs(&mut self, base: usize, result: Res) -> Res {
        if self.jobs.running.len() > base {
            let left: Vec<Job> = self.jobs.running.drain(base..).collect();
            self.jobs.left.extend(left);
        }
        result
    }

    /// The run's end: stops the jobs still running (the shell's, those its
    /// subshells left, and theirs) and joins them. Returns the limit a job
    /// stopped the run with, if one did.
    pub(crate) fn end_jobs(&mut self) -> Option<LimitHit> {
        let halted = self.rt.clock.halted();
        let mut running: Vec<Job> = std::mem::take(&mut self.jobs.running);
        running.append(&mut self.jobs.left);
        running.append(&mut self.rt.shared.orphans.take());
        if !running.is_empty() {
            self.rt.clock.stop_jobs();
            // A job stopping may leave jobs of its own: join until none is left.
            while !running.is_empty() {
                for mut job in running {
                    job.join();
                }
                running = self.rt.shared.orphans.take();
            }
            self.rt.clock.jobs_stopped();
        }
        halted
    }

    /// Waits until `pick` names a job of the table (by index), asking the
    /// clock between waits.
    fn wait_until(&mut self, pick: impl Fn(&[Job]) -> Option<usize>) -> Result<usize, Flow> {
        let shared = self.rt.shared.clone();
        loop {
            let order = lock(&shared.finished);
            if let Some(index) = pick(&self.jobs.running) {
                return Ok(index);
            }
            let _ = shared.job_done.wait_timeout(order, TICK).unwrap_or_else(std::sync::PoisonError::into_inner);
            self.rt.check()?;
        }
    }

    /// Takes job `index` out of the table once it has ended: its status
    /// (bash's message for a job a signal other than TERM killed).
    fn reap(&mut self, index: usize) -> Result<i32, Flow> {
        let mut job = self.jobs.running.remove(index);
        job.join();
        let status = job.status().map_or(0, |(status, _)| status);
        self.remember(job.pid, status);
        if let Some(name) = job.clock.killed().and_then(signal_report) {
            let text = format!("{} {:<24}{}", job.pid, name, job.text);
            self.error(text)?;
        }
        Ok(status)
    }

    /// The index in the table of `spec` (`%N`, `%%`, `%+`, `%-`, `%name`
    /// or a pid), if it names one.
    fn find_job(&self, spec: &str) -> Option<usize> {
        if let Some(rest) = spec.strip_prefix('%') {
            let last = self.jobs.running.len().checked_sub(1);
            return match rest {
                "" | "%" | "+" => last,
                "-" => last.and_then(|i| i.checked_sub(1)).or(last),
                _ => match rest.parse::<usize>() {
                    Ok(n) => self.jobs.running.iter().position(|job| job.number == n),
                    Err(_) => self.jobs.running.iter().rposition(|job| job.text.starts_with(rest)),
                },
            };
        }
        let pid: u32 = spec.parse().ok()?;
        self.jobs.running.iter().position(|job| job.pid == pid)
    }

    /// [`find_job`](Self::find_job), among the jobs this shell may wait for.
    fn find_child(&self, spec: &str) -> Option<usize> {
        self.find_job(spec).filter(|&index| !self.jobs.running[index].inherited)
    }
}

/// A command as `jobs` prints it: brush-parser's text on one line, as
/// bash's (`{ sleep 1; echo x; }`, `( sleep 1; false )`).
fn job_text(display: &str) -> String {
    let mut text = String::new();
    for line in display.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if !text.is_empty() {
            let open = text.ends_with(['{', '(', ';', '|', '&']) || text.ends_with(" then") || text.ends_with(" do");
            let keyword = ["then", "do", "done", "fi", "else", "elif", "esac", ")"].iter().any(|k| line.starts_with(k));
            text.push_str(if open || keyword { " " } else { "; " });
        }
        text.push_str(line);
    }
    text
}

/// The name bash prints for a job `signal` killed (`None`: not reported,
/// as bash reports neither INT, PIPE nor TERM).
fn signal_report(signal: u8) -> Option<&'static str> {
    Some(match signal {
        1 => "Hangup",
        3 => "Quit",
        6 => "Aborted",
        9 => "Killed",
        10 => "User defined signal 1",
        12 => "User defined signal 2",
        14 => "Alarm clock",
        _ => return None,
    })
}

/// The signals `kill` knows, by number.
const SIGNALS: &[(u8, &str)] = &[
    (1, "HUP"),
    (2, "INT"),
    (3, "QUIT"),
    (6, "ABRT"),
    (9, "KILL"),
    (10, "USR1"),
    (12, "USR2"),
    (13, "PIPE"),
    (14, "ALRM"),
    (15, "TERM"),
];

fn signal_number(spec: &str) -> Option<u8> {
    if let Ok(n) = spec.parse::<u8>() {
        return (n <= 64).then_some(n);
    }
    let upper = spec.to_ascii_uppercase();
    let name = upper.strip_prefix("SIG").unwrap_or(&upper);
    SIGNALS.iter().find(|(_, known)| *known == name).map(|&(n, _)| n)
}

/// `wait [-n] [-p VAR] [PID|%N…]`.
pub(crate) fn wait(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let mut next = false;
    let mut var = None;
    let mut i = 1;
    while i < argv.len() {
        match argv[i].as_str() {
            "-n" => next = true,
            "-f" => {}
            "-p" => {
                i += 1;
                var = argv.get(i).cloned();
            }
            "--" => {
                i += 1;
                break;
            }
            _ => break,
        }
        i += 1;
    }
    let ids = &argv[i..];
    interp.reap_ended();
    if next {
        let mut wanted = Vec::new();
        for id in ids {
            if let Some(index) = interp.find_child(id) {
                wanted.push(interp.jobs.running[index].pid);
            }
        }
        let children = interp.jobs.running.iter().filter(|job| !job.inherited).count();
        if children == 0 || (!ids.is_empty() && wanted.is_empty()) {
            return Ok(127);
        }
        let index = interp.wait_until(|jobs| {
            jobs.iter()
                .enumerate()
                .filter(|(_, job)| !job.inherited && (wanted.is_empty() || wanted.contains(&job.pid)))
                .filter_map(|(index, job)| job.status().map(|(_, order)| (order, index)))
                .min()
                .map(|(_, index)| index)
        })?;
        let pid = interp.jobs.running[index].pid;
        let status = interp.reap(index)?;
        if let Some(var) = var {
            interp.set_var(&var, pid.to_string()).ok();
        }
        return Ok(status);
    }
    if ids.is_empty() {
        while interp.jobs.running.iter().any(|job| !job.inherited) {
            let index =
                interp.wait_until(|jobs| jobs.iter().position(|job| !job.inherited && job.status().is_some()))?;
            interp.reap(index)?;
        }
        return Ok(0);
    }
    let mut status = 0;
    for id in ids {
        status = match interp.find_child(id) {
            Some(index) => {
                let pid = interp.jobs.running[index].pid;
                let index = interp.wait_until(|jobs| {
                    jobs.iter().position(|job| job.pid == pid).filter(|&i| jobs[i].status().is_some())
                })?;
                interp.reap(index)?
            }
            None if id.starts_with('%') => {
                interp.error(format!("wait: {id}: no such job"))?;
                127
            }
            None => match id.parse::<u32>() {
                Ok(pid) => match interp.jobs.reaped.iter().rev().find(|(p, _)| *p == pid) {
                    Some(&(_, status)) => status,
                    None => {
                        interp.error(format!("wait: pid {pid} is not a child of this shell"))?;
                        127
                    }
                },
                Err(_) => {
                    interp.error(format!("wait: `{id}': not a pid or valid job spec"))?;
                    1
                }
            },
        };
    }
    Ok(status)
}

/// `jobs [-l|-p] [%N…]`: the jobs still running, as bash prints them.
pub(crate) fn jobs(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    let (mut long, mut pids) = (false, false);
    let mut specs = Vec::new();
    for arg in &argv[1..] {
        match arg.as_str() {
            "-l" => long = true,
            "-p" => pids = true,
            "-r" | "-s" | "-n" => {}
            _ => specs.push(arg.clone()),
        }
    }
    interp.reap_ended();
    let mut chosen = Vec::new();
    let mut status = 0;
    if specs.is_empty() {
        // The jobs that ended are listed once (`Done`, `Exit 3`), then
        // taken out of the table, as bash does.
        chosen.extend(0..interp.jobs.running.len());
    } else {
        for spec in &specs {
            match interp.find_job(spec) {
                Some(index) => chosen.push(index),
                None => {
                    interp.error(format!("jobs: {spec}: no such job"))?;
                    status = 1;
                }
            }
        }
    }
    let count = interp.jobs.running.len();
    let mut text = String::new();
    for index in chosen {
        let job = &interp.jobs.running[index];
        if pids {
            text.push_str(&format!("{}\n", job.pid));
            continue;
        }
        let mark = if index + 1 == count {
            '+'
        } else if index + 2 == count {
            '-'
        } else {
            ' '
        };
        let state = match job.status() {
            None => "Running".to_string(),
            Some((0, _)) => "Done".to_string(),
            Some((status, _)) => format!("Exit {status}"),
        };
        let pid = if long { format!(" {}", job.pid) } else { " ".to_string() };
        let tail = if job.status().is_none() { " &" } else { "" };
        text.push_str(&format!("[{}]{mark}{pid} {state:<24}{}{tail}\n", job.number, job.text));
    }
    interp.out(text.as_bytes())?;
    interp.clean_up_jobs();
    Ok(status)
}

/// `kill [-s SIG | -n N | -SIG] PID|%N…`: signals this shell's jobs.
pub(crate) fn kill(interp: &mut Interp<'_>, argv: &[String]) -> Res {
    const USAGE: &str = "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]";
    let mut signal = 15u8;
    let mut i = 1;
    if let Some(first) = argv.get(1) {
        let spec = match first.as_str() {
            "-s" | "-n" => {
                i += 1;
                argv.get(2).cloned()
            }
            "--" => None,
            "-l" | "-L" => {
                let mut text = String::new();
                for arg in &argv[2..] {
                    match arg.parse::<u8>().ok().and_then(|n| SIGNALS.iter().find(|(k, _)| *k == n & 127)) {
                        Some((_, name)) => text.push_str(&format!("{name}\n")),
                        None => match signal_number(arg) {
                            Some(n) => text.push_str(&format!("{n}\n")),
                            None => {
                                interp.error(format!("kill: {arg}: invalid signal specification"))?;
                                return Ok(1);
                            }
                        },
                    }
                }
                if argv.len() == 2 {
                    for (n, name) in SIGNALS {
                        text.push_str(&format!("{n:>2}) SIG{name}\n"));
                    }
                }
                interp.out(text.as_bytes())?;
                return Ok(0);
            }
            flag if flag.starts_with('-') && flag.len() > 1 => Some(flag[1..].to_string()),
            _ => {
                i -= 1;
                None
            }
        };
        i += 1;
        if let Some(spec) = spec {
            match signal_number(&spec) {
                Some(n) => signal = n,
                None => {
                    interp.error(format!("kill: {spec}: invalid signal specification"))?;
                    return Ok(1);
                }
            }
        }
    }
    let targets = &argv[i.min(argv.len())..];
    if targets.is_empty() {
        interp.err(format!("{USAGE}\n").as_bytes())?;
        return Ok(2);
    }
    let mut status = 0;
    for target in targets {
        match interp.find_job(target) {
            Some(index) => {
                let job = &interp.jobs.running[index];
                if signal != 0 && job.status().is_none() {
                    job.clock.kill(signal);
                }
            }
            None if target.starts_with('%') => {
                interp.error(format!("kill: {target}: no such job"))?;
                status = 1;
            }
            None if target.parse::<i64>().is_ok() => {
                interp.error(format!("kill: ({target}) - No such process"))?;
                status = 1;
            }
            None => {
                interp.error(format!("kill: {target}: arguments must be process or job IDs"))?;
                status = 1;
            }
        }
    }
    Ok(status)
}
