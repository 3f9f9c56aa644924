package tools

// Go handlers reached by a dispatch that did not start in Go Dispatch:
// Respond (whose calls run on libaikido's worker threads) and libaikido's
// own MCP server (MCPServer, ServeMCP).

/*
#include "aikido_go.h"
*/
import "C"

import (
	"context"
	"fmt"
	"runtime/cgo"
	"time"
	"unsafe"
)

// aikidoGoHandleForeign runs a Go handler for a dispatch libaikido made by
// itself. Under Respond, ctx and the Environment are Respond's own (found by
// the call's cancellation token); otherwise the Environment comes from the C
// environment and ctx is cancelled when the call's token fires. The result
// goes into reply.
//
//export aikidoGoHandleForeign
func aikidoGoHandleForeign(tool C.uintptr_t, arguments *C.char, argumentsLen C.size_t, environment *C.aikido_environment, reply *C.aikido_reply) (status C.aikido_status) {
	defer func() {
		if value := recover(); value != nil {
			status = C.aikido_go_fail(reply, C.AIKIDO_ERR_TOOL_PANICKED, replyText(fmt.Sprint(value)))
		}
	}()
	handler := cgo.Handle(tool).Value().(Handler)
	var env Environment
	ctx := context.Background()
	if environment != nil && environment.cancel != nil {
		if state, ok := responding.Load(uintptr(unsafe.Pointer(environment.cancel))); ok {
			ctx, env = state.(*respondState).ctx, state.(*respondState).environment
			environment = nil // Respond's context carries the cancellation already.
		}
	}
	if environment != nil {
		if environment.session_id != nil {
			env.SessionID = C.GoString(environment.session_id)
		}
		env.TurnID = *(*UUID)(unsafe.Pointer(&environment.turn_id))
		if token := environment.cancel; token != nil {
			var cancel context.CancelFunc
			ctx, cancel = context.WithCancel(ctx)
			defer cancel()
			// The token is a flag, not a channel: watch it while the handler runs.
			go func() {
				ticker := time.NewTicker(5 * time.Millisecond)
				defer ticker.Stop()
				for {
					select {
					case <-ctx.Done():
						return
					case <-ticker.C:
						if C.aikido_cancel_is_fired(token) {
							cancel()
							return
						}
					}
				}
			}()
		}
	}
	result, err := handler(ctx, C.GoBytes(unsafe.Pointer(arguments), C.int(argumentsLen)), env)
	if err != nil {
		return C.aikido_go_fail(reply, C.AIKIDO_ERR_TOOL_FAILED, replyText(err.Error()))
	}
	content := replyText(result.Content)
	var data *C.char
	if len(content) > 0 {
		data = (*C.char)(unsafe.Pointer(unsafe.StringData(content)))
	}
	written := C.aikido_reply_set_content(reply, data, C.size_t(len(content)))
	if written != C.AIKIDO_OK {
		return written
	}
	return C.AIKIDO_OK
}
