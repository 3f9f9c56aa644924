package tools

/*
#include <stdlib.h>
#include "aikido.h"
*/
import "C"

import (
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"unsafe"
)

// MCPServer serves the tools of a Registry over the Model Context Protocol
// (MCP 2024-11-05 to 2025-11-25): Handle takes one JSON-RPC message and
// returns the response, so any transport can carry it; ServeStdio serves
// newline-delimited JSON-RPC over two files. It is safe for concurrent use:
// a notifications/cancelled handled on one goroutine stops a call running
// on another. The server keeps its Registry alive.
type MCPServer struct {
	server   *C.aikido_mcp_server
	registry *Registry
}

// NewMCPServer returns a server for registry that introduces itself as name
// and version ("" for "aikido" and the library's version). It returns an
// error matching ErrInvalidInput when a string holds a NUL byte.
func NewMCPServer(registry *Registry, name, version string) (*MCPServer, error) {
	for _, text := range []string{name, version} {
		for i := 0; i < len(text); i++ {
			if text[i] == 0 {
				return nil, statusError(C.AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input: the server name and version may not hold a NUL byte")
			}
		}
	}
	cName, cVersion := C.CString(name), C.CString(version)
	defer C.free(unsafe.Pointer(cName))
	defer C.free(unsafe.Pointer(cVersion))
	server := C.aikido_mcp_server_new(registry.registry, cName, cVersion)
	runtime.KeepAlive(registry)
	if server == nil {
		return nil, statusError(C.AIKIDO_ERR_INVALID_INPUT, "aikido/tools: invalid input: the MCP server could not be made (the name or version is not UTF-8)")
	}
	s := &MCPServer{server: server, registry: registry}
	runtime.AddCleanup(s, func(server *C.aikido_mcp_server) { C.aikido_mcp_server_free(server) }, server)
	return s, nil
}

// Handle handles one JSON-RPC message and returns the response, or nil when
// there is none (a notification, a call cancelled by
// notifications/cancelled). Protocol errors are JSON-RPC error responses,
// not Go errors; a tool's failure is a result with "isError": true. A
// tools/call runs its handler on the calling goroutine.
func (s *MCPServer) Handle(message []byte) ([]byte, error) {
	var response, failure *C.char
	var data *C.char
	if len(message) > 0 {
		data = (*C.char)(unsafe.Pointer(&message[0]))
	}
	status := C.aikido_mcp_server_handle(s.server, data, C.size_t(len(message)), &response, &failure)
	runtime.KeepAlive(s)
	runtime.KeepAlive(message)
	if status != C.AIKIDO_OK {
		return nil, statusError(status, takeString(failure))
	}
	if response == nil {
		return nil, nil
	}
	defer C.aikido_string_free(response)
	return []byte(C.GoString(response)), nil
}

// ServeStdio serves newline-delimited JSON-RPC from in to out until EOF on
// in (the calls already read are answered first) or until ctx is done
// (running calls are cancelled). Calls run on worker threads, so requests
// are served while a long call runs, and clients hear
// notifications/tools/list_changed when the registry changes.
func (s *MCPServer) ServeStdio(ctx context.Context, in, out *os.File) error {
	stop := C.aikido_cancel_new()
	defer C.aikido_cancel_free(stop)
	fired := make(chan struct{})
	after := context.AfterFunc(ctx, func() { C.aikido_cancel_fire(stop); close(fired) })
	defer func() {
		if !after() {
			<-fired // the token is freed only once fired
		}
	}()
	var failure *C.char
	status := C.aikido_mcp_server_serve_stdio(s.server, C.int(in.Fd()), C.int(out.Fd()), stop, &failure)
	runtime.KeepAlive(s)
	runtime.KeepAlive(in)
	runtime.KeepAlive(out)
	if status != C.AIKIDO_OK {
		return statusError(status, takeString(failure))
	}
	return ctx.Err()
}

// ServeMCP serves the tools of registry over MCP, reading newline-delimited
// JSON-RPC from r and writing responses to w, until r ends or ctx is done
// (then it returns ctx.Err()). Any io.Reader and io.Writer will do: they are
// joined to the library through pipes. A read of r that never returns keeps
// one goroutine waiting after ServeMCP returned.
func ServeMCP(ctx context.Context, registry *Registry, r io.Reader, w io.Writer) error {
	server, err := NewMCPServer(registry, "aikido", "")
	if err != nil {
		return err
	}
	inRead, inWrite, err := os.Pipe()
	if err != nil {
		return err
	}
	outRead, outWrite, err := os.Pipe()
	if err != nil {
		inRead.Close()
		inWrite.Close()
		return err
	}
	go func() {
		io.Copy(inWrite, r)
		inWrite.Close()
	}()
	var writeErr error
	written := make(chan struct{})
	go func() {
		defer close(written)
		_, writeErr = io.Copy(w, outRead)
		io.Copy(io.Discard, outRead)
		outRead.Close()
	}()
	serveErr := server.ServeStdio(ctx, inRead, outWrite)
	outWrite.Close()
	inRead.Close()
	// The input copy may still wait on r; only the output copy is awaited.
	<-written
	if serveErr != nil {
		return serveErr
	}
	if writeErr != nil && !errors.Is(writeErr, os.ErrClosed) {
		return writeErr
	}
	return nil
}
