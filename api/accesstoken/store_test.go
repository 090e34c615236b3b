package accesstoken_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/api/accesstoken"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// clock is a time the test moves.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestIssueAndResolve(t *testing.T) {
	rdb := redis.NewClient(storagetest.NewRedis(t))
	t.Cleanup(func() { _ = rdb.Close() })
	clk := &clock{t: time.Now()}
	s := accesstoken.New(rdb, 90*time.Second+300*time.Millisecond, clk.now)
	ctx := t.Context()
	if s.TTL() != 90*time.Second {
		t.Fatalf("TTL %v: lifetimes are whole seconds", s.TTL())
	}

	tok, err := s.Issue(ctx, 42)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := s.Issue(ctx, 42)
	if !strings.HasPrefix(tok, accesstoken.Prefix) || len(tok) != 48 || strings.Contains(tok, ".") || tok == other {
		t.Fatalf("tokens %q, %q", tok, other)
	}
	if id, err := s.Resolve(ctx, tok); err != nil || id != 42 {
		t.Fatalf("resolve = %d, %v", id, err)
	}

	// Redis holds the hash with the token's lifetime, never the token.
	keys, _ := rdb.Keys(ctx, "*").Result()
	if len(keys) != 2 {
		t.Fatalf("keys %v", keys)
	}
	for _, k := range keys {
		val, _ := rdb.Get(ctx, k).Result()
		if strings.Contains(k+val, tok) || strings.Contains(k+val, tok[len(accesstoken.Prefix):]) {
			t.Fatalf("token stored in clear: %s = %s", k, val)
		}
		if ttl := rdb.TTL(ctx, k).Val(); ttl <= 80*time.Second || ttl > 90*time.Second {
			t.Fatalf("%s expires in %v, want the token's 90s", k, ttl)
		}
	}
	if !strings.HasSuffix(keys[0], accesstoken.Fingerprint(tok)) && !strings.HasSuffix(keys[1], accesstoken.Fingerprint(tok)) {
		t.Fatalf("keys %v are not named by the token's fingerprint", keys)
	}

	for name, bad := range map[string]string{
		"empty":          "",
		"never issued":   accesstoken.Prefix + strings.Repeat("A", 43),
		"no prefix":      tok[len(accesstoken.Prefix):],
		"a v1 key pair":  "pk_abc.sk_def",
		"one char wrong": tok[:len(tok)-1] + string(rune(tok[len(tok)-1])^1),
		"very long":      tok + strings.Repeat("x", 1000),
	} {
		if _, err := s.Resolve(ctx, bad); !errors.Is(err, accesstoken.ErrUnknown) {
			t.Errorf("%s: %v, want ErrUnknown", name, err)
		}
	}

	clk.add(89 * time.Second)
	if _, err := s.Resolve(ctx, tok); err != nil {
		t.Fatalf("one second before expiry: %v", err)
	}
	clk.add(time.Second)
	if _, err := s.Resolve(ctx, tok); !errors.Is(err, accesstoken.ErrUnknown) {
		t.Fatalf("at expiry: %v, want ErrUnknown", err)
	}
}

// TestRedisDown: a failing Redis is an error, never "unknown token" (which
// would tell a caller to fetch a token that cannot be stored either) and
// never a pass.
func TestRedisDown(t *testing.T) {
	rdb := redis.NewClient(storagetest.NewRedis(t))
	s := accesstoken.New(rdb, time.Hour, nil)
	tok, err := s.Issue(t.Context(), 1)
	if err != nil {
		t.Fatal(err)
	}
	_ = rdb.Close()
	if _, err := s.Resolve(t.Context(), tok); err == nil || errors.Is(err, accesstoken.ErrUnknown) {
		t.Fatalf("resolve with Redis closed: %v", err)
	}
	if _, err := s.Issue(t.Context(), 1); err == nil {
		t.Fatal("issue with Redis closed succeeded")
	}
}
