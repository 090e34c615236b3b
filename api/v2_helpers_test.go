package api

import (
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage"
)

// Content types of token requests.
const (
	ctForm = "application/x-www-form-urlencoded"
	ctJSON = "application/json"
)

// keyPair splits a v1 bearer token into the key's public id and secret.
func keyPair(v1Token string) (publicID, secret string) {
	publicID, secret, _ = strings.Cut(v1Token, ".")
	return publicID, secret
}

// basicAuth is an HTTP Basic Authorization header value.
func basicAuth(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

// postToken posts body (see call) to the token endpoint; headers are
// name/value pairs.
func (e *env) postToken(body any, headers ...string) reply {
	e.t.Helper()
	return e.call(http.MethodPost, "/v2/oauth/token", "", body, headers...)
}

// accessToken gets an access token for a v1 key pair by HTTP Basic, as the
// provider family's clients do.
func (e *env) accessToken(v1Token string) string {
	e.t.Helper()
	r := e.postToken(nil, "Authorization", basicAuth(keyPair(v1Token)), "Content-Type", "").expect(e.t, http.StatusOK)
	return r.str("access_token")
}

// replica serves a second API on e's database and Redis database, as
// another replica of the same deployment would, with default settings.
func (e *env) replica() *env {
	e.t.Helper()
	rdb := redis.NewClient(e.rdb.Options())
	e.t.Cleanup(func() { _ = rdb.Close() })
	c := *e
	c.url = serve(e.t, New(Config{}, Deps{DB: e.db, Redis: rdb, Logger: newTestLogger(e.logs)}))
	return &c
}

// testClock is a time the test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// newKeyFor describes a second key of an integrator, with every scope.
func newKeyFor(integratorID int64) storage.NewKey {
	return storage.NewKey{IntegratorID: integratorID}
}

// noTokenRateLimit lifts the token endpoint's limit for tests that ask for
// many tokens from one address.
func noTokenRateLimit(s *setup) { s.cfg.V2TokenRatePerMinute = -1 }
