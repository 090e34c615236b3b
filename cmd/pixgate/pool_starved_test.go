package main

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// getStatus is the status of a GET, 0 when there was no answer.
func getStatus(client *http.Client, url, auth string) int {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitStatus polls url until it answers want, for at most within.
func waitStatus(t *testing.T, url string, want int, within time.Duration) time.Duration {
	t.Helper()
	client := &http.Client{Timeout: 5 * time.Second}
	began := time.Now()
	for got := 0; ; time.Sleep(250 * time.Millisecond) {
		if got = getStatus(client, url, ""); got == want {
			return time.Since(began)
		}
		if time.Since(began) > within {
			t.Fatalf("%s still answers %d after %v, want %d", url, got, within, want)
		}
	}
}

// A pixgate api whose every pooled connection is held by requests that do
// not finish (here: stuck behind a table lock nobody releases) cannot get
// out of it by itself: its /healthz fails, so the liveness probe restarts
// it (a pool that is merely busy, or a database that is down, never counts
// as starved: storage's TestPoolWatchTellsAStarvedPool). When the
// connections come back /healthz is 200 again, and the stuck requests are
// answered.
func TestAStarvedPoolFailsTheAPIsLiveness(t *testing.T) {
	storagetest.Parallel(t, commandConns+processConns+2) // see Use below
	if testing.Short() {
		t.Skip("starts a process and waits out the starvation window")
	}
	pg := newPixgate(t)
	var in struct {
		Token string `json:"token"`
	}
	pg.json(&in, "integrator", "create", "--name", "Loja Parada", "--email", "parada@loja.example")
	env := serviceEnv(t, pg, "http://127.0.0.1:1")
	// Requests that never finish: without the sessions' timeouts, which
	// would have them give up on the lock (TestTheAPIsDatabaseSessionsHaveTimeouts).
	env["PIXGATE_DATABASE_LOCK_TIMEOUT"], env["PIXGATE_DATABASE_QUERY_TIMEOUT"] = "0", "0"
	// A short window (15 s by default), which the test waits out; the
	// pool is then looked at every third of it.
	const starvedAfter = 2 * time.Second
	env["PIXGATE_DATABASE_STARVED_AFTER"] = starvedAfter.String()
	api := startProcess(t, env, "api")
	base := "http://" + env["PIXGATE_HTTP_ADDR"]
	waitHTTP(t, base+"/healthz", api)
	client := &http.Client{Timeout: time.Minute}
	if code := getStatus(client, base+"/api/v1/balance", "Bearer "+in.Token); code != http.StatusOK {
		t.Fatalf("balance before the lock: %d", code)
	}

	ctx := context.Background()
	storagetest.Use(t, 2) // the lock's connection, and the one the api's pool watch opens to tell starvation from an outage
	lock, err := pgx.Connect(ctx, pg.env["PIXGATE_DATABASE_URL"])
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close(ctx)
	tx, err := lock.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `LOCK TABLE ledger_accounts IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	// More balance reads than the pool has connections: each one that
	// gets a connection holds it, waiting for the lock.
	var wg sync.WaitGroup
	stuck := make([]int, 3*storagetest.ProcessPool)
	for i := range stuck {
		wg.Go(func() { stuck[i] = getStatus(client, base+"/api/v1/balance", "Bearer "+in.Token) })
	}
	took := waitStatus(t, base+"/healthz", http.StatusServiceUnavailable, starvedAfter+4*storage.DefaultPoolWatchInterval)
	t.Logf("/healthz failed %v after the pool was taken", took.Round(time.Second))
	code, body := doJSON(t, http.MethodGet, base+"/healthz", "", nil)
	if code != http.StatusServiceUnavailable || !strings.Contains(api.out.String(), "database pool starved") {
		t.Fatalf("healthz of a starved pool: %d %v; log:\n%s", code, body, api.out.String())
	}
	if checks, _ := body["checks"].(map[string]any); checks["postgres_pool"] != "starved" {
		t.Fatalf("healthz of a starved pool: %v", body)
	}

	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	took = waitStatus(t, base+"/healthz", http.StatusOK, 4*storage.DefaultPoolWatchInterval)
	t.Logf("/healthz answered 200 again %v after the lock was released", took.Round(time.Second))
	wg.Wait()
	for i, code := range stuck {
		if code != http.StatusOK && code != http.StatusServiceUnavailable {
			t.Errorf("stuck balance read %d: %d, want 200 (it held a connection) or 503 (it waited out the acquire deadline)", i, code)
		}
	}
	if code := getStatus(client, base+"/api/v1/balance", "Bearer "+in.Token); code != http.StatusOK {
		t.Fatalf("balance after the lock: %d", code)
	}
	api.stop(t, 20*time.Second)
}
