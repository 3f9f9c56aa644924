package tools

/*
#include <stdlib.h>
#include "aikido.h"
*/
import "C"

import (
	"io/fs"
	"runtime"
	"time"
	"unsafe"
)

// Storage is a virtual file storage: what the file tools and the shell act
// on. Every path is virtual: absolute, normalised, and ".." never climbs
// above "/". It is safe for concurrent use. Storages made from it (views,
// overlays, mounts), and the tools and shells over it, keep their own share,
// so it may be closed before them.
//
// Failed operations return a *StorageError.
type Storage struct {
	storage *C.aikido_storage
	cleanup runtime.Cleanup
}

// newStorage owns a handle a constructor returned: freed by Close, or once
// the Storage is unreachable. NULL means the constructor refused its input.
func newStorage(storage *C.aikido_storage) (*Storage, error) {
	if storage == nil {
		return nil, &StorageError{Status: C.AIKIDO_ERR_INVALID_INPUT,
			Message: ErrInvalidInput.Error() + ": the storage is closed or the prefix is not UTF-8"}
	}
	s := &Storage{storage: storage}
	s.cleanup = runtime.AddCleanup(s, func(storage *C.aikido_storage) { C.aikido_storage_free(storage) }, storage)
	return s, nil
}

// Close frees the handle now rather than when the Storage is collected.
// Calls on a closed Storage fail with ErrInvalidInput. It must not run at
// the same time as another call on this Storage.
func (s *Storage) Close() error {
	s.cleanup.Stop()
	C.aikido_storage_free(s.storage)
	s.storage = nil
	return nil
}

// NewMemoryStorage returns an empty storage in memory. A limit of 0 means
// none; a write that would pass a limit fails and changes nothing.
func NewMemoryStorage(maxTotalBytes, maxFileBytes uint64) *Storage {
	s, _ := newStorage(C.aikido_storage_memory_new(C.uint64_t(maxTotalBytes), C.uint64_t(maxFileBytes)))
	return s
}

// NewHostStorage returns a storage over the host folder root, which must
// exist. No path, ".." or symlink reaches outside it; with readOnly, every
// change is refused.
func NewHostStorage(root string, readOnly bool) (*Storage, error) {
	texts, err := storageCStrings(namedText{"the root", root})
	if err != nil {
		return nil, err
	}
	defer texts.free()
	var storage *C.aikido_storage
	var message *C.char
	if status := C.aikido_storage_host_new(texts[0], C.bool(readOnly), &storage, &message); status != C.AIKIDO_OK {
		return nil, storageError(status, message)
	}
	return newStorage(storage)
}

// ReadOnly returns a view of inner that refuses every change.
func ReadOnly(inner *Storage) (*Storage, error) {
	defer runtime.KeepAlive(inner)
	return newStorage(C.aikido_storage_read_only(inner.storage))
}

// NewOverlay returns a writable layer in memory over lower, which stays
// untouched until Commit. Diff and Discard work on it too.
func NewOverlay(lower *Storage) (*Storage, error) {
	defer runtime.KeepAlive(lower)
	return newStorage(C.aikido_storage_overlay_new(lower.storage))
}

// NewDryRun returns a storage over lower whose changes are recorded, never
// applied: Diff says what they would be.
func NewDryRun(lower *Storage) (*Storage, error) {
	defer runtime.KeepAlive(lower)
	return newStorage(C.aikido_storage_dry_run_new(lower.storage))
}

// Mount returns base with mounted at prefix (the longest mounted prefix
// covering a path wins; renames across mounts fail).
func Mount(base *Storage, prefix string, mounted *Storage) (*Storage, error) {
	texts, err := storageCStrings(namedText{"the prefix", prefix})
	if err != nil {
		return nil, err
	}
	defer texts.free()
	defer runtime.KeepAlive(base)
	defer runtime.KeepAlive(mounted)
	return newStorage(C.aikido_storage_mount(base.storage, texts[0], mounted.storage))
}

// Access is a kind of access a PathRule governs.
type Access int32

const (
	AccessRead  Access = C.AIKIDO_ACCESS_READ  // files, metadata, symlinks
	AccessWrite Access = C.AIKIDO_ACCESS_WRITE // creating, changing, renaming, removing
	AccessList  Access = C.AIKIDO_ACCESS_LIST  // listing a directory
)

// PathRule allows or denies an access to the paths matching the glob
// Pattern ("*" within a component, "**" across, "?", "[a-z]").
type PathRule struct {
	Access  Access
	Allow   bool
	Pattern string
}

// NewPolicy returns inner behind rules: for each kind of access, a path must
// match no deny rule and, if there are allow rules of that kind, one of
// them. Refused accesses fail with "Permission denied".
func NewPolicy(inner *Storage, rules ...PathRule) (*Storage, error) {
	patterns := make([]namedText, len(rules))
	for i, rule := range rules {
		patterns[i] = namedText{"a pattern", rule.Pattern}
	}
	texts, err := storageCStrings(patterns...)
	if err != nil {
		return nil, err
	}
	defer texts.free()
	// C memory: the array holds pointers, which Go memory passed to C may not.
	first := (*C.aikido_path_rule)(C.calloc(C.size_t(max(len(rules), 1)), C.sizeof_aikido_path_rule))
	defer C.free(unsafe.Pointer(first))
	for i, rule := range rules {
		unsafe.Slice(first, len(rules))[i] = C.aikido_path_rule{
			access: C.int32_t(rule.Access), allow: C.bool(rule.Allow), pattern: texts[i]}
	}
	var storage *C.aikido_storage
	var message *C.char
	status := C.aikido_storage_policy_new(inner.storage, first, C.size_t(len(rules)), &storage, &message)
	runtime.KeepAlive(inner)
	if status != C.AIKIDO_OK {
		return nil, storageError(status, message)
	}
	return newStorage(storage)
}

// ReadFile returns the whole file at path (symlinks followed).
func (s *Storage) ReadFile(path string) ([]byte, error) {
	var data *C.uint8_t
	var length C.size_t
	err := s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_read(s.storage, paths[0], &data, &length, message)
	}, path)
	if err != nil {
		return nil, err
	}
	defer C.aikido_bytes_free(data, length)
	return C.GoBytes(unsafe.Pointer(data), C.int(length)), nil
}

// WriteFile creates or replaces the file at path.
func (s *Storage) WriteFile(path string, data []byte) error {
	return s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_write(s.storage, paths[0], bytesOf(data), C.size_t(len(data)), message)
	}, path)
}

// AppendFile appends data to the file at path, creating it.
func (s *Storage) AppendFile(path string, data []byte) error {
	return s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_append(s.storage, paths[0], bytesOf(data), C.size_t(len(data)), message)
	}, path)
}

// Mkdir creates a directory.
func (s *Storage) Mkdir(path string) error { return s.mkdir(path, false) }

// MkdirAll creates a directory and any missing parents; an existing
// directory is fine.
func (s *Storage) MkdirAll(path string) error { return s.mkdir(path, true) }

func (s *Storage) mkdir(path string, parents bool) error {
	return s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_mkdir(s.storage, paths[0], C.bool(parents), message)
	}, path)
}

// Remove removes a file, symlink or empty directory.
func (s *Storage) Remove(path string) error { return s.remove(path, false) }

// RemoveAll removes a path and everything under it.
func (s *Storage) RemoveAll(path string) error { return s.remove(path, true) }

func (s *Storage) remove(path string, recursive bool) error {
	return s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_remove(s.storage, paths[0], C.bool(recursive), message)
	}, path)
}

// Rename moves from to to, replacing a file there.
func (s *Storage) Rename(from, to string) error {
	return s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_rename(s.storage, paths[0], paths[1], message)
	}, from, to)
}

// Symlink creates a symlink at link pointing at target, kept as written.
func (s *Storage) Symlink(target, link string) error {
	return s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_symlink(s.storage, paths[0], paths[1], message)
	}, target, link)
}

// Readlink returns the target of the symlink at path.
func (s *Storage) Readlink(path string) (string, error) {
	var target *C.char
	err := s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_readlink(s.storage, paths[0], &target, message)
	}, path)
	return takeString(target), err
}

// FileKind is what a path names.
type FileKind int32

const (
	KindFile      FileKind = C.AIKIDO_FILE_KIND_FILE
	KindDirectory FileKind = C.AIKIDO_FILE_KIND_DIRECTORY
	KindSymlink   FileKind = C.AIKIDO_FILE_KIND_SYMLINK
)

var kindNames = [...]string{KindFile: "file", KindDirectory: "directory", KindSymlink: "symlink"}

// String returns "file", "directory" or "symlink".
func (k FileKind) String() string {
	if int(k) < len(kindNames) && k >= 0 {
		return kindNames[k]
	}
	return "unknown"
}

// UnmarshalText reads the library's names of kinds.
func (k *FileKind) UnmarshalText(text []byte) error {
	for kind, name := range kindNames {
		if name == string(text) {
			*k = FileKind(kind)
			return nil
		}
	}
	return &StorageError{Status: C.AIKIDO_ERR_INVALID_INPUT, Message: "aikido/tools: unknown file kind " + string(text)}
}

// FileStat is what Stat reports.
type FileStat struct {
	Kind    FileKind
	Size    int64       // bytes in a file; 0 for a directory
	Mode    fs.FileMode // permission bits, e.g. 0644
	ModTime time.Time
}

// Stat describes path, symlinks followed.
func (s *Storage) Stat(path string) (FileStat, error) {
	var stat C.aikido_file_stat
	err := s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_stat(s.storage, paths[0], &stat, message)
	}, path)
	if err != nil {
		return FileStat{}, err
	}
	return FileStat{
		Kind:    FileKind(stat.kind),
		Size:    int64(stat.size),
		Mode:    fs.FileMode(stat.mode),
		ModTime: time.UnixMilli(int64(stat.modified_unix_ms)),
	}, nil
}

// DirEntry is one entry of ReadDir.
type DirEntry struct {
	Name string   `json:"name"`
	Kind FileKind `json:"kind"`
}

// ReadDir returns the entries of the directory at path, sorted by name.
func (s *Storage) ReadDir(path string) ([]DirEntry, error) {
	var entries *C.aikido_dir_entries
	err := s.call(func(message **C.char, paths ...*C.char) C.aikido_status {
		return C.aikido_storage_entries(s.storage, paths[0], &entries, message)
	}, path)
	if err != nil {
		return nil, err
	}
	defer C.aikido_dir_entries_free(entries)
	return readArray(C.aikido_dir_entries_len(entries), func(index C.size_t, message **C.char) (DirEntry, C.aikido_status) {
		var entry C.aikido_dir_entry
		status := C.aikido_dir_entries_get(entries, index, &entry, message)
		return DirEntry{Name: C.GoString(entry.name), Kind: FileKind(entry.kind)}, status
	})
}

// readArray copies the n items of one of the library's arrays, item index
// read by get, into a slice (empty, never nil, for none).
func readArray[T any](n C.size_t, get func(index C.size_t, message **C.char) (T, C.aikido_status)) ([]T, error) {
	list := make([]T, 0, int(n))
	for index := range n {
		var message *C.char
		item, status := get(index, &message)
		if status != C.AIKIDO_OK {
			return nil, statusError(status, takeString(message))
		}
		list = append(list, item)
	}
	return list, nil
}

// ChangeKind is what happened to a path an overlay or a dry run changed.
type ChangeKind int32

const (
	ChangeAdded    ChangeKind = C.AIKIDO_CHANGE_ADDED
	ChangeModified ChangeKind = C.AIKIDO_CHANGE_MODIFIED
	ChangeDeleted  ChangeKind = C.AIKIDO_CHANGE_DELETED // a deleted directory is one change
)

var changeNames = [...]string{ChangeAdded: "added", ChangeModified: "modified", ChangeDeleted: "deleted"}

// String returns "added", "modified" or "deleted".
func (k ChangeKind) String() string {
	if int(k) < len(changeNames) && k >= 0 {
		return changeNames[k]
	}
	return "unknown"
}

// Change is one path an overlay or a dry run changed.
type Change struct {
	Path   string
	Change ChangeKind
}

// Diff returns what an overlay or a dry run changed compared with its lower
// storage, sorted by path; ErrInvalidInput for any other storage.
func (s *Storage) Diff() ([]Change, error) {
	var changes *C.aikido_changes
	err := s.call(func(message **C.char, _ ...*C.char) C.aikido_status {
		return C.aikido_storage_changes(s.storage, &changes, message)
	})
	if err != nil {
		return nil, err
	}
	defer C.aikido_changes_free(changes)
	return readArray(C.aikido_changes_len(changes), func(index C.size_t, message **C.char) (Change, C.aikido_status) {
		var change C.aikido_change
		status := C.aikido_changes_get(changes, index, &change, message)
		return Change{Path: C.GoString(change.path), Change: ChangeKind(change.change)}, status
	})
}

// Commit applies an overlay's changes to its lower storage and empties it.
func (s *Storage) Commit() error {
	return s.call(func(message **C.char, _ ...*C.char) C.aikido_status {
		return C.aikido_storage_commit(s.storage, message)
	})
}

// Discard drops an overlay's changes.
func (s *Storage) Discard() error {
	return s.call(func(message **C.char, _ ...*C.char) C.aikido_status {
		return C.aikido_storage_discard(s.storage, message)
	})
}

// call runs one C storage function with C copies of paths, turning its
// status and message into a *StorageError.
func (s *Storage) call(function func(message **C.char, paths ...*C.char) C.aikido_status, paths ...string) error {
	named := make([]namedText, len(paths))
	for i, path := range paths {
		named[i] = namedText{"the path", path}
	}
	texts, err := storageCStrings(named...)
	if err != nil {
		return err
	}
	defer texts.free()
	var message *C.char
	status := function(&message, texts...)
	runtime.KeepAlive(s)
	if status != C.AIKIDO_OK {
		return storageError(status, message)
	}
	return nil
}

// storageCStrings is newCStrings with its refusal as a *StorageError.
func storageCStrings(texts ...namedText) (cStrings, error) {
	copies, err := newCStrings(texts...)
	if err != nil {
		return nil, &StorageError{Status: C.AIKIDO_ERR_INVALID_INPUT, Message: err.Error()}
	}
	return copies, nil
}

// storageError takes the library's message.
func storageError(status C.aikido_status, message *C.char) error {
	return &StorageError{Status: int(status), Message: takeString(message)}
}

// bytesOf points C at data for the call; an empty slice is (NULL, 0).
func bytesOf(data []byte) *C.uint8_t {
	if len(data) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&data[0]))
}
