package tools

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

func runOut(t *testing.T, shell *Shell, script string) string {
	t.Helper()
	result, err := shell.Run(context.Background(), script)
	if err != nil {
		t.Fatal(err)
	}
	return string(result.Stdout)
}

func TestShellSnapshotRestoreAndFork(t *testing.T) {
	storage := NewMemoryStorage(0, 0)
	shell, err := NewShell(storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	runOut(t, shell, `mkdir /w && cd /w && echo data > f; x=1; g() { echo "g $x"; }`)
	snapshot, err := shell.Snapshot()
	if err != nil || !bytes.HasPrefix(snapshot, []byte("AIKIDOSS")) {
		t.Fatalf("snapshot: %v %q", err, snapshot[:8])
	}
	restored, err := RestoreShell(snapshot, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := runOut(t, restored, "g; pwd; cat f"); got != "g 1\n/w\ndata\n" {
		t.Errorf("restored: %q", got)
	}
	files, err := restored.Storage()
	if err != nil {
		t.Fatal(err)
	}
	if data, err := files.ReadFile("/w/f"); err != nil || string(data) != "data\n" {
		t.Errorf("restored file: %q %v", data, err)
	}
	other := NewMemoryStorage(0, 0)
	into, err := RestoreShell(snapshot, other, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := runOut(t, into, "ls /"); got != "w\n" {
		t.Errorf("into: %q", got)
	}

	fork, err := shell.Fork()
	if err != nil {
		t.Fatal(err)
	}
	runOut(t, fork, "echo more >> f; x=2")
	if got := runOut(t, shell, "cat f; echo $x"); got != "data\n1\n" {
		t.Errorf("original after the fork's change: %q", got)
	}
	if got := runOut(t, fork, "cat f; echo $x"); got != "data\nmore\n2\n" {
		t.Errorf("fork: %q", got)
	}

	flipped := bytes.Clone(snapshot)
	flipped[len(flipped)/2] ^= 0x10
	if _, err := RestoreShell(flipped, nil, nil); !errors.Is(err, ErrInvalidInput) || !strings.Contains(err.Error(), "checksum does not match") {
		t.Errorf("a flipped bit: %v", err)
	}
	if _, err := RestoreShell(snapshot[:len(snapshot)-1], nil, nil); !errors.Is(err, ErrInvalidInput) || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated: %v", err)
	}
}
