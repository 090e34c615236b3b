package main

import (
	"io"
	"log/slog"
	"path/filepath"
	"testing"
)

// pixgate dev made a new provider webhook token at every start, so the
// sandbox, which keeps its transactions across restarts, notified the old
// address for every earlier transaction and got 404 until the reconciler
// found them. The token is now kept beside the demo key and reused.
func TestDevKeepsItsWebhookTokenAcrossRestarts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "demo-key.json")
	start := func(environ map[string]string) string {
		c := &cli{cfg: config{DemoKeyFile: file}, environ: environ,
			log: slog.New(slog.NewTextHandler(io.Discard, nil)), stderr: io.Discard}
		if v, ok := environ["PIXGATE_PROVIDER_WEBHOOK_TOKEN"]; ok {
			c.cfg.ProviderWebhookToken = v
		}
		c.devDefaults()
		return c.cfg.ProviderWebhookToken
	}
	first := start(map[string]string{})
	if len(first) < 32 {
		t.Fatalf("generated webhook token %q is shorter than 32 characters", first)
	}
	if again := start(map[string]string{}); again != first {
		t.Fatalf("restart: webhook token changed from %q to %q", first, again)
	}
	const set = "an-operator-chosen-token-of-40-characters"
	if got := start(map[string]string{"PIXGATE_PROVIDER_WEBHOOK_TOKEN": set}); got != set {
		t.Fatalf("configured token %q replaced by %q", set, got)
	}
	if again := start(map[string]string{}); again != first {
		t.Fatalf("after a run with a configured token: %q, want the kept %q", again, first)
	}
}
