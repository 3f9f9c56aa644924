package tools_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

const mcpInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}`

func mcpRegistry(t *testing.T) *tools.Registry {
	t.Helper()
	registry := tools.NewRegistry()
	must(t, registry.Register(llm.ToolDefinition{Name: "greet", Description: "Greet someone."},
		func(ctx context.Context, arguments json.RawMessage, environment tools.Environment) (tools.Result, error) {
			return tools.Result{Content: "hello " + string(arguments)}, nil
		}))
	must(t, registry.Register(llm.ToolDefinition{Name: "fail"},
		func(ctx context.Context, arguments json.RawMessage, environment tools.Environment) (tools.Result, error) {
			return tools.Result{}, errors.New("no luck")
		}))
	must(t, registry.Register(llm.ToolDefinition{Name: "wait"},
		func(ctx context.Context, arguments json.RawMessage, environment tools.Environment) (tools.Result, error) {
			select {
			case <-ctx.Done():
				return tools.Result{Content: "cancelled"}, nil
			case <-time.After(20 * time.Second):
				return tools.Result{}, errors.New("never cancelled")
			}
		}))
	return registry
}

func handle(t *testing.T, server *tools.MCPServer, message string) map[string]any {
	t.Helper()
	response, err := server.Handle([]byte(message))
	if err != nil {
		t.Fatalf("Handle(%s): %v", message, err)
	}
	if response == nil {
		t.Fatalf("Handle(%s): no response", message)
	}
	var decoded map[string]any
	if err := json.Unmarshal(response, &decoded); err != nil {
		t.Fatalf("Handle(%s): %s is not JSON: %v", message, response, err)
	}
	return decoded
}

func errorCode(reply map[string]any) float64 {
	failure, _ := reply["error"].(map[string]any)
	code, _ := failure["code"].(float64)
	return code
}

func TestMCPServerHandle(t *testing.T) {
	server, err := tools.NewMCPServer(mcpRegistry(t), "go-test", "3.0")
	must(t, err)
	if code := errorCode(handle(t, server, `{"jsonrpc":"2.0","id":0,"method":"tools/list"}`)); code != -32600 {
		t.Errorf("tools/list before initialize: code %v", code)
	}
	result := handle(t, server, mcpInitialize)["result"].(map[string]any)
	if result["protocolVersion"] != "2025-06-18" || result["serverInfo"].(map[string]any)["name"] != "go-test" {
		t.Errorf("initialize: %v", result)
	}
	if response, err := server.Handle([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)); response != nil || err != nil {
		t.Errorf("a notification got %s, %v", response, err)
	}
	listing := handle(t, server, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)["result"].(map[string]any)["tools"].([]any)
	if len(listing) != 3 || listing[0].(map[string]any)["name"] != "greet" {
		t.Errorf("tools/list: %v", listing)
	}
	call := handle(t, server, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"greet","arguments":{"a":1}}}`)["result"].(map[string]any)
	if call["isError"] != false || call["content"].([]any)[0].(map[string]any)["text"] != `hello {"a":1}` {
		t.Errorf("tools/call: %v", call)
	}
	call = handle(t, server, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fail"}}`)["result"].(map[string]any)
	if call["isError"] != true || call["content"].([]any)[0].(map[string]any)["text"] != "no luck" {
		t.Errorf("a failing tool: %v", call)
	}
	for message, want := range map[string]float64{
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"nope"}}`:                                                     -32602,
		`{"jsonrpc":"2.0","id":6,"method":"resources/list"}`:                                                                          -32601,
		`{"jsonrpc":"2.0","id":60,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1999-01-01"}}}`: -32022,
		`{oops`: -32700,
	} {
		if code := errorCode(handle(t, server, message)); code != want {
			t.Errorf("%s: code %v, want %v", message, code, want)
		}
	}
	if _, err := tools.NewMCPServer(tools.NewRegistry(), "a\x00b", ""); !errors.Is(err, tools.ErrInvalidInput) {
		t.Errorf("a NUL in the name: %v", err)
	}
}

func TestServeMCPOverAnyReaderAndWriter(t *testing.T) {
	registry := mcpRegistry(t)
	requests := strings.Join([]string{
		mcpInitialize,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"greet","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
	}, "\n") + "\n"
	var out strings.Builder
	must(t, tools.ServeMCP(context.Background(), registry, strings.NewReader(requests), &out))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 responses, got %q", out.String())
	}
	if !strings.Contains(out.String(), `"text":"hello {}"`) || !strings.Contains(out.String(), `{"jsonrpc":"2.0","id":3,"result":{}}`) {
		t.Errorf("responses: %s", out.String())
	}
}

func TestServeMCPCancelsAndTellsOfChanges(t *testing.T) {
	registry := mcpRegistry(t)
	inRead, inWrite := io.Pipe()
	outRead, outWrite := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tools.ServeMCP(ctx, registry, inRead, outWrite); outWrite.Close() }()
	lines := bufio.NewScanner(outRead)
	next := func() string {
		if !lines.Scan() {
			t.Fatalf("no more output: %v", lines.Err())
		}
		return lines.Text()
	}
	send := func(line string) {
		if _, err := io.WriteString(inWrite, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(mcpInitialize)
	next()
	send(`{"jsonrpc":"2.0","id":"w","method":"tools/call","params":{"name":"wait"}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if line := next(); line != `{"jsonrpc":"2.0","id":2,"result":{}}` {
		t.Errorf("ping while a call waits: %s", line)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`)
	must(t, registry.Unregister("fail"))
	if line := next(); line != `{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` {
		t.Errorf("after unregister: %s", line)
	}
	started := time.Now()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("ServeMCP returned %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ServeMCP did not return after ctx was cancelled")
	}
	if elapsed := time.Since(started); elapsed > 3*time.Second {
		t.Errorf("stopping took %v", elapsed)
	}
	inWrite.Close()
}
