package worker

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage"
)

// The side server's /healthz is liveness: it answers while the process runs,
// whatever its dependencies do, so a database blip never gets every worker
// restarted. /readyz names each dependency, without internal addresses.
func TestSideServerLivenessIgnoresDependencies(t *testing.T) {
	h := newHarness(t)
	w := New(Config{}, Deps{DB: h.db, Logger: h.log,
		Redis: redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", MaxRetries: -1})})
	srv := httptest.NewServer(w.MonitorHandler(MonitorConfig{}))
	defer srv.Close()

	get := func(path string) (int, map[string]any, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var raw json.RawMessage
		_ = json.NewDecoder(resp.Body).Decode(&raw)
		var v map[string]any
		_ = json.Unmarshal(raw, &v)
		return resp.StatusCode, v, string(raw)
	}
	if code, _, raw := get("/healthz"); code != http.StatusOK {
		t.Fatalf("/healthz with Redis down: %d %s", code, raw)
	}
	code, v, raw := get("/readyz")
	checks, _ := v["checks"].(map[string]any)
	if code != http.StatusServiceUnavailable || checks["redis"] != "unavailable" || checks["postgres"] != "ok" {
		t.Fatalf("/readyz with Redis down: %d %s", code, raw)
	}
	if strings.Contains(raw, "127.0.0.1") {
		t.Fatalf("/readyz shows an address: %s", raw)
	}
}

// The side server's /healthz fails while the database pool is starved
// (MonitorConfig.Live), so the orchestrator restarts the worker.
func TestSideServerLivenessFailsWhileThePoolIsStarved(t *testing.T) {
	h := newHarness(t)
	w := New(Config{}, Deps{DB: h.db, Logger: h.log})
	srv := httptest.NewServer(w.MonitorHandler(MonitorConfig{Live: func() error { return storage.ErrPoolStarved }}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v struct {
		Status string            `json:"status"`
		Checks map[string]string `json:"checks"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&v)
	if resp.StatusCode != http.StatusServiceUnavailable || v.Checks["postgres_pool"] != "starved" {
		t.Fatalf("/healthz with a starved pool: %d %+v", resp.StatusCode, v)
	}
}
