package pixgate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// tokenServer issues numbered tokens and answers /v2/balance to any it
// issued and did not revoke.
type tokenServer struct {
	mu       sync.Mutex
	issued   int
	revoked  map[string]bool
	refuse   bool // refuse every token
	bodies   []map[string]string
	balances int
}

func (s *tokenServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v2/oauth/token":
		var body map[string]string
		_ = json.NewDecoder(r.Body).Decode(&body)
		s.bodies = append(s.bodies, body)
		s.issued++
		fmt.Fprintf(w, `{"access_token": "tok-%d", "token_type": "Bearer", "expires_in": 3600}`, s.issued)
	case "/v2/balance":
		s.balances++
		tok := r.Header.Get("Authorization")
		if s.refuse || s.revoked[tok] || tok == "Bearer " {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"statusCode": 401, "code": "unauthenticated", "message": "token", "request_id": "r"}`)
			return
		}
		fmt.Fprint(w, `{"balance": 197143.76, "available": 197143.76, "pending": 0.00, "currency": "BRL"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

func (s *tokenServer) counts() (tokens, balances int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issued, s.balances
}

func newTokenClient(t *testing.T) (*tokenServer, *Client, *time.Time) {
	s := &tokenServer{revoked: map[string]bool{}}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: "pk_test.sk_test"})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	return s, c, &now
}

// One token serves every call and every goroutine until shortly before it
// expires; then one new one is bought.
func TestV2TokenIsCachedSharedAndRenewed(t *testing.T) {
	s, c, now := newTokenClient(t)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if b, err := c.V2().Balance(ctx); err != nil || b.Available != 19714376 {
				t.Errorf("Balance = %+v, %v", b, err)
			}
		}()
	}
	wg.Wait()
	if tokens, balances := s.counts(); tokens != 1 || balances != 8 {
		t.Fatalf("%d tokens bought for %d calls", tokens, balances)
	}
	if b := s.bodies[0]; b["grant_type"] != "client_credentials" || b["public_id"] != "pk_test" || b["secret"] != "sk_test" {
		t.Fatalf("token request %v", b)
	}
	*now = now.Add(3600*time.Second - time.Minute - time.Second) // just before the renewal margin
	_, _ = c.V2().Balance(ctx)
	if tokens, _ := s.counts(); tokens != 1 {
		t.Fatalf("renewed %d too early", tokens)
	}
	*now = now.Add(2 * time.Second)
	_, _ = c.V2().Balance(ctx)
	if tokens, _ := s.counts(); tokens != 2 {
		t.Fatal("not renewed within a minute of its expiry")
	}
}

// A token refused before its time (revoked, the server restarted without
// its token store) is replaced once; a second refusal is the caller's.
func TestV2TokenRefusedIsReplacedOnce(t *testing.T) {
	s, c, _ := newTokenClient(t)
	ctx := context.Background()
	if _, err := c.V2().Balance(ctx); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.revoked["Bearer tok-1"] = true
	s.mu.Unlock()
	if _, err := c.V2().Balance(ctx); err != nil {
		t.Fatalf("after a revoked token: %v", err)
	}
	if tokens, balances := s.counts(); tokens != 2 || balances != 3 {
		t.Fatalf("%d tokens, %d balance calls", tokens, balances)
	}
	s.mu.Lock()
	s.refuse = true
	s.mu.Unlock()
	_, err := c.V2().Balance(ctx)
	var pe *Error
	if !errors.As(err, &pe) || pe.StatusCode != http.StatusUnauthorized {
		t.Fatalf("refused for good: %v", err)
	}
	if tokens, balances := s.counts(); tokens != 3 || balances != 5 {
		t.Fatalf("refused for good: %d tokens, %d balance calls (want one new token, one retry)", tokens, balances)
	}
}
