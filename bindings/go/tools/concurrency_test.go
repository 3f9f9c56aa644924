package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

// Dispatches from many goroutines while others register, unregister and
// list; run under -race.
func TestConcurrentUse(t *testing.T) {
	const (
		toolCount   = 1000
		dispatchers = 8
		dispatches  = 1500
	)
	registry := tools.NewRegistry()
	schema := tools.Object(map[string]any{"n": tools.Integer("")}, "n")
	echo := func(_ context.Context, arguments json.RawMessage, environment tools.Environment) (tools.Result, error) {
		return tools.Result{Content: environment.SessionID + string(arguments)}, nil
	}
	for i := range toolCount {
		mustRegister(t, registry, llm.ToolDefinition{Name: fmt.Sprintf("tool-%d", i), Parameters: schema}, echo)
	}

	var wg sync.WaitGroup
	errs := make(chan error, dispatchers+2)
	for d := range dispatchers {
		wg.Go(func() {
			for i := range dispatches {
				session := fmt.Sprintf("d%d-%d", d, i)
				arguments := fmt.Sprintf(`{"n":%d}`, i)
				result, err := registry.Dispatch(context.Background(),
					llm.ToolCall{Name: fmt.Sprintf("tool-%d", (d*131+i)%toolCount), Arguments: arguments},
					tools.Environment{SessionID: session})
				if err != nil || result.Content != session+arguments {
					errs <- fmt.Errorf("dispatch %s: %q, %v", session, result.Content, err)
					return
				}
			}
		})
	}
	wg.Go(func() { // churn: tools that come and go
		for i := range 300 {
			name := fmt.Sprintf("churn-%d", i%10)
			if err := registry.Register(llm.ToolDefinition{Name: name}, echo); err != nil {
				errs <- err
				return
			}
			if err := registry.Unregister(name); err != nil {
				errs <- err
				return
			}
		}
	})
	wg.Go(func() { // listing sees every permanent tool, in order
		for range 30 {
			definitions := registry.Definitions()
			if len(definitions) < toolCount || definitions[0].Name != "tool-0" || definitions[toolCount-1].Name != "tool-999" {
				errs <- fmt.Errorf("definitions: %d entries", len(definitions))
				return
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := registry.Len(); got != toolCount {
		t.Errorf("Len() = %d, want %d", got, toolCount)
	}
}
