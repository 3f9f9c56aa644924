package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"testing"
	"time"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

func dispatch(registry *tools.Registry, name, arguments string) (tools.Result, error) {
	return registry.Dispatch(context.Background(), llm.ToolCall{ID: "call-1", Name: name, Arguments: arguments}, tools.Environment{})
}

// registerHandler registers a handler as "probe", without parameters.
func registerHandler(t *testing.T, handler tools.Handler) *tools.Registry {
	t.Helper()
	registry := tools.NewRegistry()
	mustRegister(t, registry, llm.ToolDefinition{Name: "probe"}, handler)
	return registry
}

func TestPanicBecomesErrToolPanicked(t *testing.T) {
	for _, c := range []struct {
		name  string
		value any
		want  string
	}{
		{"string", "division by zero", "division by zero"},
		{"error", fs.ErrNotExist, "file does not exist"},
		{"integer", 42, "42"},
		{"runtime error", nil, "runtime error: index out of range [3] with length 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			registry := registerHandler(t, func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
				if c.value == nil {
					var empty []int
					_ = empty[len(c.name)-10] // "runtime error" indexes 3
				}
				panic(c.value)
			})
			_, err := dispatch(registry, "probe", `{}`)
			wantError(t, err, tools.ErrToolPanicked, `aikido/tools: tool panicked: tool "probe": `+c.want)
		})
	}
}

var errDiskFull = errors.New("disk full")

func TestHandlerErrorComesBackUnchanged(t *testing.T) {
	handlerErr := fmt.Errorf("write /tmp/x: %w", errDiskFull)
	registry := registerHandler(t, func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		return tools.Result{Content: "ignored"}, handlerErr
	})
	result, err := dispatch(registry, "probe", `{}`)
	if err != handlerErr {
		t.Fatalf("error %v (%T) is not the handler's error", err, err)
	}
	if !errors.Is(err, errDiskFull) || result.Content != "" {
		t.Errorf("errors.Is(err, errDiskFull) = %v, content %q", errors.Is(err, errDiskFull), result.Content)
	}

	// An error without text gets the library's message, and still unwraps
	// to the handler's error.
	silent := errors.New("")
	registry = registerHandler(t, func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		return tools.Result{}, silent
	})
	_, err = dispatch(registry, "probe", `{}`)
	wantError(t, err, silent, `tool "probe" reported an error without a message`)
}

func TestHandlerReceivesArgumentsEnvironmentAndContext(t *testing.T) {
	type key struct{}
	turn := tools.UUID{0x01, 0x8f, 0x3a, 15: 0xff}
	var gotArguments string
	var gotEnvironment tools.Environment
	var gotValue any
	registry := registerHandler(t, func(ctx context.Context, arguments json.RawMessage, environment tools.Environment) (tools.Result, error) {
		gotArguments, gotEnvironment, gotValue = string(arguments), environment, ctx.Value(key{})
		return tools.Result{Content: "é 🌍"}, nil
	})
	ctx := context.WithValue(context.Background(), key{}, "traced")
	environment := tools.Environment{SessionID: "session-\x00-1", TurnID: turn}
	result, err := registry.Dispatch(ctx, llm.ToolCall{Name: "probe", Arguments: ` {"a": 1} `}, environment)
	if err != nil || result.Content != "é 🌍" {
		t.Fatalf("dispatch: %q, %v", result.Content, err)
	}
	if gotArguments != ` {"a": 1} ` || gotEnvironment != environment || gotValue != "traced" {
		t.Errorf("handler got %q, %+v, %v", gotArguments, gotEnvironment, gotValue)
	}

	if _, err := registry.Dispatch(ctx, llm.ToolCall{Name: "probe"}, environment); err != nil || gotArguments != "{}" {
		t.Errorf("empty arguments reached the handler as %q (%v)", gotArguments, err)
	}
}

// libaikido takes only UTF-8 without NUL as error text: the model reads the
// handler's text with U+FFFD in place of what C cannot carry, and the caller
// still matches the handler's own error value.
func TestErrorTextTheLibraryCannotCarry(t *testing.T) {
	handlerErr := errors.New("bad \xff byte\x00")
	registry := registerHandler(t, func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		return tools.Result{}, handlerErr
	})
	_, err := dispatch(registry, "probe", `{}`)
	wantError(t, err, handlerErr, "bad \uFFFD byte\uFFFD")
}

func TestDispatchRefusesANameHoldingNUL(t *testing.T) {
	registry := registerHandler(t, content("ran"))
	_, err := dispatch(registry, "probe\x00suffix", `{}`)
	wantError(t, err, tools.ErrInvalidInput, "NUL")
}

func TestHandlersMayUseTheirRegistry(t *testing.T) {
	registry := tools.NewRegistry()
	mustRegister(t, registry, llm.ToolDefinition{Name: "inner"}, func(_ context.Context, arguments json.RawMessage, environment tools.Environment) (tools.Result, error) {
		return tools.Result{Content: environment.SessionID + ":" + string(arguments)}, nil
	})
	mustRegister(t, registry, llm.ToolDefinition{Name: "outer"}, func(ctx context.Context, _ json.RawMessage, environment tools.Environment) (tools.Result, error) {
		inner, err := registry.Dispatch(ctx, llm.ToolCall{Name: "inner", Arguments: `{"depth":2}`}, tools.Environment{SessionID: "nested"})
		if err != nil {
			return tools.Result{}, err
		}
		if err := registry.Register(llm.ToolDefinition{Name: "added"}, content("")); err != nil {
			return tools.Result{}, err
		}
		// environment is still this call's, not the inner one's.
		return tools.Result{Content: environment.SessionID + " > " + inner.Content}, nil
	})
	result, err := registry.Dispatch(context.Background(), llm.ToolCall{Name: "outer"}, tools.Environment{SessionID: "top"})
	if err != nil || result.Content != `top > nested:{"depth":2}` {
		t.Errorf("nested dispatch: %q, %v", result.Content, err)
	}
	if registry.Len() != 3 {
		t.Errorf("the handler's registration is missing: Len() = %d", registry.Len())
	}
}

func TestAnInnerDispatchErrorReturnedByAHandlerStillMatches(t *testing.T) {
	registry := tools.NewRegistry()
	mustRegister(t, registry, llm.ToolDefinition{Name: "outer"}, func(ctx context.Context, _ json.RawMessage, _ tools.Environment) (tools.Result, error) {
		return registry.Dispatch(ctx, llm.ToolCall{Name: "missing"}, tools.Environment{})
	})
	_, err := dispatch(registry, "outer", "")
	wantError(t, err, tools.ErrUnknownTool, `unknown tool "missing"`)
}

func TestCancelledContextStopsTheCall(t *testing.T) {
	ran := false
	registry := registerHandler(t, func(context.Context, json.RawMessage, tools.Environment) (tools.Result, error) {
		ran = true
		return tools.Result{}, nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := registry.Dispatch(ctx, llm.ToolCall{Name: "probe"}, tools.Environment{})
	wantError(t, err, tools.ErrCancelled, `aikido/tools: call cancelled: tool "probe" was not run`)
	wantError(t, err, context.Canceled)

	expired, stop := context.WithTimeout(context.Background(), time.Nanosecond)
	defer stop()
	<-expired.Done()
	_, err = registry.Dispatch(expired, llm.ToolCall{Name: "probe"}, tools.Environment{})
	wantError(t, err, tools.ErrCancelled)
	wantError(t, err, context.DeadlineExceeded)
	if ran {
		t.Error("the handler ran for a cancelled call")
	}

	// Unknown tools and bad arguments are reported before cancellation.
	_, err = registry.Dispatch(ctx, llm.ToolCall{Name: "other"}, tools.Environment{})
	wantError(t, err, tools.ErrUnknownTool)
}

func TestHandlerSeesCancellationWhileItRuns(t *testing.T) {
	started := make(chan struct{})
	registry := registerHandler(t, func(ctx context.Context, _ json.RawMessage, _ tools.Environment) (tools.Result, error) {
		close(started)
		select {
		case <-ctx.Done():
			return tools.Result{}, ctx.Err()
		case <-time.After(10 * time.Second):
			return tools.Result{Content: "never cancelled"}, nil
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started
		cancel()
	}()
	_, err := registry.Dispatch(ctx, llm.ToolCall{Name: "probe"}, tools.Environment{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the handler did not see the cancellation: %v", err)
	}
}
