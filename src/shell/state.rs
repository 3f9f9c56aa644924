//! A session's state: variables (scalars, indexed and associative arrays),
//! functions, positional parameters, options, the working directory. It is
//! cheap to clone (the big maps sit behind `Arc` and are copied on the first
//! write), which is how subshells, pipeline stages and command substitutions
//! get their own copy.

use std::collections::BTreeMap;
use std::sync::Arc;

use brush_parser::ast;
use indexmap::IndexMap;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// A variable's value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Value {
    /// A plain string.
    Str(String),
    /// `a=(x y)`, `a[3]=z`: sparse, indexed from 0.
    Indexed(BTreeMap<i64, String>),
    /// `declare -A m`. Keys keep their insertion order (bash's order is its
    /// hash table's, which no script can rely on).
    Assoc(IndexMap<String, String>),
}

impl Value {
    /// The value as `$v` shows it: a scalar, or element 0 of an array.
    pub(crate) fn scalar(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            Value::Indexed(map) => map.get(&0).map(String::as_str),
            Value::Assoc(map) => map.get("0").map(String::as_str),
        }
    }

    /// Every element, in index order (a scalar is a one-element array; an
    /// associative array's in bash's order, [`bash_order`]).
    pub(crate) fn elements(&self) -> Vec<String> {
        match self {
            Value::Str(s) => vec![s.clone()],
            Value::Indexed(map) => map.values().cloned().collect(),
            Value::Assoc(map) => bash_order(map).into_iter().map(|(_, v)| v.clone()).collect(),
        }
    }

    /// Every key, in order (`${!a[@]}`).
    pub(crate) fn keys(&self) -> Vec<String> {
        match self {
            Value::Str(_) => vec!["0".to_string()],
            Value::Indexed(map) => map.keys().map(i64::to_string).collect(),
            Value::Assoc(map) => bash_order(map).into_iter().map(|(k, _)| k.clone()).collect(),
        }
    }
}

/// An associative array's entries in the order bash lists them: its hash
/// table's, 1024 buckets chosen by the key's 32-bit FNV-1 hash, the newest
/// entry first within a bucket (scripts print `${!m[@]}` and `declare -p`
/// as they come, so the order is part of the output).
pub(crate) fn bash_order(map: &IndexMap<String, String>) -> Vec<(&String, &String)> {
    let bucket = |key: &str| {
        let mut hash: u32 = 2_166_136_261;
        for byte in key.bytes() {
            hash = hash.wrapping_mul(16_777_619) ^ u32::from(byte);
        }
        hash & 1023
    };
    let mut entries: Vec<(u32, usize, (&String, &String))> =
        map.iter().enumerate().map(|(at, (k, v))| (bucket(k), at, (k, v))).collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    entries.into_iter().map(|(_, _, entry)| entry).collect()
}

/// A variable: its value and attributes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Var {
    pub(crate) value: Value,
    pub(crate) exported: bool,
    pub(crate) readonly: bool,
    /// `declare -i`: assignments are evaluated as arithmetic.
    pub(crate) integer: bool,
    /// `declare -u` (1) / `declare -l` (2): assigned values change case.
    pub(crate) case: u8,
    /// `declare -n`: the value is the name of another variable, which every
    /// read and write of this one goes to (bash's namerefs).
    pub(crate) nameref: bool,
}

impl Var {
    /// A plain string variable.
    pub(crate) fn string(value: String) -> Self {
        Var { value: Value::Str(value), exported: false, readonly: false, integer: false, case: 0, nameref: false }
    }

    /// The attribute letters `${v@a}` shows and `declare -p` writes after
    /// a `-`: `a` or `A`, then `i`, `n`, `r`, `x` as they apply.
    pub(crate) fn attribute_letters(&self) -> String {
        let mut letters = String::new();
        match self.value {
            Value::Indexed(_) => letters.push('a'),
            Value::Assoc(_) => letters.push('A'),
            Value::Str(_) => {}
        }
        for (on, letter) in [(self.integer, 'i'), (self.nameref, 'n'), (self.readonly, 'r'), (self.exported, 'x')] {
            if on {
                letters.push(letter);
            }
        }
        letters
    }
}

/// `set` options.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Options {
    pub(crate) errexit: bool,
    pub(crate) nounset: bool,
    pub(crate) pipefail: bool,
    pub(crate) xtrace: bool,
    pub(crate) noglob: bool,
    pub(crate) noclobber: bool,
    /// `shopt -s nullglob`: a glob matching nothing expands to nothing.
    pub(crate) nullglob: bool,
    /// `shopt -s dotglob`: globs match dotfiles too.
    pub(crate) dotglob: bool,
    /// `set -E`: functions, command substitutions and subshells inherit
    /// the `ERR` trap.
    pub(crate) errtrace: bool,
    /// `set -T`: functions inherit the `RETURN` (and `DEBUG`) trap.
    pub(crate) functrace: bool,
    /// `shopt -s lastpipe`: a pipeline's last stage runs in this shell.
    pub(crate) lastpipe: bool,
    /// `shopt -s extglob`: extended patterns (`@(a|b)`…), in the parser
    /// (from the next line on) and in matching.
    pub(crate) extglob: bool,
    /// `shopt -s globstar`: `**` matches zero or more directories.
    pub(crate) globstar: bool,
    /// `shopt -s failglob`: a glob matching nothing is an error.
    pub(crate) failglob: bool,
    /// `shopt -s nocaseglob`: pathname expansion ignores case.
    pub(crate) nocaseglob: bool,
    /// `shopt -s nocasematch`: `case`, `[[ == ]]`, `[[ =~ ]]` and
    /// `${v/p/r}` ignore case.
    pub(crate) nocasematch: bool,
}

impl Options {
    /// `$-`, as bash prints it for `bash -c` (`h` and `B` are always on).
    pub(crate) fn flags(&self) -> String {
        let mut s = String::new();
        if self.errexit {
            s.push('e');
        }
        if self.noglob {
            s.push('f');
        }
        s.push('h');
        if self.nounset {
            s.push('u');
        }
        if self.xtrace {
            s.push('x');
        }
        s.push('B');
        if self.noclobber {
            s.push('C');
        }
        if self.errtrace {
            s.push('E');
        }
        if self.functrace {
            s.push('T');
        }
        s.push('c');
        s
    }
}

/// `trap … DEBUG`'s number (after the 64 signals, as bash orders them).
pub(crate) const DEBUG_TRAP: u32 = 65;
/// `trap … ERR`'s number.
pub(crate) const ERR_TRAP: u32 = 66;
/// `trap … RETURN`'s number.
pub(crate) const RETURN_TRAP: u32 = 67;

/// A trap's name (`INT`, `SIGINT`, `2`, `ERR`…) as bash's number and the
/// name `trap -p` prints; `EXIT` is 0.
pub(crate) fn trap_number(name: &str) -> Option<(u32, String)> {
    const SIGNALS: [&str; 31] = [
        "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2", "PIPE", "ALRM",
        "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG", "XCPU", "XFSZ", "VTALRM", "PROF",
        "WINCH", "IO", "PWR", "SYS",
    ];
    let upper = name.to_ascii_uppercase();
    match upper.as_str() {
        "EXIT" | "0" => return Some((0, "EXIT".to_string())),
        "DEBUG" => return Some((DEBUG_TRAP, upper)),
        "ERR" => return Some((ERR_TRAP, upper)),
        "RETURN" => return Some((RETURN_TRAP, upper)),
        _ => {}
    }
    if let Ok(n) = name.parse::<u32>() {
        return (1..=31).contains(&n).then(|| (n, format!("SIG{}", SIGNALS[n as usize - 1])));
    }
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    SIGNALS.iter().position(|s| *s == bare).map(|i| (i as u32 + 1, format!("SIG{bare}")))
}

/// A function definition, shared by every copy of the state.
pub(crate) type Function = Arc<ast::FunctionBody>;

/// Everything that persists between two runs of a session. A snapshot
/// (`snapshot.rs`) carries every field through serde, the functions as
/// their text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct State {
    pub(crate) cwd: Arc<str>,
    pub(crate) vars: Arc<FxHashMap<String, Var>>,
    #[serde(skip)]
    pub(crate) functions: Arc<FxHashMap<String, Function>>,
    /// `$0`: `bash`, or the name given to `bash -c script name`.
    pub(crate) arg0: Arc<str>,
    /// `$1`, `$2`…
    pub(crate) positional: Arc<Vec<String>>,
    pub(crate) options: Options,
    pub(crate) last_status: i32,
    /// The statuses of the last pipeline's commands (`PIPESTATUS`).
    pub(crate) pipestatus: Vec<i32>,
    /// `trap '…' EXIT`.
    pub(crate) exit_trap: Option<Arc<str>>,
    /// The traps other than `EXIT`, by bash's signal number (`ERR` is
    /// [`ERR_TRAP`], `RETURN` [`RETURN_TRAP`]): the name `trap -p` prints and
    /// the action. Only `ERR` and `RETURN` run; the signals never come.
    pub(crate) traps: BTreeMap<u32, (String, Arc<str>)>,
    /// Inside the `ERR` or `RETURN` trap's action (neither runs again inside).
    pub(crate) in_trap: bool,
    /// While a trap or a command substitution runs, the line `$LINENO` shows
    /// (the line of the command that set it off or holds it).
    pub(crate) trap_line: Option<usize>,
    /// `pushd`'s stack, below the working directory (bash's `DIRSTACK[1..]`).
    pub(crate) dir_stack: Vec<String>,
    /// For each running function, the values its `local`s hid, restored on
    /// return: bash's dynamic scoping.
    pub(crate) locals: Vec<Vec<(String, Option<Var>)>>,
    /// `$!`: the last background job started.
    pub(crate) last_bg: Option<u32>,
}

impl State {
    /// A fresh state: `cwd`, and `env` exported.
    pub(crate) fn new(cwd: &str, env: &[(String, String)]) -> Self {
        let mut vars = FxHashMap::default();
        for (name, value) in env {
            let mut var = Var::string(value.clone());
            var.exported = true;
            vars.insert(name.clone(), var);
        }
        let cwd = crate::storage::normalize(cwd);
        vars.insert("PWD".to_string(), Var { exported: true, ..Var::string(cwd.clone()) });
        vars.entry("IFS".to_string()).or_insert_with(|| Var::string(" \t\n".to_string()));
        // bash starts with OPTIND=1 (getopts reads it).
        vars.entry("OPTIND".to_string()).or_insert_with(|| Var::string("1".to_string()));
        // The bash this shell stands for (scripts test `$BASH_VERSION`).
        vars.insert("BASH".to_string(), Var::string("/bin/bash".to_string()));
        vars.entry("SHELL".to_string()).or_insert_with(|| Var::string("/bin/bash".to_string()));
        vars.insert("BASH_VERSION".to_string(), Var::string("5.2.15(1)-release".to_string()));
        let info = ["5", "2", "15", "1", "release", "x86_64-pc-linux-gnu"];
        let info = info.iter().enumerate().map(|(i, v)| (i as i64, (*v).to_string())).collect();
        vars.insert("BASH_VERSINFO".to_string(), Var { value: Value::Indexed(info), ..Var::string(String::new()) });
        State {
            cwd: cwd.into(),
            vars: Arc::new(vars),
            functions: Arc::new(FxHashMap::default()),
            arg0: Arc::from("bash"),
            positional: Arc::new(Vec::new()),
            options: Options::default(),
            last_status: 0,
            pipestatus: Vec::new(),
            exit_trap: None,
            dir_stack: Vec::new(),
            locals: Vec::new(),
            traps: BTreeMap::new(),
            in_trap: false,
            trap_line: None,
            last_bg: None,
        }
    }

    /// About how many bytes the variables hold (names, values, and 32 per
    /// array element), for the memory budget.
    pub(crate) fn bytes(&self) -> usize {
        self.vars
            .iter()
            .map(|(name, var)| {
                name.len()
                    + match &var.value {
                        Value::Str(s) => s.len(),
                        Value::Indexed(map) => map.values().map(|v| v.len() + 32).sum(),
                        Value::Assoc(map) => map.iter().map(|(k, v)| k.len() + v.len() + 32).sum(),
                    }
            })
            .sum::<usize>()
            + self.positional.iter().map(String::len).sum::<usize>()
    }

    /// The variable a name stands for: itself, or the variable its nameref
    /// chain ends at (`declare -n r=x`: `r` stands for `x`). A chain that
    /// comes back to a name it passed, or is longer than bash's 8 steps, is
    /// `Err` with the name it started from (bash warns `circular name
    /// reference` and treats it as unset).
    pub(crate) fn resolve<'a>(&self, name: &'a str) -> Result<std::borrow::Cow<'a, str>, String> {
        let target = match self.vars.get(name) {
            Some(var) if var.nameref => match &var.value {
                Value::Str(t) if !t.is_empty() => t,
                _ => return Ok(std::borrow::Cow::Borrowed(name)),
            },
            _ => return Ok(std::borrow::Cow::Borrowed(name)),
        };
        let mut current = target.clone();
        for _ in 0..8 {
            if current == name {
                return Err(name.to_string());
            }
            match self.vars.get(current.as_str()) {
                Some(var) if var.nameref => match &var.value {
                    Value::Str(t) if !t.is_empty() => current = t.clone(),
                    _ => return Ok(std::borrow::Cow::Owned(current)),
                },
                _ => return Ok(std::borrow::Cow::Owned(current)),
            }
        }
        Err(name.to_string())
    }

    /// `resolve`, with a circular chain left as the name itself.
    pub(crate) fn resolved<'a>(&self, name: &'a str) -> std::borrow::Cow<'a, str> {
        self.resolve(name).unwrap_or(std::borrow::Cow::Borrowed(name))
    }

    /// A variable, if set.
    pub(crate) fn var(&self, name: &str) -> Option<&Var> {
        match self.vars.get(name) {
            Some(var) if var.nameref => self.resolve(name).ok().and_then(|t| self.vars.get(&*t)),
            other => other,
        }
    }

    /// A variable's scalar value, if set.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.var(name).and_then(|v| v.value.scalar())
    }

    /// Mutable access to the variables (copies the map if a subshell shares it).
    pub(crate) fn vars_mut(&mut self) -> &mut FxHashMap<String, Var> {
        Arc::make_mut(&mut self.vars)
    }

    /// Sets a scalar, keeping the variable's attributes; an array gets its
    /// element 0 set, as bash does.
    pub(crate) fn set_scalar(&mut self, name: &str, value: String) {
        let name = &*self.resolved(name).into_owned();
        let vars = self.vars_mut();
        match vars.get_mut(name) {
            Some(var) => match &mut var.value {
                Value::Str(s) => *s = value,
                Value::Indexed(map) => {
                    map.insert(0, value);
                }
                Value::Assoc(map) => {
                    map.insert("0".to_string(), value);
                }
            },
            None => {
                vars.insert(name.to_string(), Var::string(value));
            }
        }
    }

    /// Removes a variable.
    pub(crate) fn unset(&mut self, name: &str) {
        if self.vars.contains_key(name) {
            self.vars_mut().remove(name);
        }
    }

    /// Makes `name` local to the innermost running function: its current
    /// value is saved (once per function call) and restored on return.
    pub(crate) fn make_local(&mut self, name: &str) -> bool {
        let saved = self.vars.get(name).cloned();
        let Some(frame) = self.locals.last_mut() else { return false };
        if !frame.iter().any(|(n, _)| n == name) {
            frame.push((name.to_string(), saved));
        }
        true
    }

    /// Restores what the innermost function's locals hid.
    pub(crate) fn pop_locals(&mut self) {
        if let Some(frame) = self.locals.pop() {
            for (name, saved) in frame.into_iter().rev() {
                match saved {
                    Some(var) => {
                        self.vars_mut().insert(name, var);
                    }
                    None => self.unset(&name),
                }
            }
        }
    }
}

impl State {
    /// Replaces a variable's value, keeping its attributes.
    pub(crate) fn set_value(&mut self, name: &str, value: Value) {
        let name = &*self.resolved(name).into_owned();
        let vars = self.vars_mut();
        match vars.get_mut(name) {
            Some(var) => var.value = value,
            None => {
                vars.insert(name.to_string(), Var { value, ..Var::string(String::new()) });
            }
        }
    }

    /// A negative index counts from the end of an indexed array.
    pub(crate) fn resolve_index(&self, name: &str, i: i64) -> Option<i64> {
        if i >= 0 {
            return Some(i);
        }
        let len = match self.var(name).map(|v| &v.value) {
            Some(Value::Indexed(map)) => map.keys().next_back().map_or(0, |k| k + 1),
            Some(Value::Str(_)) => 1,
            _ => 0,
        };
        let j = len + i;
        (j >= 0).then_some(j)
    }
}

/// Where the interpreter stands: its nesting, the names of the functions
/// running, the line and the `$RANDOM` state. A subshell that starts on
/// another thread (a pipeline stage, a background job) starts from a copy.
#[derive(Clone)]
pub(crate) struct Position {
    /// Function calls (and `source`/`eval` levels) in progress.
    pub(crate) depth: u32,
    /// Loops the current function body is inside (for `break`/`continue`).
    pub(crate) loops: u32,
    /// Inside a condition (`if`, `while`, `&&`, `!`…): `set -e` is off.
    pub(crate) cond: u32,
    /// Whether a `source`d file is running (`return` is allowed).
    pub(crate) sourcing: u32,
    /// Function calls in progress (bash names them `environment` in messages).
    pub(crate) functions_running: u32,
    /// Redirected or piped commands running: `exec` redirections are
    /// refused inside them.
    pub(crate) scopes: u32,
    /// `FUNCNAME`: the running functions, innermost last.
    pub(crate) function_names: Vec<String>,
    /// Subshells in progress (a fatal error exits them with 1, not 127).
    pub(crate) subshells: u32,
    /// The line of the command being run (for messages and `LINENO`).
    pub(crate) line: usize,
    /// `$RANDOM`'s generator state.
    pub(crate) random: u32,
    /// Command and process substitutions the command runs inside: `set -x`
    /// repeats its `+` once more for each (`++ echo` inside `$(…)`).
    pub(crate) substs: u32,
    /// `$BASH_COMMAND`: the simple command running, kept while a trap is
    /// set (the only time scripts read it) and not updated inside traps.
    pub(crate) command: Option<std::sync::Arc<str>>,
}

impl Default for Position {
    fn default() -> Self {
        Position {
            depth: 0,
            loops: 0,
            cond: 0,
            sourcing: 0,
            functions_running: 0,
            scopes: 0,
            function_names: Vec::new(),
            subshells: 0,
            line: 1,
            random: 0x2545_f491,
            substs: 0,
            command: None,
        }
    }
}
