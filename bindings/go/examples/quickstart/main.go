// Command quickstart registers one tool, lists it for the model, and
// dispatches two calls: one good, one the model got wrong.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

func main() {
	registry := tools.NewRegistry()
	err := registry.Register(llm.ToolDefinition{
		Name:        "shout",
		Description: "Repeat a text in capitals.",
		Parameters:  tools.Object(map[string]any{"text": tools.String("What to shout.")}, "text"),
	}, func(ctx context.Context, arguments json.RawMessage, env tools.Environment) (tools.Result, error) {
		var parsed struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(arguments, &parsed); err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Content: strings.ToUpper(parsed.Text)}, nil
	})
	if err != nil {
		panic(err)
	}

	// What the model is told it may call.
	definitions, _ := json.Marshal(registry.Definitions())
	fmt.Println(string(definitions))

	// The calls of one model reply.
	env := tools.Environment{SessionID: "session-1"}
	for _, call := range []llm.ToolCall{
		{ID: "call-1", Name: "shout", Arguments: `{"text":"hello"}`},
		{ID: "call-2", Name: "shout", Arguments: `{"txt":"hello"}`},
	} {
		result, err := registry.Dispatch(context.Background(), call, env)
		if err != nil {
			fmt.Println(call.ID, "error:", err) // sent back to the model
			continue
		}
		fmt.Println(call.ID, "result:", result.Content)
	}
}
