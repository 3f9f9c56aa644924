package tools

/*
#include <stdlib.h>
#include "aikido_go.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"runtime/cgo"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/govengers/aikido/llm"
)

// Registry holds tool definitions and their handlers. It is safe for
// concurrent use; the zero value is not usable, use NewRegistry.
//
// A Registry owns a libaikido registry, freed (with every tool's handler)
// once the Registry is unreachable.
type Registry struct {
	registry *C.aikido_registry
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	r := &Registry{registry: C.aikido_registry_new()}
	runtime.AddCleanup(r, func(registry *C.aikido_registry) { C.aikido_registry_free(registry) }, r.registry)
	return r
}

// liveToolHandles counts the cgo.Handles of registered handlers that
// libaikido has not released yet; the tests check it returns to zero.
var liveToolHandles atomic.Int64

// Register adds a tool. It returns an error for an empty name or a nil
// handler, and an error matching ErrDuplicateTool if the name is taken.
//
// Dispatch enforces the "required" list of definition.Parameters; a
// Parameters value that is not a JSON object schema enforces nothing, and
// one that is not JSON is refused with an error matching ErrInvalidInput.
func (r *Registry) Register(definition llm.ToolDefinition, handler Handler) error {
	texts, err := newCStrings(
		namedText{"the tool name", definition.Name},
		namedText{"the tool description", definition.Description},
		namedText{"the tool parameters", string(definition.Parameters)},
	)
	if err != nil {
		return err
	}
	defer texts.free()

	// A nil handler reaches the library as NULL, which refuses it.
	var function C.aikido_handler
	var userdata unsafe.Pointer
	if handler != nil {
		function = C.aikido_handler(C.aikido_go_handler)
		userdata = C.aikido_go_userdata_new(C.uintptr_t(cgo.NewHandle(handler)))
		liveToolHandles.Add(1)
	}
	var message *C.char
	status := C.aikido_registry_register(r.registry, texts[0], texts[1], texts[2],
		function, userdata, C.aikido_userdata_free(C.aikido_go_userdata_free), &message)
	runtime.KeepAlive(r)
	if status == C.AIKIDO_OK {
		return nil
	}
	// On failure the userdata is still ours.
	if userdata != nil {
		C.aikido_go_userdata_free(userdata)
	}
	return statusError(status, takeString(message))
}

// Unregister removes a tool. Calls of it already running still finish; its
// handler is released after the last one returns. It returns an error
// matching ErrUnknownTool if no tool has that name.
func (r *Registry) Unregister(name string) error {
	texts, err := newCStrings(namedText{"the tool name", name})
	if err != nil {
		return err
	}
	defer texts.free()
	var message *C.char
	status := C.aikido_registry_unregister(r.registry, texts[0], &message)
	runtime.KeepAlive(r)
	if status != C.AIKIDO_OK {
		return statusError(status, takeString(message))
	}
	return nil
}

// Definitions returns all registered tool definitions in registration
// order, as a new slice.
func (r *Registry) Definitions() []llm.ToolDefinition {
	var text, message *C.char
	status := C.aikido_registry_definitions(r.registry, &text, &message)
	runtime.KeepAlive(r)
	if status != C.AIKIDO_OK {
		panic(statusError(status, takeString(message)))
	}
	var definitions []llm.ToolDefinition
	if err := json.Unmarshal([]byte(takeString(text)), &definitions); err != nil {
		panic("aikido/tools: libaikido listed definitions that are not JSON: " + err.Error())
	}
	return definitions
}

// Len returns how many tools are registered.
func (r *Registry) Len() int {
	n := C.aikido_registry_len(r.registry)
	runtime.KeepAlive(r)
	return int(n)
}

// takeString copies a string libaikido returned and frees it.
func takeString(text *C.char) string {
	if text == nil {
		return ""
	}
	defer C.aikido_string_free(text)
	return C.GoString(text)
}

// namedText is a text for the C library, named for the error that refuses it.
type namedText struct {
	what, text string
}

// cStrings are NUL-terminated copies in C memory.
type cStrings []*C.char

// newCStrings copies texts into C memory. Text holding a NUL byte is refused,
// as C would cut it short.
func newCStrings(texts ...namedText) (cStrings, error) {
	copies := make(cStrings, len(texts))
	for i, text := range texts {
		if strings.IndexByte(text.text, 0) >= 0 {
			copies.free()
			return nil, nulError(text.what)
		}
		copies[i] = C.CString(text.text)
	}
	return copies, nil
}

func (s cStrings) free() {
	for _, text := range s {
		C.free(unsafe.Pointer(text))
	}
}
