package tools

/*
#include "aikido.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// newShell owns a shell handle the library returned.
func newShell(shell *C.aikido_shell) *Shell {
	s := &Shell{shell: shell}
	s.cleanup = runtime.AddCleanup(s, func(shell *C.aikido_shell) { C.aikido_shell_free(shell) }, shell)
	return s
}

// Snapshot returns the session as bytes (docs/SHELL.md, "Snapshots"): its
// working directory, variables, functions, options and traps, and the
// files of its storage when they live in memory (a memory storage whole,
// an overlay's or dry run's changes); a host folder is referred to, never
// copied. It waits for a Run in progress to end.
func (s *Shell) Snapshot() ([]byte, error) {
	var data *C.uint8_t
	var length C.size_t
	var message *C.char
	status := C.aikido_shell_snapshot(s.shell, &data, &length, &message)
	runtime.KeepAlive(s)
	if status != C.AIKIDO_OK {
		return nil, statusError(status, takeString(message))
	}
	defer C.aikido_bytes_free(data, length)
	return C.GoBytes(unsafe.Pointer(data), C.int(length)), nil
}

// RestoreShell returns the session snapshot holds (from Snapshot), each run
// bounded by limits (nil for the defaults). With a nil storage its files go
// into a new memory storage (see Shell.Storage); else into storage, which
// must keep them in memory as the snapshotted one did (its content is
// replaced). Bytes of a newer version, truncated, changed or hostile are an
// error wrapping ErrInvalidInput, and change nothing.
func RestoreShell(snapshot []byte, storage *Storage, limits *ShellLimits) (*Shell, error) {
	var target *C.aikido_storage
	if storage != nil {
		target = storage.storage
	}
	var shell *C.aikido_shell
	var message *C.char
	status := C.aikido_shell_restore((*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(snapshot))), C.size_t(len(snapshot)),
		target, limits.c(), &shell, &message)
	runtime.KeepAlive(snapshot)
	runtime.KeepAlive(storage)
	if status != C.AIKIDO_OK {
		return nil, statusError(status, takeString(message))
	}
	return newShell(shell), nil
}

// Fork returns a copy of the session that shares nothing mutable with this
// one: files in memory are copied on write, a host folder is shared. It
// waits for a Run in progress to end.
func (s *Shell) Fork() (*Shell, error) {
	shell := C.aikido_shell_fork(s.shell)
	runtime.KeepAlive(s)
	if shell == nil {
		return nil, &StorageError{Status: C.AIKIDO_ERR_INVALID_INPUT, Message: ErrInvalidInput.Error() + ": the shell is closed"}
	}
	return newShell(shell), nil
}

// Storage returns the storage the shell runs over (shared).
func (s *Shell) Storage() (*Storage, error) {
	storage := C.aikido_shell_storage(s.shell)
	runtime.KeepAlive(s)
	return newStorage(storage)
}
