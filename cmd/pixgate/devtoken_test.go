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
		if err := c.devDefaults(); err != nil {
			t.Fatal(err)
		}
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

// The /monitoring password changed at every make run, so a page left open
// and a saved password stopped working. It is kept like the webhook token.
func TestDevKeepsItsMonitoringPasswordAcrossRestarts(t *testing.T) {
	file := filepath.Join(t.TempDir(), "demo-key.json")
	start := func(password string) string {
		c := &cli{cfg: config{DemoKeyFile: file, MonitoringPassword: password, ProviderWebhookToken: "set"},
			environ: map[string]string{}, log: slog.New(slog.NewTextHandler(io.Discard, nil)), stderr: io.Discard}
		c.devDefaults()
		return c.cfg.MonitoringPassword
	}
	first := start("")
	if len(first) < 16 {
		t.Fatalf("generated monitoring password %q is shorter than 16 characters", first)
	}
	if again := start(""); again != first {
		t.Fatalf("restart: monitoring password changed from %q to %q", first, again)
	}
	if got := start("chosen"); got != "chosen" {
		t.Fatalf("configured password replaced by %q", got)
	}
	if again := start(""); again != first {
		t.Fatalf("after a run with a configured password: %q, want the kept %q", again, first)
	}
}
