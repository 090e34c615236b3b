package storage

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// keysChannel is the NOTIFY channel of migration 13: any change to
// api_keys or integrators (a revocation, above all) notifies it in the
// changing transaction, whichever process or person made the change.
const keysChannel = "pixgate_keys"

// keyCache keeps the keys (with their integrators) that authenticated
// recently, so that an API process answers most requests without the key
// lookup's round trip. Every entry lives at most ttl, and every
// notification on keysChannel empties the cache: a revocation reaches every
// API process as soon as Postgres delivers the notification, milliseconds
// after its commit. While the process is not listening (starting,
// reconnecting) the cache answers nothing, since a notification could be
// missed; and a lookup that started before a notification never fills the
// cache after it (gen).
type keyCache struct {
	ttl time.Duration
	now func() time.Time

	mu        sync.Mutex
	listening bool
	gen       uint64 // advanced by every emptying
	byPublic  map[string]keyEntry
	byID      map[int64]keyEntry
	sweepAt   time.Time // when put next drops expired entries
}

// keyEntry is one cached key: what keyWithIntegrator read, and when it
// stops being served.
type keyEntry struct {
	key     APIKey
	hash    []byte
	in      Integrator
	expires time.Time
}

func newKeyCache(ttl time.Duration, now func() time.Time) *keyCache {
	return &keyCache{ttl: ttl, now: now, byPublic: map[string]keyEntry{}, byID: map[int64]keyEntry{}}
}

// byPublicID returns the live entry for publicID.
func (c *keyCache) byPublicID(publicID string) (keyEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byPublic[publicID]
	return e, ok && c.listening && c.now().Before(e.expires)
}

// byKeyID returns the live entry for the key with this id.
func (c *keyCache) byKeyID(id int64) (keyEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	return e, ok && c.listening && c.now().Before(e.expires)
}

// generation is read before a lookup and handed to put with its result.
func (c *keyCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put caches what a lookup that started at generation gen read, unless the
// cache was emptied since (the read may predate the change that emptied
// it) or is not listening.
func (c *keyCache) put(gen uint64, e keyEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || !c.listening {
		return
	}
	now := c.now()
	if !now.Before(c.sweepAt) {
		for k, old := range c.byPublic {
			if !now.Before(old.expires) {
				delete(c.byPublic, k)
				delete(c.byID, old.key.ID)
			}
		}
		c.sweepAt = now.Add(c.ttl)
	}
	e.expires = now.Add(c.ttl)
	c.byPublic[e.key.PublicID] = e
	c.byID[e.key.ID] = e
}

// empty forgets every entry and says whether the cache may answer from now
// on.
func (c *keyCache) empty(listening bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.listening = listening
	clear(c.byPublic)
	clear(c.byID)
}

// CacheKeys makes AuthenticateKey and ActiveKey answer from an in-process
// cache whose entries live at most ttl and which every change to a key or
// an integrator empties at once (see keyCache). It listens on a connection
// of its own until ctx ends, reconnecting after failures; until it listens,
// every lookup goes to the database. It returns once the first attempt to
// listen succeeded or failed, with that attempt's error. API processes call
// it once; ttl <= 0 leaves the cache off.
func (db *DB) CacheKeys(ctx context.Context, ttl time.Duration) error {
	if ttl <= 0 {
		return nil
	}
	c := newKeyCache(ttl, time.Now)
	db.keys.Store(c)
	first := make(chan error, 1)
	report := func(err error) {
		select {
		case first <- err:
		default:
		}
	}
	go func() {
		defer db.keys.CompareAndSwap(c, nil)
		for ctx.Err() == nil {
			err := db.listenOn(ctx, keysChannel, func() { c.empty(true); report(nil) })
			report(err)
			c.empty(false)
			db.retryWait(ctx)
		}
		report(ctx.Err())
	}()
	if err := <-first; err != nil {
		return fmt.Errorf("storage: key cache: %w", err)
	}
	return nil
}
