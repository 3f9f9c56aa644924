//! `aikido-mcp --sessions DIR` against a real server process: every finished
//! call's effects (the shell's state, and with --overlay its files) survive
//! a SIGKILL at any moment, including during the write of a session file.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Server {
    fn start(root: &std::path::Path, sessions: &std::path::Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_aikido-mcp"))
            .args(["--root", root.to_str().unwrap(), "--overlay", "--sessions", sessions.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server { child, stdin, lines };
        server.send(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#);
        server.answer(0);
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        server
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn answer(&mut self, id: u64) -> serde_json::Value {
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(60)).expect("the server answers");
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    fn call(&mut self, id: u64, command: &str) {
        let request = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "bash", "arguments": {"command": command}}});
        self.send(&request.to_string());
    }

    fn bash(&mut self, id: u64, command: &str) -> String {
        self.call(id, command);
        let answer = self.answer(id);
        answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{answer}")).to_owned()
    }

    fn kill(mut self) {
        self.child.kill().unwrap(); // SIGKILL
        self.child.wait().unwrap();
    }
}

#[test]
fn a_killed_server_restores_every_finished_call() {
    let base = std::env::temp_dir().join(format!("aikido-mcp-sessions-{}", std::process::id()));
    let (root, sessions) = (base.join("root"), base.join("sessions"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("host.txt"), "on the host\n").unwrap();
    for round in 0..8u64 {
        let mut server = Server::start(&root, &sessions);
        // The state and files of every earlier round's finished calls.
        let text = server
            .bash(1, "n=$((${n:-0} + 1)); echo \"n=$n\"; echo round >> /log; wc -l < /log; f() { echo defined; }");
        assert_eq!(text, format!("n={}\n{}\n[exit code: 0]", round + 1, round + 1), "round {round}");
        let sizes = server.bash(2, "for f in /big*; do [ -e \"$f\" ] && wc -c < \"$f\"; done | sort -u; f");
        assert!(
            sizes == "defined\n[exit code: 0]" || sizes == "500000\ndefined\n[exit code: 0]",
            "round {round}: {sizes}"
        );
        // A call whose session file is large, killed at a different moment each round.
        server.call(3, &format!("printf '%0500000d' 0 > /big{round}; x=$(printf '%0300000d' 0)"));
        std::thread::sleep(Duration::from_millis(round * 4));
        server.kill();
        let leftovers: Vec<_> = std::fs::read_dir(&sessions).unwrap().map(|entry| entry.unwrap().file_name()).collect();
        assert!(leftovers.iter().any(|name| name.to_string_lossy() == "737464696f.session"), "{leftovers:?}");
    }
    // The host folder was never written (--overlay).
    assert_eq!(std::fs::read_dir(&root).unwrap().count(), 1);
    // No temporary file is left once a server started again.
    Server::start(&root, &sessions).kill();
    for entry in std::fs::read_dir(&sessions).unwrap() {
        assert!(!entry.unwrap().file_name().to_string_lossy().ends_with(".tmp"));
    }
    std::fs::remove_dir_all(&base).unwrap();
}
