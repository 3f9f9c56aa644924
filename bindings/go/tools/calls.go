package tools

import (
	"context"
	"sync"
	"sync/atomic"
)

// dispatchState is what one Dispatch shares with the handler it reaches:
// the Go values that need not cross into C, and the handler's own result
// or error, which Dispatch returns unchanged.
type dispatchState struct {
	slot        uint32 // its index in calls, which crosses C to the handler
	ctx         context.Context
	environment Environment
	handled     bool // a Go handler ran: result is its own
	result      Result
	handlerErr  error
}

// calls holds the state of every running Dispatch, by slot. The handler
// trampoline finds its Dispatch's state through the slot number, the only
// thing that crosses C. It is a cgo.Handle table made for this one use:
// slots are reused, so a dispatch allocates nothing here.
var calls callTable

type callTable struct {
	mu    sync.Mutex
	idle  []*dispatchState
	slots atomic.Pointer[[]*dispatchState] // grows by copy, read without the lock
}

// acquire returns an idle state, adding one when none is idle.
func (t *callTable) acquire() *dispatchState {
	t.mu.Lock()
	defer t.mu.Unlock()
	if n := len(t.idle); n > 0 {
		state := t.idle[n-1]
		t.idle = t.idle[:n-1]
		return state
	}
	var slots []*dispatchState
	if current := t.slots.Load(); current != nil {
		slots = *current
	}
	state := &dispatchState{slot: uint32(len(slots))}
	grown := append(slots[:len(slots):len(slots)], state)
	t.slots.Store(&grown)
	return state
}

// state returns the state in slot, which a running Dispatch holds.
func (t *callTable) state(slot uint32) *dispatchState {
	return (*t.slots.Load())[slot]
}

// release makes a state idle again, dropping what it referenced.
func (t *callTable) release(state *dispatchState) {
	*state = dispatchState{slot: state.slot}
	t.mu.Lock()
	t.idle = append(t.idle, state)
	t.mu.Unlock()
}
