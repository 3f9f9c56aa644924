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

const validatedReadSchema = `{"type":"object","properties":{"path":{"type":"string"},"limit":{"type":"integer"},"mode":{"enum":["r","w"]}},"required":["path"]}`

func echoHandler(_ context.Context, arguments json.RawMessage, _ tools.Environment) (tools.Result, error) {
	return tools.Result{Content: string(arguments)}, nil
}

func TestSetValidationFullReportsEveryViolation(t *testing.T) {
	reg := tools.NewRegistry()
	if err := reg.Register(llm.ToolDefinition{Name: "read", Parameters: json.RawMessage(validatedReadSchema)}, echoHandler); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetValidation(tools.ValidateFull); err != nil {
		t.Fatal(err)
	}
	_, err := reg.Dispatch(context.Background(), llm.ToolCall{Name: "read", Arguments: `{"path":"a","limit":"200","mode":"x"}`}, tools.Environment{})
	if !errors.Is(err, tools.ErrInvalidArguments) {
		t.Fatalf("got %v, want ErrInvalidArguments", err)
	}
	want := `aikido/tools: invalid tool arguments for tool "read": /limit: expected integer, got string "200"; /mode: must be one of "r", "w"`
	if err.Error() != want {
		t.Fatalf("got %q\nwant %q", err.Error(), want)
	}
}

func TestSetValidationRefusesAnInvalidSchemaAndKeepsTheMode(t *testing.T) {
	reg := tools.NewRegistry()
	if err := reg.Register(llm.ToolDefinition{Name: "lenient", Parameters: json.RawMessage(`{"type":"objekt"}`)}, echoHandler); err != nil {
		t.Fatal(err)
	}
	err := reg.SetValidation(tools.ValidateFull)
	if !errors.Is(err, tools.ErrInvalidInput) || !strings.Contains(err.Error(), `tool "lenient"`) {
		t.Fatalf("got %v", err)
	}
	// Still REQUIRED: a wrong type passes.
	if _, err := reg.Dispatch(context.Background(), llm.ToolCall{Name: "lenient", Arguments: `{"a":1}`}, tools.Environment{}); err != nil {
		t.Fatal(err)
	}
	if err := reg.SetValidation(tools.Validation(9)); !errors.Is(err, tools.ErrInvalidInput) {
		t.Fatalf("mode 9: got %v", err)
	}
}

func TestSetValidationRepairHandsTheHandlerTheRepairedArguments(t *testing.T) {
	reg := tools.NewRegistry()
	if err := reg.SetValidation(tools.ValidateFull | tools.ValidateRepair); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(llm.ToolDefinition{Name: "read", Parameters: json.RawMessage(validatedReadSchema)}, echoHandler); err != nil {
		t.Fatal(err)
	}
	result, err := reg.Dispatch(context.Background(), llm.ToolCall{Name: "read", Arguments: `{"path":"a","limit":"200"}`}, tools.Environment{})
	if err != nil || result.Content != `{"path":"a","limit":200}` {
		t.Fatalf("got %q, %v", result.Content, err)
	}
	err = reg.Register(llm.ToolDefinition{Name: "remote", Parameters: json.RawMessage(`{"$ref":"https://example.com/s.json"}`)}, echoHandler)
	if !errors.Is(err, tools.ErrInvalidInput) || !strings.Contains(err.Error(), "never fetched") {
		t.Fatalf("remote $ref: got %v", err)
	}
}

func TestDispatchWithRepairsReportsEveryRepair(t *testing.T) {
	reg := tools.NewRegistry()
	if err := reg.SetValidation(tools.ValidateRepair); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(llm.ToolDefinition{Name: "read", Parameters: json.RawMessage(validatedReadSchema)}, echoHandler); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	result, repairs, err := reg.DispatchWithRepairs(ctx, llm.ToolCall{Name: "read", Arguments: `{"path":"a","limit":"200"}`}, tools.Environment{})
	if err != nil || result.Content != `{"path":"a","limit":200}` {
		t.Fatalf("got %q, %v", result.Content, err)
	}
	if len(repairs) != 1 || repairs[0].Pointer != "/limit" || string(repairs[0].From) != `"200"` || string(repairs[0].To) != "200" {
		t.Fatalf("repairs: got %+v", repairs)
	}
	// Nothing repaired: an empty list, not nil.
	result, repairs, err = reg.DispatchWithRepairs(ctx, llm.ToolCall{Name: "read", Arguments: `{"path":"a","limit":5}`}, tools.Environment{})
	if err != nil || repairs == nil || len(repairs) != 0 || result.Content != `{"path":"a","limit":5}` {
		t.Fatalf("got %q, %+v, %v", result.Content, repairs, err)
	}
	// What cannot be repaired fails with FULL's message and no repairs.
	_, repairs, err = reg.DispatchWithRepairs(ctx, llm.ToolCall{Name: "read", Arguments: `{"path":"a","limit":"2.5"}`}, tools.Environment{})
	if !errors.Is(err, tools.ErrInvalidArguments) || !strings.Contains(err.Error(), `/limit: expected integer, got string "2.5"`) || repairs != nil {
		t.Fatalf("got %+v, %v", repairs, err)
	}
	// A handler's own error comes back as from Dispatch.
	if err := reg.Register(llm.ToolDefinition{Name: "fails", Parameters: json.RawMessage(validatedReadSchema)},
		func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
			return tools.Result{}, errors.New("disk on fire")
		}); err != nil {
		t.Fatal(err)
	}
	_, repairs, err = reg.DispatchWithRepairs(ctx, llm.ToolCall{Name: "fails", Arguments: `{"path":"a","limit":"7"}`}, tools.Environment{})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") || repairs != nil {
		t.Fatalf("got %+v, %v", repairs, err)
	}
}
