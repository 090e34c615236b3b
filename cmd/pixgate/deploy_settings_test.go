package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A sandbox listening on 0.0.0.0 wrote "0.0.0.0:9090" into its BR Codes;
// PIXGATE_SANDBOX_PUBLIC_HOST names the host payers reach instead.
func TestSandboxPublicHostFromConfiguration(t *testing.T) {
	c := &cli{cfg: config{SandboxPublicHost: "pix.example.com:9090", SandboxClientID: "id", SandboxClientSecret: "secret"},
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	sb := sandbox.New(c.sandboxConfig("0.0.0.0:9090"))
	srv := httptest.NewServer(sb.Handler())
	defer srv.Close()
	defer sb.Close()
	pc := family.NewBase(providerclient.Config{BaseURL: srv.URL, ClientID: "id", ClientSecret: "secret", Timeout: 5 * time.Second})
	ch, err := pc.CreateCharge(context.Background(), family.ChargeRequest{Amount: money.FromReais(10, 0), ExternalID: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ch.QRCode, "pix.example.com:9090/qr/v2/") || strings.Contains(ch.QRCode, "0.0.0.0") {
		t.Fatalf("BR Code %q does not carry the configured host", ch.QRCode)
	}
}

// With PIXGATE_MIGRATE_ON_START=false (migrations run as a separate Job),
// api and worker refuse a database that is behind instead of migrating it.
func TestServicesWithoutMigrateOnStartRefuseAnUnmigratedDatabase(t *testing.T) {
	name := storagetest.NewDatabaseName(t)
	adminExec(t, "CREATE DATABASE "+name)
	p := &pixgate{t: t, env: map[string]string{
		"PIXGATE_DATABASE_URL": dbURL(t, name), "PIXGATE_MIGRATE_ON_START": "false", "PIXGATE_PROVIDER_WEBHOOK_TOKEN": "deploy-test-webhook-token-0123456789",
	}}
	for _, cmd := range []string{"api", "worker"} {
		code, _, errs := p.run(cmd)
		if code == 0 || !strings.Contains(errs, "not migrated") {
			t.Errorf("pixgate %s: exit %d, %s", cmd, code, errs)
		}
	}
}
