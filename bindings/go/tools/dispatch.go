package tools

/*
#include "aikido_go.h"
*/
import "C"

import (
	"context"
	"encoding/binary"
	"runtime"
	"strings"

	"github.com/govengers/aikido/llm"
)

// Dispatch routes a ToolCall to its handler and returns the handler's
// result and error unchanged.
//
// Before the handler runs, Dispatch checks the arguments: empty arguments
// count as {}, anything else must be a JSON object (not null) holding every
// required field of the tool's schema (a JSON null field counts as
// missing). The handler receives the arguments verbatim ({} for empty ones)
// and still parses them.
//
// It returns an error matching ErrUnknownTool if the name is not
// registered, ErrInvalidArguments if the argument check fails,
// ErrCancelled (and ctx.Err()) if ctx was done before the handler would
// have run, and ErrToolPanicked if the handler panicked; the error messages
// are written for the model, so it can correct the call. The handler
// receives ctx, and so sees it cancelled while it runs.
func (r *Registry) Dispatch(ctx context.Context, call llm.ToolCall, environment Environment) (Result, error) {
	return r.dispatch(ctx, call, environment, nil)
}

// dispatch is Dispatch; with repairs not nil, through
// aikido_registry_dispatch_ex, which sets *repairs on success.
func (r *Registry) dispatch(ctx context.Context, call llm.ToolCall, environment Environment, repairs **C.char) (Result, error) {
	if strings.IndexByte(call.Name, 0) >= 0 {
		return Result{}, nulError("the called tool name")
	}
	state := calls.acquire()
	defer calls.release(state)
	state.ctx, state.environment = ctx, environment
	var cancel *C.aikido_cancel
	if ctx.Err() != nil {
		cancel = cancelledToken
	}
	// Go handlers get the session unchanged, on the Go side; the library's
	// own tools (bash keeps a shell per session) get it as UTF-8 without NUL.
	turnLow := C.uint64_t(binary.NativeEndian.Uint64(environment.TurnID[:8]))
	turnHigh := C.uint64_t(binary.NativeEndian.Uint64(environment.TurnID[8:]))
	var outcome C.aikido_go_outcome
	if repairs == nil {
		outcome = C.aikido_go_dispatch(r.registry, call.Name, call.Arguments, replyText(environment.SessionID),
			turnLow, turnHigh, cancel, C.uintptr_t(state.slot))
	} else {
		outcome = C.aikido_go_dispatch_ex(r.registry, call.Name, call.Arguments, replyText(environment.SessionID),
			turnLow, turnHigh, cancel, C.uintptr_t(state.slot), repairs)
	}
	runtime.KeepAlive(r)

	content := takeString(outcome.content)
	if outcome.status == C.AIKIDO_OK {
		if state.handled {
			return state.result, nil
		}
		return Result{Content: content}, nil // a tool of the library's own
	}
	return Result{}, dispatchError(ctx, outcome.status, takeString(outcome.error), state.handlerErr)
}

// cancelledToken is a libaikido cancellation token fired once and for all,
// passed by every Dispatch whose ctx is done: libaikido then refuses the call
// after its own checks, without running the handler. A token that follows
// ctx during the call is not needed, as the Go handler watches ctx itself.
var cancelledToken = func() *C.aikido_cancel {
	token := C.aikido_cancel_new()
	C.aikido_cancel_fire(token)
	return token
}()
