//! `Storage::set_mode` (what `chmod` uses) across the storages: kept by
//! memory and overlays, set on the real file by a host directory (inside
//! its root only), refused by a read-only view.

use std::os::unix::fs::PermissionsExt;

use aikido::storage::{HostDir, MemoryStorage, Overlay, ReadOnly, Storage, StorageError};

#[test]
fn memory_keeps_modes_of_files_and_directories() {
    let storage = MemoryStorage::new(Default::default());
    storage.write("/f", b"x").unwrap();
    storage.mkdir("/d", false).unwrap();
    storage.set_mode("/f", 0o4755).unwrap();
    storage.set_mode("/d", 0o700).unwrap();
    assert_eq!(storage.stat("/f").unwrap().mode, 0o4755);
    assert_eq!(storage.stat("/d").unwrap().mode, 0o700);
    // A rewrite keeps the mode.
    storage.write("/f", b"yy").unwrap();
    assert_eq!(storage.stat("/f").unwrap().mode, 0o4755);
    // Through a symlink: the target changes.
    storage.symlink("f", "/l").unwrap();
    storage.set_mode("/l", 0o600).unwrap();
    assert_eq!(storage.stat("/f").unwrap().mode, 0o600);
    assert!(matches!(storage.set_mode("/nope", 0o644), Err(StorageError::NotFound(_))));
}

#[test]
fn host_dir_sets_real_bits_inside_its_root() {
    let root = std::env::temp_dir().join(format!("aikido-modes-{}", std::process::id()));
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/run.sh"), b"echo hi\n").unwrap();
    let storage = HostDir::new(&root).unwrap();
    storage.set_mode("/sub/run.sh", 0o750).unwrap();
    let bits = std::fs::metadata(root.join("sub/run.sh")).unwrap().permissions().mode() & 0o7777;
    assert_eq!(bits, 0o750);
    assert_eq!(storage.stat("/sub/run.sh").unwrap().mode, 0o750);
    // `..` never leaves the root.
    assert!(storage.set_mode("/../../etc/passwd", 0o777).is_err());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn overlay_keeps_file_modes_and_read_only_refuses() {
    let lower = MemoryStorage::new(Default::default());
    lower.write("/f", b"x").unwrap();
    let overlay = Overlay::new(lower);
    overlay.set_mode("/f", 0o755).unwrap();
    assert_eq!(overlay.stat("/f").unwrap().mode, 0o755);
    assert_eq!(overlay.read("/f").unwrap(), b"x");
    let inner = MemoryStorage::new(Default::default());
    inner.write("/g", b"").unwrap();
    let frozen = ReadOnly(inner);
    assert!(matches!(frozen.set_mode("/g", 0o600), Err(StorageError::ReadOnly(_))));
}
