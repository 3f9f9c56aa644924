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
use aikido::storage::{Access, HostDir, MemoryStorage, Mounts, PathPolicy, Policy, ReadOnly, Storage, StorageError};
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
    if let Ok(data) = storage.read_range(&secret, 0, 1 << 20) {
        assert_ne!(data, SECRET, "read_range {secret} returned the outside file");
    }
    if let Ok(metadata) = storage.stat(&secret) {
        assert_ne!(metadata.size, SECRET.len() as u64, "stat {secret} saw the outside file");
    }
    if let Ok(entries) = storage.list(base) {
        assert!(!entries.iter().any(|entry| entry.name == "outside-only-marker"), "list {base} listed outside");
    }
    if let Ok(entries) = storage.list_metadata(base) {
        assert!(
            !entries.iter().any(|(entry, metadata)| entry.name == "outside-only-marker"
                || entry.name == "secret" && metadata.size == SECRET.len() as u64),
            "list_metadata {base} saw outside"
        );
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

const DENIED: &[u8] = b"DENIED-KEY-hunter2";

/// A memory storage with a denied `/secret` and a readable `/pub`, and a
/// symlink `/pubL` to `/secret` that the model may swap in for `/pub`.
fn denied_secret() -> (Arc<MemoryStorage>, Arc<dyn Storage>) {
    let memory = Arc::new(MemoryStorage::default());
    memory.mkdir("/secret", true).unwrap();
    memory.mkdir("/pub", true).unwrap();
    memory.write("/secret/key", DENIED).unwrap();
    memory.write("/secret/secret-only", DENIED).unwrap();
    memory.write("/pub/key", b"public").unwrap();
    memory.symlink("/secret", "/pubL").unwrap();
    let policy = PathPolicy::new().deny(Access::Read, "/secret/**").deny(Access::List, "/secret/**");
    let storage: Arc<dyn Storage> = Arc::new(Policy::new(memory.clone(), policy));
    (memory, storage)
}

#[test]
fn a_policy_decides_and_acts_on_the_same_object_while_a_thread_swaps_a_symlink_in() {
    let (memory, storage) = denied_secret();
    let swapper = storage.clone();
    let (attacks, flips) = race(
        move || {
            let _ = swapper.rename("/pub", "/tmp");
            let _ = swapper.rename("/pubL", "/pub");
            let _ = swapper.rename("/pub", "/pubL");
            let _ = swapper.rename("/tmp", "/pub");
        },
        || {
            if let Ok(data) = storage.read("/pub/key") {
                assert_ne!(data, DENIED, "the denied key was read");
            }
            if let Ok(data) = storage.read_range("/pub/key", 0, 64) {
                assert_ne!(data, DENIED, "the denied key was read in a range");
            }
            if let Ok(entries) = storage.list("/pub") {
                assert!(!entries.iter().any(|entry| entry.name == "secret-only"), "the denied folder was listed");
            }
            if let Ok(metadata) = storage.stat("/pub/secret-only") {
                panic!("the denied folder was stat'ed: {metadata:?}");
            }
        },
    );
    eprintln!("policy, thread swapping /pub and a symlink to /secret: {attacks} reads against {flips} swap rounds");
    assert_eq!(memory.read("/secret/key").unwrap(), DENIED);
}

#[test]
fn a_policy_holds_against_two_sessions_swapping_a_symlink_in() {
    let (_, storage) = denied_secret();
    let registry = Arc::new(bash(storage));
    let swap = "for i in 1 2 3 4 5 6 7 8; do mv /pub /tmp; mv /pubL /pub; mv /pub /pubL; mv /tmp /pub; done";
    let (probes, swaps) = two_sessions(registry, swap, "cat /pub/key; ls /pub; cat /pub/*", |output| {
        assert!(!output.contains("DENIED-KEY"), "a session read the denied key:\n{output}");
        assert!(!output.contains("secret-only"), "a session listed the denied folder:\n{output}");
    });
    eprintln!("policy, two sessions: {probes} probe scripts against {swaps} swap scripts");
}

/// `/w` is a host folder; `/w/.git` a read-only mount of that folder's own
/// `.git`, `/w/secrets` an empty mount hiding the folder's `secrets`.
fn shadowing_mounts(scratch: &Scratch) -> Arc<dyn Storage> {
    let folder = scratch.root();
    fs::create_dir_all(folder.join(".git")).unwrap();
    fs::create_dir_all(folder.join("secrets")).unwrap();
    fs::write(folder.join(".git/config"), b"[core]\n").unwrap();
    fs::write(folder.join("secrets/key"), DENIED).unwrap();
    let mounts = Mounts::new(Arc::new(MemoryStorage::default()))
        .mount("/w", Arc::new(HostDir::new(&folder).unwrap()))
        .mount("/w/.git", Arc::new(ReadOnly(HostDir::new(folder.join(".git")).unwrap())))
        .mount("/w/secrets", Arc::new(MemoryStorage::default()));
    Arc::new(mounts)
}

#[test]
fn symlinks_resolve_at_the_mount_level_so_mount_rules_hold() {
    let scratch = Scratch::new("mounts");
    let storage = shadowing_mounts(&scratch);
    let registry = bash(storage.clone());
    let output = run(&registry, "model", "cd /w && ln -s .git g && echo PWNED > g/config; echo \"write: $?\"");
    assert!(output.contains("write: 1") && output.contains("Read-only file system"), "{output}");
    let output = run(&registry, "model", "cd /w && ln -s secrets s && cat s/key; echo \"read: $?\"");
    assert!(output.contains("read: 1") && !output.contains("DENIED-KEY"), "{output}");
    // The same through the storage itself, and through a mount point's folder.
    assert!(matches!(storage.write("/w/g/config", b"PWNED"), Err(StorageError::ReadOnly(_))));
    assert!(matches!(storage.read("/w/s/key"), Err(StorageError::NotFound(_))));
    assert!(matches!(storage.read_range("/w/s/key", 0, 8), Err(StorageError::NotFound(_))));
    assert!(storage.remove("/w", true).is_err(), "a folder holding mounts was removed");
    assert_eq!(fs::read(scratch.root().join(".git/config")).unwrap(), b"[core]\n");
    assert_eq!(fs::read(scratch.root().join("secrets/key")).unwrap(), DENIED);
}

#[test]
fn mounts_hold_against_two_sessions_swapping_links_to_shadowed_folders() {
    let scratch = Scratch::new("mount-race");
    let storage = shadowing_mounts(&scratch);
    storage.symlink(".git", "/w/g").unwrap();
    storage.symlink("secrets", "/w/s").unwrap();
    storage.mkdir("/w/dd", false).unwrap();
    storage.mkdir("/w/ee", false).unwrap();
    let registry = Arc::new(bash(storage));
    let swap =
        "cd /w; for i in 1 2 3 4 5 6; do mv dd t; mv g dd; mv dd g; mv t dd; mv ee u; mv s ee; mv ee s; mv u ee; done";
    let (probes, swaps) = two_sessions(registry, swap, "cd /w; echo PWNED > dd/config; cat ee/key", |output| {
        assert!(!output.contains("DENIED-KEY"), "a session read through a shadowed folder:\n{output}");
    });
    eprintln!("mounts, two sessions: {probes} probe scripts against {swaps} swap scripts");
    assert_eq!(fs::read(scratch.root().join(".git/config")).unwrap(), b"[core]\n", "the read-only mount was written");
    assert_eq!(fs::read(scratch.root().join("secrets/key")).unwrap(), DENIED);
}

#[test]
fn a_policy_cannot_be_escaped_by_renaming_or_deleting_an_ancestor() {
    let scratch = Scratch::new("ancestor");
    let folder = scratch.root();
    fs::create_dir_all(folder.join("work/a/secrets")).unwrap();
    fs::write(folder.join("work/a/secrets/key"), DENIED).unwrap();
    fs::write(folder.join("work/a/notes"), b"notes").unwrap();
    let policy = PathPolicy::new().deny(Access::Read, "/work/a/secrets/**").deny(Access::Write, "/work/a/secrets/**");
    let registry = bash(Arc::new(Policy::new(HostDir::new(&folder).unwrap(), policy)));
    let output = run(&registry, "model", "mv /work/a /work/b && cat /work/b/secrets/key; echo \"mv: $?\"");
    assert!(output.contains("mv: 1") && !output.contains("DENIED-KEY"), "{output}");
    let output = run(&registry, "model", "mv /work /elsewhere; rm -rf /work/a; rm -rf /work; echo \"rm: $?\"");
    assert!(output.contains("rm: 1"), "{output}");
    assert_eq!(fs::read(folder.join("work/a/secrets/key")).unwrap(), DENIED, "a protected file moved or went");
    // What holds nothing protected still moves and goes.
    let output = run(&registry, "model", "mv /work/a/notes /work/notes && rm /work/notes; echo \"ok: $?\"");
    assert!(output.contains("ok: 0"), "{output}");
}

#[test]
fn a_deny_rule_without_a_slash_matches_at_any_depth() {
    let memory = Arc::new(MemoryStorage::default());
    for path in ["/.env", "/app/prod.env", "/a/b/c/d/.env", "/app/secrets/token"] {
        memory.mkdir(&path[..path.rfind('/').unwrap().max(1)], true).unwrap();
        memory.write(path, DENIED).unwrap();
    }
    memory.write("/app/env.txt", b"fine").unwrap();
    let policy = PathPolicy::new().deny(Access::Read, "*.env").deny(Access::Read, "secrets/");
    let registry = bash(Arc::new(Policy::new(memory, policy)));
    let output = run(&registry, "model", "cat /.env /app/prod.env /a/b/c/d/.env /app/secrets/token app/env.txt");
    assert!(!output.contains("DENIED-KEY"), "{output}");
    assert_eq!(output.matches("Permission denied").count(), 4, "{output}");
    assert!(output.contains("fine"), "{output}");
}
