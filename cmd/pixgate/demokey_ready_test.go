package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// With the woovi contract and a new PIXGATE_DEMO_KEY_FILE on a database an
// earlier pixgate dev used, pixgate demo run as soon as /healthz answered
// found no demo key: dev made the key only after the API served. The key is
// now in its file before the API answers anything.
func TestDemoKeyIsKeptBeforeTheAPIAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	pg := newPixgate(t)
	redisOpts := storagetest.NewRedis(t)
	ports := freePorts(t, 3)
	api := "http://" + ports[0]
	for k, v := range map[string]string{
		"PIXGATE_REDIS_URL":       fmt.Sprintf("redis://%s/%d", redisOpts.Addr, redisOpts.DB),
		"PIXGATE_HTTP_ADDR":       ports[0],
		"PIXGATE_WORKER_ADDR":     ports[1],
		"PIXGATE_SANDBOX_ADDR":    ports[2],
		"PIXGATE_PROVIDER_KIND":   "woovi",
		"PIXGATE_SANDBOX_TLS_DIR": t.TempDir(),
		"PIXGATE_LOG_LEVEL":       "warn",
	} {
		pg.env[k] = v
	}
	dev := func() (out *syncBuf, stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		out, errs := &syncBuf{}, &syncBuf{}
		var code int
		done := make(chan struct{})
		go func() { code = run(ctx, []string{"dev"}, pg.env, out, errs); close(done) }()
		stop = func() {
			cancel()
			<-done
			if code != 0 {
				t.Errorf("pixgate dev exited %d: %s", code, errs.String())
			}
		}
		t.Cleanup(func() { cancel(); <-done })
		return out, stop
	}

	// An earlier run made the demo integrator on this database.
	out, stop := dev()
	waitFor(t, "the first pixgate dev's banner", func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") })
	stop()

	pg.env["PIXGATE_DEMO_KEY_FILE"] = filepath.Join(t.TempDir(), "demo-key.json")
	out, stop = dev()
	defer stop()
	client := &http.Client{Timeout: 2 * time.Second}
	answers := func(path string) bool {
		resp, err := client.Get(api + path)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		waitFor(t, path+" answering", func() bool { return answers(path) })
		code, token, errs := pg.run("demo", "--print-token")
		if code != 0 || !strings.Contains(token, ".") {
			t.Fatalf("pixgate demo once %s answered: exit %d %q\n%s", path, code, token, errs)
		}
	}
	waitFor(t, "the banner", func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") })
	_, token, _ := pg.run("demo", "--print-token")
	if publicID, _, _ := strings.Cut(strings.TrimSpace(token), "."); !strings.Contains(out.String(), publicID) {
		t.Fatalf("the kept demo key %s is not the banner's:\n%s", publicID, out.String())
	}
}

// waitFor polls cond every few milliseconds for at most 30 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 30s: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
