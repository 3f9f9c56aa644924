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
			status = C.aikido_go_fail(reply, C.AIKIDO_ERR_TOOL_PANICKED, fmt.Sprint(value))
		}
	}()
	handler := cgo.Handle(tool).Value().(Handler)
	state := calls.state(uint32(call))
	result, err := handler(state.ctx, C.GoBytes(unsafe.Pointer(arguments), C.int(argumentsLen)), state.environment)
	if err != nil {
		state.handlerErr = err
		return C.aikido_go_fail(reply, C.AIKIDO_ERR_TOOL_FAILED, err.Error())
	}
	state.result = result
	return C.AIKIDO_OK
}

// aikidoGoRelease deletes a tool's handle once libaikido is done with it:
// after it is unregistered and its last call returned, or with the registry.
//
//export aikidoGoRelease
func aikidoGoRelease(tool C.uintptr_t) {
	cgo.Handle(tool).Delete()
	liveToolHandles.Add(-1)
}
