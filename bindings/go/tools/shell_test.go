package tools_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

// bash dispatches the bash tool in a session; the call must succeed.
func bash(t *testing.T, registry *tools.Registry, session, arguments string) string {
	t.Helper()
	result, err := registry.Dispatch(context.Background(), llm.ToolCall{Name: "bash", Arguments: arguments},
		tools.Environment{SessionID: session})
	if err != nil {
		t.Fatalf("bash %s: %v", arguments, err)
	}
	return result.Content
}

func TestBashToolThroughTheRegistry(t *testing.T) {
	registry := tools.NewRegistry()
	storage := tools.NewMemoryStorage(0, 0)
	must(t, registry.RegisterShellTool(storage, nil))
	if definitions := registry.Definitions(); len(definitions) != 1 || definitions[0].Name != "bash" {
		t.Fatalf("definitions %+v", definitions)
	}
	for _, c := range []struct{ session, arguments, want string }{
		{"s1", `{"command":"echo hi > f; cat f"}`, "hi\n[exit code: 0]"},
		// State persists per session; another session has its own shell.
		{"s1", `{"command":"X=42; mkdir /d; cd /d"}`, "[exit code: 0]"},
		{"s1", `{"command":"echo $X; pwd"}`, "42\n/d\n[exit code: 0]"},
		{"s2", `{"command":"echo ${X:-unset}; cat /f"}`, "unset\nhi\n[exit code: 0]"},
		{"s1", `{"command":"cat /nope; exit 3"}`, "[stderr]\ncat: /nope: No such file or directory\n[exit code: 3]"},
		{"s1", `{"command":"","restart":true}`, "[shell restarted]\n[exit code: 0]"},
		{"s1", `{"command":"echo ${X:-unset}; pwd"}`, "unset\n/\n[exit code: 0]"},
	} {
		if got := bash(t, registry, c.session, c.arguments); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.session, c.arguments, got, c.want)
		}
	}
	if got := readText(t, storage, "/f"); got != "hi\n" {
		t.Errorf("the shell's file in the storage: %q", got)
	}
	_, err := registry.Dispatch(context.Background(), llm.ToolCall{Name: "bash", Arguments: `{}`}, tools.Environment{})
	wantError(t, err, tools.ErrInvalidArguments, `"command"`)
	wantError(t, registry.RegisterShellTool(storage, nil), tools.ErrDuplicateTool)

	limited := tools.NewRegistry()
	must(t, limited.RegisterShellTool(storage, &tools.ShellLimits{MaxLoopIterations: 100}))
	if got := bash(t, limited, "s", `{"command":"while true; do :; done"}`); !strings.HasSuffix(got, "[stopped: loop iteration limit reached]\n[exit code: 125]") {
		t.Errorf("limited: %q", got)
	}

	// A long result keeps its head and tail; the whole is saved as a file.
	cut := tools.NewRegistry()
	must(t, cut.RegisterShellTool(storage, &tools.ShellLimits{MaxResultBytes: 1000}))
	got := bash(t, cut, "s", `{"command":"seq 1 10000"}`)
	if len(got) > 1300 || !strings.HasPrefix(got, "1\n2\n3\n") || !strings.HasSuffix(got, "9999\n10000\n[exit code: 0]") ||
		!strings.Contains(got, "/tmp/aikido-bash/output-") {
		t.Errorf("cut result: %q", got)
	}
}

func TestShellPipelinesStream(t *testing.T) {
	storage := tools.NewMemoryStorage(0, 0)
	shell, err := tools.NewShell(storage, nil)
	must(t, err)
	defer shell.Close()
	result, err := shell.Run(context.Background(), "yes | head -n 2; echo ${PIPESTATUS[@]}")
	must(t, err)
	if string(result.Stdout) != "y\ny\n141 0\n" {
		t.Errorf("yes | head: %q", result.Stdout)
	}
	result, _ = shell.Run(context.Background(), "true"+strings.Repeat(" | true", 300))
	if result.Limit != tools.LimitThreads || result.ExitCode != 125 || result.Limit.String() != "threads" {
		t.Errorf("thread limit: %+v (%v)", result, result.Limit)
	}
}

func TestShellDirectRuns(t *testing.T) {
	storage := tools.NewMemoryStorage(0, 0)
	shell, err := tools.NewShell(storage, nil)
	must(t, err)
	defer shell.Close()
	ctx := context.Background()
	result, err := shell.Run(ctx, "echo hi > /f; cat /f; echo err >&2; X=5; exit 3")
	must(t, err)
	if string(result.Stdout) != "hi\n" || string(result.Stderr) != "err\n" || result.ExitCode != 3 ||
		result.Truncated || result.Limit != tools.LimitNone {
		t.Errorf("result %+v", result)
	}
	if got := readText(t, storage, "/f"); got != "hi\n" {
		t.Errorf("the shell's file in the storage: %q", got)
	}
	if result, _ := shell.Run(ctx, `printf 'a\0b'`); string(result.Stdout) != "a\x00b" {
		t.Errorf("bytes: %q", result.Stdout)
	}
	result, _ = shell.Run(ctx, "no_such_command")
	if result.ExitCode != 127 || !strings.Contains(string(result.Stderr), "command not found") {
		t.Errorf("unknown command: %+v", result)
	}
	if result, _ := shell.Run(ctx, "echo ${X:-none}"); string(result.Stdout) != "5\n" {
		t.Errorf("state: %q", result.Stdout)
	}
	shell.Reset()
	if result, _ := shell.Run(ctx, "echo ${X:-none}; cat /f"); string(result.Stdout) != "none\nhi\n" {
		t.Errorf("after reset: %q", result.Stdout)
	}
	_, err = shell.Run(ctx, "echo a\x00b")
	wantError(t, err, tools.ErrInvalidInput)

	must(t, shell.Close())
	_, err = shell.Run(ctx, "echo closed")
	wantError(t, err, tools.ErrInvalidInput)
}

func TestShellWriteSet(t *testing.T) {
	lower := tools.NewMemoryStorage(0, 0)
	dryRun, err := tools.NewDryRun(lower)
	must(t, err)
	shell, err := tools.NewShell(dryRun, nil)
	must(t, err)
	defer shell.Close()
	ctx := context.Background()

	// Created, changed or removed, sorted, once each: /x was written, then removed.
	result, err := shell.Run(ctx, "echo a > /x; mkdir -p /d; echo b > /d/y; rm /x")
	must(t, err)
	if want := []string{"/d", "/d/y", "/x"}; result.ExitCode != 0 || !slices.Equal(result.WriteSet, want) {
		t.Errorf("write set %q (exit code %d), want %q", result.WriteSet, result.ExitCode, want)
	}
	if entries, _ := lower.ReadDir("/"); len(entries) != 0 {
		t.Errorf("a dry run changed the storage below: %+v", entries)
	}

	result, err = shell.Run(ctx, "echo hi; cat /d/y; ls /")
	must(t, err)
	if string(result.Stdout) != "hi\nb\nd\n" || result.WriteSet == nil || len(result.WriteSet) != 0 {
		t.Errorf("a run that writes nothing: %q, write set %#v", result.Stdout, result.WriteSet)
	}

	// Names the library's JSON escapes: \\, \n, \" and \u0001.
	result, err = shell.Run(ctx, `echo > '/b\s'; echo > $'/n\nl'; echo > '/q"b'; echo > $'/u\x01'`)
	must(t, err)
	if want := []string{`/b\s`, "/n\nl", `/q"b`, "/u\x01"}; result.ExitCode != 0 || !slices.Equal(result.WriteSet, want) {
		t.Errorf("write set %q (exit code %d), want %q", result.WriteSet, result.ExitCode, want)
	}
}

func TestShellLimitsAndCancellation(t *testing.T) {
	storage := tools.NewMemoryStorage(0, 0)
	shell, err := tools.NewShell(storage, &tools.ShellLimits{MaxLoopIterations: 100})
	must(t, err)
	result, err := shell.Run(context.Background(), "while true; do :; done")
	must(t, err)
	if result.Limit != tools.LimitLoopIterations || result.ExitCode != 125 {
		t.Errorf("loop limit: %+v (%v)", result, result.Limit)
	}

	small, err := tools.NewShell(storage, &tools.ShellLimits{MaxOutputBytes: 16})
	must(t, err)
	result, _ = small.Run(context.Background(), "for i in 1 2 3; do echo 0123456789; done")
	if len(result.Stdout) != 16 || !result.Truncated || result.Limit != tools.LimitOutput {
		t.Errorf("output limit: %+v", result)
	}

	frugal, err := tools.NewShell(storage, &tools.ShellLimits{MaxMemoryBytes: 1 << 20})
	must(t, err)
	result, _ = frugal.Run(context.Background(), "x=$(printf '%*s' 100000 ''); y=${x// /$x}")
	if result.Limit != tools.LimitMemory || result.ExitCode != 125 || result.Limit.String() != "memory" {
		t.Errorf("memory limit: %+v (%v)", result, result.Limit)
	}

	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	result, _ = shell.Run(cancelled, "while true; do :; done")
	if result.ExitCode != 130 || result.Limit != tools.LimitCancelled {
		t.Errorf("cancelled before: %+v", result)
	}

	// A context that ends while the script runs stops it.
	endless, err := tools.NewShell(storage, &tools.ShellLimits{
		MaxCommands: math.MaxUint64, MaxLoopIterations: math.MaxUint64, MaxDuration: time.Minute})
	must(t, err)
	ctx, stop := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer stop()
	result, _ = endless.Run(ctx, "while true; do :; done")
	if result.ExitCode != 130 || result.Limit != tools.LimitCancelled || !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("cancelled while running: %+v", result)
	}
}

func TestShellsRunConcurrently(t *testing.T) {
	storage := tools.NewMemoryStorage(0, 0)
	registry := tools.NewRegistry()
	must(t, registry.RegisterShellTool(storage, nil))
	shell, err := tools.NewShell(storage, nil)
	must(t, err)
	done := make(chan string)
	for i := range 4 {
		go func() {
			session := string(rune('a' + i))
			result, err := registry.Dispatch(context.Background(),
				llm.ToolCall{Name: "bash", Arguments: `{"command":"echo ` + session + ` > /` + session + `; cat /` + session + `"}`},
				tools.Environment{SessionID: session})
			if err != nil {
				done <- err.Error()
				return
			}
			done <- result.Content
		}()
		go func() {
			result, err := shell.Run(context.Background(), "echo run")
			if err != nil {
				done <- err.Error()
				return
			}
			done <- string(result.Stdout)
		}()
	}
	for range 8 {
		if got := <-done; got != "run\n" && !strings.HasSuffix(got, "\n[exit code: 0]") {
			t.Errorf("concurrent run: %q", got)
		}
	}
}
