package tools

/*
#include <stdlib.h>
#include "aikido.h"
*/
import "C"

import (
	"runtime"
	"time"
	"unsafe"
)

// NetworkPolicy says what a shell's curl and wget may reach; without one a
// shell has no network. A URL must fall under an allowed prefix (scheme,
// host, port, path prefix on segment boundaries, matched on the parsed,
// normalised URL); methods are GET and HEAD plus AllowMethods; the address
// connected to must be public or inside AllowAddresses (loopback, private,
// link-local and cloud-metadata ones are refused unless named). The
// library checks every rule: a bad one is an ErrInvalidInput error from
// the call that uses the policy.
type NetworkPolicy struct {
	AllowURLs      []string // e.g. "https://api.example.com/v1"
	AllowAddresses []string // e.g. "127.0.0.1/32"
	AllowMethods   []string // e.g. "POST"
	// Headers are attached to the requests under their prefix; the script
	// never sees their values.
	Headers          []NetworkHeader
	Timeout          time.Duration // one request [30s]
	MaxResponseBytes uint64        // one response body [10 MiB]
	MaxRequests      uint32        // requests of one run, each redirect hop one [50]
	MaxRedirects     uint32        // redirects one command follows [10]
}

// NetworkHeader is a header the program attaches under a URL prefix.
type NetworkHeader struct {
	Prefix, Name, Value string
}

// cPolicy builds the C policy (nil for nil); the caller frees it.
func (p *NetworkPolicy) cPolicy() (*C.aikido_network_policy, error) {
	if p == nil {
		return nil, nil
	}
	policy := C.aikido_network_policy_new()
	fail := func(status C.aikido_status, message *C.char) (*C.aikido_network_policy, error) {
		C.aikido_network_policy_free(policy)
		return nil, statusError(status, takeString(message))
	}
	for _, rule := range []struct {
		values []string
		add    func(*C.aikido_network_policy, *C.char, **C.char) C.aikido_status
	}{
		{p.AllowURLs, func(p *C.aikido_network_policy, s *C.char, m **C.char) C.aikido_status {
			return C.aikido_network_policy_allow_url(p, s, m)
		}},
		{p.AllowAddresses, func(p *C.aikido_network_policy, s *C.char, m **C.char) C.aikido_status {
			return C.aikido_network_policy_allow_address(p, s, m)
		}},
		{p.AllowMethods, func(p *C.aikido_network_policy, s *C.char, m **C.char) C.aikido_status {
			return C.aikido_network_policy_allow_method(p, s, m)
		}},
	} {
		for _, value := range rule.values {
			text := C.CString(value)
			var message *C.char
			status := rule.add(policy, text, &message)
			C.free(unsafe.Pointer(text))
			if status != C.AIKIDO_OK {
				return fail(status, message)
			}
		}
	}
	for _, header := range p.Headers {
		prefix, name, value := C.CString(header.Prefix), C.CString(header.Name), C.CString(header.Value)
		var message *C.char
		status := C.aikido_network_policy_attach_header(policy, prefix, name, value, &message)
		C.free(unsafe.Pointer(prefix))
		C.free(unsafe.Pointer(name))
		C.free(unsafe.Pointer(value))
		if status != C.AIKIDO_OK {
			return fail(status, message)
		}
	}
	limits := C.aikido_network_limits{
		timeout_milliseconds: C.uint64_t(p.Timeout.Milliseconds()),
		max_response_bytes:   C.uint64_t(p.MaxResponseBytes),
		max_requests:         C.uint32_t(p.MaxRequests),
		max_redirects:        C.uint32_t(p.MaxRedirects),
	}
	var message *C.char
	if status := C.aikido_network_policy_set_limits(policy, &limits, &message); status != C.AIKIDO_OK {
		return fail(status, message)
	}
	return policy, nil
}

// NewShellWithNetwork is NewShell whose curl and wget reach what policy
// allows (nil: no network, as NewShell).
func NewShellWithNetwork(storage *Storage, limits *ShellLimits, policy *NetworkPolicy) (*Shell, error) {
	network, err := policy.cPolicy()
	if err != nil {
		return nil, err
	}
	defer C.aikido_network_policy_free(network)
	shell := C.aikido_shell_new_with_network(storage.storage, limits.c(), network)
	runtime.KeepAlive(storage)
	if shell == nil {
		return nil, &StorageError{Status: C.AIKIDO_ERR_INVALID_INPUT, Message: ErrInvalidInput.Error() + ": the storage is closed"}
	}
	s := &Shell{shell: shell}
	s.cleanup = runtime.AddCleanup(s, func(shell *C.aikido_shell) { C.aikido_shell_free(shell) }, shell)
	return s, nil
}

// RegisterShellToolWithNetwork is RegisterShellTool whose shells' curl and
// wget reach what policy allows (nil: no network).
func (r *Registry) RegisterShellToolWithNetwork(storage *Storage, limits *ShellLimits, policy *NetworkPolicy) error {
	network, err := policy.cPolicy()
	if err != nil {
		return err
	}
	defer C.aikido_network_policy_free(network)
	var message *C.char
	status := C.aikido_registry_register_shell_tool_with_network(r.registry, storage.storage, limits.c(), network, &message)
	runtime.KeepAlive(r)
	runtime.KeepAlive(storage)
	if status != C.AIKIDO_OK {
		return statusError(status, takeString(message))
	}
	return nil
}
