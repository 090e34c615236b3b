package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/pixgate/pixgate/docs/openapitest"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
	"github.com/pixgate/pixgate/worker/postback/postbacktest"
)

// devStack is `pixgate dev` running in-process on free ports, against the
// test's own database and Redis database: the code path `make run` starts.
type devStack struct {
	t             *testing.T
	pg            *pixgate
	api, sandbox  string
	monitor       string // the worker's side server
	db            *storage.DB
	token         string // v1 bearer token of the test's integrator
	integratorID  int64
	webhookSecret string
	webhookToken  string
	receiver      *receiver
	stop          func() // ends the running pixgate dev
}

func newDevStack(t *testing.T, extraEnv ...string) *devStack {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end")
	}
	pg := newPixgate(t)
	storagetest.Use(t, processConns+sandboxConns)
	redisOpts := storagetest.NewRedis(t)
	ports := freePorts(t, 3)
	s := &devStack{t: t, pg: pg, api: "http://" + ports[0], monitor: "http://" + ports[1], sandbox: "http://" + ports[2],
		webhookToken: "e2e-webhook-token"}
	for k, v := range map[string]string{
		"PIXGATE_REDIS_URL":                 fmt.Sprintf("redis://%s/%d", redisOpts.Addr, redisOpts.DB),
		"PIXGATE_HTTP_ADDR":                 ports[0],
		"PIXGATE_WORKER_ADDR":               ports[1],
		"PIXGATE_SANDBOX_ADDR":              ports[2],
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN":    s.webhookToken,
		"PIXGATE_SANDBOX_SETTLE_DELAY":      "300ms",
		"PIXGATE_POSTBACK_INITIAL_INTERVAL": "50ms",
		"PIXGATE_LOG_LEVEL":                 "warn",
	} {
		pg.env[k] = v
	}
	for i := 0; i+1 < len(extraEnv); i += 2 {
		pg.env[extraEnv[i]] = extraEnv[i+1]
	}

	var in struct {
		ID            int64
		Token         string `json:"token"`
		WebhookSecret string `json:"webhook_secret"`
	}
	pg.json(&in, "integrator", "create", "--name", "Loja E2E", "--email", "e2e@loja.example", "--cashin-fee", "percent:1.5", "--cashout-fee", "fixed:0.50")
	s.token, s.integratorID, s.webhookSecret = in.Token, in.ID, in.WebhookSecret

	t.Cleanup(func() {
		if s.stop != nil {
			s.stop()
		}
	})
	s.start()
	s.db = openSide(t, pg.env["PIXGATE_DATABASE_URL"])
	s.receiver = newReceiver(t)
	return s
}

// start runs pixgate dev until stop, and waits until it is ready.
func (s *devStack) start() {
	s.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errs syncBuf
	done := make(chan int, 1)
	env := maps.Clone(s.pg.env)
	env["PIXGATE_DATABASE_MAX_CONNS"] = strconv.Itoa(storagetest.ProcessPool) // the commands' is smaller
	go func() { done <- run(ctx, []string{"dev"}, env, &out, &errs) }()
	s.stop = func() {
		cancel()
		if code := <-done; code != 0 {
			s.t.Errorf("pixgate dev exited %d: %s", code, errs.String())
		}
		s.stop = func() {}
	}
	deadline := time.Now().Add(20 * time.Second)
	for !s.up() || !strings.Contains(out.String(), "Stop with Ctrl-C") { // the banner: the demo integrator is ready
		if time.Now().After(deadline) {
			s.t.Fatalf("pixgate dev did not start: %s", errs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// restart stops pixgate dev and starts it again on the same database,
// Redis and ports.
func (s *devStack) restart() {
	s.t.Helper()
	s.stop()
	s.start()
}

func (s *devStack) up() bool {
	for _, u := range []string{s.api + "/healthz", s.sandbox + "/sandbox/faults"} {
		resp, err := http.Get(u)
		if err != nil {
			return false
		}
		resp.Body.Close()
	}
	return true
}

// call sends a v1 request as the test's integrator and decodes the answer.
func (s *devStack) call(method, path string, body any) (int, map[string]any) {
	s.t.Helper()
	return doJSON(s.t, method, s.api+path, "Bearer "+s.token, body)
}

// control drives the sandbox's control endpoints.
func (s *devStack) control(method, path string, body any) (int, map[string]any) {
	s.t.Helper()
	return doJSON(s.t, method, s.sandbox+path, "", body)
}

func doJSON(t *testing.T, method, url, auth string, body any) (int, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	var v map[string]any
	dec := json.NewDecoder(resp.Body)
	dec.UseNumber()
	_ = dec.Decode(&v)
	return resp.StatusCode, v
}

// eventually polls cond until it holds or within passes.
func (s *devStack) eventually(what string, within time.Duration, cond func() bool) time.Duration {
	s.t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			s.t.Fatalf("not within %v: %s", within, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return time.Since(start)
}

func (s *devStack) status(kind, id string) string {
	_, v := s.call(http.MethodGet, "/api/v1/"+kind+"/"+id, nil)
	st, _ := v["status"].(string)
	return st
}

func (s *devStack) wallet() storage.Wallet {
	w, err := s.db.Wallet(context.Background(), s.integratorID)
	if err != nil {
		s.t.Fatal(err)
	}
	return w
}

func (s *devStack) credit(amount string) {
	s.t.Helper()
	s.pg.json(&struct{}{}, "wallet", "credit", "--integrator", fmt.Sprint(s.integratorID), "--amount", amount, "--reason", "e2e float")
}

// auditClean runs `pixgate audit`, as an operator would.
func (s *devStack) auditClean() {
	s.t.Helper()
	if code, out, errs := s.pg.run("audit"); code != 0 {
		s.t.Fatalf("pixgate audit: exit %d\n%s%s", code, out, errs)
	}
}

// receiver is an integrator's postback endpoint.
type receiver struct {
	*httptest.Server
	mu   sync.Mutex
	got  []delivery
	fail int // answer 500 to this many requests first
}

type delivery struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.got = append(r.got, delivery{header: req.Header.Clone(), body: b})
		if r.fail > 0 {
			r.fail--
			http.Error(w, "not now", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

// failNext makes the next n requests fail with 500.
func (r *receiver) failNext(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail = n
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// verified returns the requestBody of each delivery whose signature
// verifies with the secret, failing the test on any other.
func (r *receiver) verified(t *testing.T, secret string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, d := range r.deliveries() {
		if err := postbacktest.Verify(secret, d.header, d.body, time.Minute); err != nil {
			t.Fatalf("postback signature does not verify: %v\n%s", err, d.body)
		}
		// And as the Standard Webhooks project's own library verifies it.
		if wh, err := standardwebhooks.NewWebhook(secret); err != nil {
			t.Fatalf("the Standard Webhooks library refuses the secret: %v", err)
		} else if err := wh.Verify(d.body, d.header); err != nil {
			t.Fatalf("the Standard Webhooks library does not verify the postback: %v\n%s", err, d.body)
		}
		var v struct {
			RequestBody map[string]any `json:"requestBody"`
		}
		dec := json.NewDecoder(bytes.NewReader(d.body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil || v.RequestBody == nil {
			t.Fatalf("postback body is not the family's shape: %s", d.body)
		}
		out = append(out, v.RequestBody)
	}
	return out
}

// handedOut is every port freePorts returned in this process: tests
// running in parallel must not be handed the same one.
var handedOut sync.Map // "host:port" → struct{}

// freePorts returns n loopback addresses nothing listened on a moment ago,
// none handed out before in this process.
func freePorts(t *testing.T, n int) []string {
	t.Helper()
	var addrs []string
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	for len(addrs) < n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		lns = append(lns, ln) // held until the end: the next is another
		if _, taken := handedOut.LoadOrStore(ln.Addr().String(), struct{}{}); !taken {
			addrs = append(addrs, ln.Addr().String())
		}
	}
	return addrs
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// conforms GETs path as the test's integrator and checks the answer against
// docs/openapi.yaml.
func (s *devStack) conforms(path string) {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.api+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	openapitest.New(s.t, s.api).Response(s.t, req, resp.StatusCode, resp.Header, body)
}

// postbacksConform checks every postback received against its webhook in
// docs/openapi.yaml.
func (s *devStack) postbacksConform(webhook string) {
	s.t.Helper()
	doc := openapitest.Load(s.t)
	for _, d := range s.receiver.deliveries() {
		openapitest.Webhook(s.t, doc, webhook, d.body)
	}
}
