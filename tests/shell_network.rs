//! The shell's network (`curl`, `wget`) against a server of our own on
//! 127.0.0.1: every refusal of the policy, the limits, redirects in and
//! out of the allow-list, header secrecy, streaming into `head`, a server
//! that never answers, one that sends without end, one that closes
//! mid-body. Each test takes seconds at most.
#![cfg(feature = "network")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use aikido::net::NetworkPolicy;
use aikido::shell::{register_shell_tool, Shell, ShellOptions};
use aikido::storage::{MemoryStorage, Storage};
use aikido::{Environment, Registry, ToolCall};

const TOKEN: &str = "Bearer s3cret-t0ken";

/// A small HTTP/1.1 server on 127.0.0.1, one thread per connection.
struct Server {
    port: u16,
}

/// A request as the server read it: method, target, headers, body.
type Request = (String, String, Vec<(String, String)>, Vec<u8>);

fn read_request(stream: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    stream.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut header = String::new();
        stream.read_line(&mut header).ok()?;
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(':')?;
        headers.push((name.trim().to_string(), value.trim().to_string()));
    }
    let length = headers
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, value)| value.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; length];
    stream.read_exact(&mut body).ok()?;
    Some((method, target, headers, body))
}

fn respond(stream: &mut TcpStream, status: &str, headers: &[(&str, &str)], body: &[u8]) {
    let mut head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}

fn handle(stream: TcpStream, port: u16) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let Some((method, target, headers, body)) = read_request(&mut reader) else { return };
    let mut stream = stream;
    match target.split('?').next().unwrap() {
        "/json" => respond(&mut stream, "200 OK", &[("Content-Type", "application/json")], b"{\"ok\":true}\n"),
        "/api/items" if method == "POST" => {
            let mut reply = b"{\"created\":".to_vec();
            reply.extend_from_slice(&body);
            reply.extend_from_slice(b"}\n");
            respond(&mut stream, "201 Created", &[("Content-Type", "application/json")], &reply)
        }
        "/echo" => {
            let mut text = format!("{method} {target}\n");
            for (name, value) in &headers {
                text.push_str(&format!("{name}: {value}\n"));
            }
            text.push('\n');
            let mut reply = text.into_bytes();
            reply.extend_from_slice(&body);
            respond(&mut stream, "200 OK", &[("Content-Type", "text/plain")], &reply)
        }
        "/missing" => respond(&mut stream, "404 Not Found", &[], b"no such thing\n"),
        "/redirect-in" => respond(&mut stream, "302 Found", &[("Location", "/json")], b""),
        "/redirect-out" => respond(&mut stream, "302 Found", &[("Location", "http://127.0.0.1:9/other")], b""),
        "/redirect-loop" => respond(&mut stream, "302 Found", &[("Location", "/redirect-loop")], b""),
        "/redirect-echo" => respond(&mut stream, "307 Temporary Redirect", &[("Location", "/echo")], b""),
        "/other-prefix" => {
            let location = format!("http://localhost:{port}/echo");
            respond(&mut stream, "302 Found", &[("Location", location.as_str())], b"")
        }
        "/never" => thread::sleep(Duration::from_secs(5)),
        "/huge" => {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n");
            let chunk = vec![b'x'; 1 << 16];
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(5) && stream.write_all(&chunk).is_ok() {}
        }
        "/lines" => {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n");
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed() < Duration::from_secs(5) {
                n += 1;
                if stream.write_all(format!("line {n}\n").repeat(1000).as_bytes()).is_err() {
                    break;
                }
            }
        }
        "/cut" => {
            let _ = stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly ten b");
        }
        _ => respond(&mut stream, "404 Not Found", &[], b""),
    }
}

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                thread::spawn(move || handle(stream, port));
            }
        });
        Server { port }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// A policy for this server: its whole origin, loopback named.
    fn policy(&self) -> NetworkPolicy {
        let mut policy = NetworkPolicy::new();
        policy.allow_url(&self.url("/")).unwrap().allow_address("127.0.0.1/32").unwrap();
        policy
    }
}

fn shell_with(policy: Option<NetworkPolicy>) -> (Shell, Arc<dyn Storage>) {
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new(Default::default()));
    let options = ShellOptions { network: policy.map(Arc::new), ..ShellOptions::default() };
    (Shell::new(storage.clone(), options), storage)
}

fn run(policy: Option<NetworkPolicy>, script: &str) -> (String, String, i32) {
    let (mut shell, _) = shell_with(policy);
    let started = Instant::now();
    let result = shell.run(script, None);
    assert!(started.elapsed() < Duration::from_secs(8), "{script} took {:?}", started.elapsed());
    (
        String::from_utf8_lossy(&result.stdout).into_owned(),
        String::from_utf8_lossy(&result.stderr).into_owned(),
        result.exit_code,
    )
}

#[test]
fn without_a_policy_there_is_no_network() {
    let (out, err, _) = run(None, "curl -s http://127.0.0.1:1/; echo $?; wget -q -O - http://127.0.0.1:1/; echo $?");
    assert_eq!(out, "7\n4\n");
    assert!(err.contains("curl: (7) the network is off in this shell"), "{err}");
    assert!(err.contains("wget: the network is off in this shell"), "{err}");
    let (out, _, _) = run(None, "type -t curl wget");
    assert_eq!(out, "file\nfile\n");
}

#[test]
fn fetches_and_posts_json_as_curl_prints_it() {
    let server = Server::start();
    let mut policy = server.policy();
    policy.allow_method("POST").unwrap();
    let script = format!(
        "curl -s {json}\ncurl -s -X POST -H 'Content-Type: application/json' -d '{{\"name\":\"a\"}}' {post}\n\
         curl -s --json '{{\"n\":1}}' {post} -w '%{{http_code}}\\n'\n",
        json = server.url("/json"),
        post = server.url("/api/items")
    );
    let (out, err, code) = run(Some(policy), &script);
    assert_eq!(out, "{\"ok\":true}\n{\"created\":{\"name\":\"a\"}}\n{\"created\":{\"n\":1}}\n201\n", "{err}");
    assert_eq!((err.as_str(), code), ("", 0));
}

#[test]
fn sends_what_curl_sends() {
    let server = Server::start();
    let mut policy = server.policy();
    policy.allow_method("POST").unwrap();
    let (out, err, code) = run(
        Some(policy),
        &format!("curl -sS -G --data-urlencode 'q=a b&c' -d x=1 -u ada:pw -A agent/1 {}", server.url("/echo")),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("GET /echo?q=a%20b%26c&x=1\n"), "{out}");
    // Header names go on the wire in lower case (the `http` crate's form).
    let out = out.to_ascii_lowercase();
    assert!(out.contains("authorization: basic ywrhonb3\n"), "{out}");
    assert!(out.contains("user-agent: agent/1\n"), "{out}");
    assert!(out.contains("accept: */*\n"), "{out}");
}

#[test]
fn refusals_name_the_policy_and_exit_7() {
    let server = Server::start();
    let mut policy = NetworkPolicy::new();
    policy.allow_url(&server.url("/api")).unwrap().allow_address("127.0.0.1").unwrap();
    let port = server.port;
    for (url, why) in [
        (format!("http://127.0.0.1:{port}/apiary"), "no allowed URL prefix"),
        (format!("http://127.0.0.1:{port}/api/../json"), "no allowed URL prefix"),
        (format!("http://127.0.0.1:{port}@evil.example/api"), "no allowed URL prefix"),
        (format!("http://localhost:{port}/api"), "no allowed URL prefix"),
        (format!("http://127.0.0.1:{}/api", port + 1), "no allowed URL prefix"),
        (format!("https://127.0.0.1:{port}/api"), "no allowed URL prefix"),
    ] {
        let (out, err, code) = run(Some(policy.clone()), &format!("curl -s '{url}'"));
        assert_eq!((out.as_str(), code), ("", 7), "{url}: {err}");
        assert!(err.starts_with("curl: (7) the network policy refused") && err.contains(why), "{url}: {err}");
    }
    // The method.
    let (_, err, code) = run(Some(policy.clone()), &format!("curl -s -X DELETE {}", server.url("/api/x")));
    assert_eq!(code, 7);
    assert!(err.contains("refused the method DELETE"), "{err}");
    let (_, err, code) = run(Some(policy.clone()), &format!("curl -s -d a=1 {}", server.url("/api/x")));
    assert_eq!(code, 7);
    assert!(err.contains("refused the method POST"), "{err}");
    // The address: loopback not named.
    let mut unnamed = NetworkPolicy::new();
    unnamed.allow_url(&server.url("/")).unwrap();
    let (_, err, code) = run(Some(unnamed), &format!("curl {}", server.url("/json")));
    assert_eq!(code, 7);
    assert!(err.contains("refused the address 127.0.0.1 (loopback"), "{err}");
    // Metadata, even when its prefix is allowed and loopback is named.
    let mut metadata = server.policy();
    metadata.allow_url("http://169.254.169.254/").unwrap();
    let (_, err, code) = run(Some(metadata), "curl -sS --max-time 2 http://169.254.169.254/latest/meta-data/");
    assert_eq!(code, 7, "{err}");
    assert!(err.contains("cloud metadata"), "{err}");
    // Other schemes.
    let (_, err, code) = run(Some(server.policy()), "curl -sS ftp://127.0.0.1/x");
    assert_eq!(code, 1, "{err}");
}

#[test]
fn spellings_of_an_allowed_host_reach_it() {
    let server = Server::start();
    let port = server.port;
    for url in [
        format!("http://2130706433:{port}/json"),
        format!("http://0x7f.0.0.1:{port}/json"),
        format!("http://127.1:{port}/json"),
        format!("http://127.0.0.1:{port}/x/../json"),
        format!("http://127.0.0.1:{port}/x/%2e%2e/json"),
    ] {
        let (out, err, code) = run(Some(server.policy()), &format!("curl -sS '{url}'"));
        assert_eq!((out.as_str(), code), ("{\"ok\":true}\n", 0), "{url}: {err}");
    }
}

#[test]
fn redirects_are_followed_only_inside_the_policy() {
    let server = Server::start();
    let (out, err, code) = run(Some(server.policy()), &format!("curl -sSL {}", server.url("/redirect-in")));
    assert_eq!((out.as_str(), code), ("{\"ok\":true}\n", 0), "{err}");
    let (out, _, code) = run(
        Some(server.policy()),
        &format!("curl -s -w '%{{http_code}} %{{redirect_url}}' {}", server.url("/redirect-in")),
    );
    assert_eq!((out.as_str(), code), (format!("302 {}", server.url("/json")).as_str(), 0));
    let (_, err, code) = run(Some(server.policy()), &format!("curl -sSL {}", server.url("/redirect-out")));
    assert_eq!(code, 7);
    assert!(err.contains("the network policy refused http://127.0.0.1:9/other"), "{err}");
    let (_, err, code) = run(Some(server.policy()), &format!("curl -sSL {}", server.url("/redirect-loop")));
    assert_eq!(code, 47);
    assert!(err.contains("curl: (47) Maximum (10) redirects followed"), "{err}");
    let (out, err, code) = run(Some(server.policy()), &format!("curl -sSLi {}", server.url("/redirect-in")));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("HTTP/1.1 302 Found\r\n") && out.contains("\r\n\r\nHTTP/1.1 200 OK\r\n"), "{out}");
}

#[test]
fn attached_headers_are_sent_and_never_shown() {
    let server = Server::start();
    let mut policy = server.policy();
    policy.allow_url(&format!("http://localhost:{}/", server.port)).unwrap();
    policy.attach_header(&server.url("/echo"), "Authorization", TOKEN).unwrap();
    // Sent: the server sees it (this server echoes it back; that is the
    // server's doing). The script's own header of that name is replaced.
    let (out, err, _) = run(Some(policy.clone()), &format!("curl -s -H 'Authorization: mine' {}", server.url("/echo")));
    assert!(out.contains(&format!("authorization: {TOKEN}")) && !out.contains("mine"), "{out} {err}");
    // Never in -v, the environment, or a request to another prefix.
    let (out, err, _) = run(Some(policy.clone()), &format!("curl -v -o /dev/null {}; env; set", server.url("/echo")));
    assert!(!out.contains("s3cret") && !err.contains("s3cret"), "{out} {err}");
    assert!(err.contains("> Authorization: [hidden by the network policy]"), "{err}");
    let (out, _, _) = run(Some(policy.clone()), &format!("curl -s {}", server.url("/json")));
    assert!(!out.contains("s3cret"));
    // A redirect to another allowed origin (localhost) does not carry it.
    let (out, err, code) = run(Some(policy), &format!("curl -sL {}", server.url("/other-prefix")));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("GET /echo\n") && !out.contains("s3cret") && !out.contains("authorization"), "{out}");
}

#[test]
fn the_scripts_credentials_stay_with_the_first_host_in_curl_and_wget() {
    let server = Server::start();
    let mut policy = server.policy();
    policy.allow_url(&format!("http://localhost:{}/", server.port)).unwrap();
    let headers = "-H 'Authorization: Bearer mine' -H 'Cookie: id=7' -H 'X-Kept: yes'";
    for script in [
        format!("curl -sL {headers} {}", server.url("/other-prefix")),
        format!(
            "wget -q -O - --header='Authorization: Bearer mine' --header='Cookie: id=7' --header='X-Kept: yes' {}",
            server.url("/other-prefix")
        ),
    ] {
        let (out, err, code) = run(Some(policy.clone()), &script);
        assert_eq!(code, 0, "{script}: {err}");
        assert!(out.starts_with("GET /echo\n") && out.contains("x-kept: yes"), "{script}: {out}");
        assert!(!out.contains("mine") && !out.contains("id=7"), "{script}: {out}");
    }
    // Within one host they are sent again.
    let (out, err, _) = run(Some(policy), &format!("curl -sL {headers} {}", server.url("/redirect-echo")));
    assert!(out.contains("authorization: Bearer mine") && out.contains("cookie: id=7"), "{out} {err}");
}

#[test]
fn fail_and_status_codes_as_curl() {
    let server = Server::start();
    let url = server.url("/missing");
    let (out, err, code) = run(Some(server.policy()), &format!("curl -sS -f {url}"));
    assert_eq!((out.as_str(), err.as_str(), code), ("", "curl: (22) The requested URL returned error: 404\n", 22));
    let (out, _, code) = run(Some(server.policy()), &format!("curl -s {url}; echo \" $?\""));
    assert_eq!((out.as_str(), code), ("no such thing\n 0\n", 0));
    let (out, err, code) = run(Some(server.policy()), &format!("curl -sS --fail-with-body {url}"));
    assert_eq!((out.as_str(), code), ("no such thing\n", 22), "{err}");
    let (out, _, _) = run(Some(server.policy()), &format!("curl -s -o /dev/null -w '%{{http_code}}' {url}"));
    assert_eq!(out, "404");
    let (out, _, code) = run(Some(server.policy()), &format!("curl -sI {}", server.url("/json")));
    assert_eq!(code, 0);
    assert!(out.starts_with("HTTP/1.1 200 OK\r\n") && out.contains("Content-Type: application/json\r\n"), "{out}");
    // A port where nothing listens: 7, in curl's words.
    let mut closed = NetworkPolicy::new();
    closed.allow_url("http://127.0.0.1:9/").unwrap().allow_address("127.0.0.1").unwrap();
    let (_, err, code) = run(Some(closed), "curl -sS http://127.0.0.1:9/");
    assert_eq!(code, 7);
    assert!(err.starts_with("curl: (7) Failed to connect to 127.0.0.1 port 9 after "), "{err}");
}

#[test]
fn files_are_written_only_when_asked_and_successful() {
    let server = Server::start();
    let (mut shell, storage) = shell_with(Some(server.policy()));
    let result = shell.run(
        &format!(
            "curl -sf -o /got.json {}; curl -sf -o /nope {}; cd /d 2>/dev/null || mkdir /d && cd /d && curl -sO {}",
            server.url("/json"),
            server.url("/missing"),
            server.url("/json")
        ),
        None,
    );
    assert_eq!(result.exit_code, 0, "{}", String::from_utf8_lossy(&result.stderr));
    assert_eq!(storage.read("/got.json").unwrap(), b"{\"ok\":true}\n");
    assert!(storage.read("/nope").is_err(), "-f with 404 writes nothing");
    assert_eq!(storage.read("/d/json").unwrap(), b"{\"ok\":true}\n");
    let result = shell.run(&format!("wget -q {}; wget -q -O - {}", server.url("/json"), server.url("/json")), None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "{\"ok\":true}\n");
    assert_eq!(storage.read("/d/json").unwrap(), b"{\"ok\":true}\n");
    let result = shell.run(&format!("wget -q -O /w.txt {}; echo $?", server.url("/missing")), None);
    assert_eq!(String::from_utf8_lossy(&result.stdout), "8\n");
    assert!(storage.read("/w.txt").is_err());
}

#[test]
fn limits_name_themselves() {
    let server = Server::start();
    // Time: a server that never answers.
    let mut policy = server.policy();
    policy.set_timeout(Duration::from_millis(500));
    let started = Instant::now();
    let (_, err, code) = run(Some(policy), &format!("curl -sS {}", server.url("/never")));
    assert_eq!(code, 28, "{err}");
    assert!(err.starts_with("curl: (28) Operation timed out after "), "{err}");
    assert!(started.elapsed() < Duration::from_secs(3));
    let (_, err, code) = run(Some(server.policy()), &format!("curl -sS --max-time 0.5 {}", server.url("/never")));
    assert_eq!(code, 28, "{err}");
    // Size: a body past the cap stops by name.
    let mut policy = server.policy();
    policy.set_max_response_bytes(1 << 20);
    let (out, err, code) =
        run(Some(policy), &format!("curl -s {} | wc -c; exit ${{PIPESTATUS[0]}}", server.url("/huge")));
    assert_eq!(code, 63, "{err}");
    assert!(out.trim().parse::<u64>().unwrap() <= 1 << 20, "{out}");
    assert!(err.contains("the network policy's response-size cap"), "{err}");
    // Count: requests per run.
    let mut policy = server.policy();
    policy.set_max_requests(2);
    let url = server.url("/json");
    let (out, err, code) = run(Some(policy), &format!("curl -s {url}; curl -s {url}; curl -s {url}"));
    assert_eq!(out, "{\"ok\":true}\n{\"ok\":true}\n");
    assert_eq!(code, 7);
    assert!(err.contains("request limit (2 per run)"), "{err}");
    // A body cut short: 18.
    let (out, err, code) = run(Some(server.policy()), &format!("curl -sS {}", server.url("/cut")));
    assert_eq!((out.as_str(), code), ("only ten b", 18), "{err}");
}

#[test]
fn bodies_stream_into_a_pipe() {
    let server = Server::start();
    let mut policy = server.policy();
    policy.set_max_response_bytes(u64::MAX);
    let started = Instant::now();
    let (out, err, code) = run(Some(policy), &format!("curl -s {} | head -1", server.url("/lines")));
    assert_eq!((out.as_str(), code), ("line 1\n", 0), "{err}");
    assert!(started.elapsed() < Duration::from_secs(4), "head -1 must stop the transfer");
}

#[test]
fn the_bash_tool_reaches_the_network_its_options_allow() {
    let server = Server::start();
    let registry = Registry::new();
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new(Default::default()));
    let options = ShellOptions { network: Some(Arc::new(server.policy())), ..ShellOptions::default() };
    register_shell_tool(&registry, storage, options).unwrap();
    let arguments = serde_json::json!({ "command": format!("curl -s {}", server.url("/json")) }).to_string();
    let call = ToolCall::new("bash", &arguments);
    let result = registry.dispatch(&call, &Environment::new("session-1")).unwrap();
    assert_eq!(result.content, "{\"ok\":true}\n[exit code: 0]");
}
