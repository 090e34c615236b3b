package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/pixgate/pixgate/api"
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
)

func TestReadSecretRef(t *testing.T) {
	t.Setenv("PIXGATE_TEST_PROVIDER_B_SECRET", "s3cr3t")
	file := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref, want string
		fails     bool
	}{
		{"", "", false},
		{"env:PIXGATE_TEST_PROVIDER_B_SECRET", "s3cr3t", false},
		{"env:PIXGATE_TEST_PROVIDER_NOT_SET", "", true},
		{"file:" + file, "from-file", false},
		{"file:" + file + ".missing", "", true},
		{"plain-secret", "", true},
	} {
		got, err := readSecretRef(tc.ref)
		if got != tc.want || (err != nil) != tc.fails {
			t.Errorf("readSecretRef(%q) = %q, %v; want %q, failing %v", tc.ref, got, err, tc.want, tc.fails)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("the error quotes a secret: %v", err)
		}
	}
}

// The process's fleet holds the default provider and every record, each
// told its own webhook path; a record whose connector cannot be built is
// left out with an error in the log, and the others still serve.
func TestFleetOfProviderRecords(t *testing.T) {
	var logs bytes.Buffer
	c := &cli{cfg: config{ProviderURL: "http://127.0.0.1:9", ProviderWebhookToken: strings.Repeat("k", 40), PublicBaseURL: "https://pix.example/"},
		log: slog.New(slog.NewTextHandler(&logs, nil))}
	def, err := c.defaultProvider()
	if err != nil {
		t.Fatal(err)
	}
	records := []storage.Provider{
		{Name: "b", Kind: "family", URL: "http://127.0.0.1:9"},
		{Name: "broken", Kind: "family", URL: "http://127.0.0.1:9", ClientSecretRef: "env:PIXGATE_TEST_PROVIDER_NOT_SET"},
		{Name: "off", Kind: "family", URL: "http://127.0.0.1:9", Enabled: false},
	}
	fl, err := c.newProvider(prometheus.NewRegistry(), def, records)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"default": true, "b": true, "off": true, "broken": false} {
		if _, ok := fl.Provider(name); ok != want {
			t.Errorf("provider %s in the fleet: %v, want %v", name, ok, want)
		}
	}
	if !strings.Contains(logs.String(), "provider=broken") || !strings.Contains(logs.String(), "PIXGATE_TEST_PROVIDER_NOT_SET is not set") {
		t.Errorf("log %q: want the broken record named with why", logs.String())
	}
	b, err := c.recordProvider(records[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := "https://pix.example/webhooks/provider/b/" + api.ProviderWebhookToken(c.cfg.ProviderWebhookToken, "b"); b.Config.WebhookURL != want {
		t.Errorf("b's webhook URL %q, want %q", b.Config.WebhookURL, want)
	}
	if def.Config.Name != providerclient.DefaultName || def.Config.WebhookURL != "https://pix.example/webhooks/provider/"+c.cfg.ProviderWebhookToken {
		t.Errorf("default provider %q at %q", def.Config.Name, def.Config.WebhookURL)
	}
}
