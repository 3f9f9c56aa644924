package tools

/*
#include "aikido.h"
*/
import "C"

import (
	"context"
	"runtime"
	"time"
	"unsafe"
)

// RegisterFileTools registers read_file, write_file, list_directory,
// edit_file and delete_path, acting on storage (which they share: it may be
// closed afterwards).
func (r *Registry) RegisterFileTools(storage *Storage) error {
	var message *C.char
	status := C.aikido_registry_register_file_tools(r.registry, storage.storage, &message)
	runtime.KeepAlive(r)
	runtime.KeepAlive(storage)
	if status != C.AIKIDO_OK {
		return statusError(status, takeString(message))
	}
	return nil
}

// RegisterShellTool registers the "bash" tool: an in-process bash whose
// files are those of storage (shared), one shell per
// Environment.SessionID, each run bounded by limits (nil for the
// defaults). Nothing runs on the host. Its result is stdout, then a
// "[stderr]" section, then "[exit code: N]"; a failing script is still a
// result. The arguments are {"command": "...", "restart": true}.
func (r *Registry) RegisterShellTool(storage *Storage, limits *ShellLimits) error {
	var message *C.char
	status := C.aikido_registry_register_shell_tool(r.registry, storage.storage, limits.c(), &message)
	runtime.KeepAlive(r)
	runtime.KeepAlive(storage)
	if status != C.AIKIDO_OK {
		return statusError(status, takeString(message))
	}
	return nil
}

// ShellLimits bounds each run of a script. A zero field takes the default,
// given in brackets. A script that reaches a limit stops with exit code 125
// (124 for MaxDuration).
type ShellLimits struct {
	MaxCommands       uint64        // simple commands run [100000]
	MaxLoopIterations uint64        // iterations of all loops together [100000]
	MaxFunctionDepth  uint32        // nested functions, source and eval [100]
	MaxOutputBytes    int           // bytes in any one stream, past which output is cut [1 MiB]
	MaxDuration       time.Duration // wall-clock time, to the millisecond [10s]
	MaxMemoryBytes    int           // the session's variables, and any one value built [256 MiB]
	MaxResultBytes    int           // the bash tool: result bytes the model reads, the rest saved to a file [30 KiB]
}

// c is the C form of limits, nil for nil; C only reads it during the call.
func (limits *ShellLimits) c() *C.aikido_shell_limits {
	if limits == nil {
		return nil
	}
	return &C.aikido_shell_limits{
		max_commands:        C.uint64_t(limits.MaxCommands),
		max_loop_iterations: C.uint64_t(limits.MaxLoopIterations),
		max_function_depth:  C.uint32_t(limits.MaxFunctionDepth),
		max_output_bytes:    C.size_t(limits.MaxOutputBytes),
		max_milliseconds:    C.uint64_t(limits.MaxDuration.Milliseconds()),
		max_memory_bytes:    C.size_t(limits.MaxMemoryBytes),
		max_result_bytes:    C.size_t(limits.MaxResultBytes),
	}
}

// ShellLimit names the limit that stopped a script.
type ShellLimit int32

const (
	LimitNone           ShellLimit = C.AIKIDO_SHELL_LIMIT_NONE
	LimitCommands       ShellLimit = C.AIKIDO_SHELL_LIMIT_COMMANDS
	LimitLoopIterations ShellLimit = C.AIKIDO_SHELL_LIMIT_LOOP_ITERATIONS
	LimitFunctionDepth  ShellLimit = C.AIKIDO_SHELL_LIMIT_FUNCTION_DEPTH
	LimitOutput         ShellLimit = C.AIKIDO_SHELL_LIMIT_OUTPUT
	LimitTime           ShellLimit = C.AIKIDO_SHELL_LIMIT_TIME
	LimitCancelled      ShellLimit = C.AIKIDO_SHELL_LIMIT_CANCELLED
	LimitMemory         ShellLimit = C.AIKIDO_SHELL_LIMIT_MEMORY
	LimitThreads        ShellLimit = C.AIKIDO_SHELL_LIMIT_THREADS
)

var limitNames = [...]string{"none", "commands", "loop iterations", "function depth", "output", "time", "cancelled", "memory", "threads"}

func (l ShellLimit) String() string {
	if l >= 0 && int(l) < len(limitNames) {
		return limitNames[l]
	}
	return "unknown"
}

// ShellResult is what one Shell.Run produced.
type ShellResult struct {
	Stdout, Stderr []byte // any bytes, NULs included
	ExitCode       int    // as $? would show it
	Truncated      bool   // Stdout or Stderr was cut at MaxOutputBytes
	Limit          ShellLimit
	// WriteSet is every path the script created, changed or removed,
	// sorted, once each (empty, not nil, when it wrote nothing); over a
	// dry run, what it would have changed.
	WriteSet []string
}

// Shell is an in-process bash over a Storage, for running scripts without
// a model. Its working directory, variables and functions persist from one
// Run to the next. Safe for concurrent use: runs take turns.
type Shell struct {
	shell   *C.aikido_shell
	cleanup runtime.Cleanup
}

// NewShell returns a shell over storage (shared: it may be closed
// afterwards), starting in "/", each run bounded by limits (nil for the
// defaults).
func NewShell(storage *Storage, limits *ShellLimits) (*Shell, error) {
	shell := C.aikido_shell_new(storage.storage, limits.c())
	runtime.KeepAlive(storage)
	if shell == nil {
		return nil, &StorageError{Status: C.AIKIDO_ERR_INVALID_INPUT, Message: ErrInvalidInput.Error() + ": the storage is closed"}
	}
	s := &Shell{shell: shell}
	s.cleanup = runtime.AddCleanup(s, func(shell *C.aikido_shell) { C.aikido_shell_free(shell) }, shell)
	return s, nil
}

// Run runs script as `bash -c` would, in the shell's state. A script that
// fails, or is stopped by a limit or by ctx (exit code 130, LimitCancelled),
// is a result: its ExitCode, Stderr and Limit say how it ended. The error
// is for a script that is not UTF-8 or holds a NUL byte, or a closed shell
// (ErrInvalidInput).
func (s *Shell) Run(ctx context.Context, script string) (ShellResult, error) {
	var cancel *C.aikido_cancel
	if ctx.Err() != nil {
		cancel = cancelledToken
	} else if ctx.Done() != nil {
		// A token that follows ctx while the script runs.
		cancel = C.aikido_cancel_new()
		defer C.aikido_cancel_free(cancel)
		fired := make(chan struct{})
		stop := context.AfterFunc(ctx, func() { C.aikido_cancel_fire(cancel); close(fired) })
		defer func() {
			if !stop() {
				<-fired // the token is freed only once fired
			}
		}()
	}
	var result C.aikido_shell_result
	var message *C.char
	status := C.aikido_shell_run(s.shell, (*C.char)(unsafe.Pointer(unsafe.StringData(script))), C.size_t(len(script)), cancel, &result, &message)
	runtime.KeepAlive(s)
	defer C.aikido_shell_result_free(&result)
	if status != C.AIKIDO_OK {
		return ShellResult{}, statusError(status, takeString(message))
	}
	run := ShellResult{
		Stdout:    C.GoBytes(unsafe.Pointer(result.stdout_data), C.int(result.stdout_len)),
		Stderr:    C.GoBytes(unsafe.Pointer(result.stderr_data), C.int(result.stderr_len)),
		ExitCode:  int(result.exit_code),
		Truncated: bool(result.truncated),
		Limit:     ShellLimit(result.limit),
	}
	var err error
	run.WriteSet, err = readArray(C.aikido_strings_len(result.write_set), func(index C.size_t, message **C.char) (string, C.aikido_status) {
		var path *C.char
		status := C.aikido_strings_get(result.write_set, index, &path, message)
		return C.GoString(path), status
	})
	if err != nil {
		return ShellResult{}, err
	}
	return run, nil
}

// Reset forgets the working directory, variables and functions; files stay.
func (s *Shell) Reset() {
	C.aikido_shell_reset(s.shell)
	runtime.KeepAlive(s)
}

// Close frees the shell now rather than when it is collected. No Run may
// be in progress.
func (s *Shell) Close() error {
	s.cleanup.Stop()
	C.aikido_shell_free(s.shell)
	s.shell = nil
	return nil
}
