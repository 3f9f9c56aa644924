//! The layering of docs/ARCHITECTURE.md, checked on the sources: the core
//! uses neither the storage, the shell nor the C layer (nor C types, nor the
//! host); the storage uses neither the shell nor the C layer; the shell uses
//! no C layer and no host; nothing but `src/ffi` uses `src/ffi`.
//!
//! Today's known exceptions are listed in `KNOWN` by file and rule, so any
//! new violation fails; when a known one is gone, the test says so (and
//! still passes), so the list can shrink.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The core's files.
const CORE: &[&str] = &["registry.rs", "tool.rs", "error.rs", "environment.rs", "json.rs", "schema.rs"];

/// What a file may not use: parts of the crate (a `crate::PART` path, also
/// inside `use crate::{…}`), and text that may not appear in its code, in
/// groups.
struct Rule {
    parts: &'static [&'static str],
    tokens: &'static [&'static [&'static str]],
}

/// C types and exports.
const C_TOKENS: &[&str] = &["std::ffi", "c_char", "extern \"C\"", "no_mangle", "libc::"];
/// The C statuses' names.
const STATUS_TOKENS: &[&str] = &["AIKIDO_OK", "AIKIDO_ERR_"];
/// The host: processes, files, network, environment.
const HOST_TOKENS: &[&str] = &["std::process", "std::fs", "std::net", "std::env::"];

const CORE_RULE: Rule = Rule {
    // The dialects and the MCP server are layers above the registry: the
    // registry offers them a neutral per-version slot and knows neither.
    parts: &["storage", "shell", "ffi", "dialect", "mcp"],
    // InvalidStatus and RefusedText: what only a C handler can do wrong.
    tokens: &[&["InvalidStatus", "RefusedText"], &["dialect::"], C_TOKENS, STATUS_TOKENS, HOST_TOKENS],
};
/// `host.rs` is the storage over a real folder: it alone may use the host's
/// files and libc.
const STORAGE_HOST_RULE: Rule =
    Rule { parts: &["shell", "ffi"], tokens: &[&["extern \"C\"", "no_mangle"], STATUS_TOKENS] };
const STORAGE_RULE: Rule = Rule { parts: &["shell", "ffi"], tokens: &[C_TOKENS, STATUS_TOKENS, HOST_TOKENS] };
const SHELL_RULE: Rule = Rule { parts: &["ffi"], tokens: &[C_TOKENS, STATUS_TOKENS, HOST_TOKENS] };
/// The network (`src/net`): the one part that may use the host's network,
/// and nothing else of the host; never the storage, the shell or C.
const NET_RULE: Rule = Rule {
    parts: &["storage", "shell", "ffi"],
    tokens: &[C_TOKENS, STATUS_TOKENS, &["std::process", "std::fs", "std::env::"]],
};
/// What outlives a process (`src/persist`): session snapshots on the host's
/// files, atomically. It may use the host's files (and the process id for
/// a temporary name), never its network or environment, the C layer or the
/// network part.
const PERSIST_RULE: Rule =
    Rule { parts: &["ffi", "net"], tokens: &[C_TOKENS, STATUS_TOKENS, &["std::net", "std::env::"]] };
/// Any module docs/ARCHITECTURE.md does not place yet.
const OTHER_RULE: Rule = Rule { parts: &["ffi"], tokens: &[] };

/// Today's exceptions, (file, the part or token it uses), each described in
/// docs/ARCHITECTURE.md's "Known exceptions". Do not add to this list: fix
/// the layering instead.
const KNOWN: &[(&str, &str)] = &[];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The rule for a file, from its place in `src`.
fn rule_for(relative: &Path) -> Option<&'static Rule> {
    let parts: Vec<&str> = relative.iter().map(|part| part.to_str().unwrap()).collect();
    match parts.as_slice() {
        ["lib.rs"] => None,
        [file] if CORE.contains(file) => Some(&CORE_RULE),
        ["ffi", ..] => None,
        ["storage", "host.rs"] => Some(&STORAGE_HOST_RULE),
        ["storage", ..] => Some(&STORAGE_RULE),
        ["shell", ..] => Some(&SHELL_RULE),
        ["net", ..] => Some(&NET_RULE),
        ["persist", ..] => Some(&PERSIST_RULE),
        _ => Some(&OTHER_RULE),
    }
}

/// The file's code: comments removed, and its unit tests (a `#[cfg(test)]`
/// module at the left margin, by convention the end of the file) left out.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut in_tests = false;
    for (index, line) in text.lines().enumerate() {
        // `#[cfg(test)]`, or a test module under more conditions.
        if line == "#[cfg(test)]" || line.starts_with("#[cfg(all(test,") {
            in_tests = true;
        }
        if in_tests {
            // The module's closing brace, or a module in a file of its own.
            if line.starts_with('}') || (line.starts_with("mod ") && line.ends_with(';')) {
                in_tests = false;
            }
            continue;
        }
        let code = line.split("//").next().unwrap_or("");
        if !code.trim().is_empty() {
            lines.push((index + 1, code.to_owned()));
        }
    }
    lines
}

/// The parts of the crate a line names: `crate::storage::…`, and each of
/// `use crate::{storage::X, shell, Error}`.
fn crate_parts(line: &str) -> BTreeSet<String> {
    let mut parts = BTreeSet::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().last();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // The first name of each item at the group's top level.
            let mut depth = 0;
            let mut item_start = true;
            for (index, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && depth == 0 && (c.is_alphanumeric() || c == '_') => {
                        item_start = false;
                        let item: String =
                            group[index..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        parts.insert(item);
                    }
                    _ => {}
                }
            }
        } else {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            parts.insert(name);
        }
    }
    parts
}

#[test]
fn each_part_uses_only_what_it_may() {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    assert!(files.len() > 20, "found only {} Rust files under src", files.len());

    let mut found: BTreeSet<(String, String)> = BTreeSet::new();
    let mut new_violations = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&root).unwrap();
        let Some(rule) = rule_for(relative) else { continue };
        let name = format!("src/{}", relative.display());
        let text = std::fs::read_to_string(path).unwrap();
        for (number, line) in code_lines(&text) {
            let mut hits: Vec<String> = crate_parts(&line)
                .into_iter()
                .filter(|part| rule.parts.contains(&part.as_str()))
                .map(|part| format!("crate::{part}"))
                .collect();
            hits.extend(
                rule.tokens
                    .iter()
                    .flat_map(|group| group.iter())
                    .filter(|token| line.contains(*token))
                    .map(|token| token.to_string()),
            );
            for hit in hits {
                if KNOWN.contains(&(name.as_str(), hit.as_str())) {
                    found.insert((name.clone(), hit));
                } else {
                    new_violations.push(format!("{name}:{number}: uses {hit}: {}", line.trim()));
                }
            }
        }
    }
    for (file, what) in KNOWN {
        if !found.contains(&(file.to_string(), what.to_string())) {
            println!("note: the known exception ({file}, {what}) no longer occurs: remove it from KNOWN and docs/ARCHITECTURE.md");
        }
    }
    assert!(
        new_violations.is_empty(),
        "a part uses what docs/ARCHITECTURE.md forbids it:\n{}",
        new_violations.join("\n")
    );
}

/// The module a name of the crate root stands for: a module's own name, or
/// the module `src/lib.rs` re-exports it from (`pub use registry::{Registry, …}`).
fn root_names() -> std::collections::BTreeMap<String, String> {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let mut names = std::collections::BTreeMap::new();
    // Every line, not code_lines: lib.rs's `#[cfg(test)]` item would end
    // the code that function reads.
    for line in lib.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if let Some(module) = line.strip_prefix("pub mod ").or_else(|| line.strip_prefix("mod ")) {
            let module = module.trim_end_matches(';').to_owned();
            names.insert(module.clone(), module);
        } else if let Some(rest) = line.strip_prefix("pub use ") {
            let Some((module, items)) = rest.split_once("::") else { continue };
            for item in items.trim_matches(|c| matches!(c, '{' | '}' | ';')).split(',') {
                names.insert(item.trim().to_owned(), module.to_owned());
            }
        }
    }
    names
}

/// The import graph of `src` between the crate's top-level modules (a file
/// beside lib.rs, or a folder): an edge for each `crate::` path one of a
/// module's files names, unit tests left out.
fn module_graph() -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let root = src();
    let names = root_names();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut graph: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for path in files {
        let relative = path.strip_prefix(&root).unwrap();
        let first = relative.iter().next().unwrap().to_str().unwrap();
        let module = first.trim_end_matches(".rs").to_owned();
        // watch.rs is the registry's own signals (`impl Registry` and the
        // watcher list registry.rs holds), kept in a file of its own.
        let module = if module == "watch" { "registry".to_owned() } else { module };
        if module == "lib" || relative.file_name().is_some_and(|name| name == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (_, line) in code_lines(&text) {
            for part in crate_parts(&line) {
                if let Some(target) = names.get(&part).filter(|target| **target != module) {
                    graph.entry(module.clone()).or_default().insert(target.clone());
                }
            }
        }
    }
    graph
}

/// A path of the graph from `from` back to `to`, if there is one.
fn path_back(
    graph: &std::collections::BTreeMap<String, BTreeSet<String>>,
    from: &str,
    to: &str,
    seen: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if !seen.insert(from.to_owned()) {
        return None;
    }
    for next in graph.get(from).into_iter().flatten() {
        if next == to {
            return Some(vec![from.to_owned(), next.clone()]);
        }
        if let Some(mut path) = path_back(graph, next, to, seen) {
            path.insert(0, from.to_owned());
            return Some(path);
        }
    }
    None
}

#[test]
fn no_import_circle_runs_through_the_registry() {
    let graph = module_graph();
    assert!(
        graph.get("dialect").is_some_and(|uses| uses.contains("registry")),
        "the graph misses dialect → registry: {graph:?}"
    );
    assert!(
        graph.get("registry").is_some_and(|uses| uses.contains("json")),
        "the graph misses registry → json: {graph:?}"
    );
    if let Some(circle) = path_back(&graph, "registry", "registry", &mut BTreeSet::new()) {
        panic!("an import circle runs through the registry: {}", circle.join(" → "));
    }
}

#[test]
fn the_checker_sees_what_it_must() {
    // Each form a forbidden use can take is caught.
    assert!(crate_parts("use crate::storage::StorageError;").contains("storage"));
    assert!(crate_parts("    Storage(#[from] crate::storage::StorageError),").contains("storage"));
    let grouped = crate_parts("use crate::{shell::Shell, storage::{self, Storage}, Error};");
    assert!(grouped.contains("shell") && grouped.contains("storage") && grouped.contains("Error"), "{grouped:?}");
    assert!(crate_parts("use aikido_crate::ffi;").is_empty());
    // Comments and unit tests are not code.
    let lines = code_lines(
        "//! see crate::ffi\nfn a() {} // crate::shell\n#[cfg(test)]\nmod tests {\n    use crate::ffi;\n}\nfn b() {}\n",
    );
    let code: Vec<&str> = lines.iter().map(|(_, line)| line.as_str()).collect();
    assert_eq!(code, ["fn a() {} ", "fn b() {}"]);
    // Every file falls under a rule, or is the C layer or lib.rs.
    assert!(std::ptr::eq(rule_for(Path::new("json.rs")).unwrap(), &CORE_RULE));
    assert!(std::ptr::eq(rule_for(Path::new("shell/commands/jq/mod.rs")).unwrap(), &SHELL_RULE));
    assert!(rule_for(Path::new("ffi/storage.rs")).is_none());
    assert!(std::ptr::eq(rule_for(Path::new("net/client.rs")).unwrap(), &NET_RULE));
    assert!(NET_RULE.parts.contains(&"shell") && !NET_RULE.tokens.iter().any(|group| group.contains(&"std::net")));
    assert!(C_TOKENS.iter().chain(HOST_TOKENS).all(|token| CORE_RULE.tokens.iter().any(|group| group.contains(token))));
}

/// The parts of the interpreter (`src/shell/<part>`), which the command
/// table must not name: commands see only their `Context`. (awk has an
/// `Interp` of its own: names are checked as paths, not as words.)
const INTERPRETER: &[&str] = &[
    "exec",
    "builtins",
    "expand",
    "io",
    "jobs",
    "procsub",
    "state",
    "parse",
    "arith",
    "flow",
    "runtime",
    "interp_env",
];

/// What a file of the shell may use of the others, by its place
/// (docs/ARCHITECTURE.md, "The shell's parts"): the shell modules it must
/// not name, the modules it may name only for some items (their interface),
/// and words that may not appear in its code.
struct ShellRule {
    modules: &'static [&'static str],
    only: &'static [(&'static str, &'static [&'static str])],
    words: &'static [&'static str],
}

/// Expansion sees the shell through `expand::ExpandEnv` alone.
const EXPAND_RULE: ShellRule =
    ShellRule { modules: &["exec", "builtins", "io", "jobs", "procsub", "interp_env"], only: &[], words: &["Interp"] };
/// Redirections see the shell through `io::RedirectEnv`, and expansion
/// through its entry points.
const IO_RULE: ShellRule = ShellRule {
    modules: &["exec", "builtins", "jobs", "interp_env"],
    only: &[("expand", &["Expand", "ExpandEnv"])],
    words: &["Interp"],
};
/// The builtins of the shell's state and streams see it through
/// `builtins::BuiltinEnv` (those that drive the interpreter sit in
/// `builtins/flow.rs` and `scripts.rs`, and `mod.rs` holds the table).
const BUILTIN_RULE: ShellRule =
    ShellRule { modules: &["exec", "jobs", "procsub", "interp_env"], only: &[], words: &["Interp"] };
const COMMANDS_RULE: ShellRule = ShellRule { modules: INTERPRETER, only: &[], words: &[] };
const LEAF_RULE: ShellRule = ShellRule {
    modules: &["exec", "builtins", "expand", "io", "jobs", "procsub", "commands", "interp_env", "runtime"],
    only: &[],
    words: &[],
};
/// The run's resources: the job environment they carry, not the interpreter.
const RUNTIME_RULE: ShellRule = ShellRule {
    modules: &["exec", "builtins", "expand", "io", "procsub", "commands", "interp_env"],
    only: &[],
    words: &[],
};

fn shell_rule(parts: &[&str]) -> Option<&'static ShellRule> {
    match parts {
        ["commands", ..] => Some(&COMMANDS_RULE),
        ["expand", ..] | ["arith.rs" | "arith_syntax.rs"] => Some(&EXPAND_RULE),
        ["io.rs"] => Some(&IO_RULE),
        ["builtins", "mod.rs" | "flow.rs" | "scripts.rs"] => None,
        ["builtins", ..] => Some(&BUILTIN_RULE),
        ["runtime.rs"] => Some(&RUNTIME_RULE),
        ["state.rs" | "pattern.rs" | "pipe.rs" | "stack.rs" | "quote.rs" | "parse.rs" | "flow.rs"] => Some(&LEAF_RULE),
        _ => None,
    }
}

/// The items a line names of shell module `name` (`name::X`, `name::{X, Y}`).
fn items_of(line: &str, name: &str) -> BTreeSet<String> {
    let word = |rest: &str| -> String { rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut items = BTreeSet::new();
    let needle = format!("{name}::");
    let mut rest = line;
    while let Some(at) = rest.find(&needle) {
        let before = rest[..at].chars().last();
        rest = &rest[at + needle.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = group.split('}').next().unwrap_or("");
                items.extend(group.split(',').map(|item| word(item.trim())).filter(|item| !item.is_empty()));
            }
            None => {
                items.insert(word(rest));
            }
        }
    }
    items
}

/// Whether `word` appears in `line` as a whole word.
fn has_word(line: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(at, _)| {
        !line[..at].chars().last().is_some_and(is_ident)
            && !line[at + word.len()..].chars().next().is_some_and(is_ident)
    })
}

/// The violations of `rule` on one line of the file at `module`.
fn shell_violations(rule: &ShellRule, module: &[&str], line: &str) -> Vec<String> {
    let mut found = Vec::new();
    for name in shell_modules(module, line) {
        if rule.modules.contains(&name.as_str()) {
            found.push(format!("shell::{name}"));
        }
        if let Some((_, allowed)) = rule.only.iter().find(|(only, _)| *only == name) {
            for item in items_of(line, &name) {
                if !allowed.contains(&item.as_str()) {
                    found.push(format!("shell::{name}::{item} (only {allowed:?})"));
                }
            }
        }
    }
    found.extend(rule.words.iter().filter(|word| has_word(line, word)).map(|word| format!("`{word}`")));
    found
}

/// The modules of `src/shell` a line of the file at `module` (its path
/// below `shell`, `mod.rs` folded into its folder) names: `crate::shell::X`,
/// and `super::…::X` where the supers climb to `shell`.
fn shell_modules(module: &[&str], line: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let word = |rest: &str| -> String { rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut rest = line;
    while let Some(at) = rest.find("crate::shell::") {
        rest = &rest[at + "crate::shell::".len()..];
        found.insert(word(rest));
    }
    let mut rest = line;
    while let Some(at) = rest.find("super::") {
        let before = rest[..at].chars().last();
        let mut tail = &rest[at..];
        let mut climbs = 0;
        while let Some(next) = tail.strip_prefix("super::") {
            climbs += 1;
            tail = next;
        }
        rest = tail;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        // `module` without its own name is the folder it sits in: one climb
        // from `shell/x.rs` (module ["x"]) reaches `shell`.
        if climbs == module.len() {
            match tail.strip_prefix('{') {
                // `super::{a, b::c}`: the first name of each item.
                Some(group) => {
                    let group = group.split('}').next().unwrap_or("");
                    found.extend(group.split(',').map(|item| word(item.trim())));
                }
                None => {
                    found.insert(word(tail));
                }
            }
        }
    }
    found.retain(|name| !name.is_empty());
    found
}

#[test]
fn the_shell_parts_use_only_what_they_may() {
    let root = src().join("shell");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut checked = 0;
    let mut violations = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&root).unwrap();
        let parts: Vec<&str> = relative.iter().map(|part| part.to_str().unwrap()).collect();
        let Some(rule) = shell_rule(&parts) else { continue };
        checked += 1;
        let mut module: Vec<&str> = parts.iter().map(|part| part.trim_end_matches(".rs")).collect();
        if module.last() == Some(&"mod") {
            module.pop();
        }
        let text = std::fs::read_to_string(path).unwrap();
        for (number, line) in code_lines(&text) {
            for what in shell_violations(rule, &module, &line) {
                violations.push(format!("src/shell/{}:{number}: uses {what}: {}", relative.display(), line.trim()));
            }
        }
    }
    assert!(checked > 30, "checked only {checked} files of src/shell");
    assert!(
        violations.is_empty(),
        "a part of the shell uses what docs/ARCHITECTURE.md forbids it:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_shell_checker_sees_what_it_must() {
    let names = |module: &[&str], line: &str| shell_modules(module, line).into_iter().collect::<Vec<_>>();
    assert_eq!(names(&["commands", "grep"], "use crate::shell::exec::Interp;"), ["exec"]);
    assert_eq!(names(&["commands"], "use super::io::Input;"), ["io"]);
    assert_eq!(names(&["commands", "files", "ls"], "use super::super::super::jobs;"), ["jobs"]);
    // `super::` that stays below `shell` names a sibling, not a shell part.
    assert!(names(&["commands", "files", "ls"], "use super::super::calendar::civil;").is_empty());
    assert!(names(&["expand", "param"], "use super::*;").is_empty());
    assert_eq!(names(&["commands"], "use super::{exec::Flow, state};"), ["exec", "state"]);
    assert_eq!(names(&["expand", "param"], "super::super::builtins::attribute_flags(x)"), ["builtins"]);
    assert!(shell_rule(&["commands", "jq", "mod.rs"]).is_some_and(|rule| rule.modules.contains(&"exec")));
    assert!(shell_rule(&["exec.rs"]).is_none());
    // Expansion and arithmetic may not reach the interpreter, by any path.
    let expand = |line: &str| shell_violations(shell_rule(&["expand", "word.rs"]).unwrap(), &["expand", "word"], line);
    let arith = |line: &str| shell_violations(shell_rule(&["arith.rs"]).unwrap(), &["arith"], line);
    assert_eq!(expand("use super::super::exec::Flow;"), ["shell::exec"]);
    assert_eq!(expand("impl Interp<'_> {"), ["`Interp`"]);
    assert_eq!(arith("use super::{builtins, io::Input};"), ["shell::builtins", "shell::io"]);
    assert_eq!(arith("crate::shell::jobs::wait(i, a)"), ["shell::jobs"]);
    assert!(expand("use super::super::flow::Flow; // Interpolation").is_empty());
    assert!(arith("use super::expand::{ExpandEnv, Expander};").is_empty());
    // Redirections use expansion's interface only.
    let io = |line: &str| shell_violations(shell_rule(&["io.rs"]).unwrap(), &["io"], line);
    assert!(io("use super::expand::{Expand, ExpandEnv};").is_empty());
    assert_eq!(
        io("use super::expand::{Expand, Expander};"),
        ["shell::expand::Expander (only [\"Expand\", \"ExpandEnv\"])"]
    );
    assert_eq!(io("let n = super::expand::FAKE_PID;"), ["shell::expand::FAKE_PID (only [\"Expand\", \"ExpandEnv\"])"]);
    assert_eq!(io("fn f(i: &mut super::exec::Interp<'_>) {}"), ["shell::exec", "`Interp`"]);
    // The builtins of state and streams do not take the interpreter.
    let builtin =
        |line: &str| shell_violations(shell_rule(&["builtins", "set.rs"]).unwrap(), &["builtins", "set"], line);
    assert_eq!(builtin("pub(super) fn set(interp: &mut Interp<'_>, argv: &[String]) -> Res {"), ["`Interp`"]);
    assert_eq!(builtin("use super::super::jobs::wait;"), ["shell::jobs"]);
    assert!(builtin("pub(super) fn set<E: BuiltinEnv + ?Sized>(interp: &mut E, argv: &[String]) -> Res {").is_empty());
    assert!(shell_rule(&["builtins", "flow.rs"]).is_none());
}
