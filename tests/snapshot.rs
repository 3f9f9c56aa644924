//! Session snapshots, restores and forks (src/shell/snapshot.rs): a session
//! split across snapshot → bytes → restore goes on as if nothing happened
//! (50 generated scripts, some restored in another process), and bad bytes
//! of every kind are refused with a clear error and change nothing.

use std::sync::Arc;

use aikido::shell::snapshot::{frame_for_fuzzing, FORMAT_VERSION, MAGIC};
use aikido::shell::{RunResult, Shell, ShellOptions, SnapshotError};
use aikido::storage::{DryRun, FileKind, MemoryLimits, MemoryStorage, Overlay, ReadOnly, Storage};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Every path of a storage with its kind and content (a symlink's target).
fn tree(storage: &dyn Storage) -> Vec<(String, Option<Vec<u8>>)> {
    fn walk(storage: &dyn Storage, directory: &str, out: &mut Vec<(String, Option<Vec<u8>>)>) {
        for entry in storage.list(directory).unwrap() {
            let path =
                if directory == "/" { format!("/{}", entry.name) } else { format!("{directory}/{}", entry.name) };
            match entry.kind {
                FileKind::Directory => {
                    out.push((path.clone(), None));
                    walk(storage, &path, out);
                }
                FileKind::File => out.push((path.clone(), Some(storage.read(&path).unwrap()))),
                FileKind::Symlink => {
                    out.push((format!("{path}@"), Some(storage.readlink(&path).unwrap().into_bytes())))
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(storage, "/", &mut out);
    out
}

fn memory_shell() -> Shell {
    Shell::new(Arc::new(MemoryStorage::default()), ShellOptions::default())
}

/// A session with something of every kind the state holds.
const SETUP: &str = r#"
mkdir -p /work/src && cd /work
x=1; declare -i n=40; n+=2; declare -u up=abc; declare -r ro=fixed; export ex=shared
arr=(a 'b c' d); arr[7]=seven; declare -A m=([k1]=v1 [k2]="v 2")
declare -n ref=x
greet() { local who=${1:-world}; echo "hello $who ($x)"; return 3; }
set -- p1 'p 2' p3
set -o pipefail; shopt -s extglob nullglob
trap 'echo err-trap' ERR
pushd /work/src >/dev/null
printf 'data\n' > /work/file.txt; ln -s file.txt /work/link; chmod 600 /work/file.txt
false
"#;

/// What the session shows of itself after SETUP.
const PROBE: &str = r#"
echo "status=$? pwd=$PWD dirs=$(dirs)"
declare -p x n up ro ex arr m ref
echo "$# $1 $2 $3 $@"; echo "ref=$ref"; ref=2; echo "x=$x"
greet; echo "ret=$?"; greet you
echo "opts=$- $(shopt -o pipefail) $(shopt extglob)"
trap -p
cat /work/file.txt; stat -c '%a %F' /work/file.txt /work/link; readlink /work/link
echo !(*.txt)
ro=changed
"#;

#[test]
fn a_restored_session_prints_what_the_original_would_have() {
    let mut original = memory_shell();
    let setup = original.run(SETUP, None);
    assert_eq!((text(&setup.stdout).as_str(), text(&setup.stderr).as_str()), ("err-trap\n", ""));
    let bytes = original.snapshot().unwrap();
    assert!(bytes.starts_with(MAGIC));
    let mut restored = Shell::restore_in_memory(&bytes, ShellOptions::default()).unwrap();
    let expected = original.run(PROBE, None);
    let got = restored.run(PROBE, None);
    assert_eq!(text(&got.stdout), text(&expected.stdout));
    assert_eq!(text(&got.stderr), text(&expected.stderr));
    assert_eq!(got.exit_code, expected.exit_code);
    assert!(text(&got.stdout).contains("hello world (2)"), "{}", text(&got.stdout));
    assert!(text(&got.stdout).contains("declare -A m="), "{}", text(&got.stdout));
    assert_eq!(tree(restored.storage().as_ref()), tree(original.storage().as_ref()));
}

#[test]
fn an_overlay_snapshot_carries_its_upper_layer_and_deletions_not_the_lower_storage() {
    let lower = Arc::new(MemoryStorage::default());
    lower.write("/keep", b"lower keep").unwrap();
    lower.write("/gone", b"lower gone").unwrap();
    lower.mkdir("/dir/sub", true).unwrap();
    lower.write("/dir/sub/deep", b"deep").unwrap();
    let overlay = Arc::new(Overlay::new(lower.clone()));
    let mut shell = Shell::new(overlay.clone(), ShellOptions::default());
    let ran = shell.run("rm /gone; rm -r /dir; mkdir /dir; echo new > /dir/new; echo changed > /keep; v=1", None);
    assert_eq!(ran.exit_code, 0, "{}", text(&ran.stderr));
    let bytes = shell.snapshot().unwrap();
    // The lower storage's files are not in the bytes.
    assert!(!bytes.windows(10).any(|window| window == b"lower keep"));
    let fresh = Arc::new(Overlay::new(lower.clone()));
    let mut restored = Shell::restore(&bytes, fresh.clone(), ShellOptions::default()).unwrap();
    assert_eq!(tree(fresh.as_ref()), tree(overlay.as_ref()));
    assert_eq!(fresh.diff().unwrap(), overlay.diff().unwrap());
    assert_eq!(text(&restored.run("echo $v; ls -R /", None).stdout), text(&shell.run("echo $v; ls -R /", None).stdout));
    // A dry run's changes come back too.
    let dry = Arc::new(DryRun::new(lower.clone()));
    let mut dry_shell = Shell::new(dry.clone(), ShellOptions::default());
    dry_shell.run("echo x > /made; rm /keep", None);
    let again = Arc::new(DryRun::new(lower.clone()));
    Shell::restore(&dry_shell.snapshot().unwrap(), again.clone(), ShellOptions::default()).unwrap();
    assert_eq!(again.write_set().unwrap(), dry.write_set().unwrap());
    assert_eq!(lower.read("/keep").unwrap(), b"lower keep", "the lower storage is never written");
}

#[test]
fn a_referred_storage_is_not_copied_and_a_mismatched_one_is_refused() {
    let host = Arc::new(ReadOnly(MemoryStorage::default()));
    let mut shell = Shell::new(host.clone(), ShellOptions::default());
    shell.run("v=kept", None);
    let bytes = shell.snapshot().unwrap();
    let mut restored = Shell::restore(&bytes, host, ShellOptions::default()).unwrap();
    assert_eq!(text(&restored.run("echo $v", None).stdout), "kept\n");
    // A memory storage's files cannot go into a storage that keeps none.
    let memory_bytes = {
        let mut shell = memory_shell();
        shell.run("echo a > /a", None);
        shell.snapshot().unwrap()
    };
    let error = Shell::restore(&memory_bytes, Arc::new(ReadOnly(MemoryStorage::default())), ShellOptions::default())
        .err()
        .unwrap();
    assert_eq!(
        error.to_string(),
        "the snapshot holds a memory storage, but the storage to restore into is a storage that keeps no files in memory"
    );
    let overlay = Arc::new(Overlay::new(MemoryStorage::default()));
    let error = Shell::restore(&memory_bytes, overlay, ShellOptions::default()).err().unwrap();
    assert!(matches!(error, SnapshotError::StorageKind { .. }), "{error}");
}

#[test]
fn a_fork_shares_nothing_mutable_with_its_original() {
    let mut original = memory_shell();
    original.run("echo one > /f; v=1; arr=(a b); f() { echo f1; }; cd /tmp 2>/dev/null || mkdir /tmp; cd /tmp", None);
    let mut fork = original.fork();
    let changed = fork.run("echo two >> /f; v=2; arr[5]=z; f() { echo f2; }; cd /; rm -f /gone; echo x > /new", None);
    assert_eq!(changed.exit_code, 0, "{}", text(&changed.stderr));
    let probe = "cat /f; echo $v ${arr[@]} $PWD; f; ls /";
    assert_eq!(text(&original.run(probe, None).stdout), "one\n1 a b /tmp\nf1\nf\ntmp\n");
    assert_eq!(text(&fork.run(probe, None).stdout), "one\ntwo\n2 a b z /\nf2\nf\nnew\ntmp\n");
    // And the other way round: the original's writes do not reach the fork.
    original.run("echo three > /f", None);
    assert_eq!(text(&fork.run("cat /f", None).stdout), "one\ntwo\n");
}

#[test]
fn a_restore_takes_the_target_storages_limits() {
    let mut shell = memory_shell();
    shell.run("printf '%0100d' 0 > /big", None);
    let bytes = shell.snapshot().unwrap();
    let small = Arc::new(MemoryStorage::new(MemoryLimits {
        max_total_bytes: 1000,
        max_file_bytes: 50,
        ..MemoryLimits::default()
    }));
    small.write("/before", b"kept").unwrap();
    let error = Shell::restore(&bytes, small.clone(), ShellOptions::default()).err().unwrap();
    assert_eq!(
        error.to_string(),
        "the snapshot is too large: /big holds 100 bytes, past the storage's limit of 50 per file"
    );
    assert_eq!(small.read("/before").unwrap(), b"kept", "a refused restore changes nothing");
    // The session's own memory budget bounds the variables.
    let mut shell = memory_shell();
    shell.run("v=$(printf '%02000d' 0)", None);
    let options = ShellOptions {
        limits: aikido::shell::Limits { max_memory_bytes: 1000, ..Default::default() },
        ..Default::default()
    };
    let error = Shell::restore_in_memory(&shell.snapshot().unwrap(), options).err().unwrap();
    assert!(matches!(error, SnapshotError::TooLarge(_)), "{error}");
}

// ---- bad bytes: each is refused with its own error ----

fn good_bytes() -> Vec<u8> {
    let mut shell = memory_shell();
    shell.run(SETUP, None);
    shell.snapshot().unwrap()
}

fn restore(bytes: &[u8]) -> Result<Shell, SnapshotError> {
    Shell::restore_in_memory(bytes, ShellOptions::default())
}

#[test]
fn bytes_of_a_newer_version_are_refused_by_name() {
    let mut bytes = good_bytes();
    bytes[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
    let error = restore(&bytes).err().unwrap();
    assert_eq!(
        error.to_string(),
        format!(
            "the snapshot has format version {}; this build reads version {FORMAT_VERSION} only",
            FORMAT_VERSION + 1
        )
    );
}

#[test]
fn other_bytes_are_not_a_snapshot() {
    for bytes in [&b""[..], b"hello world, this is not a snapshot at all", b"{\"json\": true}"] {
        assert_eq!(restore(bytes).err().unwrap(), SnapshotError::NotASnapshot);
    }
}

#[test]
fn every_truncation_is_refused() {
    let bytes = good_bytes();
    for len in (0..bytes.len()).step_by(7).chain([bytes.len() - 1]) {
        let error = restore(&bytes[..len]).err().unwrap();
        assert!(matches!(error, SnapshotError::Length { .. } | SnapshotError::NotASnapshot), "cut at {len}: {error}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(restore(&longer).err().unwrap(), SnapshotError::Length { .. }));
}

#[test]
fn every_bit_flip_is_caught() {
    let bytes = good_bytes();
    for at in (0..bytes.len()).step_by(3) {
        for bit in [0, 5] {
            let mut flipped = bytes.clone();
            flipped[at] ^= 1 << bit;
            assert!(restore(&flipped).is_err(), "a flip of bit {bit} at byte {at} restored");
        }
    }
}

/// A payload written by hand in postcard's encoding: varint counts.
fn varint(mut value: u64, out: &mut Vec<u8>) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

#[test]
fn huge_declared_counts_allocate_nothing_and_fail() {
    // A payload that starts with a cwd string declared 2^62 bytes long, and
    // one whose first map declares 2^62 entries: decoding stops at the end
    // of the bytes instead of allocating.
    let mut payload = Vec::new();
    varint(1 << 62, &mut payload);
    payload.extend_from_slice(b"/abc");
    let error = restore(&frame_for_fuzzing(&payload)).err().unwrap();
    assert!(matches!(error, SnapshotError::Invalid(_)), "{error}");
    let mut payload = Vec::new();
    varint(1, &mut payload);
    payload.push(b'/');
    varint(1 << 62, &mut payload);
    let error = restore(&frame_for_fuzzing(&payload)).err().unwrap();
    assert!(error.to_string().starts_with("the snapshot is invalid: the session does not decode"), "{error}");
    // The header's own length field past the bytes given.
    let mut bytes = good_bytes();
    bytes[16..24].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(restore(&bytes).err().unwrap(), SnapshotError::Length { .. }));
}

/// A snapshot whose payload is a good one's with `from` replaced by `to`
/// (same length, so every count stays right), framed again.
fn edited(from: &[u8], to: &[u8]) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let bytes = good_bytes();
    let payload = &bytes[24..bytes.len() - 4];
    let at = payload.windows(from.len()).position(|window| window == from).expect("the text is in the payload");
    let mut payload = payload.to_vec();
    payload[at..at + to.len()].copy_from_slice(to);
    frame_for_fuzzing(&payload)
}

#[test]
fn paths_that_escape_are_refused() {
    for (from, to) in
        [(&b"/work/src"[..], &b"/../../xx"[..]), (b"/work/file.txt", b"/work/../../et"), (b"/work/link", b"work//link")]
    {
        let error = restore(&edited(from, to)).err().unwrap();
        assert!(matches!(error, SnapshotError::Invalid(_)), "{}: {error}", text(to));
    }
    // A file whose folder is not in the snapshot.
    let error = restore(&edited(b"/work/file.txt", b"/work/fz/e.txt")).err().unwrap();
    assert!(error.to_string().contains("is not under a directory of the snapshot"), "{error}");
}

#[test]
fn names_with_nul_bytes_are_refused() {
    let cases: [(&[u8], &[u8]); 4] = [
        (b"greet", b"gr\0et"),                   // a function's name
        (b"fixed", b"fi\0ed"),                   // a value
        (b"/work/file.txt", b"/work/fi\0e.txt"), // a path
        (b"file.txt", b"file\0txt"),             // a symlink's target
    ];
    for (from, to) in cases {
        let error = restore(&edited(from, to)).err().unwrap();
        assert!(error.to_string().contains("NUL"), "{}: {error}", text(to));
    }
}

#[test]
fn deeply_nested_function_text_is_refused_without_overflowing() {
    let mut shell = memory_shell();
    shell.run("f() { echo 123456789; }", None);
    let bytes = shell.snapshot().unwrap();
    let payload = &bytes[24..bytes.len() - 4];
    // Replace the function's text by a deep nest of subshells, as long as the
    // payload allows with its counts rewritten: build the payload anew.
    let at = payload.windows(4).position(|window| window == b"f ()").unwrap();
    let mut nested = String::from("f () \n{ ");
    nested.push_str(&"(".repeat(100_000));
    nested.push_str(&")".repeat(100_000));
    nested.push_str("\n}\n");
    let mut forged = payload[..at - 1].to_vec(); // up to the text's length byte
    varint(nested.len() as u64, &mut forged);
    forged.extend_from_slice(nested.as_bytes());
    let old_len = payload[at - 1] as usize;
    forged.extend_from_slice(&payload[at + old_len..]);
    let error = restore(&frame_for_fuzzing(&forged)).err().unwrap();
    assert!(error.to_string().contains("does not parse as one"), "{error}");
}

#[test]
fn a_build_with_another_layout_is_named() {
    let mut bytes = good_bytes();
    bytes[12] ^= 0xff;
    // The checksum covers the layout: fix it so the layout check is reached.
    let end = bytes.len() - 4;
    let checksum = crc32(&bytes[..end]);
    bytes[end..].copy_from_slice(&checksum.to_le_bytes());
    assert!(matches!(restore(&bytes).err().unwrap(), SnapshotError::Layout { .. }));
}

/// CRC-32 (IEEE), bit by bit: the test's own, to check the library's.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

// ---- the proof: 50 generated scripts split across a snapshot ----

/// xorshift64*: the scripts and their split points are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One line of a generated script: every part of the state, and files.
fn line(rng: &mut Rng) -> String {
    let names = ["a", "b", "c", "d"];
    let name = names[rng.below(names.len())];
    let n = rng.below(100);
    let dir = ["/w", "/w/x", "/w/y", "/"][rng.below(4)];
    match rng.below(24) {
        0 => format!("{name}={n}"),
        1 => format!("{name}+=\"-{n}\""),
        2 => format!("arr_{name}=(x{n} 'y {n}' z); arr_{name}[{n}]=w"),
        3 => format!("declare -A map_{name}; map_{name}[k{n}]=v{n}"),
        4 => format!("declare -i i_{name}=0; i_{name}+={n}"),
        5 => format!("f_{name}() {{ echo \"f_{name} $1 ${{{name}:-unset}}\"; return {}; }}", n % 4),
        6 => format!("f_{name} arg{n} 2>/dev/null; echo \"rc=$?\""),
        7 => format!("mkdir -p {dir} && cd {dir}"),
        8 => format!("echo line{n} >> /w/log.txt 2>/dev/null || {{ mkdir -p /w; echo line{n} > /w/log.txt; }}"),
        9 => format!("printf '%s\\n' {n} > /w/f{}.txt 2>/dev/null; true", n % 5),
        10 => format!("rm -f /w/f{}.txt", n % 5),
        11 => format!("mv /w/f{}.txt /w/g{}.txt 2>/dev/null; true", n % 5, n % 3),
        12 => format!("set -- {n} two{n} 'three {n}'"),
        13 => "echo \"args=$# $*\"".to_string(),
        14 => ["set -o pipefail", "set +o pipefail", "shopt -s nullglob", "shopt -u nullglob"][n % 4].to_string(),
        15 => format!("export {name}"),
        16 => format!("unset {name}"),
        17 => "pushd / >/dev/null; pushd /w >/dev/null 2>&1; dirs".to_string(),
        18 => "popd >/dev/null 2>&1; echo \"pwd=$PWD\"".to_string(),
        19 => format!("trap 'echo trapped{n}' ERR"),
        20 => "false; echo \"after=$?\"".to_string(),
        21 => "declare -p a b c d arr_a map_b i_c 2>&1 | sort".to_string(),
        22 => "ls -R /w 2>&1; cat /w/*.txt 2>/dev/null | head -5".to_string(),
        _ => format!("declare -f f_{name}; echo \"$PWD $? $-\""),
    }
}

fn script(rng: &mut Rng) -> Vec<String> {
    let count = 6 + rng.below(20);
    (0..count).map(|_| line(rng)).collect()
}

fn outcome(result: &RunResult) -> (String, String, i32) {
    (text(&result.stdout), text(&result.stderr), result.exit_code)
}

#[test]
fn fifty_scripts_split_across_a_snapshot_run_as_if_uninterrupted() {
    let mut rng = Rng(0x005e_ed0f_5a0b_5e55);
    let mut in_process = 0;
    let mut out_of_process = 0;
    for index in 0..50 {
        let lines = script(&mut rng);
        let at = rng.below(lines.len() + 1);
        let (first, second) = (lines[..at].join("\n"), lines[at..].join("\n"));
        // The uninterrupted session: the same two calls, one after the other.
        let mut whole = memory_shell();
        let expected_first = outcome(&whole.run(&first, None));
        let expected_second = outcome(&whole.run(&second, None));
        // The split one.
        let mut split = memory_shell();
        assert_eq!(outcome(&split.run(&first, None)), expected_first, "script {index}");
        let bytes = split.snapshot().unwrap();
        drop(split);
        let (got_second, got_tree) = if index % 5 == 0 {
            out_of_process += 1;
            restore_in_a_new_process(&bytes, &second)
        } else {
            in_process += 1;
            let mut restored = restore(&bytes).unwrap();
            let got = outcome(&restored.run(&second, None));
            (got, tree(restored.storage().as_ref()))
        };
        assert_eq!(got_second, expected_second, "script {index}, split at line {at}:\n{first}\n---\n{second}");
        assert_eq!(got_tree, tree(whole.storage().as_ref()), "script {index}: the final trees differ");
    }
    assert_eq!((in_process, out_of_process), (40, 10));
}

/// Restores `bytes` in a child process (this test binary again, running
/// only [`child_restores_and_runs`]) and runs `script` there.
/// A run's stdout, stderr and status, and the storage's files after it.
type RunAndTree = ((String, String, i32), Vec<(String, Option<Vec<u8>>)>);

fn restore_in_a_new_process(bytes: &[u8], script: &str) -> RunAndTree {
    let folder = std::env::temp_dir().join(format!("aikido-snapshot-{}-{}", std::process::id(), rand_suffix()));
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("session"), bytes).unwrap();
    std::fs::write(folder.join("script"), script).unwrap();
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_restores_and_runs", "--nocapture", "--test-threads=1"])
        .env("AIKIDO_SNAPSHOT_CHILD", &folder)
        .output()
        .unwrap();
    assert!(status.status.success(), "the child failed: {}", text(&status.stderr));
    let read = |name: &str| std::fs::read(folder.join(name)).unwrap();
    let code: i32 = text(&read("code")).parse().unwrap();
    let after = std::fs::read(folder.join("after")).unwrap();
    std::fs::remove_dir_all(&folder).unwrap();
    // The child snapshots its session after the run: its tree comes back in it.
    let shell = restore(&after).unwrap();
    (
        (text(&read_from(&status.stdout, "STDOUT")), text(&read_from(&status.stdout, "STDERR")), code),
        tree(shell.storage().as_ref()),
    )
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The bytes the child printed between `<<NAME` and `NAME>>`.
fn read_from(output: &[u8], name: &str) -> Vec<u8> {
    let open = format!("<<{name}\n");
    let close = format!("{name}>>\n");
    let start = output.windows(open.len()).position(|w| w == open.as_bytes()).unwrap() + open.len();
    let end = start + output[start..].windows(close.len()).position(|w| w == close.as_bytes()).unwrap();
    output[start..end].to_vec()
}

/// Runs only as the child of [`restore_in_a_new_process`].
#[test]
fn child_restores_and_runs() {
    let Some(folder) = std::env::var_os("AIKIDO_SNAPSHOT_CHILD") else { return };
    let folder = std::path::PathBuf::from(folder);
    let bytes = std::fs::read(folder.join("session")).unwrap();
    let script = std::fs::read_to_string(folder.join("script")).unwrap();
    let mut shell = restore(&bytes).unwrap();
    let result = shell.run(&script, None);
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(b"<<STDOUT\n").unwrap();
    out.write_all(&result.stdout).unwrap();
    out.write_all(b"STDOUT>>\n<<STDERR\n").unwrap();
    out.write_all(&result.stderr).unwrap();
    out.write_all(b"STDERR>>\n").unwrap();
    std::fs::write(folder.join("code"), result.exit_code.to_string()).unwrap();
    std::fs::write(folder.join("after"), shell.snapshot().unwrap()).unwrap();
}
