package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/pixgate/pixgate/storage"
)

// /readyz names each dependency it checks, never shows how it failed (the
// error holds internal addresses), and logs the cause once for operators.
func TestReadyzNamesDependenciesWithoutInternals(t *testing.T) {
	e := newEnv(t, func(s *setup) {
		s.ready = []ReadyCheck{
			{Name: "redis", Check: func(context.Context) error {
				return errors.New("dial tcp 10.1.2.3:6379: connect: connection refused")
			}},
		}
	})
	r := e.call(http.MethodGet, "/readyz", "", nil).expect(t, http.StatusServiceUnavailable)
	if r.str("status") != "unavailable" || r.str("checks.postgres") != "ok" || r.str("checks.redis") != "unavailable" {
		t.Fatalf("readyz body: %s", r.raw)
	}
	if strings.Contains(r.raw, "10.1.2.3") || strings.Contains(r.raw, "dial tcp") {
		t.Fatalf("readyz shows internal details: %s", r.raw)
	}
	if !strings.Contains(e.logs.String(), "10.1.2.3") {
		t.Fatalf("the cause was not logged: %s", e.logs.String())
	}
}

// Probes run every few seconds per replica: their access-log lines are
// debug, every other request's are info.
func TestProbesAreLoggedAtDebug(t *testing.T) {
	e := newEnv(t)
	e.call(http.MethodGet, "/healthz", "", nil).expect(t, http.StatusOK)
	e.call(http.MethodGet, "/readyz", "", nil).expect(t, http.StatusOK)
	e.call(http.MethodGet, "/nowhere", "", nil).expect(t, http.StatusNotFound)
	for _, line := range strings.Split(strings.TrimSpace(e.logs.String()), "\n") {
		probe := strings.Contains(line, `"route":"/healthz"`) || strings.Contains(line, `"route":"/readyz"`)
		switch {
		case probe && !strings.Contains(line, `"level":"DEBUG"`):
			t.Errorf("probe logged above debug: %s", line)
		case strings.Contains(line, `"route":"unmatched"`) && !strings.Contains(line, `"level":"INFO"`):
			t.Errorf("request logged below info: %s", line)
		}
	}
}

// /healthz fails while the database pool is starved (Deps.Live), so the
// orchestrator restarts a process whose requests can no longer get a
// connection; it never looks at the database itself.
func TestHealthzFailsWhileThePoolIsStarved(t *testing.T) {
	var starved atomic.Bool
	e := newEnv(t, func(s *setup) {
		s.live = func() error {
			if starved.Load() {
				return storage.ErrPoolStarved
			}
			return nil
		}
	})
	e.call(http.MethodGet, "/healthz", "", nil).expect(t, http.StatusOK)
	starved.Store(true)
	r := e.call(http.MethodGet, "/healthz", "", nil).expect(t, http.StatusServiceUnavailable)
	if r.str("status") != "unavailable" || r.str("checks.postgres_pool") != "starved" {
		t.Fatalf("healthz body: %s", r.raw)
	}
	starved.Store(false)
	e.call(http.MethodGet, "/healthz", "", nil).expect(t, http.StatusOK)
}
