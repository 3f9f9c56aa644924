//! The interpreter: lists, `&&`/`||`, pipelines (streaming: each stage but
//! the last on a thread of its own, on a copy of the state as bash's
//! subshells do, writing into a bounded pipe the next stage reads; see
//! `docs/SHELL.md`), compound commands, functions, simple commands
//! and the lookup order (functions, builtins, the command table, a script
//! path), `set -e`, and the limits.
//!
//! Where the interpreter differs from bash 5.2 (`bash -c`, C locale):
//! - Commands that do not stream their stdin (all but `cat head tail wc grep
//!   tr tee`) read it whole before they start, bounded by the memory budget.
//!   A pipeline may have at most `MAX_THREADS` stages running at once.
//! - `cmd &` runs `cmd` on a thread of its own (see `jobs.rs`, which says
//!   how jobs differ). `coproc` and `select` are not supported; process
//!   substitutions are run before (`<(…)`) or after (`>(…)`) their command
//!   (see `procsub.rs`).
//! - A command's stderr redirected into its stdout (`2>&1`) comes after its
//!   stdout when the command is one of the table (builtins and functions
//!   interleave as bash does).
//! - `$$` and `$BASHPID` are 4242; `$RANDOM` is a fixed-seed sequence;
//!   `time` does not print timings; aliases are not expanded.
//! - Characters are Unicode scalar values: `${#v}`, `${v:1:2}` and `?`
//!   count characters where bash in the C locale counts bytes.
//! - Associative arrays keep their insertion order (bash's order is its
//!   hash table's).
//! - An `EXIT` trap runs at the end of the run that set it, then is
//!   cleared; other traps are accepted and ignored. `exec >file` (without
//!   a command) is refused inside a redirected or piped command.
//! - Parse errors are reported with bash's wording and status 2, but the
//!   line and token are brush-parser's guess. Scripts nesting deeper than
//!   64 brackets or compound commands are refused.
//! - Limits: every simple command counts against `max_commands`, every
//!   loop iteration against `max_loop_iterations`, function calls, `eval`,
//!   `source` and nested `bash` against `max_function_depth` (as does the
//!   stack: about 1 MiB of nesting), each stream and each variable's size
//!   against `max_output_bytes` (a variable may reach four times the
//!   limit), brace expansions are capped at 131072 words.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use brush_parser::ast;

use super::builtins::{self, DeclArg, ExtendedTest};
use super::command::{CommandFn, Context, EnvChange, Output, Runner, Stdin};
use super::commands;
use super::expand::{Assign, AssignValue, Caches, Expand};
use super::io::{Fds, Input, Redirect};
use super::state::{State, Value, Var};
use super::LimitHit;
use crate::storage::Storage;

pub(crate) use super::flow::{Flow, Res};
pub(crate) use super::runtime::{Runtime, Seed, Shared};
pub(crate) use super::state::Position;

/// One run's interpreter over a session's state, in parts: what the run
/// shares (`rt`), the session's state (`st`), the streams and descriptors
/// (`io`), where the interpreter stands (`at`), the parse caches
/// (`cache`) and the background jobs (`jobs`).
pub(crate) struct Interp<'r> {
    pub(crate) rt: &'r Runtime<'r>,
    pub(crate) st: State,
    pub(crate) io: super::io::Streams,
    pub(crate) at: Position,
    pub(crate) cache: Caches,
    pub(crate) jobs: super::jobs::JobTable,
    /// The status of the last command substitution of the current command.
    pub(crate) subst_status: Option<i32>,
}

impl<'r> Interp<'r> {
    /// An interpreter writing to two fresh streams capped at the output limit.
    pub(crate) fn new(rt: &'r Runtime<'r>, st: State) -> Self {
        let cap = rt.limits.max_output_bytes;
        let popts = super::parse::options_with(st.options.extglob);
        Interp {
            rt,
            st,
            io: super::io::Streams::new(cap),
            at: Position::default(),
            cache: Caches::new(popts),
            jobs: super::jobs::JobTable::default(),
            subst_status: None,
        }
    }

    // ----- output helpers -----

    /// Writes to the current stdout.
    pub(crate) fn out(&mut self, bytes: &[u8]) -> Result<(), Flow> {
        self.io.outs[self.io.fd.out].write(bytes).map_err(Flow::Limit)
    }

    /// Writes to the current stderr.
    pub(crate) fn err(&mut self, bytes: &[u8]) -> Result<(), Flow> {
        self.io.outs[self.io.fd.err].write(bytes).map_err(Flow::Limit)
    }

    /// Writes `bash: line N: message` to stderr.
    pub(crate) fn error(&mut self, message: impl std::fmt::Display) -> Result<(), Flow> {
        // bash -c names the source of a function's commands `environment`.
        let source = if self.at.functions_running > 0 { "environment" } else { "bash" };
        let text = format!("{source}: line {}: {}\n", self.at.line, message);
        self.err(text.as_bytes())
    }

    /// Whether `set -e` applies here.
    fn errexit_active(&self) -> bool {
        self.st.options.errexit && self.at.cond == 0
    }

    /// Runs `f` as a condition: `set -e` does not fire inside.
    pub(crate) fn in_cond<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Flow>) -> Result<T, Flow> {
        self.at.cond += 1;
        let result = f(self);
        self.at.cond -= 1;
        result
    }

    /// Runs `f` on a copy of the state (a subshell): its changes to
    /// variables, functions, options and the directory are dropped; `exit`
    /// ends only the subshell. An `EXIT` trap set inside runs when it ends.
    /// The background jobs it started go on without it, as in bash (the
    /// run's end stops them).
    pub(crate) fn subshell(&mut self, f: impl FnOnce(&mut Self) -> Res) -> Res {
        self.subshell_jobs(f, false)
    }

    /// [`subshell`](Self::subshell) whose output is read to its end (a
    /// substitution, a pipeline stage, a command run by `xargs`): it waits
    /// for the jobs started inside, which hold its output as they would
    /// hold its pipe in bash.
    pub(crate) fn subshell_waiting(&mut self, f: impl FnOnce(&mut Self) -> Res) -> Res {
        self.subshell_jobs(f, true)
    }

    fn subshell_jobs(&mut self, f: impl FnOnce(&mut Self) -> Res, wait: bool) -> Res {
        self.rt.check_stack()?;
        let saved = self.st.clone();
        if !self.st.options.errtrace {
            self.st.traps.remove(&super::state::ERR_TRAP);
        }
        let saved_trap = saved.exit_trap.clone();
        let (saved_fd, saved_outs, saved_ins) = (self.io.fd, self.io.outs.len(), self.io.ins.len());
        let saved_exec = std::mem::take(&mut self.io.exec_files);
        let saved_scopes = std::mem::replace(&mut self.at.scopes, 0);
        // A subshell is outside the loops around it: `( continue )` is an
        // error there and the subshell goes on, as in bash.
        let saved_loops = std::mem::replace(&mut self.at.loops, 0);
        self.at.subshells += 1;
        let (jobs, left) = (self.jobs.running.len(), self.jobs.left.len());
        let floor = std::mem::replace(&mut self.jobs.floor, jobs);
        let result = f(self);
        self.jobs.floor = floor;
        let result = if wait { self.join_jobs(jobs, left, result) } else { self.leave_jobs(jobs, result) };
        self.at.subshells -= 1;
        self.at.loops = saved_loops;
        let result = self.end_subshell_streams(result, saved_fd, saved_outs, saved_ins);
        self.io.exec_files = saved_exec;
        self.at.scopes = saved_scopes;
        let mut status = match result {
            Ok(status) | Err(Flow::Exit(status) | Flow::Abort(status) | Flow::Return(status)) => status,
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => 0,
            Err(Flow::Limit(hit)) => {
                self.st = saved;
                return Err(Flow::Limit(hit));
            }
        };
        let trap = self.st.exit_trap.clone();
        if trap.is_some() && !same_trap(&trap, &saved_trap) {
            self.st.exit_trap = None;
            self.st.last_status = status;
            if let Some(trap) = trap {
                match self.eval_string(&trap) {
                    Ok(_) => {}
                    Err(Flow::Exit(code)) => status = code,
                    Err(Flow::Limit(hit)) => {
                        self.st = saved;
                        return Err(Flow::Limit(hit));
                    }
                    Err(_) => {}
                }
            }
        }
        self.st = saved;
        Ok(status)
    }

    // ----- lists -----

    /// Runs a whole script at the top level: an arithmetic error abandons
    /// only the complete command it happened in.
    pub(crate) fn run_script(&mut self, program: &ast::Program) -> Res {
        let mut status = 0;
        for list in &program.complete_commands {
            status = match self.run_list(list) {
                // Under `set -e` the failed line ends the script, as in bash.
                Err(Flow::Abort(code)) if self.st.options.errexit => return Err(Flow::Exit(code)),
                Err(Flow::Abort(code)) => code,
                other => other?,
            };
            self.st.last_status = status;
        }
        Ok(status)
    }

    /// Runs a parsed program.
    pub(crate) fn run_program(&mut self, program: &ast::Program) -> Res {
        let mut status = 0;
        for list in &program.complete_commands {
            status = self.run_list(list)?;
        }
        Ok(status)
    }

    /// Parses and runs a string in the current shell (`eval`, traps): as
    /// bash does, the complete commands before a syntax error run, and a
    /// `shopt -s extglob` in it changes how its next lines parse.
    pub(crate) fn eval_string(&mut self, script: &str) -> Res {
        let saved_line = self.at.line;
        let mut steps = super::parse::Steps::new(script);
        let mut status = 0;
        let result = loop {
            let used = self.cache.popts.enable_extended_globbing;
            let message = match steps.next(&self.cache.popts) {
                None => break Ok(status),
                Some(super::parse::Step::All(program)) => match self.run_program(&program) {
                    Ok(code) => break Ok(code),
                    Err(flow) => break Err(flow),
                },
                Some(super::parse::Step::Prefix(program, message)) => {
                    match self.run_program(&program) {
                        Ok(code) => status = code,
                        Err(flow) => break Err(flow),
                    }
                    if self.cache.popts.enable_extended_globbing != used {
                        continue;
                    }
                    message
                }
                Some(super::parse::Step::Error(message)) => message,
            };
            self.at.line = saved_line;
            self.err(message.as_bytes())?;
            self.st.last_status = 2;
            return Ok(2);
        };
        self.at.line = saved_line;
        result
    }

    pub(crate) fn run_list(&mut self, list: &ast::CompoundList) -> Res {
        let mut status = 0;
        for item in &list.0 {
            status = if matches!(item.1, ast::SeparatorOperator::Async) {
                self.start_job(&item.0)?
            } else {
                self.run_and_or(&item.0)?
            };
        }
        Ok(status)
    }

    pub(crate) fn run_and_or(&mut self, list: &ast::AndOrList) -> Res {
        let count = list.additional.len();
        let mut status =
            if count == 0 { self.run_pipeline(&list.first)? } else { self.in_cond(|s| s.run_pipeline(&list.first))? };
        for (i, next) in list.additional.iter().enumerate() {
            let (run, pipeline) = match next {
                ast::AndOr::And(p) => (status == 0, p),
                ast::AndOr::Or(p) => (status != 0, p),
            };
            if run {
                status = if i + 1 == count {
                    self.run_pipeline(pipeline)?
                } else {
                    self.in_cond(|s| s.run_pipeline(pipeline))?
                };
            }
        }
        Ok(status)
    }

    fn run_pipeline(&mut self, pipeline: &ast::Pipeline) -> Res {
        let status = if pipeline.bang {
            let status = self.in_cond(|s| s.run_stages(&pipeline.seq))?;
            i32::from(status == 0)
        } else {
            self.run_stages(&pipeline.seq)?
        };
        self.st.last_status = status;
        if !pipeline.bang && status != 0 && self.at.cond == 0 && err_trap_fires(pipeline) {
            self.run_err_trap(status)?;
        }
        if !pipeline.bang && status != 0 && self.errexit_active() {
            return Err(Flow::Exit(status));
        }
        Ok(status)
    }

    /// Runs `trap … ERR` after a failed command (where `set -e` would act),
    /// with `$?` the command's status and `$LINENO` its line; `$?` is the
    /// status again after. Not inside the trap's own action.
    fn run_err_trap(&mut self, status: i32) -> Result<(), Flow> {
        if self.st.in_trap {
            return Ok(());
        }
        let Some((_, action)) = self.st.traps.get(&super::state::ERR_TRAP).cloned() else { return Ok(()) };
        self.run_trap_action(&action, status)
    }

    /// Runs a trap's action as bash does: `$?` and `$LINENO` as at the
    /// command that set it off, and `$?` restored after.
    pub(crate) fn run_trap_action(&mut self, action: &str, status: i32) -> Result<(), Flow> {
        let own_line = self.at.line;
        let line = self.st.trap_line.unwrap_or(self.at.line);
        let saved = (self.st.in_trap, self.st.trap_line);
        self.st.in_trap = true;
        self.st.trap_line = Some(line);
        self.st.last_status = status;
        let result = self.in_cond_free(|s| s.eval_string(action));
        self.st.in_trap = saved.0;
        self.st.trap_line = saved.1;
        self.at.line = own_line;
        self.st.last_status = status;
        result.map(|_| ())
    }

    /// Runs `f` outside any condition (a trap's action is checked by `set -e`).
    fn in_cond_free<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Flow>) -> Result<T, Flow> {
        let saved = std::mem::replace(&mut self.at.cond, 0);
        let result = f(self);
        self.at.cond = saved;
        result
    }

    fn run_stages(&mut self, seq: &[ast::Command]) -> Res {
        if seq.len() == 1 {
            let status = self.run_command(&seq[0])?;
            self.st.pipestatus.clear();
            self.st.pipestatus.push(status);
            return Ok(status);
        }
        let threads = seq.len() - 1;
        self.rt.reserve_threads(threads)?;
        let statuses = self.run_streaming(seq);
        self.rt.release_threads(threads);
        let statuses = statuses?;
        let status = if self.st.options.pipefail {
            statuses.iter().rev().find(|&&s| s != 0).copied().unwrap_or(0)
        } else {
            statuses.last().copied().unwrap_or(0)
        };
        self.st.pipestatus = statuses;
        Ok(status)
    }

    /// Runs a pipeline's stages at once, as bash does: each but the last
    /// on a thread of its own in a subshell (a copy of the state), writing
    /// into a bounded pipe the next one reads; the last in a subshell on
    /// this thread. The stages share this shell's stderr. Returns every
    /// stage's status, in order (141 for a stage a closed pipe stopped).
    fn run_streaming(&mut self, seq: &[ast::Command]) -> Result<Vec<i32>, Flow> {
        let saved = self.io.fd;
        let base_ins = self.io.ins.len();
        let stderr = self.io.outs[saved.err].share();
        let mut next_input = std::mem::take(&mut self.io.ins[saved.input]);
        let rt = self.rt;
        let clock = rt.clock.clone();
        let (last, stages) = seq.split_last().unwrap_or((&seq[0], &[]));
        let outcome = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(stages.len());
            let mut refused = None;
            for (index, command) in stages.iter().enumerate() {
                let (writer, reader) = super::pipe::pipe(clock.clone());
                let start = StageStart {
                    state: self.st.clone(),
                    input: std::mem::replace(&mut next_input, Input::pipe(reader)),
                    stdout: writer,
                    stderr: stderr.clone(),
                    // A stage is inside the loops and conditions around it.
                    position: Position { scopes: 0, ..self.at.clone() },
                    jobs: self.jobs.running.iter().map(super::jobs::Job::inherit).collect(),
                    proc_fds: self.proc_fds(),
                    fds: self.io.thread_fds(),
                    first: index == 0,
                };
                let seed = rt.seed();
                match super::stack::spawn_scoped(scope, move || run_stage(seed, start, command)) {
                    Ok(handle) => handles.push(handle),
                    Err(_) => {
                        refused = Some(LimitHit::Threads);
                        break;
                    }
                }
            }
            let last_status = match refused {
                Some(hit) => Err(Flow::Limit(hit)),
                None => {
                    self.io.ins.push(std::mem::take(&mut next_input));
                    self.io.fd.input = self.io.ins.len() - 1;
                    self.at.scopes += 1;
                    // `shopt -s lastpipe` (job control is always off here):
                    // the last stage runs in this shell, so `read v` sets v.
                    let status = if self.st.options.lastpipe {
                        self.run_command(last)
                    } else {
                        self.subshell(|s| s.run_command(last))
                    };
                    self.at.scopes -= 1;
                    status
                }
            };
            // The last stage's end closes the pipe: writers still going stop.
            self.io.ins.truncate(base_ins);
            drop(next_input);
            self.io.fd = saved;
            let mut statuses = Vec::with_capacity(seq.len());
            let mut limit = None;
            for (i, handle) in handles.into_iter().enumerate() {
                let (status, input) = handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                if i == 0 {
                    self.io.ins[saved.input] = input;
                }
                match status {
                    Ok(status) => statuses.push(status),
                    Err(hit) => limit = limit.or(Some(hit)),
                }
            }
            match (last_status, limit) {
                (Err(flow), _) => Err(flow),
                (Ok(_), Some(hit)) => Err(Flow::Limit(hit)),
                (Ok(status), None) => {
                    statuses.push(status);
                    Ok(statuses)
                }
            }
        });
        self.io.outs[saved.err].unshare(stderr);
        self.io.unshare_fds(saved);
        outcome
    }

    pub(crate) fn run_command(&mut self, command: &ast::Command) -> Res {
        self.rt.check_stack()?;
        match command {
            ast::Command::Simple(simple) => self.run_simple(simple),
            ast::Command::Compound(compound, redirects) => {
                let redirects = redirects.as_ref().map_or(&[][..], |r| &r.0[..]);
                if redirects.is_empty() {
                    self.run_compound(compound)
                } else {
                    self.with_redirects(redirects.iter(), |s| s.run_compound(compound))
                }
            }
            ast::Command::Function(def) => {
                self.rt.count_command()?;
                let name = def.fname.value.clone();
                Arc::make_mut(&mut self.st.functions).insert(name, Arc::new(def.body.clone()));
                Ok(0)
            }
            ast::Command::ExtendedTest(test, redirects) => {
                self.rt.count_command()?;
                self.at.line = test.loc.start.line;
                let redirects = redirects.as_ref().map_or(&[][..], |r| &r.0[..]);
                self.with_redirects(redirects.iter(), |s| s.run_extended_test(&test.expr))
            }
        }
    }

    fn run_compound(&mut self, compound: &ast::CompoundCommand) -> Res {
        match compound {
            ast::CompoundCommand::BraceGroup(group) => self.run_list(&group.list),
            ast::CompoundCommand::Subshell(sub) => self.subshell(|s| s.run_list(&sub.list)),
            ast::CompoundCommand::Arithmetic(arith) => {
                self.rt.count_command()?;
                self.at.line = arith.loc.start.line;
                match self.arith_command(&arith.expr.value)? {
                    Some(value) => Ok(i32::from(value == 0)),
                    None => Ok(1),
                }
            }
            ast::CompoundCommand::ForClause(clause) => self.run_for(clause),
            ast::CompoundCommand::ArithmeticForClause(clause) => self.run_arith_for(clause),
            ast::CompoundCommand::WhileClause(clause) => self.run_while(clause, false),
            ast::CompoundCommand::UntilClause(clause) => self.run_while(clause, true),
            ast::CompoundCommand::IfClause(clause) => self.run_if(clause),
            ast::CompoundCommand::CaseClause(clause) => self.run_case(clause),
            ast::CompoundCommand::Coprocess(_) => {
                self.error("coproc: not supported")?;
                Ok(1)
            }
        }
    }

    /// Runs a loop body once; `Ok(None)` means the loop must stop (`break`).
    fn loop_body(&mut self, body: &ast::CompoundList) -> Result<Option<i32>, Flow> {
        self.at.loops += 1;
        let result = self.run_list(body);
        self.at.loops -= 1;
        match result {
            Ok(status) => Ok(Some(status)),
            Err(Flow::Break(n)) if n > 1 => Err(Flow::Break(n - 1)),
            Err(Flow::Break(_)) => Ok(None),
            Err(Flow::Continue(n)) if n > 1 => Err(Flow::Continue(n - 1)),
            Err(Flow::Continue(_)) => Ok(Some(0)),
            Err(flow) => Err(flow),
        }
    }

    fn run_for(&mut self, clause: &ast::ForClauseCommand) -> Res {
        self.at.line = clause.loc.start.line;
        if !builtins::is_name(&clause.variable_name) {
            self.error(format_args!("`{}': not a valid identifier", clause.variable_name))?;
            return Ok(1);
        }
        let values = match &clause.values {
            Some(words) => {
                let mut values = Vec::new();
                for word in words {
                    self.expand_word_into(&word.value, &mut values)?;
                }
                values
            }
            None => self.st.positional.to_vec(),
        };
        let mut status = 0;
        for value in values {
            self.rt.count_iteration()?;
            if self.st.options.xtrace {
                // bash traces the loop's words as written, each time round.
                if let Some(words) = &clause.values {
                    let words: Vec<&str> = words.iter().map(|w| w.value.as_str()).collect();
                    let prefix = "+".repeat(self.at.substs as usize + 1);
                    let line = format!("{prefix} for {} in {}\n", clause.variable_name, words.join(" "));
                    self.err(line.as_bytes())?;
                }
            }
            // A nameref loop variable refers to each word in turn (bash).
            if self.st.vars.get(&clause.variable_name).is_some_and(|v| v.nameref) {
                if let Some(var) = self.st.vars_mut().get_mut(&clause.variable_name) {
                    var.value = Value::Str(value);
                }
            } else if let Err(message) = self.set_var(&clause.variable_name, value) {
                self.error(message)?;
                return Ok(1);
            }
            match self.loop_body(&clause.body.list)? {
                Some(s) => status = s,
                None => {
                    status = 0;
                    break;
                }
            }
        }
        Ok(status)
    }

    fn run_arith_for(&mut self, clause: &ast::ArithmeticForClauseCommand) -> Res {
        self.at.line = clause.loc.start.line;
        if let Some(init) = &clause.initializer {
            if self.arith_command(&init.value)?.is_none() {
                return Ok(1);
            }
        }
        let mut status = 0;
        loop {
            self.rt.count_iteration()?;
            if let Some(cond) = clause.condition.as_ref().filter(|c| !c.value.trim().is_empty()) {
                match self.arith_command(&cond.value)? {
                    Some(0) => break,
                    Some(_) => {}
                    None => return Ok(1),
                }
            }
            match self.loop_body(&clause.body.list)? {
                Some(s) => status = s,
                None => {
                    status = 0;
                    break;
                }
            }
            if let Some(update) = &clause.updater {
                if self.arith_command(&update.value)?.is_none() {
                    return Ok(1);
                }
            }
        }
        Ok(status)
    }

    fn run_while(&mut self, clause: &ast::WhileOrUntilClauseCommand, until: bool) -> Res {
        let mut status = 0;
        loop {
            self.rt.count_iteration()?;
            let cond = self.in_cond(|s| {
                s.at.loops += 1;
                let r = s.run_list(&clause.0);
                s.at.loops -= 1;
                r
            });
            let cond = match cond {
                Ok(c) => c,
                Err(Flow::Break(_)) => break,
                Err(Flow::Continue(_)) => continue,
                Err(flow) => return Err(flow),
            };
            if (cond == 0) == until {
                break;
            }
            match self.loop_body(&clause.1.list)? {
                Some(s) => status = s,
                None => {
                    status = 0;
                    break;
                }
            }
        }
        Ok(status)
    }

    fn run_if(&mut self, clause: &ast::IfClauseCommand) -> Res {
        if self.in_cond(|s| s.run_list(&clause.condition))? == 0 {
            return self.run_list(&clause.then);
        }
        for branch in clause.elses.iter().flatten() {
            match &branch.condition {
                Some(cond) => {
                    if self.in_cond(|s| s.run_list(cond))? == 0 {
                        return self.run_list(&branch.body);
                    }
                }
                None => return self.run_list(&branch.body),
            }
        }
        Ok(0)
    }

    fn run_case(&mut self, clause: &ast::CaseClauseCommand) -> Res {
        self.at.line = clause.loc.start.line;
        let value = self.expand_string(&clause.value.value)?;
        if self.st.options.xtrace {
            let line = format!("{} case {} in\n", "+".repeat(self.at.substs as usize + 1), clause.value.value);
            self.err(line.as_bytes())?;
        }
        let mut status = 0;
        let mut fall_through = false;
        for item in &clause.cases {
            let mut hit = fall_through;
            if !hit {
                for pattern in &item.patterns {
                    let pattern = self.expand_pattern(&pattern.value)?;
                    if self.pattern_matches(&pattern, &value, false)? {
                        hit = true;
                        break;
                    }
                }
            }
            if !hit {
                continue;
            }
            status = match &item.cmd {
                Some(list) => self.run_list(list)?,
                None => 0,
            };
            match item.post_action {
                ast::CaseItemPostAction::ExitCase => return Ok(status),
                ast::CaseItemPostAction::UnconditionallyExecuteNextCaseItem => fall_through = true,
                ast::CaseItemPostAction::ContinueEvaluatingCases => fall_through = false,
            }
        }
        Ok(status)
    }

    // ----- simple commands -----

    fn run_simple(&mut self, simple: &ast::SimpleCommand) -> Res {
        let status = self.run_simple_inner(simple)?;
        if !self.io.exec_files.is_empty() {
            self.flush_exec_files()?;
        }
        Ok(status)
    }

    fn run_simple_inner(&mut self, simple: &ast::SimpleCommand) -> Res {
        let base = self.io.proc_fds.len();
        let result = self.run_simple_body(simple);
        if self.io.proc_fds.len() > base {
            let finished = self.finish_process_substitutions(base);
            return result.and_then(|status| finished.map(|()| status));
        }
        result
    }

    fn run_simple_body(&mut self, simple: &ast::SimpleCommand) -> Res {
        self.rt.count_command()?;
        if let Some(line) = simple_line(simple) {
            self.at.line = line;
        }
        if (!self.st.traps.is_empty() || self.st.exit_trap.is_some()) && !self.st.in_trap {
            self.at.command = Some(simple.to_string().into());
        }
        self.subst_status = None;
        let mut argv: Vec<String> = Vec::new();
        let mut decl: Option<Vec<DeclArg>> = None;
        if let Some(word) = &simple.word_or_name {
            self.expand_word_into(&word.value, &mut argv)?;
        }
        if argv.first().is_some_and(|name| builtins::is_declaration(name)) {
            decl = Some(argv.iter().skip(1).map(|w| DeclArg::Word(w.clone())).collect());
        }
        let mut has_redirects = false;
        if let Some(suffix) = &simple.suffix {
            for item in &suffix.0 {
                match item {
                    ast::CommandPrefixOrSuffixItem::Word(word) => match &mut decl {
                        Some(decl) => {
                            let mut words = Vec::new();
                            self.expand_word_into(&word.value, &mut words)?;
                            decl.extend(words.into_iter().map(DeclArg::Word));
                        }
                        None => self.expand_word_into(&word.value, &mut argv)?,
                    },
                    ast::CommandPrefixOrSuffixItem::AssignmentWord(assignment, word) => match &mut decl {
                        Some(decl) => {
                            let assign = self.expand_assignment(assignment)?;
                            decl.push(DeclArg::Assign(assign));
                        }
                        None => self.expand_word_into(&word.value, &mut argv)?,
                    },
                    ast::CommandPrefixOrSuffixItem::IoRedirect(_) => has_redirects = true,
                    ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, sub) => {
                        let path = self.process_substitution(kind, sub)?;
                        match &mut decl {
                            Some(decl) => decl.push(DeclArg::Word(path)),
                            None => argv.push(path),
                        }
                    }
                }
            }
        }
        let mut assigns: Vec<&ast::Assignment> = Vec::new();
        if let Some(prefix) = &simple.prefix {
            for item in &prefix.0 {
                match item {
                    ast::CommandPrefixOrSuffixItem::AssignmentWord(assignment, _) => {
                        assigns.push(assignment);
                    }
                    ast::CommandPrefixOrSuffixItem::IoRedirect(_) => has_redirects = true,
                    ast::CommandPrefixOrSuffixItem::Word(word) => self.expand_word_into(&word.value, &mut argv)?,
                    ast::CommandPrefixOrSuffixItem::ProcessSubstitution(kind, sub) => {
                        let path = self.process_substitution(kind, sub)?;
                        argv.push(path);
                    }
                }
            }
        }
        // bash expands and makes a command's assignments and traces it
        // before its redirections apply (so `set -x; x=1 echo hi 2>&1`
        // traces to the shell's stderr, and so does a failed assignment's
        // message).
        if argv.is_empty() {
            let status = self.assign_only(assigns)?;
            if !has_redirects {
                return Ok(status);
            }
            return self.with_redirects(Self::redirects_of(simple), move |_| Ok(status));
        }
        let saved = self.prefix_assign(assigns)?;
        let result = self.run_with_words(simple, argv, decl, has_redirects);
        self.restore_vars(saved);
        result
    }

    /// The redirections of a simple command, in order.
    fn redirects_of(simple: &ast::SimpleCommand) -> impl Iterator<Item = &ast::IoRedirect> {
        let items = simple.prefix.iter().flat_map(|p| p.0.iter()).chain(simple.suffix.iter().flat_map(|s| s.0.iter()));
        items.filter_map(|item| match item {
            ast::CommandPrefixOrSuffixItem::IoRedirect(r) => Some(r),
            _ => None,
        })
    }

    /// Traces an expanded command, applies its redirections and runs it.
    fn run_with_words(
        &mut self,
        simple: &ast::SimpleCommand,
        argv: Vec<String>,
        decl: Option<Vec<DeclArg>>,
        has_redirects: bool,
    ) -> Res {
        if self.st.options.xtrace {
            match &decl {
                Some(decl) => self.trace_declaration(&argv, decl)?,
                None => self.trace(&[], &argv)?,
            }
        }
        if !has_redirects {
            return self.dispatch(&argv, decl.as_deref());
        }
        let mut redirects = Self::redirects_of(simple);
        if argv.len() == 1 && argv[0] == "exec" && !self.st.functions.contains_key("exec") {
            return self.exec_redirects(&mut redirects);
        }
        self.with_redirects(redirects, move |s| s.dispatch(&argv, decl.as_deref()))
    }

    /// An assignment-only command: its assignments, one after the other.
    fn assign_only(&mut self, assigns: Vec<&ast::Assignment>) -> Res {
        for assignment in assigns {
            let assign = self.expand_assignment(assignment)?;
            if self.st.options.xtrace {
                self.trace(std::slice::from_ref(&assign), &[])?;
            }
            if let Err(message) = self.assign(&assign, false) {
                // A failed assignment ends a non-interactive bash; one to a
                // readonly variable only abandons the current line (5.2).
                let readonly = message.ends_with(": readonly variable")
                    || message.ends_with(": circular name reference")
                    || message.ends_with(": cannot assign list to array member");
                self.error(message)?;
                return Err(if readonly { Flow::Abort(1) } else { Flow::Exit(1) });
            }
        }
        Ok(self.subst_status.unwrap_or(0))
    }

    /// `VAR=x cmd`: makes the variables (exported) for this command only
    /// and traces them; gives what to restore after it.
    fn prefix_assign(&mut self, assigns: Vec<&ast::Assignment>) -> Result<Vec<SavedVar>, Flow> {
        let mut saved = Vec::with_capacity(assigns.len());
        let mut expanded = Vec::with_capacity(assigns.len());
        for assignment in assigns {
            let assign = match self.expand_assignment(assignment) {
                Ok(assign) => assign,
                Err(flow) => {
                    self.restore_vars(saved);
                    return Err(flow);
                }
            };
            saved.push((assign.name.clone(), self.st.vars.get(&assign.name).cloned()));
            if let Err(message) = self.assign(&assign, false) {
                if let Err(flow) = self.error(message) {
                    self.restore_vars(saved);
                    return Err(flow);
                }
                // bash traces only the assignments made.
                continue;
            }
            if let Some(var) = self.st.vars_mut().get_mut(&assign.name) {
                var.exported = true;
            }
            expanded.push(assign);
        }
        if self.st.options.xtrace {
            // bash traces the assignments, then the command, a line each.
            for assign in &expanded {
                if let Err(flow) = self.trace(std::slice::from_ref(assign), &[]) {
                    self.restore_vars(saved);
                    return Err(flow);
                }
            }
        }
        Ok(saved)
    }

    fn restore_vars(&mut self, saved: Vec<SavedVar>) {
        for (name, var) in saved.into_iter().rev() {
            match var {
                Some(var) => {
                    self.st.vars_mut().insert(name, var);
                }
                None => self.st.unset(&name),
            }
        }
    }

    /// `set -x` for `declare`, `export`, `local`…, as bash 5.2 writes it:
    /// `+ declare 'b=q r' c`; an array's assignment first, on its own line
    /// (`+ a=('1' '2')`, then `+ declare -a a`); `export` and `readonly`
    /// trace their assignments again after the command.
    fn trace_declaration(&mut self, argv: &[String], decl: &[DeclArg]) -> Result<(), Flow> {
        let mut words = argv.to_vec();
        let mut after = Vec::new();
        for arg in decl {
            match arg {
                DeclArg::Word(word) => words.push(word.clone()),
                DeclArg::Assign(assign) => match &assign.value {
                    AssignValue::Scalar(value) => {
                        let index = assign.index.as_ref().map(|i| format!("[{i}]")).unwrap_or_default();
                        let op = if assign.append { "+=" } else { "=" };
                        words.push(format!("{}{index}{op}{value}", assign.name));
                        if matches!(argv[0].as_str(), "export" | "readonly") {
                            after.push(assign.clone());
                        }
                    }
                    AssignValue::Array(items) => {
                        let items: Vec<String> = items
                            .iter()
                            .map(|(key, v)| {
                                let v = format!("'{}'", v.replace('\'', "'\\''"));
                                key.as_ref().map_or(v.clone(), |k| format!("['{k}']={v}"))
                            })
                            .collect();
                        let prefix = "+".repeat(self.at.substs as usize + 1);
                        let line = format!("{prefix} {}=({})\n", assign.name, items.join(" "));
                        self.err(line.as_bytes())?;
                        words.push(assign.name.clone());
                    }
                },
            }
        }
        self.trace(&[], &words)?;
        for assign in after {
            self.trace(std::slice::from_ref(&assign), &[])?;
        }
        Ok(())
    }

    fn trace(&mut self, assigns: &[Assign], argv: &[String]) -> Result<(), Flow> {
        let mut line = "+".repeat(self.at.substs as usize + 1);
        for assign in assigns {
            // `+ x=1`, `+ b[1]=x`, `+ s+=t`, `+ a=(1 2)`.
            line.push(' ');
            line.push_str(&assign.name);
            if let Some(index) = &assign.index {
                line.push_str(&format!("[{index}]"));
            }
            line.push_str(if assign.append { "+=" } else { "=" });
            match &assign.value {
                AssignValue::Scalar(v) => line.push_str(&super::quote::quote_for_trace(v)),
                AssignValue::Array(items) => {
                    let items: Vec<String> = items
                        .iter()
                        .map(|(key, v)| {
                            let v = super::quote::quote_for_trace(v);
                            key.as_ref().map_or(v.clone(), |k| format!("[{k}]={v}"))
                        })
                        .collect();
                    line.push_str(&format!("({})", items.join(" ")));
                }
            }
        }
        for arg in argv {
            line.push(' ');
            line.push_str(&super::quote::quote_for_trace(arg));
        }
        line.push('\n');
        self.err(line.as_bytes())
    }

    /// Runs an expanded command line: a function, a builtin, a command of
    /// the table, or a script path; else `command not found` (127).
    pub(crate) fn dispatch(&mut self, argv: &[String], decl: Option<&[DeclArg]>) -> Res {
        let name = argv[0].as_str();
        if let Some(function) = self.st.functions.get(name).cloned() {
            return self.call_function(&function, argv);
        }
        if let Some(builtin) = builtins::lookup(name) {
            let status = match decl {
                Some(decl) => builtins::declaration(self, name, decl),
                None => builtin(self, argv),
            };
            return self.input_failure(name, status);
        }
        if let Some(command) = commands::lookup(name) {
            let status = self.run_table(command, argv);
            let status = self.input_failure(name, status);
            // bash takes the jobs that ended out of its table after a
            // foreground command.
            if !self.jobs.running.is_empty() {
                self.clean_up_jobs();
            }
            return status;
        }
        if name.contains('/') {
            return builtins::run_script_file(self, name, &argv[1..]);
        }
        // An executable file in a folder of `$PATH` in the storage.
        if let Some(path) = builtins::path_matches(&*self, name, false).into_iter().next() {
            return builtins::run_script_file(self, &path, &argv[1..]);
        }
        self.error(format_args!("{name}: command not found"))?;
        Ok(127)
    }

    /// A command or builtin whose stdin, a file, could not be read to its
    /// end (changed in place on the host while read) fails with the
    /// reason, as a read error fails a command: never a silent short read.
    fn input_failure(&mut self, name: &str, result: Res) -> Res {
        let input = self.io.fd.input;
        let Some(reason) = self.io.ins[input].take_failure() else { return result };
        self.err(format!("{name}: {reason}\n").as_bytes())?;
        result.map(|status| if status == 0 { 1 } else { status })
    }

    pub(crate) fn call_function(&mut self, function: &super::state::Function, argv: &[String]) -> Res {
        if self.at.depth >= self.rt.limits.max_function_depth {
            return Err(Flow::Limit(LimitHit::FunctionDepth));
        }
        self.rt.check_stack()?;
        self.at.depth += 1;
        let saved_positional = std::mem::replace(&mut self.st.positional, Arc::new(argv[1..].to_vec()));
        let saved_loops = std::mem::replace(&mut self.at.loops, 0);
        self.st.locals.push(Vec::new());
        self.at.functions_running += 1;
        self.at.function_names.push(argv[0].clone());
        let saved_traps = self.function_traps_enter();
        let redirects = function.1.as_ref().map_or(&[][..], |r| &r.0[..]);
        let result = if redirects.is_empty() {
            self.run_compound(&function.0)
        } else {
            self.with_redirects(redirects.iter(), |s| s.run_compound(&function.0))
        };
        let result = self.function_traps_leave(saved_traps, result);
        self.at.functions_running -= 1;
        self.at.function_names.pop();
        self.st.pop_locals();
        self.st.positional = saved_positional;
        self.at.loops = saved_loops;
        self.at.depth -= 1;
        match result {
            Err(Flow::Return(status)) => Ok(status),
            other => other,
        }
    }

    /// A function does not inherit the `ERR` trap without `set -E`, nor
    /// the `RETURN` trap without `set -T` (bash sets them aside and puts
    /// them back when it returns, over any the function set).
    fn function_traps_enter(&mut self) -> SavedTraps {
        let mut saved = [None, None];
        if !self.st.options.errtrace {
            saved[0] = self.st.traps.remove(&super::state::ERR_TRAP);
        }
        if !self.st.options.functrace {
            saved[1] = self.st.traps.remove(&super::state::RETURN_TRAP);
        }
        (saved, self.at.line)
    }

    /// Runs the `RETURN` trap the function sees as it returns, then puts
    /// back what [`Self::function_traps_enter`] set aside.
    fn function_traps_leave(&mut self, (saved, line): SavedTraps, result: Res) -> Res {
        let mut result = result;
        // After the call, messages and `$LINENO` are the caller's line again.
        self.at.line = line;
        if let Some((_, action)) = self.st.traps.get(&super::state::RETURN_TRAP).cloned() {
            if !self.st.in_trap && !matches!(result, Err(Flow::Limit(_) | Flow::Exit(_))) {
                // `$?` in the trap is the last command's (0 after `return 4`, as bash).
                let status = self.st.last_status;
                if let Err(flow) = self.run_trap_action(&action, status) {
                    result = Err(flow);
                }
            }
        }
        let [err, ret] = saved;
        if let Some(err) = err {
            self.st.traps.insert(super::state::ERR_TRAP, err);
        }
        if let Some(ret) = ret {
            self.st.traps.insert(super::state::RETURN_TRAP, ret);
        }
        result
    }

    /// Runs a command of the table with the current streams.
    pub(crate) fn run_table(&mut self, command: CommandFn, argv: &[String]) -> Res {
        let fd = self.io.fd;
        let stdin = Stdin::new(std::mem::take(&mut self.io.ins[fd.input]), self.rt.limits.max_memory_bytes);
        let shared = fd.out == fd.err;
        let taken = std::mem::replace(&mut self.io.outs[fd.out], Output::new(0));
        // `2>&1`: both views write into the one stream, in the order written.
        let (merged, mut stdout, mut stderr) = if shared {
            let stream = Arc::new(Mutex::new(taken));
            let (stdout, stderr) = (Output::view_of(&stream), Output::view_of(&stream));
            (Some(stream), stdout, stderr)
        } else {
            (None, taken, std::mem::replace(&mut self.io.outs[fd.err], Output::new(0)))
        };
        let vars = self.st.vars.clone();
        let var = move |name: &str| vars.get(name).and_then(|v| v.value.scalar()).map(str::to_string);
        let rt = self.rt;
        let check = move || rt.check();
        let cwd = self.st.cwd.clone();
        // Process substitutions' paths, in front of the run's storage.
        let with_fds;
        let storage: &dyn Storage = if self.io.proc_fds.is_empty() {
            rt.storage
        } else {
            with_fds = super::procsub::FdStorage { inner: rt.storage, fds: self.proc_fds() };
            &with_fds
        };
        let result = {
            let mut ctx = Context {
                name: &argv[0],
                storage,
                cwd: &cwd,
                stdin: &stdin,
                stdout: &mut stdout,
                stderr: &mut stderr,
                var: &var,
                runner: self,
                check: &check,
                max_memory: rt.limits.max_memory_bytes,
            };
            command(&mut ctx, &argv[1..])
        };
        let (input, stdin_hit) = stdin.into_input();
        self.io.ins[fd.input] = input;
        if let Some(stream) = merged {
            drop((stdout, stderr));
            self.io.outs[fd.out] = Arc::try_unwrap(stream)
                .map(|m| m.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
                .unwrap_or_else(|_| Output::new(0));
        } else {
            self.io.outs[fd.out] = stdout;
            self.io.outs[fd.err] = stderr;
        }
        let status = result?;
        match stdin_hit {
            Some(hit) => Err(Flow::Limit(hit)),
            None => Ok(status),
        }
    }
}

/// The `ERR` and `RETURN` traps a function call set aside, and the caller's line.
type SavedTraps = ([Option<(String, Arc<str>)>; 2], usize);

/// A variable's name and what it held before a `VAR=x cmd` (none: unset).
type SavedVar = (String, Option<super::state::Var>);

/// Whether a failed pipeline sets off `trap … ERR`: a pipeline of several
/// stages or a simple command, subshell, `[[ ]]` or `(( ))`; the compound
/// commands leave it to the commands inside them, as bash does.
fn err_trap_fires(pipeline: &ast::Pipeline) -> bool {
    match pipeline.seq.as_slice() {
        [single] => match single {
            ast::Command::Simple(_) | ast::Command::ExtendedTest(..) => true,
            ast::Command::Compound(compound, _) => {
                matches!(compound, ast::CompoundCommand::Subshell(_) | ast::CompoundCommand::Arithmetic(_))
            }
            ast::Command::Function(_) => false,
        },
        _ => true,
    }
}

impl Interp<'_> {
    /// Writes the files a subshell's `exec` opened and restores its streams.
    fn end_subshell_streams(&mut self, result: Res, fd: Fds, outs: usize, ins: usize) -> Res {
        let files = std::mem::take(&mut self.io.exec_files);
        self.io.fd = fd;
        let flushed = self.flush_files(files);
        self.io.outs.truncate(outs);
        self.io.ins.truncate(ins);
        match (result, flushed) {
            (Err(Flow::Limit(hit)), _) | (_, Err(Flow::Limit(hit))) => Err(Flow::Limit(hit)),
            (result, _) => result,
        }
    }
}

/// What a pipeline stage's thread starts from: a copy of the shell, its
/// stdin (the previous stage's pipe, or the shell's stdin for the first),
/// its stdout (the pipe to the next stage) and the shared stderr.
struct StageStart {
    state: State,
    input: Input,
    stdout: super::pipe::PipeWriter,
    stderr: Arc<Mutex<Output>>,
    position: Position,
    /// The shell's jobs, for `jobs` (not waited for).
    jobs: Vec<super::jobs::Job>,
    /// The process substitutions open where the pipeline runs.
    proc_fds: Vec<super::procsub::ProcFd>,
    /// Descriptors 3 to 9.
    fds: super::io::ThreadFds,
    /// Whether this is the first stage (its stdin is the shell's).
    first: bool,
}

impl Interp<'_> {
    /// Where this interpreter stands, for a background job to start from
    /// (outside any loop, condition or redirected command).
    pub(crate) fn position(&self) -> Position {
        Position { loops: 0, cond: 0, scopes: 0, ..self.at.clone() }
    }

    /// Puts a fresh interpreter where another stood.
    pub(crate) fn resume(&mut self, position: Position) {
        self.at = position;
    }
}

/// A stage's thread: runs `command` in a subshell of the copied shell.
/// Returns its status (141 when a closed pipe stopped it) or the limit that
/// stops the run, and its stdin (the first stage gives the shell's back).
fn run_stage(seed: Seed<'_, '_>, start: StageStart, command: &ast::Command) -> (Result<i32, LimitHit>, Input) {
    let rt = seed.runtime();
    let mut interp = Interp::new(&rt, start.state);
    interp.io.outs = vec![Output::pipe(start.stdout), Output::view_of(&start.stderr)];
    interp.io.ins = vec![start.input];
    interp.resume(start.position);
    interp.jobs.running = start.jobs;
    interp.io.proc_fds = start.proc_fds;
    interp.io.adopt_fds(start.fds);
    interp.io.stdin_piped = !start.first;
    let status = match interp.subshell_waiting(|s| s.run_command(command)) {
        Ok(status) => Ok(status),
        Err(Flow::Limit(LimitHit::BrokenPipe)) => Ok(LimitHit::BrokenPipe.exit_code()),
        Err(Flow::Limit(hit)) => Err(hit),
        Err(Flow::Exit(status) | Flow::Abort(status) | Flow::Return(status)) => Ok(status),
        Err(Flow::Break(_) | Flow::Continue(_)) => Ok(0),
    };
    // The first stage gives the shell's stdin back; a later one's is the
    // previous pipe, closed now so that its writer stops.
    let input = if start.first { std::mem::take(&mut interp.io.ins[0]) } else { Input::default() };
    drop(interp);
    (status, input)
}

fn same_trap(a: &Option<Arc<str>>, b: &Option<Arc<str>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// The line a simple command starts on.
fn simple_line(simple: &ast::SimpleCommand) -> Option<usize> {
    if let Some(word) = &simple.word_or_name {
        if let Some(loc) = &word.loc {
            return Some(loc.start.line);
        }
    }
    let first = simple.prefix.as_ref().and_then(|p| p.0.first())?;
    match first {
        ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) => Some(a.loc.start.line),
        ast::CommandPrefixOrSuffixItem::Word(w) => w.loc.as_ref().map(|l| l.start.line),
        _ => None,
    }
}

impl Runner for Interp<'_> {
    fn run(
        &mut self,
        argv: &[String],
        stdin: &[u8],
        stdout: &mut Output,
        stderr: &mut Output,
    ) -> Result<i32, LimitHit> {
        self.run_argv(None, argv, stdin, stdout, stderr)
    }

    #[cfg(feature = "network")]
    fn network(&self) -> Option<super::command::Network> {
        let session = self.rt.jobs_env.as_ref()?.network.clone()?;
        let run_end = self.rt.clock.start + self.rt.limits.max_duration;
        let deadline = self.rt.deadline().map_or(run_end, |end| end.min(run_end));
        Some(super::command::Network { session, deadline: Some(deadline) })
    }

    fn exported(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = self
            .st
            .vars
            .iter()
            .filter(|(_, var)| var.exported)
            .filter_map(|(name, var)| Some((name.clone(), var.value.scalar()?.to_string())))
            .collect();
        out.sort_unstable();
        out
    }

    fn run_with_env(
        &mut self,
        env: &EnvChange,
        argv: &[String],
        stdin: &[u8],
        stdout: &mut Output,
        stderr: &mut Output,
    ) -> Result<i32, LimitHit> {
        self.run_argv(Some(env), argv, stdin, stdout, stderr)
    }

    fn run_with_timeout(
        &mut self,
        limit: std::time::Duration,
        argv: &[String],
        stdin: &[u8],
        stdout: &mut Output,
        stderr: &mut Output,
    ) -> Result<Option<i32>, LimitHit> {
        let outer = self.rt.deadline();
        let end = Instant::now().checked_add(limit);
        let narrowed = match (outer, end) {
            (Some(outer), Some(end)) if end < outer => Some(end),
            (None, Some(end)) => Some(end),
            _ => None,
        };
        if narrowed.is_some() {
            self.rt.set_deadline(narrowed);
        }
        let result = self.run_argv(None, argv, stdin, stdout, stderr);
        self.rt.set_deadline(outer);
        match result {
            // Ours fired, not the run's own clock or an outer `timeout`.
            Err(LimitHit::WallTime) if narrowed.is_some() && self.rt.check().is_ok() => Ok(None),
            other => other.map(Some),
        }
    }
}

impl Interp<'_> {
    /// [`Runner::run`], in a subshell whose variables are first changed as
    /// `env` says (only the exported ones are kept then, as through `exec`).
    fn run_argv(
        &mut self,
        env: Option<&EnvChange>,
        argv: &[String],
        stdin: &[u8],
        stdout: &mut Output,
        stderr: &mut Output,
    ) -> Result<i32, LimitHit> {
        if argv.is_empty() {
            return Ok(0);
        }
        self.rt.count_command()?;
        let saved = self.io.fd;
        let base_outs = self.io.outs.len();
        let base_ins = self.io.ins.len();
        self.io.outs.push(std::mem::replace(stdout, Output::new(0)));
        self.io.outs.push(std::mem::replace(stderr, Output::new(0)));
        self.io.ins.push(Input::buffer(stdin.to_vec()));
        self.io.fd = Fds::new(base_ins, base_outs, base_outs + 1);
        // Like a process xargs would start: the shell's state is a copy.
        self.at.scopes += 1;
        let result = self.subshell_waiting(|s| {
            if let Some(env) = env {
                let vars = s.st.vars_mut();
                vars.retain(|_, var| var.exported && !env.clear);
                for name in &env.unset {
                    vars.remove(name);
                }
                for (name, value) in &env.set {
                    vars.insert(name.clone(), Var { exported: true, ..Var::string(value.clone()) });
                }
            }
            s.dispatch(argv, None)
        });
        self.at.scopes -= 1;
        self.io.fd = saved;
        *stderr = self.io.outs.pop().unwrap_or_else(|| Output::new(0));
        *stdout = self.io.outs.pop().unwrap_or_else(|| Output::new(0));
        self.io.outs.truncate(base_outs);
        self.io.ins.truncate(base_ins);
        match result {
            Ok(status) | Err(Flow::Exit(status) | Flow::Abort(status) | Flow::Return(status)) => Ok(status),
            Err(Flow::Break(_)) | Err(Flow::Continue(_)) => Ok(0),
            Err(Flow::Limit(hit)) => Err(hit),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::{LimitHit, Limits, Shell, ShellOptions};
    use crate::storage::{MemoryStorage, Storage};

    fn run_with(limits: Limits, script: &str) -> (String, String, i32, Option<LimitHit>, Arc<MemoryStorage>) {
        let storage = Arc::new(MemoryStorage::new(Default::default()));
        storage.write("/f", b"one\ntwo\n").unwrap();
        let mut shell = Shell::new(storage.clone(), ShellOptions { limits, ..ShellOptions::default() });
        let r = shell.run(script, None);
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        (text(&r.stdout), text(&r.stderr), r.exit_code, r.limit, storage)
    }

    fn run(script: &str) -> (String, String, i32) {
        let (out, err, code, _, _) = run_with(Limits::default(), script);
        (out, err, code)
    }

    #[test]
    fn table_commands_get_streams_and_state() {
        assert_eq!(run("echo hi | cat"), ("hi\n".into(), "".into(), 0));
        assert_eq!(run("cat f nope"), ("one\ntwo\n".into(), "cat: nope: No such file or directory\n".into(), 1));
        assert_eq!(run("cat f nope 2>/dev/null"), ("one\ntwo\n".into(), "".into(), 1));
        // 2>&1: the stderr follows the stdout in the shared stream.
        assert_eq!(
            run("cat f nope 2>&1 | cat"),
            ("one\ntwo\ncat: nope: No such file or directory\n".into(), "".into(), 0)
        );
        assert_eq!(
            run("export X=1; X=2 printenv X; printenv X; mkdir /d; cd /d; pwd; printenv PWD"),
            ("2\n1\n/d\n/d\n".into(), "".into(), 0)
        );
    }

    #[test]
    fn read_consumes_but_commands_see_the_rest() {
        assert_eq!(run("{ read header; cat; } < f"), ("two\n".into(), "".into(), 0));
        assert_eq!(run("while read l; do echo \"[$l]\"; done < f"), ("[one]\n[two]\n".into(), "".into(), 0));
    }

    #[test]
    fn runner_runs_functions_and_builtins() {
        let script =
            "f() { echo \"f:$1\"; }; printf_missing=1; { echo a; echo b; } | xargs -n1 f; echo x | xargs echo got";
        assert_eq!(run(script), ("f:a\nf:b\ngot x\n".into(), "".into(), 0));
        // 127 as GNU xargs gives (whose message, unlike this one, is
        // "xargs: nosuch: No such file or directory").
        let (out, err, code) = run("echo a | xargs nosuch");
        assert_eq!((out.as_str(), code), ("", 127));
        assert!(err.contains("nosuch"), "{err}");
        // What the command runs cannot change the shell's variables.
        assert_eq!(run("g() { v=set; }; v=old; echo a | xargs g; echo $v"), ("old\n".into(), "".into(), 0));
    }

    #[test]
    fn commands_hit_output_and_time_limits() {
        let limits = Limits { max_output_bytes: 100, ..Limits::default() };
        let (out, _, code, limit, _) = run_with(limits, "yes");
        assert_eq!((out.len(), code, limit), (100, 125, Some(LimitHit::Output)));
        let limits = Limits {
            max_duration: std::time::Duration::from_millis(20),
            max_output_bytes: usize::MAX,
            ..Limits::default()
        };
        let (_, _, code, limit, _) = run_with(limits, "yes > /dev/null");
        assert_eq!((code, limit), (124, Some(LimitHit::WallTime)));
    }

    #[test]
    fn redirected_files_are_written_when_the_command_ends() {
        let (_, _, code, _, storage) = run_with(Limits::default(), "cat f > g; cat f f >> g; cat f nope > h 2>&1");
        assert_eq!(code, 1);
        assert_eq!(storage.read("/g").unwrap(), b"one\ntwo\none\ntwo\none\ntwo\n");
        assert_eq!(storage.read("/h").unwrap(), b"one\ntwo\ncat: nope: No such file or directory\n");
    }
}
