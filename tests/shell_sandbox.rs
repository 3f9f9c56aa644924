//! The shell stays inside its storage: a dry run changes nothing below it and
//! reports what the script would change, a path policy refuses what it
//! forbids, and no host program ever runs (by the source and by behaviour).

use std::sync::Arc;

use aikido::shell::{Shell, ShellOptions};
use aikido::storage::{Access, ChangeKind, DryRun, MemoryStorage, PathPolicy, Policy, Storage};

fn project() -> Arc<MemoryStorage> {
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.mkdir("/src", true).unwrap();
    storage.mkdir("/secret", true).unwrap();
    storage.write("/src/app.py", b"print('v1')\n").unwrap();
    storage.write("/src/old.py", b"pass\n").unwrap();
    storage.write("/secret/key", b"hunter2\n").unwrap();
    storage
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_dry_run_reports_the_write_set_and_leaves_the_storage_below_unchanged() {
    let lower = project();
    let dry = Arc::new(DryRun::new(lower.clone()));
    let mut shell = Shell::new(dry.clone(), ShellOptions::default());
    let result = shell.run(
        "sed -i 's/v1/v2/' src/app.py && rm src/old.py && mkdir -p build && echo ok > build/out.txt && cat src/app.py",
        None,
    );
    assert_eq!(text(&result.stdout), "print('v2')\n", "{}", text(&result.stderr));
    assert_eq!(result.exit_code, 0);
    assert_eq!(result.write_set, ["/build", "/build/out.txt", "/src/app.py", "/src/old.py"]);

    // The storage below is as it was.
    assert_eq!(lower.read("/src/app.py").unwrap(), b"print('v1')\n");
    assert!(lower.read("/src/old.py").is_ok());
    assert!(lower.stat("/build").is_err());

    // The dry run's own record agrees with the shell's.
    let changes = dry.write_set().unwrap();
    let kind_of = |path: &str| changes.iter().find(|change| change.path == path).map(|change| change.kind);
    assert_eq!(kind_of("/src/app.py"), Some(ChangeKind::Modified));
    assert_eq!(kind_of("/src/old.py"), Some(ChangeKind::Deleted));
    assert_eq!(kind_of("/build/out.txt"), Some(ChangeKind::Added));
}

#[test]
fn a_path_policy_refuses_what_it_forbids_and_the_script_sees_a_shell_error() {
    let storage = project();
    let policy =
        PathPolicy::new().deny(Access::Read, "/secret/**").deny(Access::List, "/secret").deny(Access::Write, "/src/**");
    let mut shell = Shell::new(Arc::new(Policy::new(storage.clone(), policy)), ShellOptions::default());

    let result = shell.run("cat secret/key; echo \"cat: $?\"", None);
    assert_eq!(text(&result.stdout), "cat: 1\n");
    assert!(text(&result.stderr).contains("Permission denied"), "{}", text(&result.stderr));

    let result = shell.run("echo x > src/app.py; echo \"redirect: $?\"; rm -f src/old.py; echo \"rm: $?\"", None);
    assert_eq!(text(&result.stdout), "redirect: 1\nrm: 1\n", "{}", text(&result.stderr));
    assert!(result.write_set.is_empty(), "{:?}", result.write_set);

    let result = shell.run("grep -r hunter2 . ; echo \"grep: $?\"", None);
    assert!(!text(&result.stdout).contains("hunter2:"), "{}", text(&result.stdout));

    // Nothing changed, nothing leaked.
    assert_eq!(storage.read("/src/app.py").unwrap(), b"print('v1')\n");
    assert!(storage.read("/src/old.py").is_ok());
}

#[test]
fn host_programs_are_never_run() {
    // A storage with one file: whatever the host has, the shell sees only this.
    let storage = Arc::new(MemoryStorage::new(Default::default()));
    storage.write("/only-here", b"").unwrap();
    let mut shell = Shell::new(storage.clone(), ShellOptions::default());

    let result = shell.run("ls /", None);
    assert_eq!(text(&result.stdout), "only-here\n");

    for script in ["/bin/ls /", "/usr/bin/env true", "python3 -c 'print(1)'", "exec /bin/sh"] {
        let result = shell.run(script, None);
        assert_eq!(result.exit_code, 127, "{script}: {}", text(&result.stderr));
        assert!(result.stdout.is_empty(), "{script}");
    }
    // curl is the shell's own, and with no network policy it has no network
    // (curl's exit code for a connection it could not make).
    let result = shell.run("curl http://example.com", None);
    assert_eq!(result.exit_code, 7, "{}", text(&result.stderr));
    assert!(result.stdout.is_empty());
    assert!(text(&result.stderr).contains("the network is off"), "{}", text(&result.stderr));
    // `bash` and `sh` are the virtual shell itself, over the same storage.
    let result = shell.run("bash -c 'ls /; echo $0'", None);
    assert_eq!(text(&result.stdout), "only-here\nbash\n");
}

#[test]
fn the_shell_source_has_no_way_to_start_a_process() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/shell");
    let mut stack = vec![root];
    let mut files = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let source = std::fs::read_to_string(&path).unwrap();
            files += 1;
            for forbidden in ["std::process", "process::Command", "libc::", "std::fs", "std::net", "std::os::"] {
                assert!(!source.contains(forbidden), "{} uses {forbidden}", path.display());
            }
        }
    }
    assert!(files > 20, "read {files} files");
}
