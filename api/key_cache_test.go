package api

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// cachingReplica serves another API process of e's deployment: its own
// connections to e's database, keeping the keys it uses in memory for an
// hour (as pixgate api does for PIXGATE_KEY_CACHE_TTL), and e's Redis.
func (e *env) cachingReplica() *env {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	e.t.Cleanup(cancel)
	db, err := storage.Open(ctx, storage.Config{URL: e.db.Pool().Config().ConnString(), MaxConns: 4})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(db.Close)
	if err := db.CacheKeys(ctx, time.Hour); err != nil {
		e.t.Fatal(err)
	}
	rdb := redis.NewClient(e.rdb.Options())
	e.t.Cleanup(func() { _ = rdb.Close() })
	c := *e
	c.db = db
	c.url = serve(e.t, New(Config{}, Deps{DB: db, Redis: rdb, Logger: newTestLogger(e.logs)}))
	return &c
}

// A key revoked from another process is refused by an API replica that
// has it in memory, both as a v1 key pair and through the v2 access tokens
// issued to it: the revocation's notification empties the replica's key
// cache when it arrives, and the entry would otherwise have lived an hour.
func TestRevokedKeyIsRefusedByAnotherReplica(t *testing.T) {
	e := newEnv(t)
	_, v1 := e.integrator("Loja Revogada", money.Percent(0), money.Fixed(0))
	b := e.cachingReplica()
	access := b.accessToken(v1)
	for range 3 {
		b.call(http.MethodGet, "/api/v1/balance", v1, nil).expect(t, http.StatusOK)
		b.call(http.MethodPost, "/v2/balance", access, nil).expect(t, http.StatusOK)
	}

	publicID, _ := keyPair(v1)
	if err := e.db.RevokeKey(context.Background(), publicID); err != nil { // as pixgate key revoke does
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for b.call(http.MethodGet, "/api/v1/balance", v1, nil).status != http.StatusUnauthorized {
		if time.Now().After(deadline) {
			t.Fatal("the replica still accepts the revoked key pair")
		}
		time.Sleep(time.Millisecond)
	}
	b.call(http.MethodPost, "/v2/balance", access, nil).expect(t, http.StatusUnauthorized)
	b.call(http.MethodGet, "/api/v1/balance", v1, nil).expect(t, http.StatusUnauthorized)
}
