package tools

// The Go functions libaikido calls, through the C trampolines in
// aikido_go.c. None may let a panic cross into C.

/*
#include "aikido_go.h"
*/
import "C"

import (
	"fmt"
	"runtime/cgo"
	"strings"
	"unsafe"
)

// aikidoGoHandle runs the handler of the tool whose handle is tool, for the
// Dispatch whose state is in slot call. Its result stays in the state, on
// the Go side; a returned error becomes AIKIDO_ERR_TOOL_FAILED with the
// error's text, a panic AIKIDO_ERR_TOOL_PANICKED with the panic value as
// text, both written into reply.
//
//export aikidoGoHandle
func aikidoGoHandle(tool C.uintptr_t, arguments *C.char, argumentsLen C.size_t, reply *C.aikido_reply, call C.uintptr_t) (status C.aikido_status) {
	defer func() {
		if value := recover(); value != nil {
			status = C.aikido_go_fail(reply, C.AIKIDO_ERR_TOOL_PANICKED, replyText(fmt.Sprint(value)))
		}
	}()
	handler := cgo.Handle(tool).Value().(Handler)
	state := calls.state(uint32(call))
	state.handled = true
	result, err := handler(state.ctx, C.GoBytes(unsafe.Pointer(arguments), C.int(argumentsLen)), state.environment)
	if err != nil {
		state.handlerErr = err
		return C.aikido_go_fail(reply, C.AIKIDO_ERR_TOOL_FAILED, replyText(err.Error()))
	}
	state.result = result
	return C.AIKIDO_OK
}

// replyText makes text acceptable to aikido_reply_set_error, which takes
// UTF-8 without NUL bytes, while a Go error or panic value may hold any
// bytes: each invalid sequence and each NUL becomes U+FFFD. The handler's
// own error value still reaches the caller unchanged, on the Go side.
func replyText(text string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(text, "\uFFFD"), "\x00", "\uFFFD")
}

// aikidoGoRelease deletes a tool's handle once libaikido is done with it:
// after it is unregistered and its last call returned, or with the registry.
//
//export aikidoGoRelease
func aikidoGoRelease(tool C.uintptr_t) {
	cgo.Handle(tool).Delete()
	liveToolHandles.Add(-1)
}
