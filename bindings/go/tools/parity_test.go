package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

// dispatchCase is one line of tests/cases/dispatch.tsv, whose header
// comment defines the columns.
type dispatchCase struct {
	name, schema, handler, call, arguments, status, fragment string
	cancelled                                                bool
	full, repair                                             bool // the registry's validation mode
}

// unescape decodes the table's escapes: \t \n \r \\ and \xHH (one raw byte).
func unescape(t *testing.T, text string) string {
	var out strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' || i+1 == len(text) {
			out.WriteByte(text[i])
			continue
		}
		i++
		switch text[i] {
		case 't':
			out.WriteByte('\t')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case '\\':
			out.WriteByte('\\')
		case 'x':
			value, err := strconv.ParseUint(text[i+1:i+3], 16, 8)
			if err != nil {
				t.Fatalf("bad escape in %q: %v", text, err)
			}
			out.WriteByte(byte(value))
			i += 2
		default:
			t.Fatalf("unknown escape \\%c in %q", text[i], text)
		}
	}
	return out.String()
}

// arguments decodes the arguments column, where @deep:N stands for
// {"a": followed by N '[' then N ']' and '}'.
func arguments(t *testing.T, column string) string {
	depth, ok := strings.CutPrefix(column, "@deep:")
	if !ok {
		return unescape(t, column)
	}
	n, err := strconv.Atoi(depth)
	if err != nil {
		t.Fatalf("bad depth %q", column)
	}
	return `{"a":` + strings.Repeat("[", n) + strings.Repeat("]", n) + "}"
}

func loadCases(t *testing.T) []dispatchCase {
	table, err := os.ReadFile("../../../tests/cases/dispatch.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var cases []dispatchCase
	for _, line := range strings.Split(string(table), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		columns := strings.Split(line, "\t")
		if len(columns) != 8 {
			t.Fatalf("a case line has eight columns: %q", line)
		}
		c := dispatchCase{
			name: columns[0], schema: columns[1], handler: columns[2], call: columns[3],
			arguments: arguments(t, columns[4]), status: columns[5], fragment: unescape(t, columns[6]),
		}
		for _, flag := range strings.Split(columns[7], ",") {
			c.cancelled = c.cancelled || flag == "cancelled"
			c.full = c.full || flag == "full"
			c.repair = c.repair || flag == "repair"
		}
		if c.schema == "-" {
			c.schema = ""
		}
		cases = append(cases, c)
	}
	return cases
}

// caseHandler is the handler column as a Go handler.
func caseHandler(t *testing.T, column string) tools.Handler {
	return func(_ context.Context, arguments json.RawMessage, _ tools.Environment) (tools.Result, error) {
		if column == "echo" {
			return tools.Result{Content: string(arguments)}, nil
		}
		if text, ok := strings.CutPrefix(column, "content:"); ok {
			return tools.Result{Content: text}, nil
		}
		if text, ok := strings.CutPrefix(column, "fail:"); ok {
			return tools.Result{}, errors.New(text)
		}
		if text, ok := strings.CutPrefix(column, "panic:"); ok {
			panic(text)
		}
		t.Errorf("unknown handler column %q", column)
		return tools.Result{}, nil
	}
}

// statusOf names the AIKIDO_* status an outcome of Dispatch stands for.
func statusOf(err error) string {
	for _, s := range []struct {
		target error
		status string
	}{
		{tools.ErrDuplicateTool, "AIKIDO_ERR_DUPLICATE_TOOL"},
		{tools.ErrUnknownTool, "AIKIDO_ERR_UNKNOWN_TOOL"},
		{tools.ErrInvalidArguments, "AIKIDO_ERR_INVALID_ARGUMENTS"},
		{tools.ErrToolPanicked, "AIKIDO_ERR_TOOL_PANICKED"},
		{tools.ErrInvalidInput, "AIKIDO_ERR_INVALID_INPUT"},
		{tools.ErrCancelled, "AIKIDO_ERR_CANCELLED"},
	} {
		if errors.Is(err, s.target) {
			return s.status
		}
	}
	if err == nil {
		return "AIKIDO_OK"
	}
	return "AIKIDO_ERR_TOOL_FAILED" // a handler's own error
}

// Every case of the table every language runs.
func TestSharedDispatchCases(t *testing.T) {
	cases := loadCases(t)
	if len(cases) < 40 {
		t.Fatalf("the table has lost cases: %d", len(cases))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range cases {
		registry := tools.NewRegistry()
		if c.repair {
			if err := registry.SetValidation(tools.ValidateRepair); err != nil {
				t.Fatalf("%s: SetValidation: %v", c.name, err)
			}
		} else if c.full {
			if err := registry.SetValidation(tools.ValidateFull); err != nil {
				t.Fatalf("%s: SetValidation: %v", c.name, err)
			}
		}
		definition := llm.ToolDefinition{Name: "probe", Parameters: json.RawMessage(c.schema)}
		if err := registry.Register(definition, caseHandler(t, c.handler)); err != nil {
			t.Errorf("%s: register: %v", c.name, err)
			continue
		}
		ctx := context.Background()
		if c.cancelled {
			ctx = cancelled
		}
		result, err := registry.Dispatch(ctx, llm.ToolCall{ID: "call-1", Name: c.call, Arguments: c.arguments}, tools.Environment{})
		text := result.Content
		if err != nil {
			text = err.Error()
		}
		if status := statusOf(err); status != c.status || !strings.Contains(text, c.fragment) {
			t.Errorf("%s: got %s %q; want %s containing %q", c.name, status, text, c.status, c.fragment)
		}
	}
	t.Logf("%d cases", len(cases))
}
