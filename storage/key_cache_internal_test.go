package storage

import (
	"testing"
	"time"
)

// A lookup that read the database before the cache was emptied (a
// revocation's notification arrived meanwhile) must not put what it read
// back: that could be the key as it was before the revocation.
func TestKeyCacheRefusesLookupsOlderThanItsLastEmptying(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	c := newKeyCache(time.Minute, func() time.Time { return now })
	e := keyEntry{key: APIKey{ID: 7, PublicID: "pk_seven"}}

	c.put(c.generation(), e)
	if _, ok := c.byPublicID("pk_seven"); ok {
		t.Fatal("served while not listening")
	}
	c.empty(true) // listening
	gen := c.generation()
	c.empty(true) // a notification, while the lookup was in flight
	c.put(gen, e)
	if _, ok := c.byKeyID(7); ok {
		t.Fatal("a lookup older than the last emptying was cached")
	}
	c.put(c.generation(), e)
	if got, ok := c.byPublicID("pk_seven"); !ok || got.key.ID != 7 {
		t.Fatalf("not cached: %+v %v", got, ok)
	}
	now = now.Add(time.Minute)
	if _, ok := c.byKeyID(7); ok {
		t.Fatal("served after its ttl")
	}
	c.put(c.generation(), keyEntry{key: APIKey{ID: 8, PublicID: "pk_eight"}}) // sweeps the expired entry
	if len(c.byPublic) != 1 || len(c.byID) != 1 {
		t.Fatalf("expired entries kept: %d, %d", len(c.byPublic), len(c.byID))
	}
	c.empty(false) // the listener's connection failed
	if _, ok := c.byPublicID("pk_eight"); ok {
		t.Fatal("served while not listening")
	}
}
