//! Runs a script in the virtual bash, over an in-memory copy of a folder.
//!
//! ```text
//! cargo run --release --example shell -- [--restore FILE] [--seed DIR] [--save FILE] [--dump OUT]
//!     [--allow-url PREFIX]... [--allow-address CIDR]... --script FILE
//! ```
//!
//! FILE runs as `bash -c` would, with the working directory at the root of
//! an in-memory storage holding a copy of DIR's tree (empty without
//! `--seed`). The script's stdout and stderr go to this process's stdout and
//! stderr, and the process exits with the script's exit code. With `--dump`,
//! the final tree is written into OUT, which must be absent or empty. The
//! host folder DIR is never changed. `--restore` starts from a session
//! snapshot (its variables, functions, working directory and files) instead
//! of an empty session; `--save` writes one after the script, atomically.

#[cfg(feature = "shell")]
#[allow(dead_code)]
#[path = "../tests/shell_corpus/tree.rs"]
mod tree;

const USAGE: &str = "usage: shell [--restore FILE] [--seed DIR] [--save FILE] [--dump OUT]\n             [--allow-url PREFIX]... [--allow-address CIDR]... --script FILE";

/// What `--help` prints: the usage line, then what the program does, each
/// option, the exit status and an example. The README shows it as printed
/// (tests/docs.sh compares the two).
const HELP: &str = "\
usage: shell [--restore FILE] [--seed DIR] [--save FILE] [--dump OUT]
             [--allow-url PREFIX]... [--allow-address CIDR]... --script FILE

Runs FILE in libaikido's virtual bash, as `bash FILE` would, over an
in-memory storage; nothing runs on the host and no host file is changed.
The working directory is the storage's root, /.

options:
  --script FILE  the script to run (required); its text must be UTF-8
  --seed DIR     copy DIR's tree into the storage first (default: empty)
  --dump OUT     afterwards, write the storage's tree into OUT, a folder
                 that must be absent or empty
  --restore FILE start from the session saved in FILE (variables, functions,
                 working directory, options, files) instead of an empty one;
                 --seed then adds its files on top
  --save FILE    afterwards, save the session and its files into FILE
                 (written to a temporary file, synced, then renamed: FILE is
                 the old session or the new one, never half of one)
  --allow-url PREFIX
                 let curl and wget reach the URLs under PREFIX (repeatable;
                 e.g. https://api.example.com/v1); without it, no network
  --allow-address CIDR
                 let them connect to addresses in CIDR too (repeatable;
                 loopback, private and link-local ones are refused unless
                 named, e.g. 127.0.0.1/32)
  --allow-method METHOD
                 allow METHOD besides GET and HEAD (repeatable; e.g. POST)
  -h, --help     print this help and exit

The script's stdout and stderr go to this program's stdout and stderr. The
exit status is the script's (124: the 10 s time limit, 125: another limit
such as 1 MiB of output per stream), or 2 for a usage error.

example:
  cargo run --release --example shell -- --seed ./project --script check.sh
  shell --save s.bin --script step1.sh && shell --restore s.bin --script step2.sh
  cargo run --release --example shell -- --allow-url https://example.com/ --script fetch.sh
";

#[cfg(feature = "shell")]
fn main() {
    use std::io::Write;
    use std::path::PathBuf;
    use std::sync::Arc;

    use aikido::shell::{Shell, ShellOptions};
    use aikido::storage::MemoryStorage;

    let fail = |message: String| -> ! {
        eprintln!("shell: {message}");
        std::process::exit(2)
    };

    let (mut seed, mut dump, mut script, mut save, mut restore) = (None, None, None, None, None);
    let mut network: Option<aikido::net::NetworkPolicy> = None;
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if let Some(flag @ ("--allow-url" | "--allow-address" | "--allow-method")) = arg.to_str() {
            let value = args.next().and_then(|v| v.into_string().ok());
            let value = value.unwrap_or_else(|| fail(format!("{flag} needs a value\n{USAGE}")));
            let policy = network.get_or_insert_with(aikido::net::NetworkPolicy::new);
            let added = match flag {
                "--allow-url" => policy.allow_url(&value).map(drop),
                "--allow-address" => policy.allow_address(&value).map(drop),
                _ => policy.allow_method(&value).map(drop),
            };
            added.unwrap_or_else(|e| fail(format!("{flag}: {e}")));
            continue;
        }
        let slot = match arg.to_str() {
            Some("--seed") => &mut seed,
            Some("--dump") => &mut dump,
            Some("--script") => &mut script,
            Some("--save") => &mut save,
            Some("--restore") => &mut restore,
            Some("-h" | "--help") => {
                print!("{HELP}");
                return;
            }
            _ => fail(format!("unexpected argument {arg:?}\n{USAGE}")),
        };
        let value = args.next().unwrap_or_else(|| fail(format!("{} needs a value\n{USAGE}", arg.to_string_lossy())));
        *slot = Some(PathBuf::from(value));
    }
    let script = script.unwrap_or_else(|| fail(format!("--script is required\n{USAGE}")));
    let text = std::fs::read_to_string(&script).unwrap_or_else(|e| fail(format!("{}: {e}", script.display())));
    // Refuse a bad --dump before running anything.
    if let Some(out) = &dump {
        if out.exists() && std::fs::read_dir(out).map_or(true, |mut d| d.next().is_some()) {
            fail(format!("{}: refusing to dump into a non-empty directory (or a file)", out.display()));
        }
    }

    let network = network.map(Arc::new);
    let options = || ShellOptions { network: network.clone(), ..ShellOptions::default() };
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    let mut shell = match &restore {
        None => Shell::new(storage.clone(), options()),
        Some(file) => {
            let bytes = std::fs::read(file).unwrap_or_else(|e| fail(format!("{}: {e}", file.display())));
            Shell::restore(&bytes, storage.clone(), options())
                .unwrap_or_else(|e| fail(format!("{}: {e}", file.display())))
        }
    };
    if let Some(dir) = &seed {
        tree::seed(storage.as_ref(), dir).unwrap_or_else(|e| fail(format!("{}: {e}", dir.display())));
    }
    let result = shell.run(&text, None);
    if let Some(file) = &save {
        let bytes = shell.snapshot().unwrap_or_else(|e| fail(format!("--save: {e}")));
        aikido::persist::write_atomically(file, &bytes).unwrap_or_else(|e| fail(format!("{}: {e}", file.display())));
    }

    let _ = std::io::stdout().write_all(&result.stdout);
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(&result.stderr);
    if let Some(out) = &dump {
        tree::dump(storage.as_ref(), out).unwrap_or_else(|e| fail(format!("dump: {e}")));
    }
    std::process::exit(result.exit_code & 0xff);
}

#[cfg(not(feature = "shell"))]
fn main() {
    eprintln!("shell: this example needs the `shell` feature\n{USAGE}");
    std::process::exit(2);
}
