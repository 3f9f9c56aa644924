package tools

/*
#include <stdlib.h>
#include "aikido_go.h"
*/
import "C"

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/govengers/aikido/llm"
)

// Dialect is a provider's wire format: how definitions go out, tool calls
// come in and results go back. The values are libaikido's
// AIKIDO_DIALECT_* numbers.
type Dialect uint32

// The dialects.
const (
	// Neutral is the library's own shapes: Definitions' JSON, calls
	// [{"id","name","arguments"}], results [{"id","name","content"|"error"}].
	Neutral Dialect = 0
	// OpenAIChat is OpenAI Chat Completions.
	OpenAIChat Dialect = 1
	// OpenAIResponses is OpenAI Responses.
	OpenAIResponses Dialect = 2
	// Anthropic is Anthropic Messages.
	Anthropic Dialect = 3
	// Gemini is Google Gemini.
	Gemini Dialect = 4
	// MCP is the Model Context Protocol: definitions only (a ListToolsResult).
	MCP Dialect = 5
)

// Flags change DefinitionsFor and Respond.
type Flags uint32

const (
	// Strict is OpenAI's and Anthropic's strict mode, both directions:
	// definitions are rewritten as strict mode demands, and Respond drops a
	// null the model sent for a property the original schema did not require.
	Strict Flags = 1
	// Sequential makes Respond run the calls one after the other, in order.
	Sequential Flags = 2
)

func joinFlags(flags []Flags) C.uint32_t {
	var all Flags
	for _, flag := range flags {
		all |= flag
	}
	return C.uint32_t(all)
}

// DefinitionsFor returns every definition, in registration order, in the
// dialect's tools format (docs/DIALECTS.md), strict with Strict. A tool whose
// name or schema the dialect cannot carry gives an error matching
// ErrInvalidInput that names the tool and the rule.
func (r *Registry) DefinitionsFor(dialect Dialect, flags ...Flags) (json.RawMessage, error) {
	var out, message *C.char
	status := C.aikido_registry_definitions_for(r.registry, C.uint32_t(dialect), joinFlags(flags), &out, &message)
	runtime.KeepAlive(r)
	text := takeString(out)
	if status != C.AIKIDO_OK {
		return nil, statusError(status, takeString(message))
	}
	return json.RawMessage(text), nil
}

// ParseToolCalls reads the tool calls of a model reply in the dialect: the
// provider's whole response body or its relevant part. A reply that cannot
// be read gives an error matching ErrInvalidInput that says where.
func ParseToolCalls(dialect Dialect, reply []byte) ([]llm.ToolCall, error) {
	var message *C.char
	var pointer *C.char
	if len(reply) > 0 {
		pointer = (*C.char)(unsafe.Pointer(&reply[0]))
	}
	var calls *C.aikido_tool_calls
	status := C.aikido_tool_calls_read(C.uint32_t(dialect), pointer, C.size_t(len(reply)), &calls, &message)
	runtime.KeepAlive(reply)
	if status != C.AIKIDO_OK {
		return nil, statusError(status, takeString(message))
	}
	defer C.aikido_tool_calls_free(calls)
	return readArray(C.aikido_tool_calls_len(calls), func(index C.size_t, message **C.char) (llm.ToolCall, C.aikido_status) {
		var call C.aikido_tool_call
		status := C.aikido_tool_calls_get(calls, index, &call, message)
		return llm.ToolCall{
			ID:        C.GoString(call.id),
			Name:      C.GoString(call.name),
			Arguments: C.GoStringN(call.arguments, C.int(call.arguments_len)),
		}, status
	})
}

// respondState is what one Respond shares with the handlers it reaches, by
// its cancellation token, which every call of the reply carries.
type respondState struct {
	ctx         context.Context
	environment Environment
}

var responding sync.Map // uintptr of the *C.aikido_cancel → *respondState

// Respond runs the tool calls of a model reply and returns the JSON array to
// append to the next request, in the dialect's format, results in call
// order. The calls run at once (Sequential: one after the other), each
// through Dispatch's checks, every handler with ctx and environment; a call
// that has not started when ctx is done reports cancellation. Every
// per-call failure is an error result the model reads; Respond itself fails
// (ErrInvalidInput) only when the reply cannot be read.
func (r *Registry) Respond(ctx context.Context, dialect Dialect, reply []byte, environment Environment, flags ...Flags) (json.RawMessage, error) {
	if strings.IndexByte(environment.SessionID, 0) >= 0 {
		return nil, nulError("the session id")
	}
	token := C.aikido_cancel_new()
	key := uintptr(unsafe.Pointer(token))
	responding.Store(key, &respondState{ctx: ctx, environment: environment})
	var mu sync.Mutex
	freed := false
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !freed {
			C.aikido_cancel_fire(token)
		}
	})
	if ctx.Err() != nil {
		C.aikido_cancel_fire(token)
	}
	outcome := C.aikido_go_respond(r.registry, C.uint32_t(dialect), unsafe.String(unsafe.SliceData(reply), len(reply)),
		replyText(environment.SessionID),
		C.uint64_t(binary.NativeEndian.Uint64(environment.TurnID[:8])),
		C.uint64_t(binary.NativeEndian.Uint64(environment.TurnID[8:])), token, joinFlags(flags))
	runtime.KeepAlive(r)
	runtime.KeepAlive(reply)
	stop()
	mu.Lock()
	freed = true
	mu.Unlock()
	responding.Delete(key)
	C.aikido_cancel_free(token)
	text := takeString(outcome.content)
	if outcome.status != C.AIKIDO_OK {
		return nil, statusError(outcome.status, takeString(outcome.error))
	}
	return json.RawMessage(text), nil
}
