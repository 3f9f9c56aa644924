//! `aikido-mcp` against hostile clients (issue 29): a real server process
//! on 127.0.0.1, each test bounded in connections and seconds.
//!
//! - Connections past the cap are shed, and accepting survives running out
//!   of descriptors (the server is started with a low RLIMIT_NOFILE).
//! - Stalled heads and bodies (slowloris) hold no worker: other clients
//!   are served meanwhile.
//! - The `Host` header must name this machine.
//! - DELETE ends a session mid-batch: the rest of the batch never runs.
//! - A hard link placed in the folder is never written through.
//! - Cut results stay in their own session and out of the host folder.
//! - stdio: the calls waiting are capped in bytes, and every request past
//!   the cap is answered with an error.
//! - The overlay's upper layer stops at its byte limit with a message
//!   naming it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A running `aikido-mcp --listen 127.0.0.1:0`, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn folder(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("aikido-mcp-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&path);
    std::fs::create_dir_all(&path).unwrap();
    path
}

/// Starts the server over `root`; `max_descriptors` lowers its RLIMIT_NOFILE.
fn start(root: &Path, extra: &[&str], max_descriptors: Option<u64>) -> Server {
    let mut command = Command::new(env!("CARGO_BIN_EXE_aikido-mcp"));
    command.arg("--root").arg(root).args(["--listen", "127.0.0.1:0"]).args(extra);
    command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    if let Some(limit) = max_descriptors {
        // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let rlimit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &rlimit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    let mut child = command.spawn().expect("aikido-mcp starts");
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    stderr.read_line(&mut line).unwrap();
    let address = line.split("http://").nth(1).and_then(|rest| rest.strip_suffix("/mcp\n")).unwrap_or_else(|| {
        panic!("no address in {line:?}");
    });
    let address = address.to_owned();
    // Keep reading its log so that it never blocks on a full pipe.
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
    Server { child, address }
}

/// Sends one raw request and reads the whole response (the server closes).
fn raw(address: &str, request: &[u8]) -> std::io::Result<String> {
    let mut stream = TcpStream::connect(address)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.write_all(request)?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response)?;
    Ok(String::from_utf8_lossy(&response).into_owned())
}

/// POSTs `body` with `headers`; the response's status, headers and body text.
fn post(address: &str, headers: &[(&str, &str)], body: &str) -> std::io::Result<(u16, String, String)> {
    let mut request = format!("POST /mcp HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len()));
    let response = raw(address, request.as_bytes())?;
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let status = head.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    Ok((status, head.to_owned(), body.to_owned()))
}

const PING: &str = r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;

fn initialize(address: &str, version: &str) -> String {
    let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize",
        "params":{"protocolVersion":version,"capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}});
    let (status, head, _) = post(address, &[], &body.to_string()).unwrap();
    assert_eq!(status, 200, "{head}");
    head.lines()
        .find_map(|line| line.strip_prefix("Mcp-Session-Id: ").or_else(|| line.strip_prefix("mcp-session-id: ")))
        .expect("a session id")
        .trim()
        .to_owned()
}

fn bash(id: u64, command: &str) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"bash","arguments":{"command":command}}})
}

/// The text of a tools/call result.
fn call(address: &str, session: &str, command: &str) -> String {
    let (status, head, body) = post(address, &[("Mcp-Session-Id", session)], &bash(1, command).to_string()).unwrap();
    assert_eq!(status, 200, "{head}\n{body}");
    let value: Value = serde_json::from_str(&body).unwrap();
    value["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{body}")).to_owned()
}

/// Waits until a ping is answered, at most `limit`.
fn answers_within(address: &str, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok((200, _, body)) = post(address, &[], PING) {
            if body.contains(r#""id":7"#) {
                return true;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

#[test]
fn accepting_survives_running_out_of_descriptors_and_sheds_connections_past_the_cap() {
    let root = folder("descriptors");
    // 64 descriptors: far fewer than the connection cap, so accept fails with EMFILE.
    let mut server = start(&root, &[], Some(64));
    let address = server.address.clone();
    let idle: Vec<TcpStream> = (0..150).filter_map(|_| TcpStream::connect(&address).ok()).collect();
    assert!(idle.len() >= 100, "{} connections", idle.len());
    std::thread::sleep(Duration::from_millis(300));
    drop(idle);
    // Once the attacker is gone, the server serves again.
    assert!(answers_within(&address, Duration::from_secs(10)), "the server stopped accepting");
    assert!(server.child.try_wait().unwrap().is_none(), "the server exited");

    // Past the connection cap (256 by default): 503, and then served again.
    let root = folder("cap");
    let server = start(&root, &[], None);
    let address = server.address.clone();
    let idle: Vec<TcpStream> = (0..300).filter_map(|_| TcpStream::connect(&address).ok()).collect();
    assert_eq!(idle.len(), 300);
    std::thread::sleep(Duration::from_millis(300));
    let shed = raw(&address, b"").unwrap_or_default();
    assert!(shed.starts_with("HTTP/1.1 503"), "{shed:?}");
    assert!(shed.contains("max_connections"), "{shed:?}");
    drop(idle);
    assert!(answers_within(&address, Duration::from_secs(10)));
}

#[test]
fn stalled_heads_and_bodies_hold_no_worker() {
    let root = folder("slowloris");
    let server = start(&root, &[], None);
    let address = server.address.clone();
    let mut stalled = Vec::new();
    for index in 0..80 {
        let mut stream = TcpStream::connect(&address).unwrap();
        let partial: &[u8] = if index % 2 == 0 {
            b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n{\"jsonrpc\":"
        } else {
            b"POST /mcp HTTP/1.1\r\nHost: 127.0"
        };
        stream.write_all(partial).unwrap();
        stalled.push(stream);
    }
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    for _ in 0..5 {
        let (status, _, body) = post(&address, &[], PING).unwrap();
        assert_eq!(status, 200, "{body}");
    }
    assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
    drop(stalled);
}

#[test]
fn the_host_header_must_name_this_machine() {
    let root = folder("host");
    let server = start(&root, &[], None);
    let address = server.address.clone();
    let port = address.rsplit(':').next().unwrap();
    for host in ["evil.example", "evil.example:80", "localhost.evil.example", "10.0.0.1"] {
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{PING}",
            PING.len()
        );
        let response = raw(&address, request.as_bytes()).unwrap();
        assert!(response.starts_with("HTTP/1.1 403"), "{host}: {response}");
    }
    for host in [format!("localhost:{port}"), format!("127.0.0.1:{port}"), "[::1]".to_owned()] {
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{PING}",
            PING.len()
        );
        let response = raw(&address, request.as_bytes()).unwrap();
        assert!(response.starts_with("HTTP/1.1 200"), "{host}: {response}");
    }
}

#[test]
fn delete_ends_the_rest_of_a_running_batch() {
    let root = folder("delete");
    let server = start(&root, &[], None);
    let address = server.address.clone();
    let session = initialize(&address, "2025-03-26");
    let batch = json!([
        // Long enough to outlast the DELETE below (a busy loop would hit the
        // command budget first and let the rest of the batch run).
        bash(1, "sleep 5"),
        bash(2, "echo b > /after-delete-b"),
        bash(3, "echo c > /after-delete-c"),
    ]);
    let batch_thread = {
        let (address, session) = (address.clone(), session.clone());
        std::thread::spawn(move || post(&address, &[("Mcp-Session-Id", &session)], &batch.to_string()))
    };
    std::thread::sleep(Duration::from_millis(500));
    let request =
        format!("DELETE /mcp HTTP/1.1\r\nHost: {address}\r\nMcp-Session-Id: {session}\r\nConnection: close\r\n\r\n");
    let deleted = raw(&address, request.as_bytes()).unwrap();
    assert!(deleted.starts_with("HTTP/1.1 204"), "{deleted}");
    let (status, _, body) = batch_thread.join().unwrap().unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("the session has ended"), "{body}");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!root.join("after-delete-b").exists());
    assert!(!root.join("after-delete-c").exists());
    let (status, _, _) = post(&address, &[("Mcp-Session-Id", &session)], PING).unwrap();
    assert_eq!(status, 404);
}

#[test]
fn hard_links_and_cut_results_never_cross_the_folder_or_sessions() {
    let outside = folder("outside");
    let root = folder("links");
    std::fs::write(outside.join("secret"), "outside\n").unwrap();
    std::fs::hard_link(outside.join("secret"), root.join("link")).unwrap();
    std::fs::write(root.join("plain"), "old\n").unwrap();
    let server = start(&root, &[], None);
    let address = server.address.clone();
    let (a, b) = (initialize(&address, "2025-06-18"), initialize(&address, "2025-06-18"));
    let text = call(&address, &a, "echo changed > /link; echo >> /link; echo new > /plain; cat /plain");
    assert!(text.contains("hard links"), "{text}");
    assert!(text.contains("new\n"), "{text}");
    assert_eq!(std::fs::read_to_string(outside.join("secret")).unwrap(), "outside\n");
    assert_eq!(std::fs::read_to_string(root.join("plain")).unwrap(), "new\n");
    // A cut result: saved for its session only, never in the host folder.
    let text = call(&address, &a, "seq 1 100000");
    let path = text.split("saved in ").nth(1).and_then(|rest| rest.split(':').next()).expect("a saved path");
    let last = call(&address, &a, &format!("sed -n 100000p {path}"));
    assert!(last.starts_with("100000\n"), "{path}: {last}");
    let other = call(&address, &b, &format!("cat {path}; ls /tmp/aikido-bash"));
    assert!(other.contains("No such file or directory"), "{other}");
    assert!(!root.join("tmp").exists(), "a cut result landed in the host folder");
    let names: Vec<_> = std::fs::read_dir(&root).unwrap().map(|entry| entry.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn the_overlay_stops_at_its_byte_limit_with_a_named_message() {
    let root = folder("quota");
    let server = start(&root, &["--overlay"], None);
    let address = server.address.clone();
    let session = initialize(&address, "2025-06-18");
    let text = call(
        &address,
        &session,
        "awk 'BEGIN { s = sprintf(\"%60000000s\", \"\"); for (i = 1; i <= 100; i++) { printf \"%s\", s > (\"/f\" i); close(\"/f\" i) } }'; ls / | wc -l",
    );
    assert!(text.contains("the limit is 536870912 bytes"), "{}", &text[..text.len().min(2000)]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id())).unwrap();
    let peak_kib: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    assert!(peak_kib < 1 << 20, "peak {peak_kib} KiB");
}

#[test]
fn stdio_caps_the_bytes_waiting_and_answers_every_request() {
    let root = folder("stdio");
    let mut child = Command::new(env!("CARGO_BIN_EXE_aikido-mcp"))
        .arg("--root")
        .arg(&root)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut ids = Vec::new();
        let mut busy = 0;
        for line in stdout.lines() {
            let value: Value = serde_json::from_str(&line.unwrap()).unwrap();
            if value["error"]["message"].as_str().is_some_and(|message| message.contains("MAX_QUEUED_BYTES")) {
                busy += 1;
            }
            ids.push(value["id"].as_u64().unwrap_or(u64::MAX));
        }
        (ids, busy)
    });
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize",
        "params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hostile","version":"1"}}});
    writeln!(stdin, "{init}").unwrap();
    // Eight calls keep every worker busy for a while...
    for id in 1..=8 {
        writeln!(stdin, "{}", bash(id, "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done")).unwrap();
    }
    // ...while 12 calls of 9 MiB each (108 MiB) ask to wait.
    let padding = "x".repeat(9 << 20);
    for id in 9..=20 {
        let message = json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":"bash","arguments":{"command":"true","padding":padding}}});
        writeln!(stdin, "{message}").unwrap();
    }
    drop(stdin);
    let (mut ids, busy) = reader.join().unwrap();
    let _ = child.wait();
    ids.sort_unstable();
    assert_eq!(ids, (0..=20).collect::<Vec<u64>>(), "every request is answered once");
    assert!(busy >= 1, "no call was refused for the byte cap");
}
