//! The storage against a hostile model (issue 11): every attack that once
//! worked, tried again the same way. The races run for a bounded time each
//! (AIKIDO_STRESS_SECONDS, 2 s by default), both with a host-side thread
//! flipping a directory and a symlink, and with two bash sessions of one
//! model through the shell tool, one swapping with `mv` while the other
//! reads and writes. Each asserts that no byte from outside the storage
//! (or from a denied path) is ever read, and that nothing outside is
//! changed, created or deleted. docs/RELIABILITY.md ("Security: the
//! storage") lists the guarantees and the figures.
#![cfg(feature = "shell")]

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use aikido::shell::{register_shell_tool, ShellOptions};
use aikido::storage::{
    register_file_tools, Access, HostDir, MemoryLimits, MemoryStorage, Mounts, PathPolicy, Policy, ReadOnly, Storage,
    StorageError,
};
use aikido::{Environment, Registry, ToolCall};

/// How long each race runs.
fn stress() -> Duration {
    let seconds = std::env::var("AIKIDO_STRESS_SECONDS").ok().and_then(|text| text.parse::<f64>().ok()).unwrap_or(2.0);
    Duration::from_secs_f64(seconds.max(0.05))
}

const SECRET: &[u8] = b"OUTSIDE-SECRET-0xC0FFEE";

/// A fresh folder with `root/` (the storage) and `outside/` beside it,
/// removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let path = std::env::temp_dir().join(format!("aikido-security-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&path);
        fs::create_dir_all(path.join("root/d/victim")).unwrap();
        fs::create_dir_all(path.join("outside/victim")).unwrap();
        fs::create_dir_all(path.join("outside/made")).unwrap();
        fs::write(path.join("outside/secret"), SECRET).unwrap();
        fs::write(path.join("outside/victim/precious"), SECRET).unwrap();
        fs::write(path.join("outside/outside-only-marker"), SECRET).unwrap();
        fs::write(path.join("root/d/secret"), b"inside").unwrap();
        fs::write(path.join("root/d/victim/file"), b"inside").unwrap();
        Scratch(path)
    }

    fn root(&self) -> PathBuf {
        self.0.join("root")
    }

    fn outside(&self) -> PathBuf {
        self.0.join("outside")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Every path under `folder` with its kind and content, to compare before
/// and after an attack.
fn snapshot(folder: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(directory) = pending.pop() {
        for entry in fs::read_dir(&directory).unwrap() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            let what = if kind.is_dir() {
                pending.push(entry.path());
                "dir".to_owned()
            } else if kind.is_symlink() {
                format!("link {}", fs::read_link(entry.path()).unwrap().display())
            } else {
                String::from_utf8_lossy(&fs::read(entry.path()).unwrap()).into_owned()
            };
            out.push((entry.path(), what));
        }
    }
    out.sort();
    out
}

/// Exchanges two names atomically (renameat2 RENAME_EXCHANGE): a directory
/// and a symlink trade places with no moment where either is missing.
fn exchange(folder: &Path, a: &str, b: &str) {
    let c = |path: PathBuf| std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    let (a, b) = (c(folder.join(a)), c(folder.join(b)));
    // SAFETY: two NUL-terminated paths.
    let result =
        unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    assert_eq!(result, 0, "renameat2: {}", std::io::Error::last_os_error());
}

/// Runs `attack` over and over until the stress time is up, while `flip`
/// runs in a thread of its own; returns how many attacks and flips ran.
fn race(flip: impl Fn() + Send + 'static, mut attack: impl FnMut()) -> (u64, u64) {
    let stop = Arc::new(AtomicBool::new(false));
    let flips = Arc::new(AtomicU64::new(0));
    let flipper = {
        let (stop, flips) = (stop.clone(), flips.clone());
        thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                flip();
                flips.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let deadline = Instant::now() + stress();
    let mut attacks = 0;
    while Instant::now() < deadline {
        attack();
        attacks += 1;
    }
    stop.store(true, Ordering::Relaxed);
    flipper.join().unwrap();
    (attacks, flips.load(Ordering::Relaxed))
}

/// One round of every operation through a path that a flipper keeps
/// swapping between a directory inside and a symlink out. Panics on any
/// byte from outside.
fn attack_through(storage: &dyn Storage, base: &str) {
    let secret = format!("{base}/secret");
    if let Ok(data) = storage.read(&secret) {
        assert_ne!(data, SECRET, "read {secret} returned the outside file");
    }
    if let Ok(metadata) = storage.stat(&secret) {
        assert_ne!(metadata.size, SECRET.len() as u64, "stat {secret} saw the outside file");
    }
    if let Ok(entries) = storage.list(base) {
        assert!(!entries.iter().any(|entry| entry.name == "outside-only-marker"), "list {base} listed outside");
    }
    let _ = storage.write(&secret, b"PWNED");
    let _ = storage.append(&format!("{base}/appended"), b"PWNED");
    let _ = storage.mkdir(&format!("{base}/made/deeper"), true);
    let _ = storage.mkdir(&format!("{base}/single"), false);
    let _ = storage.remove(&format!("{base}/victim"), true);
    let _ = storage.remove(&format!("{base}/made"), true);
    let _ = storage.rename(&format!("{base}/secret"), &format!("{base}/renamed"));
    let _ = storage.rename(&format!("{base}/renamed"), &format!("{base}/secret"));
    let _ = storage.symlink("x", &format!("{base}/link"));
    let _ = storage.remove(&format!("{base}/link"), false);
    let _ = storage.readlink(&format!("{base}/link"));
    let _ = storage.lstat(&format!("{base}/victim"));
}

#[test]
fn a_host_directory_holds_while_the_host_swaps_a_folder_for_a_symlink_out() {
    for (name, kernel) in [("openat2", true), ("walk", false)] {
        for target in ["relative", "absolute"] {
            let scratch = Scratch::new(&format!("flip-{name}-{target}"));
            let root = scratch.root();
            let link_target = if target == "relative" { PathBuf::from("../outside") } else { scratch.outside() };
            std::os::unix::fs::symlink(&link_target, root.join("swap")).unwrap();
            let before = snapshot(&scratch.outside());
            let storage = HostDir::new(&root).unwrap();
            let storage = if kernel { storage } else { storage.without_openat2() };
            let flip_root = root.clone();
            let (attacks, flips) = race(move || exchange(&flip_root, "d", "swap"), || attack_through(&storage, "/d"));
            eprintln!("host flipper, {name}, {target} link: {attacks} attack rounds against {flips} swaps");
            assert!(attacks > 0 && flips > 0);
            assert_eq!(snapshot(&scratch.outside()), before, "{name}/{target}: something outside changed");
        }
    }
}

/// A registry with the bash tool over `storage`.
fn bash(storage: Arc<dyn Storage>) -> Registry {
    let registry = Registry::new();
    register_shell_tool(&registry, storage, ShellOptions::default()).unwrap();
    registry
}

fn run(registry: &Registry, session: &str, script: &str) -> String {
    let arguments = serde_json::json!({ "command": script }).to_string();
    match registry.dispatch(&ToolCall::new("bash", &arguments), &Environment::new(session)) {
        Ok(result) => result.content,
        Err(error) => error.to_string(),
    }
}

/// Two sessions of one model: `swapper` runs `swap` over and over while
/// the main thread runs `probe`; each probe's output goes to `check`.
fn two_sessions(registry: Arc<Registry>, swap: &'static str, probe: &str, mut check: impl FnMut(&str)) -> (u64, u64) {
    let swapper = registry.clone();
    race(move || drop(run(&swapper, "swapper", swap)), || check(&run(&registry, "reader", probe)))
}

#[test]
fn a_host_directory_holds_against_two_sessions_swapping_with_mv() {
    let scratch = Scratch::new("sessions");
    let root = scratch.root();
    let storage: Arc<dyn Storage> = Arc::new(HostDir::new(&root).unwrap());
    let registry = Arc::new(bash(storage));
    // The model cannot plant a link out: absolute and climbing targets are refused.
    let outside = scratch.outside();
    let planted = run(&registry, "swapper", &format!("ln -s {} L; ln -s ../outside L2", outside.display()));
    assert!(planted.contains("must be relative and stay inside"), "{planted}");
    assert!(fs::symlink_metadata(root.join("L")).is_err() && fs::symlink_metadata(root.join("L2")).is_err());
    // The host planted one (or a host program did): the model swaps it in.
    std::os::unix::fs::symlink(&outside, root.join("L")).unwrap();
    let before = snapshot(&outside);
    let swap = "for i in 1 2 3 4 5 6 7 8; do mv d t; mv L d; mv d L; mv t d; done";
    let probe = "cat d/secret; echo PWNED > d/secret; echo more >> d/appended; mkdir -p d/made/deeper; \
                 rm -rf d/victim d/made; ls d; cat d/victim/precious";
    let (probes, swaps) = two_sessions(registry, swap, probe, |output| {
        assert!(!output.contains("OUTSIDE-SECRET"), "a session read outside:\n{output}");
        assert!(!output.contains("outside-only-marker"), "a session listed outside:\n{output}");
    });
    eprintln!("two sessions over a host directory: {probes} probe scripts against {swaps} swap scripts");
    assert_eq!(snapshot(&outside), before, "something outside changed");
}
