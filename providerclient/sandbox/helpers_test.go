package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// env is a sandbox served over real HTTP with a token ready.
type env struct {
	t     *testing.T
	sb    *Sandbox
	srv   *httptest.Server
	token string
}

func newEnv(t *testing.T, cfg Config) *env {
	t.Helper()
	if cfg.SettleDelay == 0 {
		cfg.SettleDelay = 20 * time.Millisecond
	}
	sb := New(cfg)
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close) // runs after sb.Close: cleanups are LIFO
	t.Cleanup(sb.Close)
	e := &env{t: t, sb: sb, srv: srv}
	status, body := e.call("/v2/oauth/token", "", nil, func(r *http.Request) { r.SetBasicAuth(sb.cfg.ClientID, sb.cfg.ClientSecret) })
	if status != http.StatusOK {
		t.Fatalf("token: %d %v", status, body)
	}
	e.token = body["access_token"].(string)
	return e
}

// post sends body as JSON with the env's token and decodes the answer.
func (e *env) post(path string, body any) (int, map[string]any) {
	e.t.Helper()
	return e.call(path, e.token, body, nil)
}

func (e *env) call(path, token string, body any, edit func(*http.Request)) (int, map[string]any) {
	e.t.Helper()
	var rd io.Reader = http.NoBody
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	method := http.MethodPost
	if strings.HasPrefix(path, "GET ") || strings.HasPrefix(path, "DELETE ") {
		method, path, _ = strings.Cut(path, " ")
	}
	req, err := http.NewRequestWithContext(e.t.Context(), method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if edit != nil {
		edit(req)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, decode(e.t, resp.Body)
}

func decode(t *testing.T, r io.Reader) map[string]any {
	t.Helper()
	raw, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	if len(bytes.TrimSpace(raw)) == 0 {
		return out
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("answer is not a JSON object: %q", raw)
	}
	return out
}

// receiver is a postback endpoint that records what it receives.
type receiver struct {
	srv   *httptest.Server
	mu    sync.Mutex
	got   []map[string]any
	fails int // answer 500 to this many requests first
	calls int
}

func newReceiver(t *testing.T, fails int) *receiver {
	t.Helper()
	rc := &receiver{fails: fails}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body := decode(t, r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.calls++
		if rc.calls <= rc.fails {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		rc.got = append(rc.got, body)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) url() string { return rc.srv.URL + "/webhooks/provider/secret-token" }

// bodies returns the requestBody of every notification received so far.
func (rc *receiver) bodies() []map[string]any {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := make([]map[string]any, 0, len(rc.got))
	for _, g := range rc.got {
		rb, _ := g["requestBody"].(map[string]any)
		out = append(out, rb)
	}
	return out
}

// waitFor polls cond every few milliseconds until it holds or 5 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func num(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return "<not a number>"
}

// validPayment is a payment request body that passes validation.
func validPayment(externalID string) map[string]any {
	return map[string]any{
		"amount": json.Number("10.50"), "external_id": externalID, "description": "saque",
		"creditParty": map[string]any{"name": "Fulano", "keyType": "CPF", "key": "529.982.247-25", "taxId": "52998224725"},
	}
}

func jsonBody(t *testing.T, v any) io.Reader {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.NewReader(raw)
}
