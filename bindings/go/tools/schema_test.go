package tools_test

import (
	"strings"
	"testing"

	"github.com/govengers/aikido/internal/capi"
	"github.com/govengers/aikido/tools"
)

// descriptions exercise what JSON escaping could spell differently in Go
// and in libaikido: HTML characters, quotes, control characters, non-ASCII,
// the line separators Go's encoder escapes.
var descriptions = []string{
	"", "File to read.", `a <b> & "c"`, "back\\slash\ttab\nnewline\x01", "été 🌍", "\u2028\u2029",
}

// The Go helpers build maps; Object turns them into text through
// libaikido. Each must give exactly the bytes of the C helper it mirrors.
func TestSchemaHelpersGiveTheBytesOfTheCHelpers(t *testing.T) {
	for _, description := range descriptions {
		cases := []struct {
			helper   string
			property any
			want     string
		}{
			{"String", tools.String(description), capi.SchemaString(description)},
			{"Integer", tools.Integer(description), capi.SchemaInteger(description)},
			{"Number", tools.Number(description), capi.SchemaNumber(description)},
			{"Boolean", tools.Boolean(description), capi.SchemaBoolean(description)},
			{"Enum", tools.Enum(description, "utf-8", "a<b", "é"), capi.SchemaEnum(description, "utf-8", "a<b", "é")},
			{"Enum without values", tools.Enum(description), capi.SchemaEnum(description)},
			{"Array", tools.Array(tools.String(description), description),
				capi.SchemaArray(capi.SchemaString(description), description)},
			{"Object", tools.Object(map[string]any{"x": tools.Boolean(description)}, "x"),
				capi.SchemaObject([]string{"x"}, []string{capi.SchemaBoolean(description)}, "x")},
		}
		for _, c := range cases {
			if c.want == "" {
				t.Fatalf("%s(%q): the C helper failed", c.helper, description)
			}
			got := string(tools.Object(map[string]any{"p": c.property}))
			want := capi.SchemaObject([]string{"p"}, []string{c.want})
			if got != want {
				t.Errorf("%s(%q):\n got %s\nwant %s", c.helper, description, got, want)
			}
		}
	}
}

func TestObjectKeepsRequiredOrderAndSortsProperties(t *testing.T) {
	got := string(tools.Object(map[string]any{
		"zeta": tools.String(""), "alpha": tools.Integer(""), "mid": tools.Array(tools.Number(""), ""),
	}, "zeta", "alpha"))
	want := capi.SchemaObject(
		[]string{"alpha", "mid", "zeta"},
		[]string{capi.SchemaInteger(""), capi.SchemaArray(capi.SchemaNumber(""), ""), capi.SchemaString("")},
		"zeta", "alpha")
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !strings.HasPrefix(got, `{"properties":{"alpha":`) || !strings.HasSuffix(got, `"required":["zeta","alpha"],"type":"object"}`) {
		t.Errorf("unexpected layout: %s", got)
	}
}

func TestObjectWithoutProperties(t *testing.T) {
	if got, want := string(tools.Object(nil)), `{"type":"object"}`; got != want {
		t.Errorf("Object(nil) = %s, want %s", got, want)
	}
	if got, want := string(tools.Object(nil, "a")), `{"required":["a"],"type":"object"}`; got != want {
		t.Errorf("Object(nil, a) = %s, want %s", got, want)
	}
}

func TestObjectPanicsOnAProgrammerError(t *testing.T) {
	for name, build := range map[string]func(){
		"unencodable value": func() { tools.Object(map[string]any{"c": make(chan int)}) },
		"NUL in a name":     func() { tools.Object(map[string]any{"a\x00b": tools.String("")}) },
		"NUL in required":   func() { tools.Object(nil, "a\x00b") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Object did not panic", name)
				}
			}()
			build()
		}()
	}
}
