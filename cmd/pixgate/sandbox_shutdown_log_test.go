package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// pixgate sandbox said nothing when asked to stop, nor when it had, and
// the efi sandbox (two listeners, one over mutual TLS) neither: an
// operator could not tell a clean stop from a hang. Every contract now
// logs both, as api and worker do.
func TestSandboxLogsItsShutdown(t *testing.T) {
	for _, contract := range []string{"family", "efi"} {
		t.Run(contract, func(t *testing.T) {
			env := map[string]string{
				"PIXGATE_SANDBOX_STORE":    "memory",
				"PIXGATE_SANDBOX_ADDR":     "127.0.0.1:0",
				"PIXGATE_SANDBOX_TLS_ADDR": "127.0.0.1:0",
				"PIXGATE_SANDBOX_TLS_DIR":  t.TempDir(),
				"PIXGATE_LOG_LEVEL":        "info",
				"PIXGATE_LOG_FORMAT":       "text",
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var out, errs syncBuf
			done := make(chan int, 1)
			go func() { done <- run(ctx, []string{"sandbox", "--contract", contract}, env, &out, &errs) }()
			deadline := time.Now().Add(20 * time.Second)
			for !strings.Contains(errs.String(), "sandbox provider listening") {
				if time.Now().After(deadline) {
					t.Fatalf("pixgate sandbox --contract %s did not start: %s", contract, errs.String())
				}
				time.Sleep(20 * time.Millisecond)
			}
			if strings.Contains(errs.String(), "addr=127.0.0.1:0 ") {
				t.Errorf("the listening line names the address asked for, not the one bound: %s", errs.String())
			}
			cancel() // as SIGTERM does
			if code := <-done; code != 0 {
				t.Fatalf("pixgate sandbox exited %d: %s", code, errs.String())
			}
			logs := errs.String()
			stopping, stopped := strings.Index(logs, "stop requested: finishing the work in flight"), strings.Index(logs, "sandbox ("+contract+") stopped")
			if stopping < 0 || stopped < stopping {
				t.Fatalf("pixgate sandbox --contract %s's logs lack the stop request and then the stop:\n%s", contract, logs)
			}
		})
	}
}
