package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

// content is a handler that returns text.
func content(text string) tools.Handler {
	return func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		return tools.Result{Content: text}, nil
	}
}

func mustRegister(t testing.TB, registry *tools.Registry, definition llm.ToolDefinition, handler tools.Handler) {
	t.Helper()
	if err := registry.Register(definition, handler); err != nil {
		t.Fatalf("register %q: %v", definition.Name, err)
	}
}

// wantError checks that err matches target and that its message holds
// every fragment.
func wantError(t *testing.T, err, target error, fragments ...string) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v does not match %v", err, target)
	}
	for _, fragment := range fragments {
		if !strings.Contains(err.Error(), fragment) {
			t.Errorf("error %q lacks %q", err, fragment)
		}
	}
}

func TestRegisterRefusesMisuse(t *testing.T) {
	registry := tools.NewRegistry()
	mustRegister(t, registry, llm.ToolDefinition{Name: "greet"}, content("hi"))

	err := registry.Register(llm.ToolDefinition{Name: "greet"}, content("again"))
	wantError(t, err, tools.ErrDuplicateTool, `aikido/tools: duplicate tool registration: a tool named "greet" is already registered`)
	wantError(t, registry.Register(llm.ToolDefinition{}, content("")), tools.ErrInvalidInput, "non-empty name")
	wantError(t, registry.Register(llm.ToolDefinition{Name: "nil"}, nil), tools.ErrInvalidInput, "handler is NULL")
	err = registry.Register(llm.ToolDefinition{Name: "bad", Parameters: json.RawMessage(`{"required":`)}, content(""))
	wantError(t, err, tools.ErrInvalidInput, `the parameters of tool "bad" are not valid JSON`)
	wantError(t, registry.Register(llm.ToolDefinition{Name: "a\x00b"}, content("")), tools.ErrInvalidInput, "NUL")

	if got := registry.Len(); got != 1 {
		t.Errorf("Len() = %d after refused registrations, want 1", got)
	}
}

func TestDefinitionsInRegistrationOrderAsANewSlice(t *testing.T) {
	registry := tools.NewRegistry()
	if got := registry.Definitions(); len(got) != 0 {
		t.Fatalf("empty registry lists %v", got)
	}
	schema := tools.Object(map[string]any{"by": tools.Integer("Divisor.")}, "by")
	registered := []llm.ToolDefinition{
		{Name: "zeta", Description: "Last letter.", Parameters: schema},
		{Name: "alpha"},
		{Name: "mid", Description: "No parameters."},
	}
	for _, definition := range registered {
		mustRegister(t, registry, definition, content(definition.Name))
	}

	listed := registry.Definitions()
	if len(listed) != len(registered) {
		t.Fatalf("Definitions() has %d entries, want %d", len(listed), len(registered))
	}
	for i, want := range registered {
		got := listed[i]
		if got.Name != want.Name || got.Description != want.Description || string(got.Parameters) != string(want.Parameters) {
			t.Errorf("definition %d = %+v, want %+v", i, got, want)
		}
	}
	listed[0].Name = "changed"
	if again := registry.Definitions(); again[0].Name != "zeta" {
		t.Errorf("changing the returned slice changed the registry: %q", again[0].Name)
	}
}

func TestUnregister(t *testing.T) {
	registry := tools.NewRegistry()
	mustRegister(t, registry, llm.ToolDefinition{Name: "a"}, content("a"))
	mustRegister(t, registry, llm.ToolDefinition{Name: "b"}, content("b"))
	if err := registry.Unregister("a"); err != nil {
		t.Fatal(err)
	}
	wantError(t, registry.Unregister("a"), tools.ErrUnknownTool, `"a"`)
	if got := registry.Len(); got != 1 {
		t.Errorf("Len() = %d, want 1", got)
	}
	_, err := registry.Dispatch(context.Background(), llm.ToolCall{Name: "a"}, tools.Environment{})
	wantError(t, err, tools.ErrUnknownTool, `unknown tool "a"`, `"b"`)
	// The name is free again.
	mustRegister(t, registry, llm.ToolDefinition{Name: "a"}, content("a2"))
}
