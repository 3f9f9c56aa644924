package tools_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

// BenchmarkDispatch is one small dispatch: the argument check in libaikido,
// the cgo round trip and the Go handler. scripts/bench.sh reports it.
func BenchmarkDispatch(b *testing.B) {
	benchmarkDispatch(b, context.Background())
}

// BenchmarkCancellableDispatch is the same call with a context that can be
// cancelled (and is not).
func BenchmarkCancellableDispatch(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	benchmarkDispatch(b, ctx)
}

func benchmarkDispatch(b *testing.B, ctx context.Context) {
	registry := tools.NewRegistry()
	err := registry.Register(llm.ToolDefinition{
		Name: "read_file",
		Parameters: tools.Object(map[string]any{
			"path":  tools.String("File to read."),
			"limit": tools.Integer("Maximum lines."),
		}, "path", "limit"),
	}, func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		return tools.Result{Content: "ok"}, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	call := llm.ToolCall{
		ID:        "call-1",
		Name:      "read_file",
		Arguments: `{"path":"/var/log/syslog","limit":200,"encoding":"utf-8","follow":false}`,
	}
	environment := tools.Environment{SessionID: "session-1"}
	b.ReportAllocs()
	for b.Loop() {
		result, err := registry.Dispatch(ctx, call, environment)
		if err != nil || result.Content != "ok" {
			b.Fatalf("dispatch: %q, %v", result.Content, err)
		}
	}
}
