package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

const readSchema = `{"properties":{"limit":{"type":"integer"},"path":{"type":"string"}},"required":["path"],"type":"object"}`

// dialectRegistry holds the two tools tests/cases/dialects.tsv assumes:
// "read" echoes its arguments, "fail" fails with "disk full".
func dialectRegistry(t *testing.T) *tools.Registry {
	t.Helper()
	registry := tools.NewRegistry()
	echo := func(_ context.Context, arguments json.RawMessage, _ tools.Environment) (tools.Result, error) {
		return tools.Result{Content: string(arguments)}, nil
	}
	fail := func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		return tools.Result{}, errors.New("disk full")
	}
	if err := registry.Register(llm.ToolDefinition{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(readSchema)}, echo); err != nil {
		t.Fatal(err)
	}
	if err := registry.Register(llm.ToolDefinition{Name: "fail"}, fail); err != nil {
		t.Fatal(err)
	}
	return registry
}

func TestDefinitionsFor(t *testing.T) {
	registry := dialectRegistry(t)
	anthropic, err := registry.DefinitionsFor(tools.Anthropic)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"name":"read","description":"Read a file.","input_schema":` + readSchema + `},{"name":"fail","input_schema":{"type":"object","properties":{}}}]`
	if string(anthropic) != want {
		t.Errorf("Anthropic definitions\n got %s\nwant %s", anthropic, want)
	}
	strict, err := registry.DefinitionsFor(tools.OpenAIResponses, tools.Strict)
	if err != nil || !strings.Contains(string(strict), `"strict":true`) || !strings.Contains(string(strict), `"type":["integer","null"]`) {
		t.Errorf("strict Responses definitions: %s, %v", strict, err)
	}
	dotted := tools.NewRegistry()
	if err := dotted.Register(llm.ToolDefinition{Name: "files.read"}, func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		return tools.Result{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := dotted.DefinitionsFor(tools.OpenAIChat); !errors.Is(err, tools.ErrInvalidInput) || !strings.Contains(err.Error(), `"files.read"`) {
		t.Errorf("a dotted name for OpenAI: %v", err)
	}
	if _, err := dotted.DefinitionsFor(tools.MCP); err != nil {
		t.Errorf("a dotted name for MCP: %v", err)
	}
}

func TestParseToolCalls(t *testing.T) {
	reply := []byte(`{"type":"message","content":[{"type":"text","text":"x"},{"type":"tool_use","id":"toolu_1","name":"read","input":{"path": "/a", "n": 1e400}}]}`)
	calls, err := tools.ParseToolCalls(tools.Anthropic, reply)
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.ToolCall{{ID: "toolu_1", Name: "read", Arguments: `{"path":"/a","n":1e400}`}}
	if len(calls) != 1 || calls[0] != want[0] {
		t.Errorf("calls %+v, want %+v", calls, want)
	}
	if _, err := tools.ParseToolCalls(tools.OpenAIChat, reply); !errors.Is(err, tools.ErrInvalidInput) || !strings.Contains(err.Error(), "Anthropic") {
		t.Errorf("a foreign reply: %v", err)
	}
	if calls, err := tools.ParseToolCalls(tools.Gemini, []byte(`{"parts":[{"text":"no calls"}]}`)); err != nil || len(calls) != 0 {
		t.Errorf("no calls: %+v, %v", calls, err)
	}
}

type sessionKey struct{}

// rendezvous measures whether calls overlap without timing them (timings
// fail on a loaded machine): each call waits, up to the patience, for all
// four calls of the round to have started; the most running at once is kept.
type rendezvous struct {
	mu                    sync.Mutex
	changed               chan struct{}
	arrived, inside, most int
	patience              time.Duration
}

func newRendezvous(patience time.Duration) *rendezvous {
	return &rendezvous{changed: make(chan struct{}), patience: patience}
}

func (r *rendezvous) call(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.arrived++
	r.inside++
	r.most = max(r.most, r.inside)
	close(r.changed)
	r.changed = make(chan struct{})
	deadline := time.After(r.patience)
	var err error
	for waiting := true; waiting && r.arrived < 4; {
		changed := r.changed
		r.mu.Unlock()
		select {
		case <-changed:
		case <-deadline:
			waiting = false
		case <-ctx.Done():
			waiting, err = false, ctx.Err()
		}
		r.mu.Lock()
	}
	r.inside--
	return err
}

// nextRound starts a round and returns the most calls that ran at once in the last.
func (r *rendezvous) nextRound(patience time.Duration) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	most := r.most
	r.most, r.arrived, r.patience = 0, 0, patience
	return most
}

func TestRespondRunsGoHandlersAtOnceWithContextAndEnvironment(t *testing.T) {
	registry := tools.NewRegistry()
	var mu sync.Mutex
	var seen []tools.Environment
	var values []any
	meeting := newRendezvous(20 * time.Second)
	nap := func(ctx context.Context, arguments json.RawMessage, environment tools.Environment) (tools.Result, error) {
		mu.Lock()
		seen = append(seen, environment)
		values = append(values, ctx.Value(sessionKey{}))
		mu.Unlock()
		if err := meeting.call(ctx); err != nil {
			return tools.Result{}, err
		}
		return tools.Result{Content: "slept " + string(arguments)}, nil
	}
	if err := registry.Register(llm.ToolDefinition{Name: "nap"}, nap); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for index := range 4 {
		parts = append(parts, `{"type":"tool_use","id":"t`+strconv.Itoa(index)+`","name":"nap","input":{"n":`+strconv.Itoa(index)+`}}`)
	}
	reply := []byte("[" + strings.Join(parts, ",") + "]")
	environment := tools.Environment{SessionID: "session-1", TurnID: tools.UUID{1, 2, 3}}
	ctx := context.WithValue(context.Background(), sessionKey{}, "mine")
	out, err := registry.Respond(ctx, tools.Anthropic, reply, environment)
	if err != nil {
		t.Fatal(err)
	}
	if most := meeting.nextRound(20 * time.Millisecond); most != 4 {
		t.Errorf("%d of the four calls ran at once", most)
	}
	var messages []struct {
		Role    string `json:"role"`
		Content []struct {
			ToolUseID string `json:"tool_use_id"`
			Content   string `json:"content"`
			IsError   bool   `json:"is_error"`
		} `json:"content"`
	}
	if err := json.Unmarshal(out, &messages); err != nil || len(messages) != 1 || len(messages[0].Content) != 4 {
		t.Fatalf("output %s (%v)", out, err)
	}
	for index, block := range messages[0].Content {
		if block.ToolUseID != "t"+strconv.Itoa(index) || block.Content != `slept {"n":`+strconv.Itoa(index)+`}` || block.IsError {
			t.Errorf("block %d: %+v", index, block)
		}
	}
	for index := range seen {
		if seen[index] != environment || values[index] != "mine" {
			t.Errorf("handler %d saw %+v and %v", index, seen[index], values[index])
		}
	}

	if _, err := registry.Respond(ctx, tools.Anthropic, reply, environment, tools.Sequential); err != nil {
		t.Fatal(err)
	}
	if most := meeting.nextRound(20 * time.Second); most != 1 {
		t.Errorf("sequential: %d calls ran at once", most)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	out, err = registry.Respond(cancelled, tools.Anthropic, reply, environment)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(out), `aikido/tools: call cancelled: tool \"nap\" was not run`); got != 4 {
		t.Errorf("cancelled reply: %s", out)
	}
}

func TestRespondReportsFailuresAndRefusesUnreadableReplies(t *testing.T) {
	registry := dialectRegistry(t)
	out, err := registry.Respond(context.Background(), tools.Gemini,
		[]byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"fail","args":{}}},{"functionCall":{"name":"boom","args":{}}}]}}]}`),
		tools.Environment{})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"role":"user","parts":[{"functionResponse":{"name":"fail","response":{"error":"disk full"}}},{"functionResponse":{"name":"boom","response":{"error":"aikido/tools: unknown tool \"boom\"; the registered tools are \"read\", \"fail\""}}}]}]`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	if _, err := registry.Respond(context.Background(), tools.Anthropic, []byte("not json"), tools.Environment{}); !errors.Is(err, tools.ErrInvalidInput) {
		t.Errorf("not JSON: %v", err)
	}
	if _, err := registry.Respond(context.Background(), tools.Anthropic, []byte("[]"), tools.Environment{SessionID: "a\x00b"}); !errors.Is(err, tools.ErrInvalidInput) {
		t.Errorf("NUL in the session: %v", err)
	}
}

// TestSharedDialectCases runs tests/cases/dialects.tsv (its header defines
// the columns), as every binding does.
func TestSharedDialectCases(t *testing.T) {
	table, err := os.ReadFile("../../../tests/cases/dialects.tsv")
	if err != nil {
		t.Fatal(err)
	}
	registry := dialectRegistry(t)
	cases := 0
	for _, line := range strings.Split(string(table), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		columns := strings.Split(line, "\t")
		if len(columns) != 7 {
			t.Fatalf("a case line has seven columns: %q", line)
		}
		cases++
		name, op, input, status, expected := columns[0], columns[1], columns[4], columns[5], columns[6]
		dialect, _ := strconv.Atoi(columns[2])
		flags, _ := strconv.Atoi(columns[3])
		var out json.RawMessage
		var calls []llm.ToolCall
		switch op {
		case "definitions":
			out, err = registry.DefinitionsFor(tools.Dialect(dialect), tools.Flags(flags))
		case "parse":
			calls, err = tools.ParseToolCalls(tools.Dialect(dialect), []byte(input))
			if err == nil {
				out, _ = json.Marshal(calls)
			}
		case "calls":
			calls, err = tools.ParseToolCalls(tools.Dialect(dialect), []byte(input))
			var parts []string
			for _, call := range calls {
				parts = append(parts, "["+call.ID+"] "+call.Name+" "+call.Arguments)
			}
			if len(parts) == 0 {
				parts = []string{"(none)"}
			}
			out = json.RawMessage(strings.Join(parts, " | "))
		case "respond":
			out, err = registry.Respond(context.Background(), tools.Dialect(dialect), []byte(input), tools.Environment{}, tools.Flags(flags))
		default:
			t.Fatalf("%s: unknown op %q", name, op)
		}
		switch {
		case status == "AIKIDO_OK" && err != nil:
			t.Errorf("%s: %v", name, err)
		case status == "AIKIDO_OK" && op == "parse":
			// Go's encoder escapes <, > and & and orders fields as the struct
			// does; compare the decoded lists.
			var want []llm.ToolCall
			if json.Unmarshal([]byte(expected), &want) != nil || len(want) != len(calls) {
				t.Errorf("%s: got %+v, want %s", name, calls, expected)
			}
			for index := range want {
				if index < len(calls) && want[index] != calls[index] {
					t.Errorf("%s: call %d is %+v, want %+v", name, index, calls[index], want[index])
				}
			}
		case status == "AIKIDO_OK" && string(out) != expected:
			t.Errorf("%s:\n got %s\nwant %s", name, out, expected)
		case status == "AIKIDO_ERR_INVALID_INPUT" && (!errors.Is(err, tools.ErrInvalidInput) || !strings.Contains(err.Error(), expected)):
			t.Errorf("%s: error %v, want one containing %q", name, err, expected)
		}
	}
	if cases < 25 {
		t.Errorf("the table has lost cases: %d", cases)
	}
}
