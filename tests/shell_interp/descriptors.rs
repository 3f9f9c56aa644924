//! Redirections and descriptors across the interpreter's threads: `< FILE`
//! opens its file once (`Storage::open_read`) and reads it in pieces (never
//! whole),
//! descriptors 3 to 9 reach pipeline stages and background jobs, and a
//! subshell does not wait for the jobs it started (the run's end stops
//! them). Expected outputs are bash 5.2's (`bash -c`, C locale).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use aikido::shell::{Limits, Shell, ShellOptions};
use aikido::storage::{DirEntry, MemoryStorage, Metadata, OpenFile, Storage, StorageError};

/// A memory storage that counts how `/big` is read: whole (`read`) or in
/// ranges (by path or of the file opened), and the largest range asked for.
#[derive(Default)]
struct Counting {
    inner: MemoryStorage,
    whole_reads: AtomicUsize,
    range_reads: Arc<AtomicUsize>,
    largest_range: Arc<AtomicUsize>,
}

/// `/big` opened: counts its ranges as `Counting` does.
struct CountingFile {
    inner: Arc<dyn OpenFile>,
    range_reads: Arc<AtomicUsize>,
    largest_range: Arc<AtomicUsize>,
}

impl OpenFile for CountingFile {
    fn read_at(&self, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        self.range_reads.fetch_add(1, Ordering::SeqCst);
        self.largest_range.fetch_max(len, Ordering::SeqCst);
        self.inner.read_at(offset, len)
    }
    fn size(&self) -> u64 {
        self.inner.size()
    }
}

impl Storage for Counting {
    fn read(&self, path: &str) -> Result<Vec<u8>, StorageError> {
        if path == "/big" {
            self.whole_reads.fetch_add(1, Ordering::SeqCst);
        }
        self.inner.read(path)
    }
    fn read_range(&self, path: &str, offset: u64, len: usize) -> Result<Vec<u8>, StorageError> {
        if path == "/big" {
            self.range_reads.fetch_add(1, Ordering::SeqCst);
            self.largest_range.fetch_max(len, Ordering::SeqCst);
        }
        self.inner.read_range(path, offset, len)
    }
    fn open_read(&self, path: &str) -> Result<Arc<dyn OpenFile>, StorageError> {
        let inner = self.inner.open_read(path)?;
        if path != "/big" {
            return Ok(inner);
        }
        let (range_reads, largest_range) = (self.range_reads.clone(), self.largest_range.clone());
        Ok(Arc::new(CountingFile { inner, range_reads, largest_range }))
    }
    fn write(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.inner.write(path, data)
    }
    fn append(&self, path: &str, data: &[u8]) -> Result<(), StorageError> {
        self.inner.append(path, data)
    }
    fn stat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.inner.stat(path)
    }
    fn lstat(&self, path: &str) -> Result<Metadata, StorageError> {
        self.inner.lstat(path)
    }
    fn list(&self, path: &str) -> Result<Vec<DirEntry>, StorageError> {
        self.inner.list(path)
    }
    fn mkdir(&self, path: &str, parents: bool) -> Result<(), StorageError> {
        self.inner.mkdir(path, parents)
    }
    fn remove(&self, path: &str, recursive: bool) -> Result<(), StorageError> {
        self.inner.remove(path, recursive)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), StorageError> {
        self.inner.rename(from, to)
    }
    fn symlink(&self, target: &str, link: &str) -> Result<(), StorageError> {
        self.inner.symlink(target, link)
    }
    fn readlink(&self, path: &str) -> Result<String, StorageError> {
        self.inner.readlink(path)
    }
}

/// `1\n2\n…100000\n`: 588,895 bytes, more than two 256 KiB pieces.
fn numbers() -> Vec<u8> {
    (1..=100_000).map(|n| format!("{n}\n")).collect::<String>().into_bytes()
}

struct Ran {
    stdout: String,
    stderr: String,
    status: i32,
}

fn run_on(storage: Arc<dyn Storage>, limits: Limits, script: &str) -> Ran {
    let mut shell = Shell::new(storage, ShellOptions { limits, ..ShellOptions::default() });
    let result = shell.run(script, None);
    assert_eq!(
        result.limit,
        None,
        "{script}: stopped by a limit; stderr {:?}",
        String::from_utf8_lossy(&result.stderr)
    );
    Ran {
        stdout: String::from_utf8_lossy(&result.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&result.stderr).into_owned(),
        status: result.exit_code,
    }
}

fn run(script: &str) -> Ran {
    run_on(Arc::new(MemoryStorage::new(Default::default())), Limits::default(), script)
}

#[test]
fn redirected_files_are_read_in_pieces() {
    let storage = Arc::new(Counting::default());
    storage.inner.write("/big", &numbers()).unwrap();
    let script = "wc -l < /big\n\
                  { head -n 2; read -r third; echo \"third: $third\"; tail -n 1; } < /big\n\
                  exec 3< /big; read -r a <&3; read -r b <&3; echo \"fd 3: $a $b\"; wc -l <&3; exec 3<&-\n\
                  tail -c 14 < /big\n";
    let ran = run_on(storage.clone(), Limits::default(), script);
    assert_eq!(ran.stdout, "100000\n1\n2\nthird: 3\n100000\nfd 3: 1 2\n99998\n\n99999\n100000\n");
    assert_eq!((ran.stderr.as_str(), ran.status), ("", 0));
    assert_eq!(storage.whole_reads.load(Ordering::SeqCst), 0, "a redirection read /big whole");
    // Four redirections over three pieces each.
    assert!(storage.range_reads.load(Ordering::SeqCst) >= 12, "{} ranges", storage.range_reads.load(Ordering::SeqCst));
    assert_eq!(storage.largest_range.load(Ordering::SeqCst), 256 * 1024);
}

#[test]
fn a_missing_or_unreadable_redirection_is_reported_as_before() {
    let ran = run("mkdir /d; cat < /nope; echo \"status $?\"; cat < /d; echo \"status $?\"; wc -c < /dev/null");
    assert_eq!(ran.stdout, "status 1\nstatus 1\n0\n");
    assert!(ran.stderr.contains("/nope: No such file or directory\n"), "{}", ran.stderr);
    assert!(ran.stderr.contains("Is a directory\n"), "{}", ran.stderr);
}

#[test]
fn exec_descriptors_reach_every_pipeline_stage() {
    let ran = run("exec 3> /log\n\
                   echo one >&3 | cat\n\
                   { echo two >&3; echo out; } | tr a-z A-Z\n\
                   printf 'x\\n' | { echo three >&3; cat; }\n\
                   exec 3>&-\n\
                   cat /log\n\
                   printf 'first\\nsecond\\n' > /in; exec 4< /in\n\
                   head -n 1 <&4 | tr a-z A-Z\n\
                   exec 4<&-\n\
                   exec 5>&1; echo via5 >&5 | cat; exec 5>&-\n");
    assert_eq!(ran.stdout, "OUT\nx\none\ntwo\nthree\nFIRST\nvia5\n");
    assert_eq!((ran.stderr.as_str(), ran.status), ("", 0));
}

#[test]
fn exec_descriptors_reach_background_jobs() {
    let ran = run("exec 3> /jobs\n\
                   { echo from-job >&3; } &\n\
                   wait\n\
                   echo after >&3\n\
                   ( echo from-subshell >&3 ) & wait $!\n\
                   exec 3>&-\n\
                   cat /jobs\n\
                   printf 'line\\n' > /in; exec 4< /in\n\
                   { read -r l <&4; echo \"job read: $l\"; } & wait\n\
                   exec 5>&1; { echo via5 >&5; } & wait\n");
    assert_eq!(ran.stdout, "from-job\nafter\nfrom-subshell\njob read: line\nvia5\n");
    assert_eq!((ran.stderr.as_str(), ran.status), ("", 0));
}

/// Limits whose clock a subshell waiting for an hour-long job would reach.
fn short_clock() -> Limits {
    Limits { max_duration: Duration::from_secs(20), ..Limits::default() }
}

#[test]
fn a_subshell_does_not_wait_for_its_jobs() {
    let script = "( sleep 3600 & )\n\
                  echo returned\n\
                  ( sleep 3600 & [ -n \"$!\" ] && echo inner-set )\n\
                  bash -c 'sleep 3600 &'; echo \"child bash $?\"\n\
                  { ( sleep 3600 & ); echo in-job; } &\n\
                  wait $!; echo \"job $?\"\n\
                  wait; echo \"wait $?\"\n\
                  jobs | wc -l\n";
    let ran = run_on(Arc::new(MemoryStorage::new(Default::default())), short_clock(), script);
    assert_eq!(ran.stdout, "returned\ninner-set\nchild bash 0\nin-job\njob 0\nwait 0\n0\n");
    assert_eq!((ran.stderr.as_str(), ran.status), ("", 0));
}

#[test]
fn substitutions_still_wait_for_the_jobs_started_inside() {
    let ran = run("x=$( (sleep 0.05; echo late) & ); echo \"[$x]\"\n\
                   y=$(sleep 0.05 & echo now); echo \"[$y]\"\n\
                   cat <(sleep 0.05 & echo proc)\n\
                   { (sleep 0.05; echo staged) & } | cat\n");
    assert_eq!(ran.stdout, "[late]\n[now]\nproc\nstaged\n");
    assert_eq!((ran.stderr.as_str(), ran.status), ("", 0));
}

#[test]
fn the_run_end_stops_jobs_no_shell_waits_for() {
    // Jobs left by a subshell, by a job's subshell, and nested deeper: the
    // run ends, its threads are joined, and the next run works.
    let storage: Arc<dyn Storage> = Arc::new(MemoryStorage::new(Default::default()));
    let mut shell = Shell::new(storage, ShellOptions { limits: short_clock(), ..ShellOptions::default() });
    let first = shell.run(
        "( while :; do sleep 0.01; done & )\n\
         { ( ( sleep 3600 & ) & ); } &\n\
         echo end\n",
        None,
    );
    assert_eq!((String::from_utf8_lossy(&first.stdout).as_ref(), first.exit_code, first.limit), ("end\n", 0, None));
    let second = shell.run("echo again; jobs | wc -l", None);
    assert_eq!(String::from_utf8_lossy(&second.stdout), "again\n0\n");
}
