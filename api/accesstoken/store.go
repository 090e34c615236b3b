// Package accesstoken keeps v2 access tokens in Redis.
//
// A token is an opaque random string handed to the integrator once. Redis
// holds only its SHA-256 hash, mapped to the API key it was issued to and its
// expiry, and forgets it when the token expires. A token says nothing about
// the key's state: callers read the key (revoked? scopes? allowlist?) from
// Postgres on every use, so revoking a key ends its tokens at once.
//
// Losing Redis loses the tokens, which logs integrators out until they ask
// for new ones; no money depends on them.
package accesstoken

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Prefix starts every token, so a token found in a log or a support ticket
// is recognised as a PixGate v2 access token (and never mistaken for a v1
// key pair, which contains a dot; tokens never do).
const Prefix = "pgat_"

// keyPrefix namespaces the token hashes in Redis.
const keyPrefix = "pixgate:v2:token:"

// maxTokenLen bounds what is hashed and looked up; real tokens are 48 long.
const maxTokenLen = 256

// ErrUnknown covers a token never issued, expired or malformed alike.
var ErrUnknown = errors.New("accesstoken: unknown or expired token")

// Store issues and resolves tokens.
type Store struct {
	rdb redis.UniversalClient
	ttl time.Duration
	now func() time.Time
}

// New returns a store whose tokens live for ttl (whole seconds, at least
// one). now is the clock that decides expiry; nil means time.Now.
func New(rdb redis.UniversalClient, ttl time.Duration, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{rdb: rdb, ttl: max(time.Second, ttl.Truncate(time.Second)), now: now}
}

// TTL is the lifetime of every token the store issues.
func (s *Store) TTL() time.Duration { return s.ttl }

// Issue creates a token for the key with this id.
func (s *Store) Issue(ctx context.Context, keyID int64) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("accesstoken: random: %w", err)
	}
	token := Prefix + base64.RawURLEncoding.EncodeToString(b[:])
	expires := s.now().Add(s.ttl)
	val := strconv.FormatInt(keyID, 10) + ":" + strconv.FormatInt(expires.UnixMilli(), 10)
	if err := s.rdb.Set(ctx, keyPrefix+Fingerprint(token), val, s.ttl).Err(); err != nil {
		return "", fmt.Errorf("accesstoken: store: %w", err)
	}
	return token, nil
}

// Resolve returns the id of the key a live token was issued to, ErrUnknown
// for any token that is not live, or another error when Redis fails.
func (s *Store) Resolve(ctx context.Context, token string) (int64, error) {
	if !strings.HasPrefix(token, Prefix) || len(token) > maxTokenLen {
		return 0, ErrUnknown
	}
	val, err := s.rdb.Get(ctx, keyPrefix+Fingerprint(token)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return 0, ErrUnknown
	case err != nil:
		return 0, fmt.Errorf("accesstoken: resolve: %w", err)
	}
	id, expires, ok := parseEntry(val)
	if !ok {
		return 0, fmt.Errorf("accesstoken: malformed entry %q", val)
	}
	// Redis expires the entry too; this clock decides at the edge (and lets
	// tests move time).
	if !s.now().Before(time.UnixMilli(expires)) {
		return 0, ErrUnknown
	}
	return id, nil
}

// Fingerprint is the token's SHA-256 in hex: what Redis stores, and a name
// for the token in rate-limit counters that does not reveal it.
func Fingerprint(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

func parseEntry(val string) (keyID, expiresMilli int64, ok bool) {
	a, b, found := strings.Cut(val, ":")
	if !found {
		return 0, 0, false
	}
	id, err1 := strconv.ParseInt(a, 10, 64)
	exp, err2 := strconv.ParseInt(b, 10, 64)
	return id, exp, err1 == nil && err2 == nil
}
