//! The host-directory storage on a real tree: stat every file, list every
//! folder, read a slice of the files, directly and behind a path policy.
//! The tree is /usr/include (AIKIDO_BENCH_TREE overrides it; without it,
//! this checkout's own src/). docs/PERFORMANCE.md keeps the figures.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use aikido::storage::{Access, HostDir, PathPolicy, Policy, Storage};
use criterion::{criterion_group, criterion_main, Criterion};

/// How many files the read bench reads per iteration.
const READS: usize = 500;

fn tree() -> PathBuf {
    if let Some(tree) = std::env::var_os("AIKIDO_BENCH_TREE") {
        return PathBuf::from(tree);
    }
    let include = PathBuf::from("/usr/include");
    if include.is_dir() {
        include
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src")
    }
}

/// The virtual paths of every file and folder under `root` (no symlinks
/// followed), sorted.
fn walk(root: &Path) -> (Vec<String>, Vec<String>) {
    let (mut files, mut folders) = (Vec::new(), vec!["/".to_owned()]);
    let mut pending = vec![(root.to_path_buf(), String::new())];
    while let Some((host, virtual_path)) = pending.pop() {
        for entry in std::fs::read_dir(&host).expect("the tree is readable") {
            let entry = entry.unwrap();
            let Ok(name) = entry.file_name().into_string() else { continue };
            let path = format!("{virtual_path}/{name}");
            let kind = entry.file_type().unwrap();
            if kind.is_dir() {
                folders.push(path.clone());
                pending.push((entry.path(), path));
            } else if kind.is_file() {
                files.push(path);
            }
        }
    }
    files.sort();
    folders.sort();
    (files, folders)
}

fn host_dir(c: &mut Criterion) {
    let root = tree();
    let (files, folders) = walk(&root);
    let storage = HostDir::new(&root).unwrap().read_only();
    let policy = Policy::new(
        HostDir::new(&root).unwrap().read_only(),
        PathPolicy::new().deny(Access::Read, "*.secret").deny(Access::List, "/private/**"),
    );
    let reads: Vec<&String> = files.iter().step_by((files.len() / READS).max(1)).take(READS).collect();
    let read_bytes: usize = reads.iter().map(|path| storage.read(path).unwrap().len()).sum();
    eprintln!(
        "tree {}: {} files, {} folders; the read bench reads {} files, {read_bytes} bytes",
        root.display(),
        files.len(),
        folders.len(),
        reads.len()
    );

    let mut group = c.benchmark_group("hostdir");
    group.sample_size(10);
    group.bench_function("stat_every_file", |b| {
        b.iter(|| files.iter().map(|path| storage.stat(black_box(path)).unwrap().size).sum::<u64>())
    });
    group.bench_function("list_every_folder", |b| {
        b.iter(|| folders.iter().map(|path| storage.list(black_box(path)).unwrap().len()).sum::<usize>())
    });
    group.bench_function("read_500_files", |b| {
        b.iter(|| reads.iter().map(|path| storage.read(black_box(path)).unwrap().len()).sum::<usize>())
    });
    group.bench_function("policy_stat_every_file", |b| {
        b.iter(|| files.iter().map(|path| policy.stat(black_box(path)).unwrap().size).sum::<u64>())
    });
    group.finish();
}

criterion_group!(benches, host_dir);
criterion_main!(benches);
