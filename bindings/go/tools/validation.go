package tools

/*
#include "aikido_go.h"
*/
import "C"

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"

	"github.com/govengers/aikido/llm"
)

// Validation is how a Registry checks a call's arguments before the
// handler runs (the AIKIDO_VALIDATE_* constants).
type Validation uint32

const (
	// ValidateRequired is the seed's check, and the default: the arguments
	// are one JSON object holding every required field, not null.
	ValidateRequired Validation = C.AIKIDO_VALIDATE_REQUIRED
	// ValidateFull checks the arguments against the whole JSON Schema
	// (2020-12, and the draft-07 keywords tool schemas still use) and
	// reports every violation at once, each at its JSON Pointer.
	ValidateFull Validation = C.AIKIDO_VALIDATE_FULL
	// ValidateRepair is ValidateFull after coercing what the schema makes
	// unambiguous: "200" where an integer is wanted, "true" for a boolean,
	// a string holding the object or array wanted. The handler receives the
	// repaired arguments. ValidateFull|ValidateRepair means the same.
	ValidateRepair Validation = C.AIKIDO_VALIDATE_REPAIR
)

// SetValidation sets how every Dispatch on r checks arguments. Switching
// to ValidateFull or ValidateRepair compiles the schema of every tool
// registered so far; when one is not valid JSON Schema it returns an error
// matching ErrInvalidInput that names the tool, and the mode stays as it
// was. In those modes Register refuses such a schema the same way.
func (r *Registry) SetValidation(mode Validation) error {
	var message *C.char
	status := C.aikido_registry_set_validation(r.registry, C.uint32_t(mode), &message)
	runtime.KeepAlive(r)
	if status == C.AIKIDO_OK {
		return nil
	}
	return statusError(status, takeString(message))
}

// Repair is one change ValidateRepair made to a call's arguments before
// the handler ran: at Pointer (a JSON Pointer into the arguments the model
// sent), the model sent From (always a JSON string, e.g. "200" with its
// quotes) and the handler received To (e.g. 200).
type Repair struct {
	Pointer string          `json:"pointer"`
	From    json.RawMessage `json:"from"`
	To      json.RawMessage `json:"to"`
}

// DispatchWithRepairs is Dispatch that also returns the repairs
// ValidateRepair made before the handler ran (aikido_registry_dispatch_ex),
// so that a program can decide whether the model should be told to send
// numbers as numbers. The repairs are empty (not nil) when nothing was
// repaired, and nil when the call failed.
func (r *Registry) DispatchWithRepairs(ctx context.Context, call llm.ToolCall, environment Environment) (Result, []Repair, error) {
	var text *C.char
	result, err := r.dispatch(ctx, call, environment, &text)
	repairsJSON := takeString(text)
	if err != nil {
		return Result{}, nil, err
	}
	repairs := []Repair{}
	if repairsJSON != "" {
		if err := json.Unmarshal([]byte(repairsJSON), &repairs); err != nil {
			return result, nil, fmt.Errorf("aikido/tools: the library's repairs are not JSON: %w", err)
		}
	}
	return result, repairs, nil
}
