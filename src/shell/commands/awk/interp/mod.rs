//! The awk interpreter: walks the tree the parser built, over records read
//! from the storage (or stdin), writing to the command's streams and to
//! storage files.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use regex::bytes::Regex;
use rustc_hash::FxHashMap;

mod array;
mod builtins;
mod input;
mod output;

use array::*;
use input::*;
use output::*;

use super::ere;
use super::lexer::Builtin;
use super::parser::*;
use super::value::{self, num_to_str, sprintf, Value, MAX_STRING};
use crate::shell::command::{error_reason, Context, EnvChange, Output, ReadFailed, Reader};
use crate::shell::LimitHit;

/// Deepest user-function recursion; past it the program stops with an error.
const MAX_CALL_DEPTH: usize = 64;
/// Deepest evaluation recursion (expression nesting across function
/// calls): keeps the interpreter inside a 2 MiB stack.
const MAX_EVAL_DEPTH: usize = 600;
/// What one user-function call counts for against MAX_EVAL_DEPTH.
const CALL_COST: usize = 4;
/// What one builtin call counts for against MAX_EVAL_DEPTH.
const BUILTIN_COST: usize = 6;
/// Most elements one array may hold, and the highest field number.
const MAX_ELEMENTS: usize = 2_000_000;
const MAX_FIELD: usize = 1_000_000;
/// Output files are written to the storage in chunks of this size.
const FLUSH_AT: usize = 64 << 10;
/// All output files together buffer at most this much (or a quarter of the
/// run's memory budget, if less) before every buffer is written out.
const FLUSH_ALL_AT: usize = 1 << 20;
/// Most output files open at once (`close` frees one), as real awks have a
/// limit (mawk and BWK awk: the process's open files).
const MAX_OPEN_OUTPUTS: usize = 4096;
/// awk's own stdout is buffered as a process's is (mawk's order: what a
/// command started by awk prints comes before what awk printed since the
/// last flush); it is written out at this size, before a command runs,
/// on `fflush()` and at the end.
const STDOUT_BUF: usize = 8 << 10;

/// Why a program stopped early.
#[derive(Debug)]
pub enum Fatal {
    /// A shell limit fired (time, output, cancellation).
    Limit(LimitHit),
    /// A run-time error: the message for stderr (status 2).
    Error(String),
}

impl From<LimitHit> for Fatal {
    fn from(hit: LimitHit) -> Self {
        Fatal::Limit(hit)
    }
}

type R<T> = Result<T, Fatal>;

fn fail<T>(message: impl Into<String>) -> R<T> {
    Err(Fatal::Error(message.into()))
}

type ArrayRc = Rc<RefCell<Array>>;

/// A variable slot.
#[derive(Debug)]
enum Cell {
    Val(Value),
    Arr(ArrayRc),
    /// An untyped argument passed to a function: becomes an array (shared
    /// with the caller) if the function uses it as one.
    Untyped(ArrayRc),
}

enum Place {
    Global(usize),
    Local(usize),
    Field(usize),
    Elem(ArrayRc, Rc<[u8]>),
}

enum Flow {
    Normal,
    Break,
    Continue,
    Next,
    NextFile,
    Exit,
    Return(Value),
}

/// The interpreter state for one run.
pub struct Interp<'p, 'c, 'a> {
    prog: &'p Program,
    ctx: &'c mut Context<'a>,
    globals: Vec<Cell>,
    frames: Vec<Vec<Cell>>,
    record: Record,
    splitter_key: (Vec<u8>, bool),
    splitter: Rc<Splitter>,
    rs_key: Vec<u8>,
    rs: RecordSep,
    /// RS, FS or CONVFMT was assigned: the separators are worked out again.
    seps_changed: bool,
    /// The field splitter must be built again (FS or RS changed).
    splitter_stale: bool,
    range_active: Vec<bool>,
    next_arg: usize,
    used_file: bool,
    main: Option<Source<'a>>,
    inputs: HashMap<Vec<u8>, Source<'a>>,
    commands: HashMap<Vec<u8>, Piped<'a>>,
    outputs: HashMap<Vec<u8>, OutTarget>,
    /// awk's stdout, written out by [`flush_stdout`](Self::flush_stdout).
    stdout_buf: Vec<u8>,
    output_order: Vec<Vec<u8>>,
    /// Bytes waiting in all output files' buffers.
    buffered: usize,
    regex_cache: HashMap<Vec<u8>, Rc<Regex>>,
    /// For each regex literal of the program that is a plain string, a
    /// searcher for it (faster than the regex engine on short records).
    literals: Vec<Option<memchr::memmem::Finder<'static>>>,
    convfmt: Vec<u8>,
    ofmt: Vec<u8>,
    ofs: Vec<u8>,
    ors: Vec<u8>,
    subsep: Vec<u8>,
    seed: f64,
    rand_state: u64,
    pub exit_code: i32,
    ticks: u32,
    depth: usize,
    line_buf: Vec<u8>,
    /// An input file could not be read: exit 2 at the end.
    input_error: bool,
}

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {
    /// A fresh interpreter; `argv` is ARGV (ARGV[0] = "awk"), `assigns` the
    /// `-v` assignments, `env` ENVIRON.
    pub fn new(
        prog: &'p Program,
        ctx: &'c mut Context<'a>,
        argv: &[String],
        env: Vec<(String, String)>,
    ) -> Interp<'p, 'c, 'a> {
        STORED.with(|cell| cell.set((0, ctx.max_memory)));
        let mut globals: Vec<Cell> = prog.globals.iter().map(|_| Cell::Val(Value::Uninit)).collect();
        let num = |n: f64| Cell::Val(Value::Num(n));
        let s = |t: &[u8]| Cell::Val(Value::str(t));
        globals[NR] = num(0.0);
        globals[NF] = num(0.0);
        globals[FNR] = num(0.0);
        globals[FS] = s(b" ");
        globals[OFS] = s(b" ");
        globals[ORS] = s(b"\n");
        globals[RS] = s(b"\n");
        globals[FILENAME] = s(b"");
        globals[SUBSEP] = s(b"\x1c");
        globals[RSTART] = num(0.0);
        globals[RLENGTH] = num(-1.0);
        globals[CONVFMT] = s(b"%.6g");
        globals[OFMT] = s(b"%.6g");
        let mut environ = Array::default();
        for (k, v) in env {
            let _ = environ.set(Rc::from(k.as_bytes()), Value::strnum(v.as_bytes()));
        }
        globals[ENVIRON] = Cell::Arr(Rc::new(RefCell::new(environ)));
        let mut args = Array::default();
        for (i, a) in argv.iter().enumerate() {
            let _ = args.set(Rc::from(i.to_string().as_bytes()), Value::strnum(a.as_bytes()));
        }
        globals[ARGV] = Cell::Arr(Rc::new(RefCell::new(args)));
        globals[ARGC] = num(argv.len() as f64);
        let splitter = Rc::new(Splitter::Space);
        Interp {
            prog,
            ctx,
            globals,
            frames: Vec::new(),
            record: Record {
                text: Vec::new(),
                stale: false,
                split: true,
                materialized: false,
                ranges: Vec::new(),
                vals: Vec::new(),
                splitter: splitter.clone(),
                count: None,
            },
            splitter_key: (b" ".to_vec(), false),
            splitter,
            rs_key: b"\n".to_vec(),
            rs: RecordSep::Byte(b'\n'),
            seps_changed: false,
            splitter_stale: false,
            range_active: vec![false; prog.items.len()],
            next_arg: 1,
            used_file: false,
            main: None,
            inputs: HashMap::new(),
            commands: HashMap::new(),
            outputs: HashMap::new(),
            stdout_buf: Vec::new(),
            output_order: Vec::new(),
            buffered: 0,
            regex_cache: HashMap::new(),
            literals: prog
                .regexes
                .iter()
                .map(|re| literal_of(re.as_str()).map(|text| memchr::memmem::Finder::new(&text).into_owned()))
                .collect(),
            convfmt: b"%.6g".to_vec(),
            ofmt: b"%.6g".to_vec(),
            ofs: b" ".to_vec(),
            ors: b"\n".to_vec(),
            subsep: b"\x1c".to_vec(),
            seed: 0.0,
            rand_state: seed_state(0.0),
            exit_code: 0,
            ticks: 0,
            depth: 0,
            line_buf: Vec::new(),
            input_error: false,
        }
    }

    /// Assigns a global by name (`-v` and operand assignments); the value
    /// is a strnum, escapes already processed by the caller.
    pub fn assign_global(&mut self, name: &str, value: &[u8]) -> R<()> {
        let Some(i) = self.prog.globals.iter().position(|g| g == name) else {
            return Ok(());
        };
        self.set_global(i, Value::strnum(value))
    }

    /// Runs the whole program: BEGIN, the records, END; runs the commands
    /// printed to that are still open (the last opened first, as mawk),
    /// then flushes files and stdout. A limit stops everything at once.
    pub fn run(&mut self) -> R<()> {
        let result = self.run_inner();
        let closed = match &result {
            Err(Fatal::Limit(_)) => Ok(()),
            _ => self.close_commands(),
        };
        let flushed = self.flush_all();
        let written = self.flush_stdout();
        result?;
        closed?;
        flushed?;
        written?;
        if self.input_error && self.exit_code == 0 {
            self.exit_code = 2;
        }
        Ok(())
    }

    fn run_inner(&mut self) -> R<()> {
        let prog = self.prog;
        let mut exiting = false;
        for block in &prog.begin {
            if let Flow::Exit = self.exec_block(block)? {
                exiting = true;
                break;
            }
        }
        if !exiting && (!prog.items.is_empty() || !prog.end.is_empty()) {
            exiting = self.main_loop()?;
        }
        let _ = exiting;
        for block in &prog.end {
            if let Flow::Exit = self.exec_block(block)? {
                break;
            }
        }
        Ok(())
    }

    /// Reads every record and runs the rules; true when `exit` ran.
    fn main_loop(&mut self) -> R<bool> {
        let prog = self.prog;
        while self.read_main_into_record()? {
            self.tick()?;
            'items: for (i, item) in prog.items.iter().enumerate() {
                let selected = match self.selected(i, &item.pattern) {
                    Ok(b) => b,
                    Err(Fatal::Error(m)) if is_marker(&m) => match marker_flow(&m) {
                        Flow::Exit => return Ok(true),
                        Flow::NextFile => {
                            self.main = None;
                            break 'items;
                        }
                        _ => break 'items,
                    },
                    Err(e) => return Err(e),
                };
                if !selected {
                    continue;
                }
                let flow = match &item.action {
                    Some(stmts) => self.exec_block(stmts)?,
                    None => {
                        self.print_record(None)?;
                        Flow::Normal
                    }
                };
                match flow {
                    Flow::Next => break 'items,
                    Flow::NextFile => {
                        self.main = None;
                        break 'items;
                    }
                    Flow::Exit => return Ok(true),
                    _ => {}
                }
            }
        }
        Ok(false)
    }

    fn selected(&mut self, i: usize, pattern: &Pattern) -> R<bool> {
        Ok(match pattern {
            Pattern::All => true,
            Pattern::Expr(e) => self.eval_bool(e)?,
            Pattern::Range(a, b) => {
                if self.range_active[i] {
                    if self.eval_bool(b)? {
                        self.range_active[i] = false;
                    }
                    true
                } else if self.eval_bool(a)? {
                    if !self.eval_bool(b)? {
                        self.range_active[i] = true;
                    }
                    true
                } else {
                    false
                }
            }
        })
    }

    /// The stack guard, asked every eighth level of nesting only (a
    /// thread-local read each time costs more than a small step; eight
    /// levels take a few KiB of the guard's 512 KiB margin). Calls and
    /// builtins, which jump the depth by more than one, ask it always.
    #[inline]
    fn stack_low(&self) -> bool {
        self.depth.is_multiple_of(8) && crate::shell::stack::too_deep()
    }

    fn tick(&mut self) -> R<()> {
        self.ticks = self.ticks.wrapping_add(1);
        // Every 16 steps (a clock read is ~25 ns): a step can be costly (a
        // long concatenation), and a limit must end the run within ~100 ms.
        if self.ticks.is_multiple_of(16) {
            (self.ctx.check)()?;
        }
        Ok(())
    }

    // ---- fields ----

    fn ensure_split(&mut self) {
        let r = &mut self.record;
        if !r.split {
            let splitter = r.splitter.clone();
            splitter.split(&r.text, &mut r.ranges);
            r.split = true;
        }
    }

    fn nf(&mut self) -> usize {
        let r = &mut self.record;
        if r.materialized {
            return r.vals.len();
        }
        if r.split {
            return r.ranges.len();
        }
        // NF alone (`words += NF`): the fields are counted, not split.
        if let Some(n) = r.count {
            return n;
        }
        match r.splitter.count(&r.text) {
            Some(n) => {
                r.count = Some(n);
                n
            }
            None => {
                self.ensure_split();
                self.record.ranges.len()
            }
        }
    }

    fn materialize(&mut self) {
        self.ensure_split();
        let r = &mut self.record;
        if !r.materialized {
            r.vals.clear();
            r.vals.extend(r.ranges.iter().map(|&(s, e)| Value::strnum(&r.text[s..e])));
            r.materialized = true;
        }
    }

    fn rebuild_record(&mut self) {
        if !self.record.stale {
            return;
        }
        let mut text = Vec::with_capacity(self.record.text.len());
        for (i, v) in self.record.vals.iter().enumerate() {
            if i > 0 {
                text.extend_from_slice(&self.ofs);
            }
            match v {
                Value::Uninit => {}
                Value::Num(n) => text.extend_from_slice(&num_to_str(*n, &self.convfmt)),
                Value::Str(s) | Value::StrNum(s) => text.extend_from_slice(s),
            }
        }
        self.record.text = text;
        self.record.stale = false;
    }

    fn field_index(&self, n: f64) -> R<usize> {
        if n < 0.0 || n.is_nan() {
            return fail(format!("trying to access out of range field {}", n as i64));
        }
        if n > MAX_FIELD as f64 {
            return fail(format!("field index {} too large", n as i64));
        }
        Ok(n as usize)
    }

    fn get_field(&mut self, i: usize) -> Value {
        if i == 0 {
            self.rebuild_record();
            return Value::strnum(&self.record.text);
        }
        self.ensure_split();
        let r = &self.record;
        // A field past NF is an empty input string: `$9 == 0` is false.
        if r.materialized {
            r.vals.get(i - 1).cloned().unwrap_or_else(|| Value::strnum(b""))
        } else {
            r.ranges.get(i - 1).map_or_else(|| Value::strnum(b""), |&(s, e)| Value::strnum(&r.text[s..e]))
        }
    }

    fn field_num(&mut self, i: usize) -> f64 {
        if i == 0 {
            self.rebuild_record();
            return value::str_to_num(&self.record.text);
        }
        self.ensure_split();
        let r = &self.record;
        if r.materialized {
            r.vals.get(i - 1).map_or(0.0, Value::num)
        } else {
            r.ranges.get(i - 1).map_or(0.0, |&(s, e)| value::str_to_num(&r.text[s..e]))
        }
    }

    fn set_field(&mut self, i: usize, v: Value) -> R<()> {
        if i == 0 {
            let bytes = self.to_str(&v);
            return self.set_record(&bytes);
        }
        self.materialize();
        let r = &mut self.record;
        if i > r.vals.len() {
            r.vals.resize(i, Value::str(b""));
        }
        r.vals[i - 1] = v;
        r.stale = true;
        Ok(())
    }

    fn set_nf(&mut self, n: f64) -> R<()> {
        let n = self.field_index(n)?;
        self.materialize();
        let r = &mut self.record;
        r.vals.resize(n, Value::str(b""));
        r.stale = true;
        Ok(())
    }

    // ---- variables ----

    fn global_value(&mut self, i: usize) -> Value {
        match self.get_global(i) {
            Ok(v) => v,
            Err(_) => Value::Uninit,
        }
    }

    fn get_global(&mut self, i: usize) -> R<Value> {
        if i == NF {
            return Ok(Value::Num(self.nf() as f64));
        }
        match &self.globals[i] {
            Cell::Val(v) => Ok(v.clone()),
            Cell::Untyped(_) => Ok(Value::Uninit),
            Cell::Arr(_) => fail(format!("attempt to use array `{}' in a scalar context", self.prog.globals[i])),
        }
    }

    fn set_global(&mut self, i: usize, v: Value) -> R<()> {
        if matches!(self.globals[i], Cell::Arr(_)) {
            return fail(format!("attempt to use array `{}' in a scalar context", self.prog.globals[i]));
        }
        match i {
            NF => return self.set_nf(v.num()),
            RS | FS => self.seps_changed = true,
            CONVFMT => {
                self.convfmt = self.to_str(&v).to_vec();
                self.seps_changed = true;
            }
            OFMT => self.ofmt = self.to_str(&v).to_vec(),
            OFS => self.ofs = self.to_str(&v).to_vec(),
            ORS => self.ors = self.to_str(&v).to_vec(),
            SUBSEP => self.subsep = self.to_str(&v).to_vec(),
            _ => {}
        }
        self.globals[i] = Cell::Val(v);
        Ok(())
    }

    fn frame(&mut self) -> R<&mut Vec<Cell>> {
        match self.frames.last_mut() {
            Some(f) => Ok(f),
            None => fail("local variable outside a function"),
        }
    }

    fn get_local(&mut self, i: usize) -> R<Value> {
        match self.frame()?.get(i) {
            Some(Cell::Val(v)) => Ok(v.clone()),
            Some(Cell::Untyped(_)) | None => Ok(Value::Uninit),
            Some(Cell::Arr(_)) => fail("attempt to use array in a scalar context"),
        }
    }

    fn set_local(&mut self, i: usize, v: Value) -> R<()> {
        let frame = self.frame()?;
        match frame.get_mut(i) {
            Some(Cell::Arr(_)) => fail("attempt to use array in a scalar context"),
            Some(cell) => {
                *cell = Cell::Val(v);
                Ok(())
            }
            None => fail("bad local variable"),
        }
    }

    fn array(&mut self, r: ArrayRef) -> R<ArrayRc> {
        let name = match r {
            ArrayRef::Global(i) => self.prog.globals[i].as_str(),
            ArrayRef::Local(_) => "parameter",
        };
        let cell = match r {
            ArrayRef::Global(i) => &mut self.globals[i],
            ArrayRef::Local(i) => match self.frames.last_mut().and_then(|f| f.get_mut(i)) {
                Some(c) => c,
                None => return fail("bad local variable"),
            },
        };
        match cell {
            Cell::Arr(a) => Ok(a.clone()),
            Cell::Untyped(a) => {
                let a = a.clone();
                *cell = Cell::Arr(a.clone());
                Ok(a)
            }
            Cell::Val(Value::Uninit) => {
                let a: ArrayRc = Rc::default();
                *cell = Cell::Arr(a.clone());
                Ok(a)
            }
            Cell::Val(_) => fail(format!("attempt to use scalar `{name}' as an array")),
        }
    }

    fn subscript(&mut self, subs: &[Expr]) -> R<Rc<[u8]>> {
        if let [one] = subs {
            let v = self.eval(one)?;
            return Ok(self.to_str(&v));
        }
        let mut key = Vec::new();
        for (i, e) in subs.iter().enumerate() {
            if i > 0 {
                key.extend_from_slice(&self.subsep);
            }
            let v = self.eval(e)?;
            key.extend_from_slice(&self.to_str(&v));
        }
        Ok(Rc::from(key))
    }

    fn place(&mut self, e: &Expr) -> R<Place> {
        Ok(match e {
            Expr::Var(i) => Place::Global(*i),
            Expr::Local(i) => Place::Local(*i),
            Expr::Field(idx) => {
                let n = self.eval_num(idx)?;
                Place::Field(self.field_index(n)?)
            }
            Expr::Index(r, subs) => {
                let key = self.subscript(subs)?;
                Place::Elem(self.array(*r)?, key)
            }
            Expr::Group(inner) => return self.place(inner),
            _ => return fail("assignment to a non-variable"),
        })
    }

    fn get_place(&mut self, p: &Place) -> R<Value> {
        match p {
            Place::Global(i) => self.get_global(*i),
            Place::Local(i) => self.get_local(*i),
            Place::Field(i) => Ok(self.get_field(*i)),
            Place::Elem(a, k) => {
                if let Some(v) = a.borrow().get(k) {
                    return Ok(v.clone());
                }
                a.borrow_mut().set(k.clone(), Value::Uninit)?;
                Ok(Value::Uninit)
            }
        }
    }

    fn set_place(&mut self, p: &Place, v: Value) -> R<()> {
        match p {
            Place::Global(i) => self.set_global(*i, v),
            Place::Local(i) => self.set_local(*i, v),
            Place::Field(i) => self.set_field(*i, v),
            Place::Elem(a, k) => a.borrow_mut().set(k.clone(), v),
        }
    }

    // ---- conversions ----

    fn to_str(&self, v: &Value) -> Rc<[u8]> {
        match v {
            Value::Uninit => Rc::from(&b""[..]),
            Value::Num(n) => Rc::from(num_to_str(*n, &self.convfmt)),
            Value::Str(s) | Value::StrNum(s) => s.clone(),
        }
    }

    fn push_output(&self, out: &mut Vec<u8>, v: &Value) {
        match v {
            Value::Uninit => {}
            Value::Num(n) => out.extend_from_slice(&num_to_str(*n, &self.ofmt)),
            Value::Str(s) | Value::StrNum(s) => out.extend_from_slice(s),
        }
    }

    fn regex_for(&mut self, e: &Expr) -> R<Rc<Regex>> {
        if let Expr::Regex(i) = e {
            return Ok(Rc::new(self.prog.regexes[*i].clone()));
        }
        let v = self.eval(e)?;
        let s = self.to_str(&v);
        self.dynamic_regex(&s)
    }

    fn dynamic_regex(&mut self, s: &[u8]) -> R<Rc<Regex>> {
        if let Some(re) = self.regex_cache.get(s) {
            return Ok(re.clone());
        }
        let re = Rc::new(ere::compile(s).map_err(Fatal::Error)?);
        if self.regex_cache.len() > 64 {
            self.regex_cache.clear();
        }
        self.regex_cache.insert(s.to_vec(), re.clone());
        Ok(re)
    }

    /// Whether the program's regex `i` matches `s`.
    fn regex_matches(&self, i: usize, s: &[u8]) -> bool {
        match &self.literals[i] {
            Some(finder) => finder.find(s).is_some(),
            None => self.prog.regexes[i].is_match(s),
        }
    }

    fn is_match(&mut self, re: &Expr, s: &[u8]) -> R<bool> {
        if let Expr::Regex(i) = re {
            return Ok(self.regex_matches(*i, s));
        }
        Ok(self.regex_for(re)?.is_match(s))
    }

    // ---- expressions ----

    fn eval_bool(&mut self, e: &Expr) -> R<bool> {
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH || self.stack_low() {
            self.depth -= 1;
            return fail("expressions or function calls nested too deeply");
        }
        let result = self.eval_bool_inner(e);
        self.depth -= 1;
        result
    }

    fn eval_bool_inner(&mut self, e: &Expr) -> R<bool> {
        match e {
            Expr::Regex(i) => {
                self.rebuild_record();
                Ok(self.regex_matches(*i, &self.record.text))
            }
            Expr::Cmp(op, a, b) => self.compare(*op, a, b),
            Expr::Not(inner) => Ok(!self.eval_bool(inner)?),
            Expr::And(a, b) => Ok(self.eval_bool(a)? && self.eval_bool(b)?),
            Expr::Or(a, b) => Ok(self.eval_bool(a)? || self.eval_bool(b)?),
            Expr::Match(negated, a, b) => {
                let v = self.eval(a)?;
                let s = self.to_str(&v);
                Ok(self.is_match(b, &s)? != *negated)
            }
            Expr::Num(n) => Ok(*n != 0.0),
            Expr::Binary(op, a, b) => Ok(self.arith(*op, a, b)? != 0.0),
            Expr::Var(i) if *i != NF => match &self.globals[*i] {
                Cell::Val(v) => Ok(v.truthy()),
                _ => Ok(self.get_global(*i)?.truthy()),
            },
            _ => Ok(self.eval(e)?.truthy()),
        }
    }

    fn eval_num(&mut self, e: &Expr) -> R<f64> {
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH || self.stack_low() {
            self.depth -= 1;
            return fail("expressions or function calls nested too deeply");
        }
        let result = self.eval_num_inner(e);
        self.depth -= 1;
        result
    }

    fn eval_num_inner(&mut self, e: &Expr) -> R<f64> {
        match e {
            Expr::Num(n) => Ok(*n),
            Expr::Var(i) => {
                if *i == NF {
                    return Ok(self.nf() as f64);
                }
                match &self.globals[*i] {
                    Cell::Val(v) => Ok(v.num()),
                    _ => Ok(self.get_global(*i)?.num()),
                }
            }
            // `length` and `length($0)`: the record's length.
            Expr::Builtin(Builtin::Length, args)
                if args.is_empty()
                    || matches!(&args[0], Expr::Field(index) if matches!(**index, Expr::Num(n) if n == 0.0)) =>
            {
                self.rebuild_record();
                Ok(self.record.text.len() as f64)
            }
            Expr::Field(idx) => {
                let n = self.eval_num(idx)?;
                let i = self.field_index(n)?;
                Ok(self.field_num(i))
            }
            Expr::Binary(op, a, b) => self.arith(*op, a, b),
            _ => Ok(self.eval(e)?.num()),
        }
    }

    fn arith(&mut self, op: BinOp, a: &Expr, b: &Expr) -> R<f64> {
        let x = self.eval_num(a)?;
        let y = self.eval_num(b)?;
        apply(op, x, y)
    }

    fn compare(&mut self, op: CmpOp, a: &Expr, b: &Expr) -> R<bool> {
        let x = self.eval(a)?;
        let y = self.eval(b)?;
        Ok(compare_values(op, &x, &y, &self.convfmt))
    }

    fn eval(&mut self, e: &Expr) -> R<Value> {
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH || self.stack_low() {
            self.depth -= 1;
            return fail("expressions or function calls nested too deeply");
        }
        let result = self.eval_inner(e);
        self.depth -= 1;
        result
    }

    // The evaluator recurses through this function: it stays small, and
    // the arms with many locals live in their own (never inlined)
    // functions so each level of recursion costs little stack.
    fn eval_inner(&mut self, e: &Expr) -> R<Value> {
        match e {
            Expr::Num(n) => Ok(Value::Num(*n)),
            Expr::Str(s) => Ok(Value::Str(s.clone())),
            Expr::Group(inner) => self.eval(inner),
            Expr::Var(i) => self.get_global(*i),
            Expr::Local(i) => self.get_local(*i),
            Expr::Field(idx) => self.eval_field(idx),
            Expr::Index(r, subs) => self.eval_index(*r, subs),
            Expr::In(subs, r) => self.eval_in(subs, *r),
            Expr::Regex(_) | Expr::Cmp(..) | Expr::Not(_) | Expr::And(..) | Expr::Or(..) | Expr::Match(..) => {
                Ok(bool_value(self.eval_bool(e)?))
            }
            Expr::Assign(target, value) => self.eval_assign(target, value),
            Expr::AugAssign(op, target, value) => self.eval_aug_assign(*op, target, value),
            Expr::Cond(c, a, b) => {
                if self.eval_bool(c)? {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
            Expr::Neg(inner) => Ok(Value::Num(-self.eval_num(inner)?)),
            Expr::Pos(inner) => Ok(Value::Num(self.eval_num(inner)?)),
            Expr::Binary(op, a, b) => Ok(Value::Num(self.arith(*op, a, b)?)),
            Expr::Concat(a, b) => self.eval_concat(a, b),
            Expr::IncDec { target, delta, post } => self.eval_incdec(target, *delta, *post),
            Expr::Call(f, args) => self.call(*f, args),
            Expr::Builtin(b, args) => self.builtin_counted(*b, args),
            Expr::Getline { var, file } => self.getline(var.as_deref(), file.as_deref()),
            Expr::PipeGetline { cmd, var } => self.pipe_getline(cmd, var.as_deref()),
        }
    }

    #[inline(never)]
    fn eval_field(&mut self, idx: &Expr) -> R<Value> {
        let n = self.eval_num(idx)?;
        let i = self.field_index(n)?;
        Ok(self.get_field(i))
    }

    #[inline(never)]
    fn eval_index(&mut self, r: ArrayRef, subs: &[Expr]) -> R<Value> {
        let key = self.subscript(subs)?;
        let arr = self.array(r)?;
        let found = arr.borrow().get(&key).cloned();
        match found {
            Some(v) => Ok(v),
            None => {
                arr.borrow_mut().set(key, Value::Uninit)?;
                Ok(Value::Uninit)
            }
        }
    }

    #[inline(never)]
    fn eval_in(&mut self, subs: &[Expr], r: ArrayRef) -> R<Value> {
        let key = self.subscript(subs)?;
        let arr = self.array(r)?;
        let found = arr.borrow().contains(&key);
        Ok(bool_value(found))
    }

    #[inline(never)]
    fn eval_assign(&mut self, target: &Expr, value: &Expr) -> R<Value> {
        let v = self.eval(value)?;
        let p = self.place(target)?;
        self.set_place(&p, v.clone())?;
        Ok(v)
    }

    #[inline(never)]
    fn eval_aug_assign(&mut self, op: BinOp, target: &Expr, value: &Expr) -> R<Value> {
        // A plain global (not a special variable) is changed in place.
        if let Expr::Var(i) = *target {
            if i >= SPECIALS.len() {
                let rhs = self.eval_num(value)?;
                if let Cell::Val(v) = &mut self.globals[i] {
                    let new = apply(op, v.num(), rhs)?;
                    *v = Value::Num(new);
                    return Ok(Value::Num(new));
                }
                let new = Value::Num(apply(op, self.get_global(i)?.num(), rhs)?);
                self.set_global(i, new.clone())?;
                return Ok(new);
            }
        }
        // Like gawk: the target's subscript first, then the right side,
        // then the target's current value (`x += x += 2` is 6 for x = 1).
        let p = self.place(target)?;
        let rhs = self.eval_num(value)?;
        let old = self.get_place(&p)?.num();
        let new = Value::Num(apply(op, old, rhs)?);
        self.set_place(&p, new.clone())?;
        Ok(new)
    }

    #[inline(never)]
    fn eval_concat(&mut self, a: &Expr, b: &Expr) -> R<Value> {
        let x = self.eval(a)?;
        let x = self.to_str(&x);
        let y = self.eval(b)?;
        let y = self.to_str(&y);
        if x.len() + y.len() > MAX_STRING {
            return fail("string too long");
        }
        let mut out = Vec::with_capacity(x.len() + y.len());
        out.extend_from_slice(&x);
        out.extend_from_slice(&y);
        Ok(Value::Str(Rc::from(out)))
    }

    #[inline(never)]
    fn eval_incdec(&mut self, target: &Expr, delta: f64, post: bool) -> R<Value> {
        if let Expr::Var(i) = *target {
            if let (true, Cell::Val(v)) = (i >= SPECIALS.len(), &mut self.globals[i]) {
                let old = v.num();
                *v = Value::Num(old + delta);
                return Ok(Value::Num(if post { old } else { old + delta }));
            }
        }
        let p = self.place(target)?;
        let old = self.get_place(&p)?.num();
        let new = old + delta;
        self.set_place(&p, Value::Num(new))?;
        Ok(Value::Num(if post { old } else { new }))
    }

    /// Builtins have large frames: they count for more recursion depth.
    #[inline(never)]
    fn builtin_counted(&mut self, b: Builtin, args: &[Expr]) -> R<Value> {
        self.depth += BUILTIN_COST;
        let result = if self.depth > MAX_EVAL_DEPTH || crate::shell::stack::too_deep() {
            fail("expressions or function calls nested too deeply")
        } else {
            self.builtin(b, args)
        };
        self.depth -= BUILTIN_COST;
        result
    }

    // ---- functions ----

    #[inline(never)]
    fn call(&mut self, index: usize, args: &[Expr]) -> R<Value> {
        let prog = self.prog;
        let func = &prog.functions[index];
        if args.len() > func.nparams {
            return fail(format!("function `{}' called with more arguments than declared", func.name));
        }
        if self.frames.len() >= MAX_CALL_DEPTH {
            return fail(format!("function `{}': recursion too deep (limit {MAX_CALL_DEPTH})", func.name));
        }
        self.tick()?;
        let mut locals = Vec::with_capacity(func.nparams);
        // Untyped variables passed by name: (where, shared array, param).
        let mut bind_back: Vec<(ArrayRef, ArrayRc, usize)> = Vec::new();
        for (pi, arg) in args.iter().enumerate() {
            let by_name = match arg {
                Expr::Var(i) if *i != NF => Some(ArrayRef::Global(*i)),
                Expr::Local(i) => Some(ArrayRef::Local(*i)),
                _ => None,
            };
            let cell = match by_name {
                Some(r) => {
                    let slot = match r {
                        ArrayRef::Global(i) => self.globals.get(i),
                        ArrayRef::Local(i) => self.frames.last().and_then(|f| f.get(i)),
                    };
                    match slot {
                        Some(Cell::Arr(a)) => Cell::Arr(a.clone()),
                        Some(Cell::Untyped(a)) => {
                            bind_back.push((r, a.clone(), pi));
                            Cell::Untyped(a.clone())
                        }
                        Some(Cell::Val(Value::Uninit)) | None => {
                            let a: ArrayRc = Rc::default();
                            bind_back.push((r, a.clone(), pi));
                            Cell::Untyped(a)
                        }
                        Some(Cell::Val(v)) => Cell::Val(v.clone()),
                    }
                }
                None => Cell::Val(self.eval(arg)?),
            };
            locals.push(cell);
        }
        while locals.len() < func.nparams {
            locals.push(Cell::Val(Value::Uninit));
        }
        self.frames.push(locals);
        self.depth += CALL_COST;
        let flow = if self.depth > MAX_EVAL_DEPTH || crate::shell::stack::too_deep() {
            Err(Fatal::Error("expressions or function calls nested too deeply".into()))
        } else {
            self.exec_block(&func.body)
        };
        self.depth -= CALL_COST;
        let frame = self.frames.pop().unwrap_or_default();
        let flow = flow?;
        for (r, a, pi) in bind_back {
            if let Some(Cell::Arr(used)) = frame.get(pi) {
                if Rc::ptr_eq(used, &a) {
                    let slot = match r {
                        ArrayRef::Global(i) => self.globals.get_mut(i),
                        ArrayRef::Local(i) => self.frames.last_mut().and_then(|f| f.get_mut(i)),
                    };
                    if let Some(slot) = slot {
                        if matches!(slot, Cell::Val(Value::Uninit) | Cell::Untyped(_)) {
                            *slot = Cell::Arr(a);
                        }
                    }
                }
            }
        }
        match flow {
            Flow::Return(v) => Ok(v),
            Flow::Exit => Err(Fatal::Error(EXIT_MARKER.into())),
            Flow::Next => Err(Fatal::Error(NEXT_MARKER.into())),
            Flow::NextFile => Err(Fatal::Error(NEXTFILE_MARKER.into())),
            _ => Ok(Value::Uninit),
        }
    }

    // ---- statements ----

    fn exec_block(&mut self, stmts: &[Stmt]) -> R<Flow> {
        for s in stmts {
            let flow = match self.exec(s) {
                Ok(f) => f,
                // `exit`, `next` inside a function unwind as errors to the
                // nearest statement, which turns them back into flow.
                Err(Fatal::Error(m)) if self.frames.is_empty() && is_marker(&m) => marker_flow(&m),
                Err(e) => return Err(e),
            };
            if !matches!(flow, Flow::Normal) {
                return Ok(flow);
            }
        }
        Ok(Flow::Normal)
    }

    fn exec_loop_body(&mut self, body: &Stmt) -> R<Option<Flow>> {
        self.tick()?;
        match self.exec(body)? {
            Flow::Break => Ok(Some(Flow::Normal)),
            Flow::Normal | Flow::Continue => Ok(None),
            other => Ok(Some(other)),
        }
    }

    fn exec(&mut self, s: &Stmt) -> R<Flow> {
        self.depth += 1;
        if self.depth > MAX_EVAL_DEPTH || self.stack_low() {
            self.depth -= 1;
            return fail("expressions or function calls nested too deeply");
        }
        let result = self.exec_inner(s);
        self.depth -= 1;
        result
    }

    // Small on purpose (see eval_inner): heavy arms live out of line.
    fn exec_inner(&mut self, s: &Stmt) -> R<Flow> {
        match s {
            Stmt::Expr(e) => {
                self.eval(e)?;
            }
            Stmt::Print(args, dest) => self.exec_print(args, dest.as_ref())?,
            Stmt::Printf(args, dest) => self.exec_printf(args, dest.as_ref())?,
            Stmt::If(c, then, other) => {
                if self.eval_bool(c)? {
                    return self.exec(then);
                } else if let Some(other) = other {
                    return self.exec(other);
                }
            }
            Stmt::While(..) | Stmt::Do(..) | Stmt::For(..) | Stmt::ForIn(..) => return self.exec_loop(s),
            Stmt::Block(stmts) => return self.exec_block(stmts),
            Stmt::Next => return Ok(Flow::Next),
            Stmt::NextFile => return Ok(Flow::NextFile),
            Stmt::Exit(code) => {
                if let Some(c) = code {
                    self.exit_code = (self.eval_num(c)? as i64 & 0xff) as i32;
                }
                return Ok(Flow::Exit);
            }
            Stmt::Return(v) => {
                let v = match v {
                    Some(e) => self.eval(e)?,
                    None => Value::Uninit,
                };
                return Ok(Flow::Return(v));
            }
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Delete(r, subs) => self.exec_delete(*r, subs.as_deref())?,
        }
        Ok(Flow::Normal)
    }

    #[inline(never)]
    fn exec_print(&mut self, args: &[Expr], dest: Option<&(Redirect, Expr)>) -> R<()> {
        if args.is_empty() {
            return self.print_record(dest);
        }
        let mut line = std::mem::take(&mut self.line_buf);
        line.clear();
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                line.extend_from_slice(&self.ofs);
            }
            if let Err(e) = self.push_arg(&mut line, a) {
                self.line_buf = line;
                return Err(e);
            }
        }
        line.extend_from_slice(&self.ors);
        let result = self.write_to(dest, &line);
        self.line_buf = line;
        result
    }

    /// Appends what `print` shows of `a`: a field straight from the
    /// record, without making a value of it.
    fn push_arg(&mut self, line: &mut Vec<u8>, a: &Expr) -> R<()> {
        if let Expr::Field(idx) = a {
            let n = self.eval_num(idx)?;
            let i = self.field_index(n)?;
            if i == 0 {
                self.rebuild_record();
                line.extend_from_slice(&self.record.text);
                return Ok(());
            }
            self.ensure_split();
            let r = &self.record;
            if !r.materialized {
                if let Some(&(s, e)) = r.ranges.get(i - 1) {
                    line.extend_from_slice(&r.text[s..e]);
                }
                return Ok(());
            }
            if let Some(v) = r.vals.get(i - 1) {
                self.push_output(line, v);
            }
            return Ok(());
        }
        let v = self.eval(a)?;
        self.push_output(line, &v);
        Ok(())
    }

    #[inline(never)]
    fn exec_printf(&mut self, args: &[Expr], dest: Option<&(Redirect, Expr)>) -> R<()> {
        let fmt = self.eval(&args[0])?;
        let fmt = self.to_str(&fmt);
        let mut values = Vec::with_capacity(args.len() - 1);
        for a in &args[1..] {
            values.push(self.eval(a)?);
        }
        let out = sprintf(&fmt, &values, &self.convfmt).map_err(|m| Fatal::Error(format!("printf: {m}")))?;
        self.write_to(dest, &out)
    }

    #[inline(never)]
    fn exec_delete(&mut self, r: ArrayRef, subs: Option<&[Expr]>) -> R<()> {
        let arr = self.array(r)?;
        match subs {
            Some(subs) => {
                let key = self.subscript(subs)?;
                arr.borrow_mut().remove(&key);
            }
            None => arr.borrow_mut().clear(),
        }
        Ok(())
    }

    #[inline(never)]
    fn exec_loop(&mut self, s: &Stmt) -> R<Flow> {
        match s {
            Stmt::While(c, body) => {
                while self.eval_bool(c)? {
                    if let Some(f) = self.exec_loop_body(body)? {
                        return Ok(f);
                    }
                }
            }
            Stmt::Do(body, c) => loop {
                if let Some(f) = self.exec_loop_body(body)? {
                    return Ok(f);
                }
                if !self.eval_bool(c)? {
                    break;
                }
            },
            Stmt::For(init, cond, step, body) => {
                if let Some(init) = init {
                    self.exec(init)?;
                }
                loop {
                    if let Some(c) = cond {
                        if !self.eval_bool(c)? {
                            break;
                        }
                    }
                    if let Some(f) = self.exec_loop_body(body)? {
                        return Ok(f);
                    }
                    if let Some(step) = step {
                        self.exec(step)?;
                    }
                }
            }
            Stmt::ForIn(var, r, body) => {
                let arr = self.array(*r)?;
                let keys = arr.borrow().keys();
                for k in keys {
                    if !arr.borrow().contains(&k) {
                        continue;
                    }
                    let p = self.place(var)?;
                    self.set_place(&p, Value::Str(k))?;
                    if let Some(f) = self.exec_loop_body(body)? {
                        return Ok(f);
                    }
                }
            }
            _ => {}
        }
        Ok(Flow::Normal)
    }
}

const EXIT_MARKER: &str = "\0exit";
const NEXT_MARKER: &str = "\0next";
const NEXTFILE_MARKER: &str = "\0nextfile";

fn is_marker(m: &str) -> bool {
    m == EXIT_MARKER || m == NEXT_MARKER || m == NEXTFILE_MARKER
}

fn marker_flow(m: &str) -> Flow {
    match m {
        EXIT_MARKER => Flow::Exit,
        NEXT_MARKER => Flow::Next,
        _ => Flow::NextFile,
    }
}

/// Whether a run-time error is really `exit`/`next` escaping a function
/// called from a pattern (the caller ends the program or the record).
pub fn marker_kind(f: &Fatal) -> Option<&'static str> {
    match f {
        Fatal::Error(m) if m == EXIT_MARKER => Some("exit"),
        Fatal::Error(m) if m == NEXT_MARKER || m == NEXTFILE_MARKER => Some("next"),
        _ => None,
    }
}

fn seed_state(seed: f64) -> u64 {
    let bits = seed.to_bits() ^ 0x9e37_79b9_7f4a_7c15;
    if bits == 0 {
        1
    } else {
        bits
    }
}

fn bool_value(b: bool) -> Value {
    Value::Num(if b { 1.0 } else { 0.0 })
}

fn apply(op: BinOp, x: f64, y: f64) -> R<f64> {
    Ok(match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => {
            if y == 0.0 {
                return fail("division by zero attempted");
            }
            x / y
        }
        BinOp::Mod => {
            if y == 0.0 {
                return fail("division by zero attempted in `%'");
            }
            // Integers (the usual case, `NR % 2`) without the slow
            // software fmod; the result keeps fmod's sign of zero.
            const EXACT: f64 = (1u64 << 53) as f64;
            if x.abs() < EXACT && y.abs() < EXACT {
                let (a, b) = (x as i64, y as i64);
                if a as f64 == x && b as f64 == y {
                    let r = (a % b) as f64;
                    return Ok(if r == 0.0 && x.is_sign_negative() { -0.0 } else { r });
                }
            }
            x % y
        }
        BinOp::Pow => x.powf(y),
    })
}

fn compare_values(op: CmpOp, x: &Value, y: &Value, convfmt: &[u8]) -> bool {
    if let (Some(a), Some(b)) = (x.as_comparable_num(), y.as_comparable_num()) {
        return match op {
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
        };
    }
    let bytes = |v: &Value| -> Rc<[u8]> {
        match v {
            Value::Uninit => Rc::from(&b""[..]),
            Value::Num(n) => Rc::from(num_to_str(*n, convfmt)),
            Value::Str(s) | Value::StrNum(s) => s.clone(),
        }
    };
    let (a, b) = (bytes(x), bytes(y));
    let ord = a.cmp(&b);
    match op {
        CmpOp::Lt => ord.is_lt(),
        CmpOp::Le => ord.is_le(),
        CmpOp::Gt => ord.is_gt(),
        CmpOp::Ge => ord.is_ge(),
        CmpOp::Eq => ord.is_eq(),
        CmpOp::Ne => ord.is_ne(),
    }
}

/// The bytes a translated regex (`ere::translate`'s output) matches when
/// it is a plain string: letters, digits and `_` as they are, escaped
/// punctuation and `\xHH` bytes; `None` for anything else.
fn literal_of(pattern: &str) -> Option<Vec<u8>> {
    let p = pattern.as_bytes();
    let mut out = Vec::with_capacity(p.len());
    let mut i = 0;
    while i < p.len() {
        let c = p[i];
        if c.is_ascii_alphanumeric() || c == b'_' {
            out.push(c);
            i += 1;
            continue;
        }
        if c != b'\\' {
            return None;
        }
        let e = *p.get(i + 1)?;
        if e == b'x' {
            let hex = std::str::from_utf8(p.get(i + 2..i + 4)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 4;
        } else if e.is_ascii_punctuation() {
            out.push(e);
            i += 2;
        } else {
            return None;
        }
    }
    Some(out)
}

/// `name=value` with a valid awk variable name.
pub fn split_assignment(arg: &[u8]) -> Option<(&str, &[u8])> {
    let eq = arg.iter().position(|&b| b == b'=')?;
    let name = std::str::from_utf8(&arg[..eq]).ok()?;
    let mut chars = name.chars();
    let first = chars.next()?;
    if !(first.is_ascii_alphabetic() || first == '_') || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name, &arg[eq + 1..]))
}
