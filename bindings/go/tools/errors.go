package tools

/*
#include "aikido.h"
*/
import "C"

import (
	"context"
	"errors"
)

var (
	// ErrDuplicateTool is returned by Registry.Register when the tool name
	// is already registered.
	ErrDuplicateTool = errors.New("aikido/tools: duplicate tool registration")
	// ErrUnknownTool is returned by Registry.Dispatch when no tool of the
	// called name is registered.
	ErrUnknownTool = errors.New("aikido/tools: unknown tool")
	// ErrInvalidArguments is returned by Registry.Dispatch when the call's
	// arguments are not a JSON object or lack a required field of the tool's
	// schema. The message names the tool and the field.
	ErrInvalidArguments = errors.New("aikido/tools: invalid tool arguments")
	// ErrToolPanicked is returned by Registry.Dispatch when the handler
	// panicked. The message names the tool and the panic value.
	ErrToolPanicked = errors.New("aikido/tools: tool panicked")
	// ErrCancelled is returned by Registry.Dispatch when its context was
	// done before the handler ran; the error also matches the context's
	// error (context.Canceled or context.DeadlineExceeded).
	ErrCancelled = errors.New("aikido/tools: call cancelled")
	// ErrInvalidInput is returned for a misuse of the API: an empty tool
	// name, a nil handler, parameters that are not JSON, or text holding a
	// NUL byte, which the C library cannot carry.
	ErrInvalidInput = errors.New("aikido/tools: invalid input")
	// ErrStorage is matched by every *StorageError a storage refused with
	// (a missing file, a read-only storage, a policy, a limit).
	ErrStorage = errors.New("aikido/tools: storage error")
)

// StorageError is a failed Storage operation. Message is the library's,
// written as a shell would (`/a/b: No such file or directory`); Status is
// the library's status code: 8 (AIKIDO_ERR_STORAGE) when the storage
// refused, 6 (AIKIDO_ERR_INVALID_INPUT) for a misuse such as a path that
// is not UTF-8 or Diff on a storage that is not an overlay.
type StorageError struct {
	Status  int
	Message string
}

func (e *StorageError) Error() string { return e.Message }

// Is matches ErrStorage or ErrInvalidInput, as Status says.
func (e *StorageError) Is(target error) bool {
	return target == ErrStorage && e.Status == C.AIKIDO_ERR_STORAGE ||
		target == ErrInvalidInput && e.Status == C.AIKIDO_ERR_INVALID_INPUT
}

// libraryError is an error libaikido reported: its message, unchanged, and
// the errors it matches with errors.Is.
type libraryError struct {
	message string
	matches []error
}

func (e *libraryError) Error() string   { return e.message }
func (e *libraryError) Unwrap() []error { return e.matches }

// sentinels maps each status the library reports to the error it matches.
var sentinels = map[C.aikido_status]error{
	C.AIKIDO_ERR_DUPLICATE_TOOL:    ErrDuplicateTool,
	C.AIKIDO_ERR_UNKNOWN_TOOL:      ErrUnknownTool,
	C.AIKIDO_ERR_INVALID_ARGUMENTS: ErrInvalidArguments,
	C.AIKIDO_ERR_TOOL_PANICKED:     ErrToolPanicked,
	C.AIKIDO_ERR_INVALID_INPUT:     ErrInvalidInput,
	C.AIKIDO_ERR_CANCELLED:         ErrCancelled,
	C.AIKIDO_ERR_STORAGE:           ErrStorage,
}

// statusError is the error for a status and the library's message.
func statusError(status C.aikido_status, message string) error {
	var matches []error
	if sentinel, ok := sentinels[status]; ok {
		matches = []error{sentinel}
	}
	return &libraryError{message: message, matches: matches}
}

// dispatchError is the error Dispatch returns: a handler's own error comes
// back unchanged when the message is its text, and a cancelled call also
// matches its context's error.
func dispatchError(ctx context.Context, status C.aikido_status, message string, handlerErr error) error {
	switch {
	case status == C.AIKIDO_ERR_TOOL_FAILED && handlerErr != nil && handlerErr.Error() == message:
		return handlerErr
	case status == C.AIKIDO_ERR_TOOL_FAILED && handlerErr != nil:
		// The library wrote its own message (the handler's was empty).
		return &libraryError{message: message, matches: []error{handlerErr}}
	case status == C.AIKIDO_ERR_CANCELLED && ctx.Err() != nil:
		return &libraryError{message: message, matches: []error{ErrCancelled, ctx.Err()}}
	default:
		return statusError(status, message)
	}
}

// nulError reports text that holds a NUL byte: C strings end at the first
// NUL, so passing it on would silently cut the text short.
func nulError(what string) error {
	return &libraryError{
		message: ErrInvalidInput.Error() + ": " + what + " holds a NUL byte",
		matches: []error{ErrInvalidInput},
	}
}
