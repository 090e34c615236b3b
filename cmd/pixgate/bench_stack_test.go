package main

// The whole `pixgate dev` for BenchmarkChargePaidPipeline.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// benchStack is `pixgate dev` in-process on free ports, against the
// benchmark's own database and Redis database: devStack's setup for a
// testing.B. The v1 rate limit is off, since the benchmark polls.
type benchStack struct {
	api, sandbox string
	token        string
	client       *http.Client
}

func newBenchStack(tb testing.TB) *benchStack {
	tb.Helper()
	redisOpts := storagetest.NewRedis(tb)
	// Three free ports, all held until all are picked, then freed for pixgate dev.
	var addrs []string
	var lns []net.Listener
	for range 3 {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		lns, addrs = append(lns, ln), append(addrs, ln.Addr().String())
	}
	for _, ln := range lns {
		ln.Close()
	}
	env := map[string]string{
		"PIXGATE_DATABASE_URL":           storagetest.NewDatabaseURL(tb),
		"PIXGATE_REDIS_URL":              fmt.Sprintf("redis://%s/%d", redisOpts.Addr, redisOpts.DB),
		"PIXGATE_HTTP_ADDR":              addrs[0],
		"PIXGATE_WORKER_ADDR":            addrs[1],
		"PIXGATE_SANDBOX_ADDR":           addrs[2],
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN": "bench-webhook-token",
		"PIXGATE_V1_RATE_PER_MINUTE":     "-1",
		"PIXGATE_SANDBOX_STORE":          "memory", // the pipeline measured is PixGate's
		"PIXGATE_LOG_LEVEL":              "warn",
	}
	var created bytes.Buffer
	if code := run(context.Background(), []string{"integrator", "create", "--name", "Loja Bench", "--email", "bench@loja.example",
		"--cashin-fee", "percent:1.5", "--cashout-fee", "fixed:0.50", "--json"}, env, &created, io.Discard); code != 0 {
		tb.Fatalf("pixgate integrator create: exit %d", code)
	}
	var in struct{ Token string }
	if err := json.Unmarshal(created.Bytes(), &in); err != nil || in.Token == "" {
		tb.Fatalf("pixgate integrator create printed %q: %v", created.String(), err)
	}
	s := &benchStack{api: "http://" + addrs[0], sandbox: "http://" + addrs[2], token: in.Token, client: benchHTTPClient(tb)}

	ctx, cancel := context.WithCancel(context.Background())
	var errs syncBuf
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"dev"}, env, io.Discard, &errs) }()
	tb.Cleanup(func() { // may run after the benchmark: it can only report
		cancel()
		if code := <-done; code != 0 {
			fmt.Fprintf(os.Stderr, "pixgate dev exited %d: %s\n", code, errs.String())
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for !s.up() {
		if time.Now().After(deadline) {
			tb.Fatalf("pixgate dev did not start: %s", errs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return s
}

func (s *benchStack) up() bool {
	for _, u := range []string{s.api + "/healthz", s.sandbox + "/sandbox/faults"} {
		if _, err := roundTrip(s.client, http.MethodGet, u, "", nil, http.StatusOK); err != nil {
			return false
		}
	}
	return true
}

// chargePaid creates a charge, pays it at the sandbox and polls (1 ms
// apart) until GET shows it PAID; it returns the time from the payment to
// that GET's answer.
func (s *benchStack) chargePaid(externalID string) (time.Duration, error) {
	v, err := s.call(http.MethodPost, s.api+"/api/v1/charges", s.token, fmt.Appendf(nil,
		`{"amount": 10.00, "external_id": %q, "payer": {"name": "Fulano de Tal", "document": "52998224725"}}`, externalID),
		http.StatusCreated)
	if err != nil {
		return 0, err
	}
	id, _ := v["id"].(string)
	pixID, _ := v["pix_id"].(string)
	paidAt := time.Now()
	if _, err := s.call(http.MethodPost, s.sandbox+"/sandbox/charges/"+pixID+"/pay", "", nil, http.StatusOK); err != nil {
		return 0, err
	}
	for {
		v, err := s.call(http.MethodGet, s.api+"/api/v1/charges/"+id, s.token, nil, http.StatusOK)
		if err != nil {
			return 0, err
		}
		if v["status"] == "PAID" {
			return time.Since(paidAt), nil
		}
		if time.Since(paidAt) > 10*time.Second {
			return 0, errors.New("charge " + id + " not PAID 10s after its payment")
		}
		time.Sleep(time.Millisecond)
	}
}

// call sends a request and decodes its JSON answer.
func (s *benchStack) call(method, url, token string, body []byte, want int) (map[string]any, error) {
	raw, err := roundTrip(s.client, method, url, token, body, want)
	if err != nil {
		return nil, err
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("%s %s: %v: %s", method, url, err, raw)
	}
	return v, nil
}
