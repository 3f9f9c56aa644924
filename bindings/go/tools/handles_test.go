package tools

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/govengers/aikido/llm"
)

// settledLiveHandles collects garbage until the count of live tool handles
// stops changing, so that registries other tests dropped are gone, and
// returns it. (A registry whose handler captures it is never collected.)
func settledLiveHandles() int64 {
	previous, stable := int64(-1), 0
	for stable < 3 {
		runtime.GC()
		time.Sleep(time.Millisecond)
		current := liveToolHandles.Load()
		if current == previous {
			stable++
		} else {
			stable = 0
		}
		previous = current
	}
	return previous
}

// waitForLiveHandles waits (collecting garbage, so that unreachable
// registries are freed) until want tool handles are live.
func waitForLiveHandles(t *testing.T, want int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for liveToolHandles.Load() != want && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := liveToolHandles.Load(); got != want {
		t.Fatalf("%d tool handles are live, want %d", got, want)
	}
}

// Every handle a tool's registration makes is deleted exactly once: a
// second Delete would panic inside a C callback and crash the test.
func TestToolHandlesAreDeletedOnceTheLibraryIsDone(t *testing.T) {
	base := settledLiveHandles()
	registry := NewRegistry()
	handler := func(context.Context, json.RawMessage, Environment) (Result, error) { return Result{}, nil }
	for _, name := range []string{"a", "b", "c", "d"} {
		if err := registry.Register(llm.ToolDefinition{Name: name}, handler); err != nil {
			t.Fatal(err)
		}
	}
	if registry.Register(llm.ToolDefinition{Name: "a"}, handler) == nil {
		t.Fatal("duplicate registered")
	}
	waitForLiveHandles(t, base+4) // the refused registration's handle is gone

	if err := registry.Unregister("a"); err != nil {
		t.Fatal(err)
	}
	waitForLiveHandles(t, base+3)

	// A tool unregistered during its call is released when the call returns.
	entered, proceed := make(chan struct{}), make(chan struct{})
	slow := func(context.Context, json.RawMessage, Environment) (Result, error) {
		close(entered)
		<-proceed
		return Result{Content: "done"}, nil
	}
	if err := registry.Register(llm.ToolDefinition{Name: "slow"}, slow); err != nil {
		t.Fatal(err)
	}
	finished := make(chan error)
	go func() {
		_, err := registry.Dispatch(context.Background(), llm.ToolCall{Name: "slow"}, Environment{})
		finished <- err
	}()
	<-entered
	if err := registry.Unregister("slow"); err != nil {
		t.Fatal(err)
	}
	waitForLiveHandles(t, base+4)
	close(proceed)
	if err := <-finished; err != nil {
		t.Fatal(err)
	}
	waitForLiveHandles(t, base+3)

	// Dropping the registry frees it, and releases every handle left.
	runtime.KeepAlive(registry)
	registry = nil
	waitForLiveHandles(t, base)
}

// Every Dispatch gives its state back, cleared.
func TestDispatchStatesAreReleased(t *testing.T) {
	registry := NewRegistry()
	failing := func(context.Context, json.RawMessage, Environment) (Result, error) { panic("boom") }
	if err := registry.Register(llm.ToolDefinition{Name: "boom"}, failing); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for range 3 {
		_, _ = registry.Dispatch(ctx, llm.ToolCall{Name: "boom"}, Environment{SessionID: "s"})
		_, _ = registry.Dispatch(ctx, llm.ToolCall{Name: "missing"}, Environment{})
	}
	calls.mu.Lock()
	defer calls.mu.Unlock()
	slots := *calls.slots.Load()
	if len(calls.idle) != len(slots) {
		t.Fatalf("%d of %d dispatch states are idle", len(calls.idle), len(slots))
	}
	for _, state := range calls.idle {
		if state.ctx != nil || state.environment != (Environment{}) || state.handlerErr != nil || slots[state.slot] != state {
			t.Errorf("state %d was not cleared: %+v", state.slot, state)
		}
	}
}
