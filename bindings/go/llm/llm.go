// Package llm holds the types a model's tool use is made of: the definition
// of a tool the model may call, and one call from a model reply.
package llm

import "encoding/json"

// ToolDefinition is a tool as the model sees it: a name, what it does, and
// the JSON Schema of its parameters. Its JSON form is the one libaikido's
// definitions list uses (description and parameters left out when empty).
type ToolDefinition struct {
	// Name is what the model calls the tool by. It must not be empty.
	Name string `json:"name"`
	// Description says what the tool does, written for the model.
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments, or nil for none.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// ToolCall is one tool call from a model reply.
type ToolCall struct {
	// ID is the model's id for the call; it is not interpreted.
	ID string `json:"id"`
	// Name is the name of the tool to run.
	Name string `json:"name"`
	// Arguments holds the model's raw JSON arguments.
	Arguments string `json:"arguments"`
}
