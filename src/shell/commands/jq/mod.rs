//! `jq`: the jq 1.7 command line, over jaq (jaq-core's parser, compiler and
//! interpreter, jaq-std's and jaq-json's definitions) as the engine.
//!
//! What is ours rather than jaq's, so that the output is jq's: reading the
//! input (an iterative JSON parser that refuses nesting deeper than
//! [`MAX_DEPTH`], jq's messages and `(at <stdin>:N)` line numbers), printing
//! (jq's indentation, number format and string escapes), `tostring`,
//! `tojson`, `fromjson`, string interpolation, the `@` formats, regular
//! expressions (over the `regex` crate), dates, math, `range`, `repeat`,
//! `recurse`, `while`, `until`, `from_entries`, `walk`, `join`, `env`.
//!
//! Differences from jq 1.7, on purpose or not yet done:
//! - `$ENV` and `env` hold only the shell variables whose names appear in the
//!   filter (the shell cannot list its exported variables to a command).
//! - `localtime`, `strflocaltime` and `mktime` work in UTC; `strftime` and
//!   `strptime` know the common conversions (`%Y %m %d %H %M %S %j %a %b %Z
//!   %z %e %T %D %F %s %%` and a few more), not every one of glibc's.
//! - Input nested deeper than 512 levels is refused (jq allows 10000), and
//!   so is building a value deeper than that (`Exceeds depth limit of 512
//!   building a value`): jaq recurses on the native stack over values.
//! - jaq also recurses on the native stack for each call of a jq function
//!   that is not a tail call: a run may use 1 MiB of stack past where it
//!   began, then fails with `Exceeds the stack budget (recursion too deep)`
//!   (some hundreds of levels in a release build, about 40 in a debug
//!   build), so that `def f: 1 + f; f` cannot overflow the host's stack.
//! - Integer arithmetic is exact past 2^53 (jq rounds to doubles).
//! - `limit` with a negative count gives nothing (jq 1.7 gives everything),
//!   and `?//` (destructuring alternatives) and `$__loc__` are not known.
//! - Error messages follow jq's wording for the common cases (indexing,
//!   iterating, arithmetic, `length`, JSON parse errors); others are jaq's.
//! - Regular expressions are the `regex` crate's syntax, not Oniguruma's
//!   (no look-around, no backreferences).
//! - `--stream`, `--seq`, `-C` (colour), `-L` and modules are not supported.
//! - Invalid JSON input ends the run with `jq: parse error: …` and status 5,
//!   as jq 1.7 does (jq 1.6 used 2 or 4).
//! - Generators (`range`, `repeat`, `recurse`, `while`, `until`, `inputs`)
//!   call the shell's check on every value and stop after 10 million values
//!   (the loop-iteration limit); loops inside jaq (`.[]`, `[…]`, `if`) run
//!   it every 1,024 steps.
//! - No value may hold more than the run's memory budget (see `budget.rs`): `"a" * 1e9`, doubling a string, `[range(1e9)]` end
//!   with the shell's memory limit before the value is built.
//!
//! Files, one part each:
//! - `mod.rs`: the command's entry (`jq_command`, `jq_main`: options,
//!   inputs, compiling the filter), the statuses and limits;
//! - `args.rs`: the command line; `filter.rs`: bounding the filter's nesting,
//!   `$ENV`;
//! - `read.rs`: the JSON reader (jq's messages and line numbers);
//!   `write.rs`: the printer (indentation, numbers, escapes);
//! - `value.rs`: the value model, jaq's `Val` as `V` with jq's update
//!   semantics, arithmetic and the `ValT` interfaces jaq runs over;
//! - `budget.rs`: the memory budget and the shell's check inside jaq's loops;
//! - `engine.rs`: jaq's data type and the run's shared state (`Global`);
//! - `natives.rs`: our jq definitions and native functions; `math.rs`,
//!   `matching.rs` (regexes), `formats.rs` (`@` formats), `time.rs` (dates);
//! - `run.rs`: the run loop, each output printed, each error reported;
//! - `errors.rs`: jq's wording of errors; `tests.rs`.

use std::cell::{Cell, RefCell};
use std::fmt::Write as _;

use jaq_core::box_iter::box_once;
use jaq_core::load::{self, Arena, File, Loader};
use jaq_core::native::{run, v, Fun};
use jaq_core::{Bind, Compiler, Ctx, Cv as JCv, DataT, Exn, ValX, ValXs, Vars};
use jaq_json::{Map, Num, Rc, Val};
use jaq_std::input::{HasInputs, Inputs, RcIter};
use jaq_std::ValT as _;

use crate::shell::command::{CommandFn, Context};
use crate::shell::LimitHit;

pub(super) const COMMANDS: &[(&str, CommandFn)] = &[("jq", jq_command)];

/// The deepest nesting of arrays and objects jq reads or prints.
const MAX_DEPTH: usize = 512;

/// Values the checked generators may produce in one `jq` run.
const GENERATOR_BUDGET: u64 = 10_000_000;

/// Exit statuses, as jq 1.7 uses them.
const STATUS_FALSE: i32 = 1;
const STATUS_USAGE: i32 = 2;
const STATUS_COMPILE: i32 = 3;
const STATUS_NO_OUTPUT: i32 = 4;
const STATUS_RUNTIME: i32 = 5;

/// The halt code a checked generator uses to unwind jaq when a limit hits.
const HALT_LIMIT: i32 = i32::MIN;

mod args;
mod budget;
mod engine;
mod errors;
mod filter;
mod formats;
mod matching;
mod math;
mod natives;
mod read;
mod run;
mod time;
mod value;
mod write;

use args::{parse_args, Options, Parsed, Style};
use budget::*;
use engine::*;
use errors::{compile_report, line_of, load_errors, runtime_error, truncated, type_name};
use filter::{env_object, nesting_bound, rewrite_filter, MAX_FILTER_NESTING};
use matching::regex_run;
use math::*;
use natives::*;
use read::*;
use run::*;
use value::*;
use write::*;

// ---------------------------------------------------------------------------
// The command

/// `jq [OPTIONS] FILTER [FILES...]`.
fn jq_command(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    TOO_DEEP.with(|flag| flag.set(false));
    TOO_BIG.with(|flag| flag.set(None));
    LAST_GROWN.with(|last| last.set([(0, 0, 0); GROWN_SLOTS]));
    MEMORY_BUDGET.with(|budget| budget.set(ctx.max_memory));
    STOPPED.with(|stopped| stopped.set(None));
    let _run_check = install_run_check(ctx.check);
    // jaq is a third-party interpreter: should it panic on some filter, the
    // script gets an error instead of the host losing its thread.
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| jq_main(ctx, args)));
    let result = match run {
        Ok(result) => result,
        Err(_) => {
            ctx.stderr.write_str("jq: error: internal error in the jq engine\n")?;
            Ok(STATUS_RUNTIME)
        }
    };
    // A loop inside jaq ran out of time (or was cancelled): whatever it
    // left unfinished is not shown as a result.
    if let Some(hit) = STOPPED.with(|stopped| stopped.take()) {
        if result.is_ok() {
            return Err(hit);
        }
    }
    // A value that would have passed the memory budget ends the script,
    // whatever caught the error on the way (`try`, `?`, `//`).
    if let Some(what) = TOO_BIG.with(|flag| flag.take()) {
        if !matches!(result, Err(LimitHit::WallTime | LimitHit::Cancelled | LimitHit::Output)) {
            let budget = ctx.max_memory;
            ctx.stderr.write_str(&format!("jq: error: {what} would pass the memory budget of {budget} bytes\n"))?;
            return Err(LimitHit::Memory);
        }
    }
    result
}

fn jq_main(ctx: &mut Context<'_>, args: &[String]) -> Result<i32, LimitHit> {
    let opts = match parse_args(ctx, args)? {
        Parsed::Run(opts) => opts,
        Parsed::Exit(status) => return Ok(status),
    };
    let shown = opts.filter.clone().unwrap_or_else(|| ".".into());
    // jaq's parser, compiler and interpreter recurse once per level of the
    // filter, and none of them bounds it: refuse what could nest deeper
    // than the stack holds before handing it over.
    if nesting_bound(&shown) > MAX_FILTER_NESTING {
        ctx.stderr.write_str(&format!(
            "jq: error: the filter nests too deeply (more than {MAX_FILTER_NESTING} operators and brackets)\n"
        ))?;
        return Ok(STATUS_COMPILE);
    }
    let code = rewrite_filter(&shown);

    // Global variables: $ENV, $__prog_args-free $ARGS, and the named ones.
    let mut named_map = Map::default();
    for (name, value) in &opts.named {
        named_map.insert(str_val(name.clone()), value.clone());
    }
    let mut args_map = Map::default();
    args_map.insert(str_val("positional"), Val::Arr(Rc::new(opts.positional.clone())));
    args_map.insert(str_val("named"), Val::obj(named_map));
    let mut globals: Vec<(String, Val)> =
        vec![("$ENV".into(), env_object(&code, ctx.var)), ("$ARGS".into(), Val::obj(args_map))];
    for (name, value) in &opts.named {
        globals.push((format!("${name}"), value.clone()));
    }

    let prelude = load::parse(PRELUDE, |p| p.defs()).unwrap_or_default();
    let defs = jaq_core::defs().chain(jaq_std::defs()).chain(jaq_json::defs()).chain(prelude);
    let loader = Loader::new(defs);
    let arena = Arena::default();
    let modules = match loader.load(&arena, File { code: code.as_str(), path: () }) {
        Ok(modules) => modules,
        Err(errors) => {
            let errors = load_errors(&code, errors);
            ctx.stderr.write_str(&compile_report(&code, &shown, errors))?;
            return Ok(STATUS_COMPILE);
        }
    };
    let funs = jaq_core::funs::<JqData>()
        .chain(jaq_std::base_funs())
        .chain(jaq_std::input::funs::<JqData>().into_vec().into_iter().map(run::<JqData>))
        .filter(|(name, _, _)| !REPLACED.contains(name))
        .chain(natives());
    let compiler = Compiler::default().with_funs(funs).with_global_vars(globals.iter().map(|(name, _)| name.as_str()));
    let filter = match compiler.compile(modules) {
        Ok(filter) => filter,
        Err(errors) => {
            let mut list = Vec::new();
            for (_file, undefined) in errors {
                for (name, kind) in undefined {
                    let message = match kind {
                        jaq_core::compile::Undefined::Filter(arity) => format!("{name}/{arity} is not defined"),
                        jaq_core::compile::Undefined::Var => {
                            format!("${} is not defined", name.trim_start_matches('$'))
                        }
                        jaq_core::compile::Undefined::Mod => format!("module {name} is not defined"),
                        _ => format!("{name} is not defined"),
                    };
                    list.push((message, line_of(&code, name)));
                }
            }
            ctx.stderr.write_str(&compile_report(&code, &shown, list))?;
            return Ok(STATUS_COMPILE);
        }
    };

    // The input sources; a missing file is reported and skipped.
    let mut status = 0;
    let mut sources = Vec::new();
    if opts.files.is_empty() {
        // `-n` reads stdin only for `input`/`inputs`: as jq, it leaves it to
        // the next reader otherwise.
        let wanted = !opts.null_input || opts.filter.as_deref().is_some_and(|f| f.contains("input"));
        let data = if wanted { ctx.stdin.read_all().unwrap_or_default() } else { Vec::new() };
        sources.push(Source::Named("<stdin>".into(), data));
    }
    for path in &opts.files {
        match ctx.read(path) {
            Ok(bytes) => sources.push(Source::Named(path.clone(), bytes)),
            Err(err) => {
                let reason = crate::shell::command::error_reason(&err);
                ctx.stderr.write_str(&format!("jq: error: Could not open {path}: {reason}\n"))?;
                status = STATUS_USAGE;
            }
        }
    }

    let location = RefCell::new(Location::default());
    let failed = Cell::new(false);
    let limit = Cell::new(None);
    let reader = InputReader {
        sources,
        current: 0,
        pos: 0,
        lines: 0,
        counted: 0,
        raw: opts.raw_input,
        slurp: opts.slurp,
        done: false,
        location: &location,
        check: ctx.check,
        failed: &failed,
        limit: &limit,
    };
    let reader = RcIter::new(reader.map(|item| item.map(V)));
    let inputs: Inputs<V> = &reader;
    let global = Global {
        lut: &filter.lut,
        inputs,
        check: ctx.check,
        budget: Cell::new(GENERATOR_BUDGET),
        limit: &limit,
        stderr: RefCell::new(Vec::new()),
        location: &location,
        regexes: RefCell::new(Vec::new()),
        stack_base: stack_position(),
    };
    let values: Vec<V> = globals.into_iter().map(|(_, value)| V(value)).collect();

    let mut last_output: Option<bool> = None;
    let mut halted = false;
    let mut first = true;
    while !halted {
        let input = if opts.null_input {
            if !first {
                break;
            }
            V(Val::Null)
        } else {
            match { inputs }.next() {
                None => break,
                Some(Ok(value)) => value,
                Some(Err(message)) => {
                    ctx.stderr.write_str(&format!("jq: parse error: {message}\n"))?;
                    status = STATUS_RUNTIME;
                    break;
                }
            }
        };
        first = false;
        let data: &Global = &global;
        let jaq_ctx = Ctx::<JqData>::new(data, Vars::new(values.iter().cloned()));
        let outputs = filter.id.run((jaq_ctx, input));
        let outcome = run_outputs(ctx, &opts, &global, &location, outputs, &mut last_output);
        flush_stderr(ctx, &global)?;
        match outcome? {
            Outcome::Done => {}
            Outcome::Error => status = STATUS_RUNTIME,
            Outcome::Halt(code) => {
                if let Some(hit) = limit.get() {
                    return Err(hit);
                }
                status = code;
                halted = true;
            }
        }
        if let Some(hit) = limit.get() {
            return Err(hit);
        }
        if failed.get() {
            status = STATUS_RUNTIME;
        }
    }
    if let Some(hit) = limit.get() {
        return Err(hit);
    }
    if halted || status != 0 {
        return Ok(status);
    }
    if opts.exit_status {
        return Ok(match last_output {
            None => STATUS_NO_OUTPUT,
            Some(false) => STATUS_FALSE,
            Some(true) => 0,
        });
    }
    Ok(status)
}

#[cfg(test)]
mod tests;
