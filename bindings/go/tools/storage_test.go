package tools_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/govengers/aikido/llm"
	"github.com/govengers/aikido/tools"
)

// must fails the test on an error.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// readText reads a file that must exist.
func readText(t *testing.T, storage *tools.Storage, path string) string {
	t.Helper()
	data, err := storage.ReadFile(path)
	must(t, err)
	return string(data)
}

// wantStorageError checks a *StorageError's status and exact message.
func wantStorageError(t *testing.T, err error, status int, message string) {
	t.Helper()
	var storageErr *tools.StorageError
	if !errors.As(err, &storageErr) {
		t.Fatalf("error %#v is not a *tools.StorageError", err)
	}
	if storageErr.Status != status || storageErr.Message != message {
		t.Errorf("got status %d %q, want %d %q", storageErr.Status, storageErr.Message, status, message)
	}
	target := tools.ErrStorage
	if status == 6 {
		target = tools.ErrInvalidInput
	}
	if !errors.Is(err, target) {
		t.Errorf("error %v does not match %v", err, target)
	}
}

func names(entries []tools.DirEntry) string {
	var parts []string
	for _, entry := range entries {
		parts = append(parts, entry.Name+":"+entry.Kind.String())
	}
	return strings.Join(parts, " ")
}

func TestStorageRoundTrips(t *testing.T) {
	storage := tools.NewMemoryStorage(0, 0)
	defer storage.Close()
	must(t, storage.MkdirAll("/a/b"))
	must(t, storage.WriteFile("/a/b/one.txt", []byte("one")))
	must(t, storage.AppendFile("a/b/one.txt", []byte(" two")))
	if got := readText(t, storage, "/a/./b/../b/one.txt"); got != "one two" {
		t.Errorf("read %q", got)
	}
	binary := []byte{0, 1, 2, 0, 255}
	must(t, storage.WriteFile("/bin", binary))
	if got, _ := storage.ReadFile("/bin"); !reflect.DeepEqual(got, binary) {
		t.Errorf("read %v, want %v", got, binary)
	}
	must(t, storage.WriteFile("/empty", nil))
	if got, err := storage.ReadFile("/empty"); err != nil || len(got) != 0 {
		t.Errorf("read %v, %v", got, err)
	}

	stat, err := storage.Stat("/a/b/one.txt")
	must(t, err)
	if stat.Kind != tools.KindFile || stat.Size != 7 || stat.Mode != 0o644 || stat.ModTime.IsZero() {
		t.Errorf("stat %+v", stat)
	}
	must(t, storage.Symlink("a/b", "/link"))
	if target, err := storage.Readlink("/link"); err != nil || target != "a/b" {
		t.Errorf("readlink %q, %v", target, err)
	}
	if stat, _ := storage.Stat("/link"); stat.Kind != tools.KindDirectory {
		t.Errorf("stat through the link: %+v", stat)
	}
	must(t, storage.WriteFile("/odd \"name\"\\\t", []byte("x")))
	entries, err := storage.ReadDir("/")
	must(t, err)
	if got := names(entries); got != "a:directory bin:file empty:file link:symlink odd \"name\"\\\t:file" {
		t.Errorf("list %q", got)
	}
	must(t, storage.Rename("/a", "/z"))
	must(t, storage.RemoveAll("/z"))
	must(t, storage.Remove("/empty"))
	entries, _ = storage.ReadDir("/")
	if got := names(entries); got != "bin:file link:symlink odd \"name\"\\\t:file" {
		t.Errorf("list %q", got)
	}
}

func TestStorageErrors(t *testing.T) {
	storage := tools.NewMemoryStorage(0, 0)
	must(t, storage.Mkdir("/a"))
	must(t, storage.WriteFile("/a/f", []byte("x")))
	_, err := storage.ReadFile("/missing")
	wantStorageError(t, err, 8, "/missing: No such file or directory")
	wantStorageError(t, storage.Remove("/a"), 8, "/a: Directory not empty")
	wantStorageError(t, storage.Mkdir("/a"), 8, "/a: File exists")
	wantStorageError(t, storage.Rename("/a", "/a/inside"), 8, "/a/inside: Invalid argument")
	_, err = storage.ReadDir("/a/f")
	wantStorageError(t, err, 8, "/a/f: Not a directory")
	_, err = storage.Stat("/nope")
	wantStorageError(t, err, 8, "/nope: No such file or directory")
	wantStorageError(t, storage.Mkdir("\xff"), 6, "aikido/tools: invalid input: path is not valid UTF-8")
	wantStorageError(t, storage.WriteFile("/a\x00b", nil), 6, "aikido/tools: invalid input: the path holds a NUL byte")
	_, err = storage.Diff()
	wantStorageError(t, err, 6, "aikido/tools: invalid input: only an overlay or a dry run has a diff")

	limited := tools.NewMemoryStorage(10, 6)
	must(t, limited.WriteFile("/a", []byte("123456")))
	wantStorageError(t, limited.WriteFile("/b", []byte("1234567")), 8, "/b: File too large (the limit is 6 bytes)")
	must(t, limited.WriteFile("/b", []byte("1234")))
	wantStorageError(t, limited.AppendFile("/b", []byte("5")), 8, "/b: File too large (the limit is 10 bytes)")

	// Closed: every call is refused, a second Close does nothing.
	must(t, storage.Close())
	must(t, storage.Close())
	_, err = storage.ReadFile("/a/f")
	wantStorageError(t, err, 6, "aikido/tools: invalid input: storage is NULL")
	_, err = tools.NewOverlay(storage)
	wantStorageError(t, err, 6, "aikido/tools: invalid input: the storage is closed or the prefix is not UTF-8")
}

func TestStorageOverlayDryRunAndReadOnly(t *testing.T) {
	lower := tools.NewMemoryStorage(0, 0)
	must(t, lower.WriteFile("/keep.txt", []byte("keep")))
	must(t, lower.WriteFile("/gone.txt", []byte("gone")))
	overlay, err := tools.NewOverlay(lower)
	must(t, err)
	must(t, overlay.WriteFile("/keep.txt", []byte("changed")))
	must(t, overlay.WriteFile("/new.txt", []byte("new")))
	must(t, overlay.Remove("/gone.txt"))
	if got := readText(t, lower, "/keep.txt"); got != "keep" {
		t.Errorf("the lower storage changed: %q", got)
	}
	changes, err := overlay.Diff()
	must(t, err)
	want := []tools.Change{{"/gone.txt", tools.ChangeDeleted}, {"/keep.txt", tools.ChangeModified}, {"/new.txt", tools.ChangeAdded}}
	if !reflect.DeepEqual(changes, want) {
		t.Errorf("diff %v, want %v", changes, want)
	}
	if len(changes) != 3 {
		t.Fatalf("diff %v", changes)
	}
	if names := []string{changes[0].Change.String(), changes[1].Change.String(), changes[2].Change.String(), tools.ChangeKind(9).String()}; !reflect.DeepEqual(names, []string{"deleted", "modified", "added", "unknown"}) {
		t.Errorf("change kinds are named %q", names)
	}
	must(t, overlay.Commit())
	if got := readText(t, lower, "/keep.txt"); got != "changed" {
		t.Errorf("after commit: %q", got)
	}
	if changes, _ := overlay.Diff(); len(changes) != 0 {
		t.Errorf("diff after commit: %v", changes)
	}
	must(t, overlay.WriteFile("/keep.txt", []byte("again")))
	must(t, overlay.Discard())
	if got := readText(t, overlay, "/keep.txt"); got != "changed" {
		t.Errorf("after discard: %q", got)
	}

	dryRun, err := tools.NewDryRun(lower)
	must(t, err)
	must(t, dryRun.WriteFile("/planned.txt", []byte("plan")))
	if changes, _ := dryRun.Diff(); !reflect.DeepEqual(changes, []tools.Change{{"/planned.txt", tools.ChangeAdded}}) {
		t.Errorf("dry run diff %v", changes)
	}
	wantStorageError(t, dryRun.Commit(), 6, "aikido/tools: invalid input: only an overlay can commit")

	readOnly, err := tools.ReadOnly(lower)
	must(t, err)
	wantStorageError(t, readOnly.WriteFile("/keep.txt", []byte("x")), 8, "/keep.txt: Read-only file system")
	must(t, lower.Close()) // the views keep their share
	if got := readText(t, readOnly, "/new.txt"); got != "new" {
		t.Errorf("through the view: %q", got)
	}
	if got := readText(t, dryRun, "/planned.txt"); got != "plan" {
		t.Errorf("through the dry run: %q", got)
	}
}

func TestStorageMountsAndPolicy(t *testing.T) {
	root, data := tools.NewMemoryStorage(0, 0), tools.NewMemoryStorage(0, 0)
	must(t, root.WriteFile("/top.txt", []byte("top")))
	must(t, data.WriteFile("/inside.txt", []byte("inside")))
	mounted, err := tools.Mount(root, "/mnt/data", data)
	must(t, err)
	if got := readText(t, mounted, "/mnt/data/inside.txt"); got != "inside" {
		t.Errorf("read %q", got)
	}
	entries, _ := mounted.ReadDir("/")
	if got := names(entries); got != "mnt:directory top.txt:file" {
		t.Errorf("list %q", got)
	}
	wantStorageError(t, mounted.Rename("/top.txt", "/mnt/data/top.txt"), 8, "/mnt/data/top.txt: Invalid cross-device link")

	guarded, err := tools.NewPolicy(mounted,
		tools.PathRule{Access: tools.AccessRead, Allow: true, Pattern: "/mnt/**"},
		tools.PathRule{Access: tools.AccessWrite, Allow: false, Pattern: "/**"})
	must(t, err)
	if got := readText(t, guarded, "/mnt/data/inside.txt"); got != "inside" {
		t.Errorf("read %q", got)
	}
	_, err = guarded.ReadFile("/top.txt")
	wantStorageError(t, err, 8, "/top.txt: Permission denied")
	wantStorageError(t, guarded.WriteFile("/mnt/data/x", []byte("x")), 8, "/mnt/data/x: Permission denied")
	_, err = tools.NewPolicy(mounted, tools.PathRule{Access: 7, Pattern: "/"})
	wantStorageError(t, err, 6, "aikido/tools: invalid input: rules[0].access is 7, not an AIKIDO_ACCESS_* value")
	if _, err := tools.NewPolicy(mounted); err != nil {
		t.Errorf("no rules: %v", err)
	}
}

func TestStorageHostFolder(t *testing.T) {
	root := t.TempDir()
	host, err := tools.NewHostStorage(root, false)
	must(t, err)
	must(t, host.WriteFile("/inside.txt", []byte("fine")))
	if got := readText(t, host, "/../inside.txt"); got != "fine" {
		t.Errorf("read %q", got)
	}
	if data, err := os.ReadFile(filepath.Join(root, "inside.txt")); err != nil || string(data) != "fine" {
		t.Errorf("on the host: %q, %v", data, err)
	}
	readOnly, err := tools.NewHostStorage(root, true)
	must(t, err)
	wantStorageError(t, readOnly.WriteFile("/inside.txt", nil), 8, "/inside.txt: Read-only file system")
	_, err = tools.NewHostStorage("/no/such/folder", false)
	wantStorageError(t, err, 6, `aikido/tools: invalid input: the folder "/no/such/folder" cannot be used: No such file or directory (os error 2)`)
}

func TestFileToolsThroughTheRegistry(t *testing.T) {
	registry := tools.NewRegistry()
	storage := tools.NewMemoryStorage(0, 0)
	must(t, registry.RegisterFileTools(storage))
	must(t, storage.WriteFile("/seed.txt", []byte("seeded\n")))
	must(t, storage.Close()) // the tools keep their share
	if registry.Len() != 5 {
		t.Fatalf("%d tools", registry.Len())
	}
	wantError(t, registry.RegisterFileTools(tools.NewMemoryStorage(0, 0)), tools.ErrDuplicateTool)

	call := func(name, arguments string) (string, error) {
		result, err := registry.Dispatch(context.Background(), llm.ToolCall{Name: name, Arguments: arguments}, tools.Environment{})
		return result.Content, err
	}
	for _, c := range []struct{ name, arguments, want string }{
		{"write_file", `{"path":"/notes/todo.md","content":"- ship it\n"}`, "wrote 10 bytes to /notes/todo.md"},
		{"edit_file", `{"path":"/notes/todo.md","old_text":"ship","new_text":"test"}`, "replaced 1 occurrence in /notes/todo.md"},
		{"read_file", `{"path":"/notes/todo.md"}`, "- test it\n"},
		{"read_file", `{"path":"/seed.txt"}`, "seeded\n"},
	} {
		if got, err := call(c.name, c.arguments); err != nil || got != c.want {
			t.Errorf("%s %s: %q, %v; want %q", c.name, c.arguments, got, err, c.want)
		}
	}
	if got, err := call("list_directory", `{"path":"/"}`); err != nil || !strings.Contains(got, "notes") {
		t.Errorf("list_directory: %q, %v", got, err)
	}
	_, err := call("read_file", `{"path":"/nope"}`)
	if err == nil || err.Error() != "read_file: /nope: No such file or directory; list_directory shows what exists" {
		t.Errorf("read_file of a missing file: %v", err)
	}
	_, err = call("read_file", `{}`)
	wantError(t, err, tools.ErrInvalidArguments, `"path"`)
}
