package main

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// pixgate api and pixgate worker said nothing when asked to stop, nor when
// they had: an operator could not tell a clean stop from a hang or a kill.
func TestAPIAndWorkerLogTheirShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the processes")
	}
	for _, process := range []string{"api", "worker"} {
		t.Run(process, func(t *testing.T) {
			storagetest.Parallel(t, commandConns+processConns)
			env := serviceEnv(t, newPixgate(t), "http://127.0.0.1:1")
			env["PIXGATE_LOG_LEVEL"] = "info"
			env["PIXGATE_LOG_FORMAT"] = "text"
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errs syncBuf
			done := make(chan int, 1)
			storagetest.Use(t, processConns)
			go func() { done <- run(ctx, []string{process}, env, &out, &errs) }()
			ready := map[string]string{"api": "http://" + env["PIXGATE_HTTP_ADDR"] + "/healthz", "worker": "http://" + env["PIXGATE_WORKER_ADDR"] + "/healthz"}[process]
			deadline := time.Now().Add(20 * time.Second)
			for !answers(ready) {
				if time.Now().After(deadline) {
					t.Fatalf("pixgate %s did not start: %s", process, errs.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			cancel() // as SIGTERM does
			if code := <-done; code != 0 {
				t.Fatalf("pixgate %s exited %d: %s", process, code, errs.String())
			}
			logs := errs.String()
			stopping, stopped := strings.Index(logs, "stop requested: finishing the work in flight"), strings.Index(logs, process+" stopped")
			if stopping < 0 || stopped < stopping {
				t.Fatalf("pixgate %s's logs lack the stop request and then the stop:\n%s", process, logs)
			}
		})
	}
}

// answers reports whether GET url answers 200.
func answers(url string) bool {
	client := &http.Client{Timeout: time.Second}
	resp, err := client.Get(url)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
