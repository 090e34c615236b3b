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

// pixgate sandbox and pixgate dev keep the sandbox's state in Postgres
// unless told memory; memory never touches the database, postgres creates
// what it needs, and a second sandbox on the same database is refused.
func TestSandboxStoreSetting(t *testing.T) {
	storagetest.Parallel(t, 2) // two sandboxes' stores at once, the second waiting out the first's lock
	c, err := loadConfig(map[string]string{})
	if err != nil || c.SandboxStore != "postgres" {
		t.Fatalf("default PIXGATE_SANDBOX_STORE = %q (%v), want postgres", c.SandboxStore, err)
	}
	name := storagetest.NewDatabaseName(t)
	withStore := func(store string) *cli {
		return &cli{cfg: config{SandboxStore: store, DatabaseURL: dbURL(t, name)}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	}
	ctx := context.Background()

	sb, stop, err := withStore("memory").openSandbox(ctx, "127.0.0.1:9090")
	if err != nil {
		t.Fatal(err)
	}
	id := createCharge(t, sb)
	stop()
	if databaseExists(t, name) {
		t.Fatal("the memory store created the database")
	}
	sb, stop, err = withStore("memory").openSandbox(ctx, "127.0.0.1:9090")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sb.Transaction(id); err == nil {
		t.Fatal("a memory sandbox knows a charge of the one before it")
	}
	stop()

	sb, stop, err = withStore("postgres").openSandbox(ctx, "127.0.0.1:9090")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	id = createCharge(t, sb)
	if _, _, err := withStore("postgres").openSandbox(ctx, "127.0.0.1:9091"); err == nil || !strings.Contains(err.Error(), "PIXGATE_SANDBOX_STORE") ||
		!strings.Contains(err.Error(), "another sandbox") {
		t.Fatalf("a second sandbox on the same database: %v", err)
	}
	stop()
	sb, stop, err = withStore("postgres").openSandbox(ctx, "127.0.0.1:9090")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	if _, err := sb.Transaction(id); err != nil {
		t.Fatalf("the charge of the sandbox before: %v", err)
	}
}

// createCharge creates a charge on sb over HTTP and returns its id.
func createCharge(t *testing.T, sb *sandbox.Sandbox) string {
	t.Helper()
	srv := httptest.NewServer(sb.Handler())
	defer srv.Close()
	pc := family.NewBase(providerclient.Config{BaseURL: srv.URL, ClientID: sandbox.DefaultClientID,
		ClientSecret: sandbox.DefaultClientSecret, Timeout: 5 * time.Second})
	ch, err := pc.CreateCharge(context.Background(), family.ChargeRequest{Amount: money.FromReais(10, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return ch.TransactionID
}

// Sandboxes of different contracts run side by side on one database: each
// keeps its state in a schema of its own and listens on its own addresses.
func TestSandboxesOfTwoContractsSideBySide(t *testing.T) {
	name := storagetest.NewDatabaseName(t)
	open := func(contract string) *sandbox.Sandbox {
		c := &cli{cfg: config{SandboxStore: "postgres", DatabaseURL: dbURL(t, name), SandboxContract: contract,
			SandboxTLSDir: t.TempDir(), ProviderWebhookToken: "t"}, log: slog.New(slog.NewTextHandler(io.Discard, nil))}
		sb, stop, err := c.openSandbox(context.Background(), "127.0.0.1:0")
		if err != nil {
			t.Fatalf("a %s sandbox beside the others: %v", contract, err)
		}
		t.Cleanup(stop)
		return sb
	}
	fam, efi, woovi := open("family"), open("efi"), open("woovi")
	id := createCharge(t, fam)
	for _, sb := range []*sandbox.Sandbox{efi, woovi} {
		if _, err := sb.Transaction(id); err == nil {
			t.Fatalf("the %s sandbox knows the family sandbox's charge", sb.Contract())
		}
	}
	if fam.Contract() != "family" || efi.Contract() != "efi" || woovi.Contract() != "woovi" {
		t.Fatalf("contracts %s, %s, %s", fam.Contract(), efi.Contract(), woovi.Contract())
	}
}
