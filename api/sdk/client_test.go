package pixgate

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// script is a server answering each request with the next of its
// answers (the last one repeats), recording what it got.
type script struct {
	t       *testing.T
	mu      sync.Mutex
	answers []answer
	got     []recorded
}

type answer struct {
	status int
	header map[string]string
	body   string
}

type recorded struct {
	method, path, auth string
	body               map[string]any
}

func newScript(t *testing.T, answers ...answer) (*script, *Client) {
	s := &script{t: t, answers: answers}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: "pk_test.sk_test", MinBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c.sleep = func(context.Context, time.Duration) error { return nil }
	return s, c
}

func (s *script) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	s.mu.Lock()
	s.got = append(s.got, recorded{r.Method, r.URL.RequestURI(), r.Header.Get("Authorization"), body})
	a := s.answers[min(len(s.got), len(s.answers))-1]
	s.mu.Unlock()
	for k, v := range a.header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(a.status)
	_, _ = io.WriteString(w, a.body)
}

func (s *script) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]recorded(nil), s.got...)
}

const chargeJSON = `{"id": "0195d1a2-7c3e-7b1a-9f4e-2b8c6d0e1f23", "external_id": "x", "amount": 197143.76, "status": "PENDING"}`

func errorJSON(status int, code string) string {
	b, _ := json.Marshal(map[string]any{"statusCode": status, "code": code, "message": "m", "request_id": "req_1"})
	return string(b)
}

// 429 and 503 are retried, waiting what Retry-After says, with the same
// body each time: the external_id made before the first attempt.
func TestRetriesHonourRetryAfterAndKeepTheExternalID(t *testing.T) {
	s, c := newScript(t,
		answer{429, map[string]string{"Retry-After": "2"}, errorJSON(429, "rate_limited")},
		answer{503, nil, errorJSON(503, "provider_unavailable")},
		answer{201, nil, chargeJSON})
	var waits []time.Duration
	c.sleep = func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	ch, err := c.CreateCharge(context.Background(), ChargeRequest{Amount: Reais(10, 0), Payer: Payer{Name: "F", Document: "52998224725"}})
	if err != nil || ch.Amount != 19714376 || ch.Replayed {
		t.Fatalf("CreateCharge = %+v, %v", ch, err)
	}
	got := s.requests()
	if len(got) != 3 || len(waits) != 2 || waits[0] != 2*time.Second || waits[1] < time.Millisecond || waits[1] > 2*time.Millisecond {
		t.Fatalf("%d requests, waits %v", len(got), waits)
	}
	ext, _ := got[0].body["external_id"].(string)
	if !strings.HasPrefix(ext, "chg-") || len(ext) != 24 {
		t.Fatalf("external_id %q", ext)
	}
	for _, r := range got {
		if r.body["external_id"] != ext || r.auth != "Bearer pk_test.sk_test" || r.body["amount"] != 10.0 {
			t.Fatalf("a retry changed the request: %+v", r)
		}
	}
}

func TestRetriesEnd(t *testing.T) {
	ctx := context.Background()
	t.Run("a refusal a retry cannot change", func(t *testing.T) {
		s, c := newScript(t, answer{422, nil, `{"statusCode": 422, "code": "validation_failed", "message": "payer.document is required",
			"errors": {"payer.document": ["is required"]}, "request_id": "req_2"}`})
		_, err := c.CreateCharge(ctx, ChargeRequest{Amount: 100})
		var pe *Error
		if !errors.As(err, &pe) || pe.Code != "validation_failed" || pe.Field("payer.document")[0] != "is required" || pe.RequestID != "req_2" {
			t.Fatalf("%v", err)
		}
		if len(s.requests()) != 1 {
			t.Fatalf("%d requests", len(s.requests()))
		}
	})
	t.Run("after MaxAttempts", func(t *testing.T) {
		s, c := newScript(t, answer{503, nil, errorJSON(503, "service_unavailable")})
		_, err := c.Balance(ctx)
		var pe *Error
		if !errors.As(err, &pe) || pe.StatusCode != 503 || len(s.requests()) != DefaultMaxAttempts {
			t.Fatalf("%v after %d requests", err, len(s.requests()))
		}
	})
	t.Run("a Retry-After longer than MaxRetryWait", func(t *testing.T) {
		s, c := newScript(t, answer{429, map[string]string{"Retry-After": "120"}, errorJSON(429, "rate_limited")})
		_, err := c.Balance(ctx)
		var pe *Error
		if !errors.As(err, &pe) || pe.RetryAfter != 2*time.Minute || len(s.requests()) != 1 {
			t.Fatalf("%v (retry after %v) after %d requests", err, pe.RetryAfter, len(s.requests()))
		}
	})
	t.Run("a context that ends", func(t *testing.T) {
		_, c := newScript(t, answer{503, nil, errorJSON(503, "service_unavailable")})
		c.sleep = sleepCtx
		c.cfg.MinBackoff = time.Hour
		c.cfg.MaxRetryWait = time.Hour
		ctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		defer cancel()
		if _, err := c.Balance(ctx); err == nil {
			t.Fatal("no error")
		}
	})
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"3":                             3 * time.Second,
		"0":                             0,
		"Tue, 10 Mar 2026 12:00:07 GMT": 7 * time.Second,
		"Tue, 10 Mar 2026 11:00:00 GMT": 0,
	} {
		h := http.Header{}
		h.Set("Retry-After", in)
		if got, ok := retryAfter(h, now); !ok || got != want {
			t.Errorf("Retry-After %q = %v %v, want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "soon", "-1"} {
		h := http.Header{}
		h.Set("Retry-After", in)
		if _, ok := retryAfter(h, now); ok {
			t.Errorf("Retry-After %q read", in)
		}
	}
}

// Backoff doubles from MinBackoff, never past MaxRetryWait, and keeps at
// least half of each step.
func TestBackoff(t *testing.T) {
	c := &Client{cfg: Config{MinBackoff: 100 * time.Millisecond, MaxRetryWait: time.Second}}
	for attempt, full := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 4: 800 * time.Millisecond, 9: time.Second} {
		for range 50 {
			if d := c.backoff(attempt); d < full/2 || d > full {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", attempt, d, full/2, full)
			}
		}
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{BaseURL: "pix.example.com", APIKey: "pk.sk"},
		{BaseURL: "ftp://pix.example.com", APIKey: "pk.sk"},
		{BaseURL: "https://pix.example.com", APIKey: "pk_only"},
		{BaseURL: "https://pix.example.com", APIKey: ".sk"},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}
