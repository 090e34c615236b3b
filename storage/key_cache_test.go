package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// replicas opens n handles on one fresh database, each caching keys for an
// hour as an API process does: only a notification can take a key out
// within a test's lifetime.
func replicas(t *testing.T, n int) []*storage.DB {
	t.Helper()
	url := storagetest.NewDatabaseURL(t)
	dbs := make([]*storage.DB, n)
	for i := range dbs {
		dbs[i] = caching(t, url)
	}
	return dbs
}

// caching opens a handle on the database at url that caches keys for an
// hour.
func caching(t *testing.T, url string) *storage.DB {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	db, err := storage.Open(ctx, storage.Config{URL: url, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if err := db.CacheKeys(ctx, time.Hour); err != nil {
		t.Fatal(err)
	}
	return db
}

// refusedSoon waits (up to a deadline far below the cache's hour) until
// check reports ErrInvalidCredentials.
func refusedSoon(t *testing.T, what string, check func() error) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := check()
		if errors.Is(err, storage.ErrInvalidCredentials) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still accepted after its revocation: %v", what, err)
		}
		time.Sleep(time.Millisecond)
	}
}

// A key that authenticated on one replica (and is cached there) is refused
// there once another process revokes it: the revocation's notification
// empties every replica's cache, long before the cache's hour is up.
func TestRevokedKeyIsRefusedByEveryReplica(t *testing.T) {
	dbs := replicas(t, 2)
	admin, replica := dbs[0], dbs[1]
	ctx := context.Background()
	in := newIntegrator(t, admin)
	key, creds, err := admin.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, _, err := replica.AuthenticateKey(ctx, creds.PublicID, creds.Secret); err != nil {
			t.Fatal(err)
		}
		if _, _, err := replica.ActiveKey(ctx, key.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := replica.CachedKeys(); n != 1 {
		t.Fatalf("%d keys cached, want 1", n)
	}
	if _, _, err := replica.AuthenticateKey(ctx, creds.PublicID, "sk_wrong"); !errors.Is(err, storage.ErrInvalidCredentials) {
		t.Fatalf("wrong secret of a cached key: %v", err)
	}
	if err := admin.RevokeKey(ctx, creds.PublicID); err != nil {
		t.Fatal(err)
	}
	refusedSoon(t, "key pair", func() error { _, _, err := replica.AuthenticateKey(ctx, creds.PublicID, creds.Secret); return err })
	if _, _, err := replica.ActiveKey(ctx, key.ID); !errors.Is(err, storage.ErrInvalidCredentials) {
		t.Fatalf("revoked key by id: %v", err)
	}
}
