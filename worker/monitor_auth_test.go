package worker

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
	"golang.org/x/crypto/bcrypt"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// The attack run found /monitoring behind one shared password, tried
// without limit. Each operator now signs in with a name and password of
// their own (bcrypt hashes in a users file, compared in constant time),
// and failed sign-ins are limited per client address and per user name:
// past the limit, 429 with Retry-After before any password is looked at.
// No secret reaches the log.
func TestMonitoringHasOperatorsOfTheirOwnAndLimitsFailedSignIns(t *testing.T) {
	opts := storagetest.NewRedis(t)
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { _ = rdb.Close() })
	var logs bytes.Buffer
	w := New(Config{}, Deps{Redis: rdb, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	users, err := ReadMonitorUsers(strings.NewReader("# operators\n\nana:" + hash(t, "ana-secret") + "\nbia:" + hash(t, "bia-secret") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := w.MonitorHandler(MonitorConfig{Users: users, FailuresPerMinute: 3,
		RedisConnOpt: asynq.RedisClientOpt{Addr: opts.Addr, DB: opts.DB}})
	signIn := func(from, user, pass string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, "/monitoring/", nil)
		r.RemoteAddr = from + ":40000"
		if user != "" || pass != "" {
			r.SetBasicAuth(user, pass)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	expect := func(rec *httptest.ResponseRecorder, status int, what string) {
		t.Helper()
		if rec.Code != status {
			t.Fatalf("%s: %d, want %d: %s", what, rec.Code, status, rec.Body)
		}
	}

	rec := signIn("10.0.0.1", "", "")
	expect(rec, http.StatusUnauthorized, "no credentials")
	if rec.Header().Get("WWW-Authenticate") == "" {
		t.Error("401 without a challenge")
	}
	expect(signIn("10.0.0.1", "ana", "ana-secret"), http.StatusOK, "ana")
	expect(signIn("10.0.0.1", "ana", "ana-secret"), http.StatusOK, "ana again (remembered)")
	expect(signIn("10.0.0.1", "bia", "bia-secret"), http.StatusOK, "bia")
	expect(signIn("10.0.0.1", "ana", "bia-secret"), http.StatusUnauthorized, "ana with bia's password")
	expect(signIn("10.0.0.1", "admin", "ana-secret"), http.StatusUnauthorized, "an unknown user")

	// Per client address: its third failure used it up; even a right
	// password waits.
	expect(signIn("10.0.0.1", "carla", "guess"), http.StatusUnauthorized, "third failure")
	rec = signIn("10.0.0.1", "bia", "bia-secret")
	expect(rec, http.StatusTooManyRequests, "an address past its failures")
	if s, _ := strconv.Atoi(rec.Header().Get("Retry-After")); s < 1 {
		t.Errorf("429 with Retry-After %q", rec.Header().Get("Retry-After"))
	}
	expect(signIn("2001:db8::1", "bia", "bia-secret"), http.StatusOK, "bia from elsewhere")

	// Per user name: guessing ana's password from many addresses (bia's
	// password tried for ana above was the first failure).
	for i, from := range []string{"10.0.1.1", "10.0.1.2"} {
		expect(signIn(from, "ana", "guess-"+strconv.Itoa(i)), http.StatusUnauthorized, "a guess at ana's password")
	}
	expect(signIn("10.0.1.4", "ana", "another-guess"), http.StatusTooManyRequests, "a user name past its failures")
	// An IPv6 client is counted by its /64.
	for _, from := range []string{"2001:db8:0:1::1", "2001:db8:0:1::2", "2001:db8:0:1::3"} {
		expect(signIn(from, "nobody-"+from, "x"), http.StatusUnauthorized, "a failure from "+from)
	}
	expect(signIn("2001:db8:0:1::99", "bia", "bia-secret"), http.StatusTooManyRequests, "another address of the same /64")

	out := logs.String()
	for _, secret := range []string{"ana-secret", "bia-secret", "guess", "$2a$"} {
		if strings.Contains(out, secret) {
			t.Errorf("the log shows %q:\n%s", secret, out)
		}
	}
	if !strings.Contains(out, "monitoring sign-in failed") || !strings.Contains(out, "user=ana") || strings.Contains(out, "user=admin") {
		t.Errorf("the failures are not logged as they should be (a known name, never an unknown one):\n%s", out)
	}

	// Without Redis the failures cannot be counted: refused, not let through.
	down := New(Config{}, Deps{Logger: slog.New(slog.DiscardHandler), Redis: redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})})
	h = down.MonitorHandler(MonitorConfig{Users: users, RedisConnOpt: asynq.RedisClientOpt{Addr: "127.0.0.1:1"}})
	expect(signIn("10.0.0.9", "bia", "bia-secret"), http.StatusServiceUnavailable, "Redis down")
}

// A users file's line that is not NAME:bcrypt-hash refuses the file,
// naming the line and never its content.
func TestReadMonitorUsersNamesTheBadLine(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"ana:" + hash(t, "x") + "\nbia-without-hash\n", "line 2: not NAME:HASH"},
		{"ana:plain-password\n", `line 1: the hash of "ana" is not a bcrypt hash`},
		{"ana:" + hash(t, "x") + "\n# ok\nana:" + hash(t, "y") + "\n", `line 3: "ana" is named twice`},
	} {
		_, err := ReadMonitorUsers(strings.NewReader(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "plain-password") {
			t.Errorf("%q: %v, want %q", tc.file, err, tc.want)
		}
	}
}

func hash(t *testing.T, password string) string {
	t.Helper()
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	return string(h)
}
