//! The `bash` tool: the shell as a tool a model calls, one [`Shell`] per
//! agent session.
//!
//! # What the model reads
//!
//! A call's result is plain text in this shape, each part only when it
//! applies except the last line:
//!
//! ```text
//! <stdout, as the script wrote it>
//! [stderr]
//! <stderr, as the script wrote it>
//! [output truncated]
//! [stopped: time limit reached]
//! [exit code: 124]
//! ```
//!
//! - stdout comes first and unlabelled, since it is what the model asked for;
//!   `[stderr]` opens the error output only when there is some; each part
//!   starts on a line of its own (a newline is added after output that does
//!   not end with one).
//! - `[output truncated]` when a stream was cut at the output limit but the
//!   script went on; `[stopped: …]` names the limit that ended the script
//!   (commands, loop iterations, function depth, output, time, cancelled).
//! - `[exit code: N]` always, last. A nonzero exit is still a successful
//!   tool result, not a tool error: the model needs the output to act on it.
//! - Bytes that are not UTF-8 become U+FFFD.
//!
//! Only a call the tool cannot run at all (arguments of the wrong type) is a
//! tool error.
//!
//! # Long results
//!
//! A result longer than [`ShellOptions::max_result_bytes`] (default
//! [`DEFAULT_MAX_RESULT_BYTES`], 30 KiB: a model's context is precious) keeps
//! its head and its tail, each cut at a line end where one is near, around
//! one marked line:
//!
//! ```text
//! [… 812345 bytes (40123 lines) cut here; the whole output is saved in
//!  /tmp/aikido-bash/output-1f2e3d4c-7.txt: read it with sed -n '100,200p' or grep …]
//! ```
//!
//! The whole result text (the same text, uncut) is saved first as that file
//! of the shell's storage ([`OUTPUT_DIR`], one file per cut result, named by
//! the registration and a counter), so the model can page through it with
//! `sed -n`, `grep`, `head` or `tail`. When the storage refuses the file
//! (read-only, full), the marker says so instead. The `[exit code: N]` line
//! is in the tail, so it is always there.

use std::borrow::Cow;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rustc_hash::FxHashMap;

use std::time::Instant;

use super::{LimitHit, RunResult, Shell, ShellOptions};
use crate::schema;
use crate::storage::{MemoryLimits, MemoryStorage, Mounts, Storage};
use crate::tool::{HandlerResult, ToolDefinition, ToolError, ToolResult};
use crate::{Environment, Error, Registry};

/// The name the tool is registered under.
pub const TOOL_NAME: &str = "bash";

/// How many sessions keep a shell at once by default
/// ([`SessionLimits::max_sessions`]).
pub const MAX_SESSIONS: usize = 1024;

/// The most memory all kept shells may hold together by default
/// ([`SessionLimits::max_total_memory_bytes`]): 512 MiB.
pub const DEFAULT_MAX_TOTAL_MEMORY_BYTES: usize = 512 << 20;

/// How long a shell no call used is kept by default
/// ([`SessionLimits::idle_ttl`]): 30 minutes.
pub const DEFAULT_IDLE_TTL: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// The most bytes of cut results one session keeps whole
/// ([`OUTPUT_DIR`]); past it the oldest saved results are removed.
pub const MAX_SAVED_OUTPUT_BYTES: u64 = 16 << 20;

/// How the `bash` tool's table of shells is bounded. A session whose shell
/// was dropped (evicted, idle too long, ended) starts afresh on its next
/// call; its files are in the storage and stay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLimits {
    /// Shells kept at once [`MAX_SESSIONS`]; past it the least recently
    /// used shell no call holds is dropped.
    pub max_sessions: usize,
    /// Bytes all kept shells may hold together (their variables and saved
    /// results) [`DEFAULT_MAX_TOTAL_MEMORY_BYTES`]; after a call pushes the
    /// total past it, the least recently used idle shells are dropped until
    /// it fits (the caller's own last of all).
    pub max_total_memory_bytes: usize,
    /// A shell no call used for this long is dropped [`DEFAULT_IDLE_TTL`].
    pub idle_ttl: std::time::Duration,
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            max_sessions: MAX_SESSIONS,
            max_total_memory_bytes: DEFAULT_MAX_TOTAL_MEMORY_BYTES,
            idle_ttl: DEFAULT_IDLE_TTL,
        }
    }
}

/// The most bytes of a result the model reads by default (see
/// [`ShellOptions::max_result_bytes`]).
pub const DEFAULT_MAX_RESULT_BYTES: usize = 30 << 10;

/// The folder where cut results are saved whole: each session sees its own
/// (a storage in memory mounted there for its shell alone), dropped with
/// the session; nothing is written to the shared storage.
pub const OUTPUT_DIR: &str = "/tmp/aikido-bash";

/// Registers the `bash` tool on `registry`: an in-process bash whose files
/// are the files of `storage`, one shell per [`Environment::session_id`]
/// (created on first use, from `options`). Calls of one session run one at a
/// time, in order; calls of different sessions run in parallel. The call's
/// cancellation token stops a running script.
///
/// Arguments: `command` (the script, required) and `restart` (true: reset
/// the session's shell first; with an empty command, only reset). The
/// result text is described in the [module docs](self). Fails like
/// [`Registry::register`], e.g. when the name `bash` is taken.
pub fn register_shell_tool(registry: &Registry, storage: Arc<dyn Storage>, options: ShellOptions) -> Result<(), Error> {
    register(registry, storage, options, None)
}

fn register(
    registry: &Registry,
    storage: Arc<dyn Storage>,
    options: ShellOptions,
    store: Option<Arc<dyn SessionKeeper>>,
) -> Result<(), Error> {
    let definition = ToolDefinition::new(TOOL_NAME, description(&options)).with_parameters(schema::object(
        [
            ("command", schema::string("The bash script to run: one command, a pipeline, or many lines.")),
            (
                "restart",
                schema::boolean(
                    "Start a fresh shell before running the command: variables, functions and the working \
                     directory are reset; files are kept. With an empty command, only restart. Default false.",
                ),
            ),
        ],
        &["command"],
    ));
    let sessions = Arc::new(SessionTable::with_store(storage, options, store));
    let handler = sessions.clone();
    registry
        .register(definition, move |arguments: &str, environment: &Environment| handler.call(arguments, environment))?;
    let ended = Arc::downgrade(&sessions);
    registry.on_session_end(move |session_id| {
        if let Some(sessions) = ended.upgrade() {
            sessions.end(session_id);
        }
    });
    Ok(())
}

/// [`register_shell_tool`], with every session kept in `store`: saved after
/// each call (atomically: a crash leaves the last finished call's state),
/// restored when the session is next used. The files of the storage, when
/// it keeps them in memory (an overlay), are restored now from the most
/// recently saved session; a file that does not restore (another format
/// version) is left alone and its session starts afresh.
pub fn register_shell_tool_with_store(
    registry: &Registry,
    storage: Arc<dyn Storage>,
    options: ShellOptions,
    store: Arc<dyn SessionKeeper>,
) -> Result<(), Error> {
    if let Some(bytes) = store.newest() {
        let _ = super::snapshot::restore_files(&bytes, storage.as_ref(), &options);
    }
    register(registry, storage, options, Some(store))
}

/// Where the `bash` tool keeps each session between calls and across
/// restarts (`aikido::persist::SessionStore` keeps them in a folder).
pub trait SessionKeeper: Send + Sync {
    /// Saves the session's shell after a call.
    fn save(&self, session_id: &str, shell: &Shell) -> Result<(), String>;
    /// The session's last saved snapshot, if any.
    fn load(&self, session_id: &str) -> Option<Vec<u8>>;
    /// The most recently saved snapshot of any session.
    fn newest(&self) -> Option<Vec<u8>>;
}

/// The tool's description, written for the model.
fn description(options: &ShellOptions) -> String {
    let text = description_offline(options);
    #[cfg(feature = "network")]
    if let Some(policy) = &options.network {
        return text.replacen("there is no network", &network_sentence(policy), 1);
    }
    text
}

/// What the model is told of the network a policy opens.
#[cfg(feature = "network")]
fn network_sentence(policy: &crate::net::NetworkPolicy) -> String {
    let prefixes: Vec<String> = policy.prefixes().iter().map(ToString::to_string).collect();
    format!(
        "the network is reachable only through curl and wget, only for URLs under {} (methods {}; at most {} \
         requests per call, {} bytes per response)",
        prefixes.join(", "),
        policy.methods().join(", "),
        policy.max_requests(),
        policy.max_response_bytes()
    )
}

fn description_offline(options: &ShellOptions) -> String {
    let limits = &options.limits;
    format!(
        "Run a bash script in a sandboxed shell. It is an in-process bash interpreter over a virtual file \
         system (the same files the other file tools see): there is no network and no host program can run; \
         only these commands exist, as well as the shell's builtins (echo, cd, export, read, set, source, test…): {}. \
         They behave as GNU bash and coreutils do in the C locale. The shell keeps its state from one call to \
         the next: working directory, variables, functions; files persist too. The result is stdout, then \
         stderr under a [stderr] line, then [exit code: N]. Each call may run at most {} commands and {} loop \
         iterations, write {} bytes per stream, and take {} seconds; a script stopped by a limit ends with a \
         [stopped: …] line. A result longer than {} bytes is cut in the middle; the whole of it is then saved \
         as a file whose path the cut names, to read with sed -n or grep.",
        super::commands::names().join(", "),
        limits.max_commands,
        limits.max_loop_iterations,
        limits.max_output_bytes,
        limits.max_duration.as_secs_f64(),
        options.max_result_bytes,
    )
}

/// The shells of the sessions, created on first use and bounded by
/// [`SessionLimits`]: at most `max_sessions`, holding at most
/// `max_total_memory_bytes` together, none idle longer than `idle_ttl`.
/// Every caller's session ids land here (MCP sessions, the C ABI's
/// caller-chosen ids), so one bound covers them all.
pub struct SessionTable {
    storage: Arc<dyn Storage>,
    options: ShellOptions,
    shells: Mutex<Table>,
    /// Results saved so far (numbers the files).
    saved: AtomicU64,
    /// Where each session is kept between calls and across restarts.
    store: Option<Arc<dyn SessionKeeper>>,
}

#[derive(Default)]
struct Table {
    by_session: FxHashMap<Box<str>, Entry>,
    /// Counts calls: an entry's `last_used` is the count at its last call.
    clock: u64,
    /// The sum of the entries' `bytes`.
    total_bytes: usize,
}

struct Entry {
    shell: Arc<Mutex<Shell>>,
    /// The session's own folder of saved results, mounted at [`OUTPUT_DIR`].
    outputs: Arc<MemoryStorage>,
    last_used: u64,
    used_at: Instant,
    /// What the shell held after its last call (variables and saved results).
    bytes: usize,
}

impl SessionTable {
    /// An empty table whose shells run over `storage` with `options`.
    pub fn new(storage: Arc<dyn Storage>, options: ShellOptions) -> Self {
        Self::with_store(storage, options, None)
    }

    /// An empty table whose sessions are also kept in `store`, when given.
    fn with_store(storage: Arc<dyn Storage>, options: ShellOptions, store: Option<Arc<dyn SessionKeeper>>) -> Self {
        SessionTable { storage, options, shells: Mutex::new(Table::default()), saved: AtomicU64::new(0), store }
    }

    /// How many shells are kept.
    pub fn len(&self) -> usize {
        self.table().by_session.len()
    }

    /// Whether no shell is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// About how many bytes the kept shells hold together, as measured
    /// after each one's last call.
    pub fn total_bytes(&self) -> usize {
        self.table().total_bytes
    }

    /// Whether the session has a shell.
    pub fn contains(&self, session_id: &str) -> bool {
        self.table().by_session.contains_key(session_id)
    }

    /// Drops the session's shell and its saved results (a running call
    /// finishes on the shell it holds; the next call starts afresh).
    pub fn end(&self, session_id: &str) {
        let mut table = self.table();
        if let Some(entry) = table.by_session.remove(session_id) {
            table.total_bytes -= entry.bytes;
        }
    }

    fn table(&self) -> MutexGuard<'_, Table> {
        // The table only maps names to shells; nothing in it can panic
        // half-way through a change, so a poisoned lock is still consistent.
        self.shells.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs one call of the `bash` tool.
    pub fn call(&self, arguments: &str, environment: &Environment<'_>) -> HandlerResult {
        let arguments =
            Arguments::parse(arguments).map_err(|message| ToolError::failed(format!("{TOOL_NAME}: {message}")))?;
        let (shell, outputs) = self.shell(environment.session_id);
        let mut guard = self.lock(&shell, &outputs);
        if arguments.restart {
            guard.reset();
            if arguments.command.trim().is_empty() {
                let note = match self.keep(environment.session_id, &guard) {
                    Ok(()) => String::new(),
                    Err(problem) => format!("\n[the session could not be saved: {problem}]"),
                };
                drop(guard);
                self.measure(environment.session_id, &shell, &outputs);
                return Ok(ToolResult::new(format!("[shell restarted]\n[exit code: 0]{note}")));
            }
        }
        let result = guard.run(&arguments.command, environment.cancel);
        let kept = self.keep(environment.session_id, &guard);
        drop(guard);
        let mut text = self.fit(&outputs, format_result(&result));
        if let Err(problem) = kept {
            text.push_str(&format!("\n[the session could not be saved: {problem}]"));
        }
        self.measure(environment.session_id, &shell, &outputs);
        Ok(ToolResult::new(text))
    }

    /// The result text as the model reads it: whole when it fits in
    /// `max_result_bytes`, else cut in the middle and saved whole in the
    /// session's own [`OUTPUT_DIR`].
    fn fit(&self, outputs: &MemoryStorage, text: String) -> String {
        let max = self.options.max_result_bytes;
        if text.len() <= max {
            return text;
        }
        let n = self.saved.fetch_add(1, Ordering::Relaxed);
        let name = format!("/output-{n}.txt");
        let path = format!("{OUTPUT_DIR}{name}");
        make_room(outputs, text.len() as u64);
        let saved = outputs.write(&name, text.as_bytes()).map(|()| path.as_str()).map_err(|error| error.to_string());
        cut_middle(&text, max, saved)
    }

    /// Notes what the session's shell holds now, then drops idle shells
    /// while the table holds more than its memory budget.
    fn measure(&self, session_id: &str, shell: &Mutex<Shell>, outputs: &Arc<MemoryStorage>) {
        let shell_bytes = match shell.try_lock() {
            Ok(shell) => shell.memory_bytes(),
            // Another call of the session runs: it measures when it ends.
            Err(_) => return,
        };
        let bytes = shell_bytes + outputs.total_bytes() as usize;
        let mut table = self.table();
        // Unless the session was ended (and maybe begun again) meanwhile.
        if let Some(entry) = table.by_session.get_mut(session_id).filter(|entry| Arc::ptr_eq(&entry.outputs, outputs)) {
            let before = std::mem::replace(&mut entry.bytes, bytes);
            table.total_bytes = table.total_bytes - before + bytes;
        }
        let budget = self.options.sessions.max_total_memory_bytes;
        while table.total_bytes > budget {
            if !evict_least_recent(&mut table, Some(session_id)) && !evict_least_recent(&mut table, None) {
                break;
            }
        }
    }

    /// The session's shell and saved-results folder, made on first use.
    fn shell(&self, session_id: &str) -> (Arc<Mutex<Shell>>, Arc<MemoryStorage>) {
        let limits = &self.options.sessions;
        let mut table = self.table();
        table.clock += 1;
        let now = table.clock;
        expire_idle(&mut table, limits.idle_ttl);
        if let Some(entry) = table.by_session.get_mut(session_id) {
            entry.last_used = now;
            entry.used_at = Instant::now();
            return (entry.shell.clone(), entry.outputs.clone());
        }
        while table.by_session.len() >= limits.max_sessions.max(1) {
            if !evict_least_recent(&mut table, None) {
                break;
            }
        }
        let outputs = Arc::new(MemoryStorage::new(MemoryLimits {
            max_total_bytes: MAX_SAVED_OUTPUT_BYTES,
            max_file_bytes: MAX_SAVED_OUTPUT_BYTES,
            ..MemoryLimits::default()
        }));
        let shell = Arc::new(Mutex::new(self.new_shell(session_id, &outputs)));
        let entry =
            Entry { shell: shell.clone(), outputs: outputs.clone(), last_used: now, used_at: Instant::now(), bytes: 0 };
        table.by_session.insert(session_id.into(), entry);
        (shell, outputs)
    }

    /// The session's shell whose [`OUTPUT_DIR`] is the session's own: the
    /// one saved in the store when there is one that restores, else a
    /// fresh one.
    fn new_shell(&self, session_id: &str, outputs: &Arc<MemoryStorage>) -> Shell {
        let saved =
            self.store.as_ref().and_then(|store| store.load(session_id)).and_then(|bytes| {
                Shell::restore_state(&bytes, self.session_storage(outputs), self.options.clone()).ok()
            });
        saved.unwrap_or_else(|| self.fresh_shell(outputs))
    }

    /// A fresh shell whose [`OUTPUT_DIR`] is the session's own.
    fn fresh_shell(&self, outputs: &Arc<MemoryStorage>) -> Shell {
        Shell::new(self.session_storage(outputs), self.options.clone())
    }

    /// The shared storage with the session's own [`OUTPUT_DIR`] mounted.
    fn session_storage(&self, outputs: &Arc<MemoryStorage>) -> Arc<dyn Storage> {
        Arc::new(Mounts::new(self.storage.clone()).mount(OUTPUT_DIR, outputs.clone()))
    }

    /// Saves the session in the store, when there is one.
    fn keep(&self, session_id: &str, shell: &Shell) -> Result<(), String> {
        match &self.store {
            Some(store) => store.save(session_id, shell),
            None => Ok(()),
        }
    }

    /// Locks a session's shell. A script that panicked leaves its shell in
    /// an unknown state: the session gets a fresh one.
    fn lock<'a>(&self, shell: &'a Mutex<Shell>, outputs: &Arc<MemoryStorage>) -> MutexGuard<'a, Shell> {
        shell.lock().unwrap_or_else(|poisoned| {
            shell.clear_poison();
            let mut guard = poisoned.into_inner();
            *guard = self.fresh_shell(outputs);
            guard
        })
    }
}

/// Removes the oldest saved results until `wanted` more bytes fit.
fn make_room(outputs: &MemoryStorage, wanted: u64) {
    let Ok(mut entries) = outputs.list("/") else { return };
    // Named output-<n>.txt: the smallest n is the oldest.
    entries.sort_by_key(|entry| {
        entry.name.trim_start_matches("output-").trim_end_matches(".txt").parse::<u64>().unwrap_or(0)
    });
    for entry in entries {
        if outputs.total_bytes() + wanted <= MAX_SAVED_OUTPUT_BYTES {
            return;
        }
        let _ = outputs.remove(&format!("/{}", entry.name), false);
    }
}

/// Drops the shells no call used for `ttl`, unless a call holds them.
fn expire_idle(table: &mut Table, ttl: std::time::Duration) {
    let expired: Vec<Box<str>> = table
        .by_session
        .iter()
        .filter(|(_, entry)| entry.used_at.elapsed() >= ttl && Arc::strong_count(&entry.shell) == 1)
        .map(|(session, _)| session.clone())
        .collect();
    for session in expired {
        if let Some(entry) = table.by_session.remove(&session) {
            table.total_bytes -= entry.bytes;
        }
    }
}

/// Drops the least recently used shell that no call holds (other than
/// `spare`'s); false when there is none.
fn evict_least_recent(table: &mut Table, spare: Option<&str>) -> bool {
    let idle = table
        .by_session
        .iter()
        .filter(|(session, entry)| Arc::strong_count(&entry.shell) == 1 && Some(&***session) != spare)
        .min_by_key(|(_, entry)| entry.last_used)
        .map(|(session, _)| session.clone());
    match idle.and_then(|session| table.by_session.remove(&session)) {
        Some(entry) => {
            table.total_bytes -= entry.bytes;
            true
        }
        None => false,
    }
}

/// The text the model reads for one run (see the module docs).
pub fn format_result(result: &RunResult) -> String {
    let mut text = String::with_capacity(result.stdout.len() + result.stderr.len() + 48);
    push_section(&mut text, &result.stdout);
    if !result.stderr.is_empty() {
        text.push_str("[stderr]\n");
        push_section(&mut text, &result.stderr);
    }
    if result.truncated && result.limit != Some(LimitHit::Output) {
        text.push_str("[output truncated]\n");
    }
    if let Some(limit) = result.limit {
        let message = limit.message();
        text.push_str("[stopped: ");
        text.push_str(message.strip_prefix("aikido-shell: ").unwrap_or(message));
        text.push_str("]\n");
    }
    // Writing to a String cannot fail.
    let _ = write!(text, "[exit code: {}]", result.exit_code);
    text
}

/// `text` cut to about `max` bytes: its head and its tail (each ending or
/// starting at a line end when one is in the last quarter of its share),
/// around a line that says how much was cut and where the whole is
/// (`saved`: its path, or why it could not be saved).
pub fn cut_middle(text: &str, max: usize, saved: Result<&str, String>) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let head_share = max / 2;
    let tail_share = max - head_share;
    let mut head_end = floor_char(text, head_share);
    if let Some(at) = text[..head_end].rfind('\n') {
        if at + 1 >= head_end - head_end / 4 {
            head_end = at + 1;
        }
    }
    let mut tail_start = ceil_char(text, text.len() - tail_share).max(head_end);
    let window = (tail_share / 4).min(text.len() - tail_start);
    if tail_start > 0 && text.as_bytes()[tail_start - 1] != b'\n' {
        if let Some(at) = text[tail_start..tail_start + floor_char(&text[tail_start..], window)].find('\n') {
            tail_start += at + 1;
        }
    }
    let cut = &text[head_end..tail_start];
    let lines = cut.matches('\n').count();
    let whole = match saved {
        Ok(path) => {
            format!("the whole output is saved in {path}: read it with sed -n '100,200p' {path}, or grep")
        }
        Err(reason) => format!("the whole output could not be saved ({reason})"),
    };
    let mut out = String::with_capacity(max + 256);
    out.push_str(&text[..head_end]);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "[… {} bytes ({lines} lines) cut here; {whole} …]", cut.len());
    out.push_str(&text[tail_start..]);
    out
}

/// The largest char boundary at or below `at`.
fn floor_char(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The smallest char boundary at or above `at`.
fn ceil_char(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Output as text, bytes that are not UTF-8 replaced, ending with a newline.
fn push_section(text: &mut String, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    text.push_str(&String::from_utf8_lossy(bytes));
    if !text.ends_with('\n') {
        text.push('\n');
    }
}

/// The call's arguments: the registry has already checked that they are one
/// JSON object holding `command`, so this reads the two fields directly,
/// without building a JSON tree.
#[derive(Debug, PartialEq, Eq)]
struct Arguments<'a> {
    command: Cow<'a, str>,
    restart: bool,
}

impl<'a> Arguments<'a> {
    /// Reads `command` (a string, or null or absent for "") and `restart`
    /// (true, false, null or absent). Other fields are ignored; of repeated
    /// fields the last wins, as in the registry's check.
    fn parse(text: &'a str) -> Result<Self, String> {
        let mut scanner = Scanner { text, pos: 0 };
        let mut arguments = Arguments { command: Cow::Borrowed(""), restart: false };
        scanner.expect(b'{')?;
        if scanner.peek() == Some(b'}') {
            return Ok(arguments);
        }
        loop {
            let key = scanner.string()?;
            scanner.expect(b':')?;
            match &*key {
                "command" => match scanner.peek() {
                    Some(b'"') => arguments.command = scanner.string()?,
                    Some(b'n') => {
                        scanner.literal("null")?;
                        arguments.command = Cow::Borrowed("");
                    }
                    _ => return Err("\"command\" must be a string".to_owned()),
                },
                "restart" => {
                    arguments.restart = match scanner.peek() {
                        Some(b't') => scanner.literal("true").map(|()| true)?,
                        Some(b'f') => scanner.literal("false").map(|()| false)?,
                        Some(b'n') => scanner.literal("null").map(|()| false)?,
                        _ => return Err("\"restart\" must be true or false".to_owned()),
                    }
                }
                _ => scanner.skip_value()?,
            }
            match scanner.next() {
                Some(b',') => continue,
                Some(b'}') => return Ok(arguments),
                _ => return Err(scanner.malformed()),
            }
        }
    }
}

/// A reader of JSON text already known to be valid; it still reports
/// anything unexpected rather than trusting that.
struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    fn malformed(&self) -> String {
        format!("the arguments are not a JSON object (at byte {})", self.pos)
    }

    /// The next byte that is not whitespace, left unread.
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while let Some(&byte) = bytes.get(self.pos) {
            if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(byte);
            }
            self.pos += 1;
        }
        None
    }

    /// The next byte that is not whitespace, read.
    fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    fn expect(&mut self, wanted: u8) -> Result<(), String> {
        if self.next() == Some(wanted) {
            Ok(())
        } else {
            Err(self.malformed())
        }
    }

    fn literal(&mut self, word: &str) -> Result<(), String> {
        self.peek();
        if self.text.as_bytes()[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(self.malformed())
        }
    }

    /// A string, decoded; borrowed when it holds no escape.
    fn string(&mut self) -> Result<Cow<'a, str>, String> {
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let end = memchr::memchr2(b'"', b'\\', &bytes[start..])
            .map(|offset| start + offset)
            .ok_or_else(|| self.malformed())?;
        if bytes[end] == b'"' {
            self.pos = end + 1;
            return Ok(Cow::Borrowed(&self.text[start..end]));
        }
        let mut decoded = String::with_capacity(end - start + 16);
        decoded.push_str(&self.text[start..end]);
        self.pos = end;
        loop {
            let rest = &bytes[self.pos..];
            let run = memchr::memchr2(b'"', b'\\', rest).ok_or_else(|| self.malformed())?;
            decoded.push_str(&self.text[self.pos..self.pos + run]);
            self.pos += run + 1;
            if rest[run] == b'"' {
                return Ok(Cow::Owned(decoded));
            }
            let escape = *bytes.get(self.pos).ok_or_else(|| self.malformed())?;
            self.pos += 1;
            match escape {
                b'"' => decoded.push('"'),
                b'\\' => decoded.push('\\'),
                b'/' => decoded.push('/'),
                b'b' => decoded.push('\u{8}'),
                b'f' => decoded.push('\u{c}'),
                b'n' => decoded.push('\n'),
                b'r' => decoded.push('\r'),
                b't' => decoded.push('\t'),
                b'u' => {
                    let unit = self.hex4()?;
                    decoded.push(self.code_point(unit)?);
                }
                _ => return Err(self.malformed()),
            }
        }
    }

    /// The character a `\uXXXX` escape stands for, reading the second half
    /// of a surrogate pair when one follows; a lone surrogate is U+FFFD.
    fn code_point(&mut self, unit: u32) -> Result<char, String> {
        if (0xD800..0xDC00).contains(&unit) && self.text.as_bytes()[self.pos..].starts_with(b"\\u") {
            let saved = self.pos;
            self.pos += 2;
            let low = self.hex4()?;
            if (0xDC00..0xE000).contains(&low) {
                return Ok(char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)).unwrap_or('\u{FFFD}'));
            }
            self.pos = saved;
        }
        Ok(char::from_u32(unit).unwrap_or('\u{FFFD}'))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let digits = self.text.get(self.pos..self.pos + 4).ok_or_else(|| self.malformed())?;
        let unit = u32::from_str_radix(digits, 16).map_err(|_| self.malformed())?;
        self.pos += 4;
        Ok(unit)
    }

    /// Skips one value of any type, nested ones included, without recursion.
    fn skip_value(&mut self) -> Result<(), String> {
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.string()?;
                }
                Some(b'{' | b'[') => {
                    self.pos += 1;
                    depth += 1;
                    continue;
                }
                Some(b'}' | b']') if depth > 0 => {
                    self.pos += 1;
                    depth -= 1;
                }
                Some(b',' | b':') if depth > 0 => {
                    self.pos += 1;
                    continue;
                }
                Some(_) => {
                    // A number or a literal: up to the next delimiter.
                    let bytes = self.text.as_bytes();
                    let start = self.pos;
                    while bytes.get(self.pos).is_some_and(|byte| !b",:]} \t\r\n\"{[".contains(byte)) {
                        self.pos += 1;
                    }
                    if self.pos == start {
                        return Err(self.malformed());
                    }
                }
                None => return Err(self.malformed()),
            }
            if depth == 0 {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::MemoryStorage;
    use crate::{CancelToken, ToolCall};

    #[test]
    fn arguments_are_read_without_a_json_tree() {
        let parse = |text| Arguments::parse(text);
        assert_eq!(parse(r#"{"command":"echo hi"}"#), Ok(Arguments { command: "echo hi".into(), restart: false }));
        assert!(matches!(parse(r#"{"command":"echo hi"}"#).unwrap().command, Cow::Borrowed(_)));
        assert_eq!(
            parse(" {\n \"restart\" : true , \"command\" : \"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00\\ud800x\\/\" } "),
            Ok(Arguments { command: "a\"b\\c\né😀\u{FFFD}x/".into(), restart: true })
        );
        assert_eq!(
            parse(r#"{"x":[1,{"y":"}"},[],-2.5e3,null],"command":"ls","z":{"a":{"b":[true]}},"restart":false}"#),
            Ok(Arguments { command: "ls".into(), restart: false })
        );
        assert_eq!(
            parse(r#"{"command":"a","command":"b","restart":null}"#),
            Ok(Arguments { command: "b".into(), restart: false })
        );
        assert_eq!(parse("{}"), Ok(Arguments { command: "".into(), restart: false }));
        assert_eq!(parse(r#"{"command":null}"#), Ok(Arguments { command: "".into(), restart: false }));
        assert_eq!(parse(r#"{"command":["ls"]}"#), Err("\"command\" must be a string".to_owned()));
        assert_eq!(parse(r#"{"command":"ls","restart":"yes"}"#), Err("\"restart\" must be true or false".to_owned()));
        assert_eq!(parse(r#"{"command":"ls","restart":1}"#), Err("\"restart\" must be true or false".to_owned()));
        // Never trusted blindly: broken text is an error, not a panic.
        for broken in
            ["", "[", "{", "{\"command\"", "{\"command\":\"a", "{\"command\":\"\\u12\"}", "{\"a\":}", "{\"a\":[1,"]
        {
            assert!(parse(broken).is_err(), "{broken:?}");
        }
    }

    fn run(stdout: &str, stderr: &str, exit_code: i32) -> RunResult {
        RunResult { stdout: stdout.into(), stderr: stderr.into(), exit_code, ..RunResult::default() }
    }

    #[test]
    fn results_read_as_stdout_then_stderr_then_the_exit_code() {
        assert_eq!(format_result(&run("", "", 0)), "[exit code: 0]");
        assert_eq!(format_result(&run("hi\n", "", 0)), "hi\n[exit code: 0]");
        assert_eq!(format_result(&run("no newline", "", 1)), "no newline\n[exit code: 1]");
        assert_eq!(
            format_result(&run("", "cat: /x: No such file or directory\n", 1)),
            "[stderr]\ncat: /x: No such file or directory\n[exit code: 1]"
        );
        assert_eq!(format_result(&run("a\n", "b", 2)), "a\n[stderr]\nb\n[exit code: 2]");
        let binary = RunResult { stdout: b"\xff\xfeok\n".to_vec(), ..RunResult::default() };
        assert_eq!(format_result(&binary), "\u{FFFD}\u{FFFD}ok\n[exit code: 0]");
        let stopped = RunResult {
            stdout: b"y\ny\n".to_vec(),
            stderr: LimitHit::Output.message().into(),
            exit_code: 125,
            truncated: true,
            limit: Some(LimitHit::Output),
            ..RunResult::default()
        };
        assert_eq!(
            format_result(&stopped),
            "y\ny\n[stderr]\naikido-shell: output limit reached, output truncated\n\
             [stopped: output limit reached, output truncated]\n[exit code: 125]"
        );
        let timed_out =
            RunResult { exit_code: 124, truncated: true, limit: Some(LimitHit::WallTime), ..run("", "", 0) };
        assert_eq!(format_result(&timed_out), "[output truncated]\n[stopped: time limit reached]\n[exit code: 124]");
    }

    fn setup(options: ShellOptions) -> (Registry, Arc<MemoryStorage>) {
        let storage = Arc::new(MemoryStorage::default());
        let registry = Registry::new();
        register_shell_tool(&registry, storage.clone(), options).unwrap();
        (registry, storage)
    }

    fn call(registry: &Registry, session: &str, arguments: &str) -> Result<String, String> {
        registry
            .dispatch(&ToolCall::new(TOOL_NAME, arguments), &Environment::new(session))
            .map(|result| result.content)
            .map_err(|error| error.to_string())
    }

    #[test]
    fn the_tool_is_described_for_the_model() {
        let (registry, _) = setup(ShellOptions::default());
        let definitions = registry.definitions();
        assert_eq!(definitions.len(), 1);
        let definition = &definitions[0];
        assert_eq!(definition.name, "bash");
        let names = super::super::commands::names();
        let fixed = ["virtual file system", "no network", "[exit code: N]", "100000 commands"];
        for fragment in fixed.into_iter().chain(names) {
            assert!(definition.description.contains(fragment), "{fragment}: {}", definition.description);
        }
        assert_eq!(
            definition.parameters.as_deref().unwrap(),
            r#"{"properties":{"command":{"description":"The bash script to run: one command, a pipeline, or many lines.","type":"string"},"restart":{"description":"Start a fresh shell before running the command: variables, functions and the working directory are reset; files are kept. With an empty command, only restart. Default false.","type":"boolean"}},"required":["command"],"type":"object"}"#
        );
        assert!(call(&registry, "s", "{}").unwrap_err().contains("missing required field \"command\""));
        assert_eq!(call(&registry, "s", r#"{"command":1}"#).unwrap_err(), "bash: \"command\" must be a string");
        let taken = register_shell_tool(&registry, Arc::new(MemoryStorage::default()), ShellOptions::default());
        assert!(matches!(taken, Err(Error::DuplicateTool { .. })), "{taken:?}");
    }

    #[test]
    fn scripts_run_over_the_storage_and_state_persists_per_session() {
        let (registry, storage) = setup(ShellOptions::default());
        assert_eq!(call(&registry, "a", r#"{"command":"echo hi > f; cat f"}"#).unwrap(), "hi\n[exit code: 0]");
        assert_eq!(storage.read("/f").unwrap(), b"hi\n");
        assert_eq!(
            call(&registry, "a", r#"{"command":"mkdir /d; cd /d; X=1; f() { echo f$X; }"}"#).unwrap(),
            "[exit code: 0]"
        );
        assert_eq!(call(&registry, "a", r#"{"command":"pwd; f"}"#).unwrap(), "/d\nf1\n[exit code: 0]");
        // Another session shares the files, not the shell.
        assert_eq!(
            call(&registry, "b", r#"{"command":"pwd; echo ${X:-unset}; cat /f"}"#).unwrap(),
            "/\nunset\nhi\n[exit code: 0]"
        );
        // A failing command is a result the model reads, not a tool error.
        assert_eq!(
            call(&registry, "a", r#"{"command":"cat /missing; echo after >&2; exit 3"}"#).unwrap(),
            "[stderr]\ncat: /missing: No such file or directory\nafter\n[exit code: 3]"
        );
        // Restart: the session's state goes, the files stay.
        assert_eq!(
            call(&registry, "a", r#"{"command":"","restart":true}"#).unwrap(),
            "[shell restarted]\n[exit code: 0]"
        );
        assert_eq!(call(&registry, "a", r#"{"command":"pwd; echo ${X:-unset}"}"#).unwrap(), "/\nunset\n[exit code: 0]");
        call(&registry, "a", r#"{"command":"cd /d"}"#).unwrap();
        assert_eq!(
            call(&registry, "a", r#"{"command":"pwd; cat /f","restart":true}"#).unwrap(),
            "/\nhi\n[exit code: 0]"
        );
    }

    #[test]
    fn limits_and_cancellation_stop_a_script_with_a_named_line() {
        let mut options = ShellOptions::default();
        options.limits.max_loop_iterations = 50;
        options.limits.max_output_bytes = 64;
        let (registry, _) = setup(options);
        let looped = call(&registry, "a", r#"{"command":"while true; do :; done"}"#).unwrap();
        assert!(looped.ends_with("[stopped: loop iteration limit reached]\n[exit code: 125]"), "{looped}");
        let flooded =
            call(&registry, "a", r#"{"command":"for i in 1 2 3 4 5 6 7 8 9; do echo 0123456789; done"}"#).unwrap();
        assert!(flooded.starts_with("0123456789\n"), "{flooded}");
        assert!(flooded.ends_with("[stopped: output limit reached, output truncated]\n[exit code: 125]"), "{flooded}");

        let cancel = CancelToken::new();
        let environment = Environment { cancel: Some(&cancel), ..Environment::new("a") };
        // Only the token can stop this loop.
        let mut options = ShellOptions::default();
        options.limits.max_commands = u64::MAX;
        options.limits.max_loop_iterations = u64::MAX;
        let (registry, _) = setup(options);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                cancel.fire();
            });
            let result =
                registry.dispatch(&ToolCall::new(TOOL_NAME, r#"{"command":"while true; do :; done"}"#), &environment);
            let text = result.unwrap().content;
            assert!(text.ends_with("[stopped: cancelled]\n[exit code: 130]"), "{text}");
        });
    }

    #[test]
    fn sessions_past_the_cap_drop_the_least_recently_used_shell() {
        let (registry, _) = setup(ShellOptions::default());
        call(&registry, "first", r#"{"command":"X=kept"}"#).unwrap();
        call(&registry, "second", r#"{"command":"X=dropped"}"#).unwrap();
        for index in 0..MAX_SESSIONS - 2 {
            call(&registry, &format!("s{index}"), r#"{"command":":"}"#).unwrap();
        }
        // "first" is used again, so "second" is the oldest when one more comes.
        call(&registry, "first", r#"{"command":":"}"#).unwrap();
        call(&registry, "one-more", r#"{"command":":"}"#).unwrap();
        assert_eq!(call(&registry, "first", r#"{"command":"echo $X"}"#).unwrap(), "kept\n[exit code: 0]");
        assert_eq!(call(&registry, "second", r#"{"command":"echo ${X:-fresh}"}"#).unwrap(), "fresh\n[exit code: 0]");
    }

    #[test]
    fn shells_are_kept_per_session_and_evicted_least_recent_first() {
        let sessions = SessionTable::new(Arc::new(MemoryStorage::default()), ShellOptions::default());
        let held = sessions.shell("b");
        let a = sessions.shell("a");
        assert!(Arc::ptr_eq(&a.0, &sessions.shell("a").0));
        assert!(!Arc::ptr_eq(&a.0, &held.0));
        drop(a);
        for index in 0..MAX_SESSIONS - 2 {
            sessions.shell(&format!("s{index}"));
        }
        sessions.shell("new");
        assert_eq!(sessions.len(), MAX_SESSIONS);
        // "a" was the oldest; "b" is older still but a call holds it.
        assert!(!sessions.contains("a"));
        assert!(sessions.contains("b"));
        drop(held);
    }

    #[test]
    fn the_table_keeps_its_memory_budget_and_drops_idle_and_ended_shells() {
        let mut options = ShellOptions::default();
        options.sessions.max_total_memory_bytes = 3 << 20;
        let storage = Arc::new(MemoryStorage::default());
        let sessions = SessionTable::new(storage, options);
        let run = |session: &str, command: &str| {
            let arguments = format!("{{\"command\":{}}}", serde_json::to_string(command).unwrap());
            sessions.call(&arguments, &Environment::new(session)).unwrap().content
        };
        // Each session keeps about 1 MiB; the budget holds three.
        for index in 0..6 {
            let text = run(&format!("s{index}"), "x=$(printf '%1000000s' ''); echo ${#x}");
            assert_eq!(text, "1000000\n[exit code: 0]");
            assert!(sessions.total_bytes() <= 3 << 20, "{}", sessions.total_bytes());
        }
        assert!(sessions.len() <= 3, "{}", sessions.len());
        // The most recent session kept its value; the oldest starts afresh.
        assert_eq!(run("s5", "echo ${#x}"), "1000000\n[exit code: 0]");
        assert_eq!(run("s0", "echo ${#x}"), "0\n[exit code: 0]");
        // Ending a session drops its shell and what it held.
        let before = sessions.total_bytes();
        sessions.end("s5");
        assert!(!sessions.contains("s5"));
        assert!(sessions.total_bytes() < before);
        assert_eq!(run("s5", "echo ${#x}"), "0\n[exit code: 0]");
        // Idle past the time-to-live: dropped at the next call of anyone.
        let mut options = ShellOptions::default();
        options.sessions.idle_ttl = std::time::Duration::from_millis(50);
        let sessions = SessionTable::new(Arc::new(MemoryStorage::default()), options);
        sessions.call(r#"{"command":"X=1"}"#, &Environment::new("idle")).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(80));
        sessions.call(r#"{"command":":"}"#, &Environment::new("other")).unwrap();
        assert!(!sessions.contains("idle"));
        assert_eq!(sessions.len(), 1);
    }

    #[test]
    fn a_registry_session_end_drops_the_shell() {
        let (registry, _) = setup(ShellOptions::default());
        call(&registry, "gone", r#"{"command":"X=kept"}"#).unwrap();
        assert_eq!(call(&registry, "gone", r#"{"command":"echo $X"}"#).unwrap(), "kept\n[exit code: 0]");
        registry.end_session("gone");
        assert_eq!(call(&registry, "gone", r#"{"command":"echo ${X:-fresh}"}"#).unwrap(), "fresh\n[exit code: 0]");
    }

    #[test]
    fn a_long_result_keeps_head_and_tail_and_is_saved_whole() {
        let options = ShellOptions { max_result_bytes: 2000, ..ShellOptions::default() };
        let (registry, storage) = setup(options);
        let text = call(&registry, "s", r#"{"command":"seq 1 100000"}"#).unwrap();
        assert!(text.len() < 2300, "{}", text.len());
        assert!(text.starts_with("1\n2\n3\n"), "{text}");
        assert!(text.ends_with("99999\n100000\n[exit code: 0]"), "{text}");
        let marker = text.lines().find(|line| line.starts_with("[… ")).unwrap();
        let path = marker.split("saved in ").nth(1).unwrap().split(':').next().unwrap();
        assert!(path.starts_with("/tmp/aikido-bash/output-"), "{marker}");
        // Saved in the session's own folder: never in the shared storage,
        // never seen by another session.
        assert!(storage.read(path).is_err());
        let whole = call(&registry, "s", &format!(r#"{{"command":"cat {path}"}}"#)).unwrap();
        let expected: String = (1..=100_000).map(|n| format!("{n}\n")).collect::<String>() + "[exit code: 0]";
        assert!(whole.contains("saved in"), "the cat of the whole is cut again");
        let other = call(&registry, "other", &format!(r#"{{"command":"cat {path}"}}"#)).unwrap();
        assert!(other.contains("No such file or directory"), "{other}");
        let counted = call(&registry, "s", &format!(r#"{{"command":"wc -c < {path}"}}"#)).unwrap();
        assert_eq!(counted, format!("{}\n[exit code: 0]", expected.len()));
        // Every line of the result is a whole line of the output or the marker.
        for line in text.lines().filter(|line| !line.starts_with('[')) {
            assert!(line.parse::<u32>().is_ok(), "{line:?}");
        }
        // The model can page through it with the shell itself.
        let page = call(&registry, "s", &format!(r#"{{"command":"sed -n '500,502p' {path}"}}"#)).unwrap();
        assert_eq!(page, "500\n501\n502\n[exit code: 0]");
        // A short result is left alone.
        assert_eq!(call(&registry, "s", r#"{"command":"echo hi"}"#).unwrap(), "hi\n[exit code: 0]");
    }

    #[test]
    fn a_cut_says_when_the_whole_could_not_be_saved() {
        let text: String = (0..1000).map(|n| format!("line {n}\n")).collect();
        let cut = cut_middle(&text, 200, Err("read-only".into()));
        assert!(cut.starts_with("line 0\n") && cut.ends_with("line 999\n"), "{cut}");
        assert!(cut.contains("could not be saved (read-only)"), "{cut}");
        // Multi-byte characters are never split.
        let wide = "é".repeat(1000);
        let cut = cut_middle(&wide, 101, Ok("/p"));
        assert!(cut.contains("/p") && cut.len() < 400);
    }
}
