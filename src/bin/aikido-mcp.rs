//! `aikido-mcp`: a sandboxed bash and file tools over one folder, for any
//! MCP client. Run `aikido-mcp --help` for everything it does.

use std::io::{self, BufReader};
use std::net::{SocketAddr, ToSocketAddrs};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aikido::mcp::http::{self, HttpOptions};
use aikido::mcp::{McpServer, DEFAULT_PAGE_SIZE};
use aikido::persist::{SessionStore, DEFAULT_MAX_AGE, DEFAULT_MAX_SESSIONS};
use aikido::shell::{register_shell_tool, register_shell_tool_with_store, ShellOptions};
use aikido::storage::{register_file_tools, HostDir, Overlay, ReadOnly, Storage};
use aikido::{CancelToken, Registry};

const HELP: &str = "\
aikido-mcp: serve a sandboxed bash and file tools over one folder to any MCP client

USAGE
    aikido-mcp --root DIR [--read-only | --overlay] [--listen 127.0.0.1:PORT]

The tools
    bash            an in-process bash interpreter (GNU-like coreutils, grep, sed,
                    awk, jq, find, diff...): no host program ever runs, there is no
                    network unless --allow-url gives curl and wget some; one shell
                    per MCP session keeps its working directory, variables and
                    functions from one call to the next.
    read_file, write_file, list_directory, edit_file, delete_path
                    the file tools.
    DIR is the virtual / of both: paths may be absolute (/notes.txt is
    DIR/notes.txt) or relative to /; nothing outside DIR can be reached
    (.. stops at /, symlinks resolve inside DIR).

OPTIONS
    --root DIR      the folder to serve (required; it must exist).
    --read-only     every write fails: the file tools report an error, a bash
                    command that writes exits non-zero. DIR never changes.
    --overlay       writes land in memory and are seen by later calls; DIR never
                    changes, not even at exit (the changes are dropped).
                    At most one of --read-only and --overlay.
                    Without either, writes go into DIR.
    --listen ADDR   serve Streamable HTTP at http://ADDR/mcp instead of stdio
                    (e.g. 127.0.0.1:8931). An address that is not loopback is
                    refused unless --allow-remote is given too.
    --allow-remote  let --listen bind an address that is not loopback. There is
                    no authentication: put it behind a proxy that has some.
    --page-size N   tools per tools/list page (default 100).
    --sessions DIR  keep each MCP session's shell (working directory, variables,
                    functions, options, and with --overlay the changed files) in
                    DIR: saved after every call, atomically (temporary file,
                    fsync, rename), and restored when the server starts again,
                    so a server killed at any moment (even by SIGKILL) goes on
                    from its last finished call. The stdio session is saved as
                    `stdio`. At most --sessions-max files (default 64) are kept,
                    none older than --sessions-max-age days (default 7).
    --sessions-max N, --sessions-max-age DAYS
                    the caps above.
    --allow-url PREFIX
                    let the shell's curl and wget reach the URLs under PREFIX
                    (repeatable; e.g. https://api.example.com/v1: that scheme,
                    host and port, paths under /v1). Without it, no network.
    --allow-address CIDR
                    let them connect to addresses in CIDR (repeatable). Loopback,
                    private, link-local and cloud-metadata addresses are refused
                    unless named (e.g. 127.0.0.1/32); public ones are allowed.
    --allow-method METHOD
                    allow METHOD besides GET and HEAD (repeatable; e.g. POST).
    -h, --help      this text.
    -V, --version   the version.

THE SHELL'S ENVIRONMENT
    Nothing of this program's own environment reaches the tools (no API key
    leaks). Each shell starts in / with exactly these variables:
        HOME=/  PATH=/usr/bin:/bin  SHELL=/bin/bash  USER=aikido  LOGNAME=aikido  TERM=dumb
    Each call may run at most 100000 commands and 100000 loop iterations, write
    1 MiB per stream, and take 10 s.

STDIO (the default)
    Newline-delimited JSON-RPC on stdin and stdout; stdout carries JSON-RPC
    only, logs go to stderr. Requests are served while a long call runs;
    notifications/cancelled stops a call. EOF on stdin: the calls already read
    are answered, then the program exits with status 0.

HTTP (--listen)
    The endpoint is /mcp (POST: one JSON-RPC message, JSON answer; DELETE: ends
    the session; GET: the session's SSE stream of list_changed). initialize
    gets an Mcp-Session-Id header; every later request must send it back (400
    without it, 404 once the session is gone). Each session has its own shell.
    MCP 2026-07-28 requests (protocol version in _meta) need no session: each
    runs alone with a fresh shell, its MCP-Protocol-Version, Mcp-Method and
    Mcp-Name headers must match the body (400 else). A
    request from a browser page of another origin (an Origin header that is not
    localhost) is refused with 403. Bodies over 16 MiB get 413; at most 1024
    sessions are kept (the least recently used is dropped past that). SIGTERM
    or SIGINT ends the server within a few seconds.

MCP CLIENT CONFIGURATION (Claude Desktop, Claude Code, Cursor)
    {\"mcpServers\": {\"aikido\": {\"command\": \"/path/to/aikido-mcp\",
                                \"args\": [\"--root\", \"/path/to/project\", \"--overlay\"]}}}

EXIT STATUS
    0 at EOF on stdin (or after SIGTERM with --listen); 2 for bad arguments or
    a missing DIR; 1 when serving failed.
";

/// What the command line asked for.
struct Options {
    /// The shell's network (`--allow-url` and co.); `None`: no network.
    network: Option<aikido::net::NetworkPolicy>,
    root: String,
    mode: Mode,
    listen: Option<String>,
    allow_remote: bool,
    page_size: usize,
    sessions: Option<String>,
    sessions_max: usize,
    sessions_max_age_days: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Plain,
    ReadOnly,
    Overlay,
}

enum Parsed {
    Run(Box<Options>),
    Exit(ExitCode),
}

fn usage_error(message: &str) -> Parsed {
    eprintln!("aikido-mcp: {message}");
    eprintln!("usage: aikido-mcp --root DIR [--read-only | --overlay] [--listen 127.0.0.1:PORT]  (--help for more)");
    Parsed::Exit(ExitCode::from(2))
}

fn parse_arguments(arguments: impl Iterator<Item = String>) -> Parsed {
    let mut root = None;
    let (mut read_only, mut overlay, mut allow_remote) = (false, false, false);
    let mut listen = None;
    let mut page_size = DEFAULT_PAGE_SIZE;
    let mut sessions = None;
    let mut sessions_max = DEFAULT_MAX_SESSIONS;
    let mut sessions_max_age_days = DEFAULT_MAX_AGE.as_secs() / 86_400;
    let mut network: Option<aikido::net::NetworkPolicy> = None;
    let mut arguments = arguments.peekable();
    while let Some(argument) = arguments.next() {
        let (flag, inline) = match argument.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => (flag.to_owned(), Some(value.to_owned())),
            _ => (argument.clone(), None),
        };
        let mut value = |name: &str| -> Result<String, Parsed> {
            inline.clone().or_else(|| arguments.next()).ok_or_else(|| usage_error(&format!("{name} needs a value")))
        };
        match flag.as_str() {
            "-h" | "--help" => {
                print!("{HELP}");
                return Parsed::Exit(ExitCode::SUCCESS);
            }
            "-V" | "--version" => {
                println!("aikido-mcp {}", env!("CARGO_PKG_VERSION"));
                return Parsed::Exit(ExitCode::SUCCESS);
            }
            "--root" => match value("--root") {
                Ok(dir) => root = Some(dir),
                Err(exit) => return exit,
            },
            "--listen" => match value("--listen") {
                Ok(address) => listen = Some(address),
                Err(exit) => return exit,
            },
            "--page-size" => match value("--page-size").map(|text| text.parse::<usize>()) {
                Ok(Ok(size)) if size > 0 => page_size = size,
                Ok(_) => return usage_error("--page-size needs a positive number"),
                Err(exit) => return exit,
            },
            "--sessions" => match value("--sessions") {
                Ok(dir) => sessions = Some(dir),
                Err(exit) => return exit,
            },
            "--sessions-max" => match value("--sessions-max").map(|text| text.parse::<usize>()) {
                Ok(Ok(count)) if count > 0 => sessions_max = count,
                Ok(_) => return usage_error("--sessions-max needs a positive number"),
                Err(exit) => return exit,
            },
            "--sessions-max-age" => match value("--sessions-max-age").map(|text| text.parse::<u64>()) {
                Ok(Ok(days)) if days > 0 => sessions_max_age_days = days,
                Ok(_) => return usage_error("--sessions-max-age needs a positive number of days"),
                Err(exit) => return exit,
            },
            "--allow-url" | "--allow-address" | "--allow-method" => {
                let text = match value(&flag) {
                    Ok(text) => text,
                    Err(exit) => return exit,
                };
                let policy = network.get_or_insert_with(aikido::net::NetworkPolicy::new);
                let added = match flag.as_str() {
                    "--allow-url" => policy.allow_url(&text).map(drop),
                    "--allow-address" => policy.allow_address(&text).map(drop),
                    _ => policy.allow_method(&text).map(drop),
                };
                if let Err(error) = added {
                    return usage_error(&format!("{flag}: {error}"));
                }
            }
            "--read-only" => read_only = true,
            "--overlay" => overlay = true,
            "--allow-remote" => allow_remote = true,
            _ => return usage_error(&format!("unknown argument {argument:?}")),
        }
    }
    let Some(root) = root else {
        return usage_error("--root DIR is required: the folder to serve");
    };
    let mode = match (read_only, overlay) {
        (true, true) => return usage_error("--read-only and --overlay cannot be used together"),
        (true, false) => Mode::ReadOnly,
        (false, true) => Mode::Overlay,
        (false, false) => Mode::Plain,
    };
    Parsed::Run(Box::new(Options {
        network,
        root,
        mode,
        listen,
        allow_remote,
        page_size,
        sessions,
        sessions_max,
        sessions_max_age_days,
    }))
}

/// The variables every shell starts with: nothing of the host's.
fn shell_options(network: Option<&aikido::net::NetworkPolicy>) -> ShellOptions {
    let env = [
        ("HOME", "/"),
        ("PATH", "/usr/bin:/bin"),
        ("SHELL", "/bin/bash"),
        ("USER", "aikido"),
        ("LOGNAME", "aikido"),
        ("TERM", "dumb"),
    ];
    ShellOptions {
        env: env.into_iter().map(|(name, value)| (name.to_owned(), value.to_owned())).collect(),
        network: network.cloned().map(Arc::new),
        ..ShellOptions::default()
    }
}

fn storage(options: &Options) -> Result<Arc<dyn Storage>, String> {
    let host = HostDir::new(&options.root).map_err(|problem| format!("--root {}: {problem}", options.root))?;
    Ok(match options.mode {
        Mode::Plain => Arc::new(host),
        Mode::ReadOnly => Arc::new(ReadOnly(host)),
        // Never committed: the overlay is dropped with the process.
        Mode::Overlay => Arc::new(Overlay::new(host)),
    })
}

fn main() -> ExitCode {
    let options = match parse_arguments(std::env::args().skip(1)) {
        Parsed::Run(options) => options,
        Parsed::Exit(code) => return code,
    };
    let storage = match storage(&options) {
        Ok(storage) => storage,
        Err(message) => {
            eprintln!("aikido-mcp: {message}");
            return ExitCode::from(2);
        }
    };
    let registry = Registry::new();
    let store = match &options.sessions {
        None => None,
        Some(folder) => {
            let max_age = Duration::from_secs(options.sessions_max_age_days.saturating_mul(86_400));
            match SessionStore::open(folder, options.sessions_max, max_age) {
                Ok(store) => Some(Arc::new(store)),
                Err(problem) => {
                    eprintln!("aikido-mcp: --sessions {folder}: {problem}");
                    return ExitCode::from(2);
                }
            }
        }
    };
    let registered = match &store {
        None => register_shell_tool(&registry, storage.clone(), shell_options(options.network.as_ref())),
        Some(store) => register_shell_tool_with_store(
            &registry,
            storage.clone(),
            shell_options(options.network.as_ref()),
            store.clone(),
        ),
    }
    .and_then(|()| register_file_tools(&registry, storage));
    if let Err(problem) = registered {
        eprintln!("aikido-mcp: {problem}");
        return ExitCode::FAILURE;
    }
    let server = McpServer::new(&registry, "aikido-mcp", env!("CARGO_PKG_VERSION")).with_page_size(options.page_size);
    if let Some(store) = &store {
        // The stdio session's id is new at every start: it is kept by name.
        store.alias(server.session().id(), "stdio");
    }
    let mode = match options.mode {
        Mode::Plain => "read-write",
        Mode::ReadOnly => "read-only",
        Mode::Overlay => "overlay, never written back",
    };
    match &options.listen {
        None => {
            eprintln!("aikido-mcp: serving {} ({mode}) over stdio", options.root);
            let stdin = io::stdin();
            let reader = BufReader::with_capacity(64 * 1024, stdin.lock());
            match server.serve_stdio(reader, aikido::mcp::FdWriter::new(1), None) {
                Ok(()) => ExitCode::SUCCESS,
                Err(problem) => {
                    eprintln!("aikido-mcp: reading stdin failed: {problem}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(address) => serve_http(&server, address, options.allow_remote, &options.root, mode),
    }
}

/// Set by SIGTERM and SIGINT.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    SIGNALLED.store(true, Ordering::SeqCst);
}

fn serve_http(server: &McpServer, address: &str, allow_remote: bool, root: &str, mode: &str) -> ExitCode {
    let addresses: Vec<SocketAddr> = match address.to_socket_addrs() {
        Ok(addresses) => addresses.collect(),
        Err(problem) => {
            eprintln!("aikido-mcp: --listen {address}: {problem} (write it as 127.0.0.1:PORT)");
            return ExitCode::from(2);
        }
    };
    if addresses.is_empty() || (!allow_remote && addresses.iter().any(|address| !address.ip().is_loopback())) {
        eprintln!(
            "aikido-mcp: --listen {address} is not a loopback address; the server has no authentication, \
             so add --allow-remote to serve other machines (behind a proxy that authenticates)"
        );
        return ExitCode::from(2);
    }
    let listener = match std::net::TcpListener::bind(addresses.as_slice()) {
        Ok(listener) => listener,
        Err(problem) => {
            eprintln!("aikido-mcp: cannot listen on {address}: {problem}");
            return ExitCode::FAILURE;
        }
    };
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
    }
    let stop = CancelToken::new();
    let local = listener.local_addr().map(|address| address.to_string()).unwrap_or_else(|_| address.to_owned());
    eprintln!("aikido-mcp: serving {root} ({mode}) at http://{local}/mcp");
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !stop.is_fired() {
                if SIGNALLED.load(Ordering::SeqCst) {
                    eprintln!("aikido-mcp: stopping");
                    stop.fire();
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        http::serve(server, &listener, &HttpOptions::default(), &stop);
        stop.fire();
    });
    ExitCode::SUCCESS
}
