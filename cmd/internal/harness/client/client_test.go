package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// A 503 from one API is retried by the SDK on the other; the failure is
// reported with its tag, and the call's reply is the last answer.
func TestClientTakesAPIsInTurnAndReportsFailures(t *testing.T) {
	var hits [2]atomic.Int32
	serve := func(i int, status int) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits[i].Add(1)
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"available_balance": 12.5, "code": "x"}`))
		}))
	}
	bad, good := serve(0, http.StatusServiceUnavailable), serve(1, http.StatusOK)
	defer bad.Close()
	defer good.Close()
	var (
		mu    sync.Mutex
		fails []Failure
	)
	c, err := New(Config{APIs: []string{bad.URL, good.URL}, Keys: []string{"pk_a.sk_b"},
		Tag: func() int { return 7 }, Failed: func(f Failure) { mu.Lock(); fails = append(fails, f); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	var oks int
	for range 4 {
		rep := c.Do(context.Background(), 0, func(ctx context.Context, s *pixgate.Client) error {
			_, err := s.Balance(ctx)
			return err
		})
		if rep.OK() && rep.Body["available_balance"] == 12.5 {
			oks++
		}
	}
	if oks != 4 || hits[0].Load() == 0 || hits[1].Load() != 4 {
		t.Fatalf("%d ok, hits %d/%d", oks, hits[0].Load(), hits[1].Load())
	}
	if len(fails) != int(hits[0].Load()) || fails[0].Tag != 7 || fails[0].Code != "503" || fails[0].Definitive {
		t.Fatalf("failures %+v", fails)
	}
}

// A refusal is definitive and ends the call; no answer is "conn".
func TestReplyNamesItsAnswer(t *testing.T) {
	for _, c := range []struct {
		r          Reply
		code       string
		definitive bool
	}{
		{Reply{Status: 422}, "422", true},
		{Reply{Status: 429}, "429", false},
		{Reply{Status: 401}, "401", false},
		{Reply{Status: 201}, "201", true},
		{Reply{}, "conn", false},
		{Reply{Err: "timeout"}, "timeout", false},
	} {
		if c.r.Code() != c.code || c.r.Definitive() != c.definitive {
			t.Errorf("%+v: %s %v", c.r, c.r.Code(), c.r.Definitive())
		}
	}
}
