package tools_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/govengers/aikido/tools"
)

// loopbackServer serves one JSON document on 127.0.0.1 until the test ends.
func loopbackServer(t *testing.T) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"method\":%q,\"token\":%q}\n", r.Method, r.Header.Get("X-Token"))
	}), ReadHeaderTimeout: 5 * time.Second}
	go server.Serve(listener)
	t.Cleanup(func() { server.Close() })
	return "http://" + listener.Addr().String()
}

func TestShellWithANetworkPolicy(t *testing.T) {
	base := loopbackServer(t)
	policy := &tools.NetworkPolicy{
		AllowURLs:      []string{base + "/"},
		AllowAddresses: []string{"127.0.0.1/32"},
		Headers:        []tools.NetworkHeader{{Prefix: base + "/", Name: "X-Token", Value: "s3cret"}},
	}
	shell, err := tools.NewShellWithNetwork(tools.NewMemoryStorage(0, 0), nil, policy)
	must(t, err)
	result, err := shell.Run(context.Background(), "curl -s "+base+"/x")
	must(t, err)
	if got := string(result.Stdout); got != "{\"method\":\"GET\",\"token\":\"s3cret\"}\n" || result.ExitCode != 0 {
		t.Errorf("curl: %q %q %d", got, result.Stderr, result.ExitCode)
	}
	result, err = shell.Run(context.Background(), "curl -sv -o /dev/null "+base+"/x; curl -s -X POST "+base+"/x")
	must(t, err)
	if strings.Contains(string(result.Stderr), "s3cret") || !strings.Contains(string(result.Stderr), "refused the method POST") || result.ExitCode != 7 {
		t.Errorf("secret or method: %q %d", result.Stderr, result.ExitCode)
	}

	offline, err := tools.NewShellWithNetwork(tools.NewMemoryStorage(0, 0), nil, nil)
	must(t, err)
	result, err = offline.Run(context.Background(), "curl -s "+base+"/x")
	must(t, err)
	if result.ExitCode != 7 || !strings.Contains(string(result.Stderr), "the network is off") {
		t.Errorf("offline: %q %d", result.Stderr, result.ExitCode)
	}
}

func TestBashToolWithANetworkPolicy(t *testing.T) {
	base := loopbackServer(t)
	registry := tools.NewRegistry()
	policy := &tools.NetworkPolicy{AllowURLs: []string{base + "/"}, AllowAddresses: []string{"127.0.0.1"}, AllowMethods: []string{"POST"}, MaxRequests: 5}
	must(t, registry.RegisterShellToolWithNetwork(tools.NewMemoryStorage(0, 0), nil, policy))
	got := bash(t, registry, "s", `{"command":"curl -s -X POST `+base+`/x"}`)
	if got != "{\"method\":\"POST\",\"token\":\"\"}\n[exit code: 0]" {
		t.Errorf("bash: %q", got)
	}
}

func TestNetworkPolicyRefusesBadRules(t *testing.T) {
	_, err := tools.NewShellWithNetwork(tools.NewMemoryStorage(0, 0), nil, &tools.NetworkPolicy{AllowURLs: []string{"ftp://x.example/"}})
	wantError(t, err, tools.ErrInvalidInput, "only http and https")
	err = tools.NewRegistry().RegisterShellToolWithNetwork(tools.NewMemoryStorage(0, 0), nil, &tools.NetworkPolicy{AllowAddresses: []string{"10.0.0.0/99"}})
	wantError(t, err, tools.ErrInvalidInput, "not an address or CIDR range")
}
