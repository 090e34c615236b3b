package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// stubAPI answers as PixGate would until the charge is looked up, which it
// refuses with 401 (a key revoked meanwhile, or the rate limit), counting
// every request by path.
type stubAPI struct {
	mu   sync.Mutex
	hits map[string]int
}

func newStubAPI(t *testing.T, refuseAll bool) (*stubAPI, string) {
	s := &stubAPI{hits: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.Method+" "+r.URL.Path]++
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		answer := func(code int, v any) { w.WriteHeader(code); _ = json.NewEncoder(w).Encode(v) }
		switch {
		case refuseAll || r.URL.Path == "/api/v1/charges/c1" || r.URL.Path == "/api/v1/charges/e1":
			answer(http.StatusUnauthorized, map[string]any{"error": map[string]string{"code": "unauthorized", "message": "invalid API key"}})
		case r.URL.Path == "/api/v1/balance":
			answer(http.StatusOK, map[string]any{"available_balance": 1000.00})
		case r.URL.Path == "/api/v1/charges":
			answer(http.StatusCreated, map[string]any{"id": "c1", "pix_id": "p1", "external_id": "e1", "status": "PENDING"})
		case r.URL.Path == "/sandbox/charges/p1/pay":
			answer(http.StatusOK, map[string]any{"status": "PAID"})
		default:
			answer(http.StatusNotFound, map[string]any{})
		}
	}))
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func (s *stubAPI) count(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[key]
}

func (s *stubAPI) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, v := range s.hits {
		n += v
	}
	return n
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// demoKeyEnv is the environment of a pixgate demo (or the tour's
// bin/pixgate demo --print-token) with a demo key of its own.
func demoKeyEnv(t *testing.T) map[string]string {
	file := filepath.Join(t.TempDir(), "demo-key.json")
	if err := os.WriteFile(file, []byte(`{"integrator_id": 1, "public_id": "pk_demo", "secret": "sk_demo"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"PIXGATE_DEMO_KEY_FILE": file}
}

// tourAgainst runs the README's tour against api and sandbox and returns
// its output and exit error.
func tourAgainst(t *testing.T, api, sandbox string) (string, error) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the tour needs %s", tool)
		}
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	script := strings.NewReplacer("http://127.0.0.1:8080", api, "http://127.0.0.1:9090", sandbox,
		"bin/pixgate", "env PIXGATE_TEST_MAIN=1 "+self).Replace(readmeTour(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script) // as a user pastes it: no options of ours
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	for k, v := range demoKeyEnv(t) {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The tour exited 0 with nothing printed when the API was down, and looped
// on a 401 until 127.0.0.1 was rate-limited for valid keys too. It now
// stops at the first failure, saying what failed, with a non-zero status.
func TestTheTourStopsAtTheFirstFailure(t *testing.T) {
	storagetest.Parallel(t, 0)
	t.Run("API down", func(t *testing.T) {
		down := "http://" + closedAddr(t)
		out, err := tourAgainst(t, down, down)
		if err == nil || !strings.Contains(out, "tour: no answer from GET "+down+"/api/v1/balance: is make run going?") {
			t.Fatalf("the tour against a stopped API: %v\n%s", err, out)
		}
		if strings.Contains(out, "sk_demo") {
			t.Fatalf("the tour's message shows the secret:\n%s", out)
		}
	})
	t.Run("key refused", func(t *testing.T) {
		stub, url := newStubAPI(t, true)
		out, err := tourAgainst(t, url, url)
		if err == nil || !strings.Contains(out, "tour: GET "+url+"/api/v1/balance answered 401") || stub.total() != 1 {
			t.Fatalf("the tour with a refused key: %v after %d requests\n%s", err, stub.total(), out)
		}
	})
	t.Run("key refused while waiting", func(t *testing.T) {
		stub, url := newStubAPI(t, false)
		out, err := tourAgainst(t, url, url)
		if n := stub.count("GET /api/v1/charges/c1"); err == nil || n != 1 || !strings.Contains(out, "answered 401") {
			t.Fatalf("the tour, its key refused while it waits for the charge: %v after %d looks\n%s", err, n, out)
		}
	})
}

// pixgate demo took the same tour the same way.
func TestDemoStopsAtTheFirstFailure(t *testing.T) {
	env := demoKeyEnv(t)
	demo := func(api string) (int, string) {
		var out, errs strings.Builder
		code := run(context.Background(), []string{"demo", "--api", api, "--sandbox", api}, env, &out, &errs)
		return code, out.String() + errs.String()
	}
	down := "http://" + closedAddr(t)
	if code, out := demo(down); code == 0 || !strings.Contains(out, "is pixgate dev running") {
		t.Errorf("pixgate demo against a stopped API: exit %d\n%s", code, out)
	}
	stub, url := newStubAPI(t, true)
	if code, out := demo(url); code == 0 || !strings.Contains(out, "401") || stub.total() != 1 {
		t.Errorf("pixgate demo with a refused key: exit %d after %d requests\n%s", code, stub.total(), out)
	}
	stub, url = newStubAPI(t, false)
	if code, out := demo(url); code == 0 || stub.count("GET /api/v1/charges/e1") != 1 || !strings.Contains(out, "401") {
		t.Errorf("pixgate demo, its key refused while it waits: exit %d after %d looks\n%s", code, stub.count("GET /api/v1/charges/e1"), out)
	}
}
