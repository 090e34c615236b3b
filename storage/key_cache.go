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
	secrets   map[int64]secretEntry // integrators' webhook secrets, by id
	endpoints map[int64]heldEntry   // whether an integrator's endpoints have rows, by id
	sweepAt   time.Time             // when put next drops expired entries
}

// secretEntry is one cached webhook secret.
type secretEntry struct {
	secret  string
	expires time.Time
}

// heldEntry is one cached answer of MayHoldDeliveries.
type heldEntry struct {
	may     bool
	expires time.Time
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
	return &keyCache{ttl: ttl, now: now, byPublic: map[string]keyEntry{}, byID: map[int64]keyEntry{}, secrets: map[int64]secretEntry{}, endpoints: map[int64]heldEntry{}}
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

// secret returns the live webhook secret of an integrator.
func (c *keyCache) secret(integratorID int64) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.secrets[integratorID]
	return e.secret, ok && c.listening && c.now().Before(e.expires)
}

// mayHold returns the live answer of MayHoldDeliveries for an integrator.
func (c *keyCache) mayHold(integratorID int64) (may, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.endpoints[integratorID]
	return e.may, ok && c.listening && c.now().Before(e.expires)
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
	if expires, ok := c.putting(gen); ok {
		e.expires = expires
		c.byPublic[e.key.PublicID] = e
		c.byID[e.key.ID] = e
	}
}

// putSecret is put for an integrator's webhook secret.
func (c *keyCache) putSecret(gen uint64, integratorID int64, secret string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if expires, ok := c.putting(gen); ok {
		c.secrets[integratorID] = secretEntry{secret: secret, expires: expires}
	}
}

// putMayHold is put for MayHoldDeliveries' answer.
func (c *keyCache) putMayHold(gen uint64, integratorID int64, may bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if expires, ok := c.putting(gen); ok {
		c.endpoints[integratorID] = heldEntry{may: may, expires: expires}
	}
}

// putting says whether what a lookup that started at generation gen read
// may be cached, and until when; it drops expired entries now and then.
// c.mu is held.
func (c *keyCache) putting(gen uint64) (time.Time, bool) {
	if gen != c.gen || !c.listening {
		return time.Time{}, false
	}
	now := c.now()
	if !now.Before(c.sweepAt) {
		for k, old := range c.byPublic {
			if !now.Before(old.expires) {
				delete(c.byPublic, k)
				delete(c.byID, old.key.ID)
			}
		}
		for id, old := range c.secrets {
			if !now.Before(old.expires) {
				delete(c.secrets, id)
			}
		}
		for id, old := range c.endpoints {
			if !now.Before(old.expires) {
				delete(c.endpoints, id)
			}
		}
		c.sweepAt = now.Add(c.ttl)
	}
	return now.Add(c.ttl), true
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
	clear(c.secrets)
	clear(c.endpoints)
}

// CacheKeys makes AuthenticateKey and ActiveKey answer from an in-process
// cache whose entries live at most ttl and which every change to a key or
// an integrator empties at once (see keyCache). It listens on a connection
// of its own until ctx ends, reconnecting after failures; until it listens,
// every lookup goes to the database. It returns once the first attempt to
// listen succeeded or failed, with that attempt's error. API processes call
// it once, and so do workers, for WebhookSecret; a second call (an api and
// a worker in one process) keeps the first's cache. ttl <= 0 leaves the
// cache off.
func (db *DB) CacheKeys(ctx context.Context, ttl time.Duration) error {
	if ttl <= 0 {
		return nil
	}
	c := newKeyCache(ttl, time.Now)
	if !db.keys.CompareAndSwap(nil, c) {
		return nil
	}
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
