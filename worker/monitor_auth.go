package worker

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"golang.org/x/crypto/bcrypt"
)

// /monitoring (asynqmon: operators retry, archive and delete tasks there)
// takes HTTP Basic credentials of one operator each: name:hash lines of a
// file (ReadMonitorUsers), bcrypt hashes as htpasswd -B writes them, and
// optionally one more account from MonitorConfig.User and Password (what
// pixgate dev uses). Secrets are compared in constant time and never
// logged. Failed sign-ins are limited per client address (IPv6: per /64)
// and per user name, GCRA in Redis so the limit holds across workers:
// past it, 429 with Retry-After before any secret is looked at.

// DefaultMonitorFailuresPerMinute is MonitorConfig.FailuresPerMinute's
// default.
const DefaultMonitorFailuresPerMinute = 5

// monitorFailPrefix namespaces the counters in Redis (redis_rate adds
// "rate:").
const monitorFailPrefix = "pixgate:rl:monitoring:"

// monitorVerifiedFor is how long a verified password is remembered, so
// that asynqmon's page, which makes a request every few seconds, costs one
// bcrypt comparison, not one per request.
const monitorVerifiedFor = 5 * time.Minute

// ReadMonitorUsers reads a file of name:hash lines, bcrypt hashes
// ($2a$, $2b$, $2y$, as htpasswd -B writes them); blank lines and lines
// starting with # are skipped. A line that is not one names its number,
// never its content.
func ReadMonitorUsers(r io.Reader) (map[string]string, error) {
	users := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, hash, ok := strings.Cut(line, ":")
		if !ok || name == "" {
			return nil, fmt.Errorf("line %d: not NAME:HASH", n)
		}
		if _, err := bcrypt.Cost([]byte(hash)); err != nil {
			return nil, fmt.Errorf("line %d: the hash of %q is not a bcrypt hash (htpasswd -nB %s makes one)", n, name, name)
		}
		if _, dup := users[name]; dup {
			return nil, fmt.Errorf("line %d: %q is named twice", n, name)
		}
		users[name] = hash
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return users, nil
}

// monitorAuth guards /monitoring.
type monitorAuth struct {
	users    map[string][]byte // name → bcrypt hash
	user     string            // the account of MonitorConfig.User/Password, if any
	password [32]byte          // its password's SHA-256
	limiter  *redis_rate.Limiter
	limit    redis_rate.Limit
	log      *slog.Logger
	// dummy is a bcrypt hash an unknown user's password is compared
	// with, to take as long as a known one's; made on first use.
	dummy func() []byte

	mu       sync.Mutex
	key      [32]byte // HMAC key of verified, random per process
	verified map[string]verifiedPassword
}

type verifiedPassword struct {
	mac   [32]byte
	until time.Time
}

func newMonitorAuth(cfg MonitorConfig, limiter *redis_rate.Limiter, log *slog.Logger) *monitorAuth {
	a := &monitorAuth{users: map[string][]byte{}, limiter: limiter, log: log, verified: map[string]verifiedPassword{},
		limit: redis_rate.PerMinute(cmpPositive(cfg.FailuresPerMinute, DefaultMonitorFailuresPerMinute))}
	for name, hash := range cfg.Users {
		a.users[name] = []byte(hash)
	}
	if cfg.Password != "" {
		a.user, a.password = cfg.User, sha256.Sum256([]byte(cfg.Password))
	}
	_, _ = rand.Read(a.key[:])
	cost := 0 // the costliest known hash's, so that an unknown name takes as long
	for _, h := range a.users {
		if c, err := bcrypt.Cost(h); err == nil {
			cost = max(cost, c)
		}
	}
	if cost == 0 {
		cost = bcrypt.DefaultCost
	}
	a.dummy = sync.OnceValue(func() []byte {
		h, _ := bcrypt.GenerateFromPassword(a.key[:16], cost)
		return h
	})
	return a
}

func cmpPositive(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// wrap serves next to a request whose credentials name an account.
func (a *monitorAuth) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		user, pass, sent := r.BasicAuth()
		if !sent {
			challenge(rw) // a browser's first request carries none: not a failure
			return
		}
		ctx := r.Context()
		counters := []struct{ name, key string }{
			{"addr", monitorFailPrefix + "addr:" + addrBucket(r.RemoteAddr)},
			{"user", monitorFailPrefix + "user:" + userBucket(user)},
		}
		keys := []string{counters[0].key, counters[1].key}
		wait, err := a.blocked(ctx, keys)
		if err != nil {
			a.log.Error("monitoring sign-in refused: the failure limiter is unavailable", "client_ip", hostOf(r.RemoteAddr), "error", err)
			rw.Header().Set("Retry-After", "5")
			http.Error(rw, "sign-in attempts cannot be counted at the moment; retry shortly", http.StatusServiceUnavailable)
			return
		}
		if wait > 0 {
			rw.Header().Set("Retry-After", strconv.Itoa(int((wait+time.Second-1)/time.Second)))
			http.Error(rw, "too many failed sign-ins; retry after the number of seconds in Retry-After", http.StatusTooManyRequests)
			return
		}
		known, ok := a.verify(user, pass)
		if ok {
			next.ServeHTTP(rw, r)
			return
		}
		attrs := []any{"client_ip", hostOf(r.RemoteAddr)}
		if known {
			attrs = append(attrs, "user", user) // an unknown name may be a password typed in the wrong field
		}
		for _, c := range counters {
			res, err := a.limiter.Allow(ctx, c.key, a.limit)
			if err == nil && (res.Allowed == 0 || res.Remaining == 0) {
				attrs = append(attrs, "blocked", c.name) // until its failures drain
			}
		}
		a.log.Warn("monitoring sign-in failed", attrs...)
		challenge(rw)
	})
}

// blocked is how long to wait before the next attempt when one of the
// counters has no failure left; it spends nothing.
func (a *monitorAuth) blocked(ctx context.Context, keys []string) (time.Duration, error) {
	var wait time.Duration
	for _, key := range keys {
		res, err := a.limiter.AllowN(ctx, key, a.limit, 0)
		if err != nil {
			return 0, err
		}
		if res.Remaining >= 1 {
			continue
		}
		// One more failure fits once the bucket has drained one emission
		// interval below full.
		interval := a.limit.Period / time.Duration(a.limit.Rate)
		wait = max(wait, res.ResetAfter-time.Duration(a.limit.Burst-1)*interval, time.Second)
	}
	return wait, nil
}

// verify reports whether user names an account and whether pass is its
// password. Every comparison takes constant time; an unknown name costs
// a bcrypt comparison too.
func (a *monitorAuth) verify(user, pass string) (known, ok bool) {
	if a.user != "" && user == a.user {
		got := sha256.Sum256([]byte(pass))
		return true, subtle.ConstantTimeCompare(got[:], a.password[:]) == 1
	}
	hash, known := a.users[user]
	if !known {
		_ = bcrypt.CompareHashAndPassword(a.dummy(), []byte(pass))
		return false, false
	}
	mac := hmac.New(sha256.New, a.key[:])
	mac.Write([]byte(user + "\x00" + pass))
	var sum [32]byte
	copy(sum[:], mac.Sum(nil))
	a.mu.Lock()
	v, seen := a.verified[user]
	a.mu.Unlock()
	if seen && time.Now().Before(v.until) && subtle.ConstantTimeCompare(sum[:], v.mac[:]) == 1 {
		return true, true
	}
	if bcrypt.CompareHashAndPassword(hash, []byte(pass)) != nil {
		return true, false
	}
	a.mu.Lock()
	a.verified[user] = verifiedPassword{mac: sum, until: time.Now().Add(monitorVerifiedFor)}
	a.mu.Unlock()
	return true, true
}

func challenge(rw http.ResponseWriter) {
	rw.Header().Set("WWW-Authenticate", `Basic realm="pixgate monitoring"`)
	http.Error(rw, "unauthorized", http.StatusUnauthorized)
}

// addrBucket is the counter of a client address: the address, or its /64
// for IPv6 (the block one subscriber usually holds).
func addrBucket(remote string) string {
	ip, err := netip.ParseAddr(hostOf(remote))
	if err != nil {
		return "unknown"
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// userBucket is the counter of a user name: a digest, so a long or odd
// name (or a password typed in its place) is never a key in Redis.
func userBucket(user string) string {
	sum := sha256.Sum256([]byte(user))
	return hex.EncodeToString(sum[:12])
}

func hostOf(remote string) string {
	if h, _, err := net.SplitHostPort(remote); err == nil {
		return h
	}
	return remote
}
