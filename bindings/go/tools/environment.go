package tools

import (
	"context"
	"encoding/json"
)

// UUID is a 16-byte UUID, the type of Environment.TurnID. The seed uses
// github.com/google/uuid; this binding has no third-party dependencies, so it
// defines the minimal type it needs: convert a uuid.UUID with UUID(id), as
// both are a [16]byte.
type UUID [16]byte

// Environment carries per-call execution context to a Handler.
type Environment struct {
	// SessionID is the agent session the call belongs to.
	SessionID string
	// TurnID identifies the model reply that made the call; calls of the
	// same reply share it.
	TurnID UUID
}

// Handler is the function signature every tool implements. arguments holds
// the model's raw JSON arguments, checked to be a JSON object holding the
// schema's required fields, but not parsed. A returned error is shown to
// the model as the tool's failure, so it can correct itself.
//
// ctx is the context given to Registry.Dispatch. A handler may run on many
// goroutines at once, and may itself dispatch, register or unregister on
// its registry.
type Handler func(ctx context.Context, arguments json.RawMessage, environment Environment) (Result, error)

// Result is what a handler returns on success.
type Result struct {
	// Content is the tool's output, shown to the model.
	Content string
}
