package main

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A provider record's day is reconciled from its own statement, read
// through a connector built from the record: pixgate reconcile run
// --provider b reads b's sandbox, and reports the PIX it shows that
// PixGate never heard of, once.
func TestReconcileAProviderRecord(t *testing.T) {
	sb := sandbox.New(sandbox.Config{Contract: sandbox.ContractWoovi, ClientID: "app-id"})
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(srv.Close)
	t.Cleanup(sb.Close)
	t.Setenv("PIXGATE_TEST_RECONCILE_B_SECRET", "sandbox")
	// Near midnight (São Paulo) a PIX within the boundary of the day's end
	// is one the other side may date the next day: expected, not missing.
	// The test is about the record's statement, not the boundary.
	p := newPixgate(t)
	p.env["PIXGATE_RECONCILE_BOUNDARY"] = "1s"
	p.json(&providerView{}, "provider", "add", "--name", "b", "--kind", "woovi", "--url", srv.URL, "--client-id", "app-id",
		"--client-secret-env", "PIXGATE_TEST_RECONCILE_B_SECRET")
	day := providerclient.DayOf(time.Now())
	if _, err := sb.InjectUnknownPix(money.FromReais(7, 0)); err != nil {
		t.Fatal(err)
	}
	var r reconReport
	p.json(&struct{}{}, "reconcile", "run", "--provider", "b", "--date", day.String())
	p.json(&r, "reconcile", "report", "--provider", "b", "--date", day.String())
	if len(r.Items) == 0 && providerclient.DayOf(time.Now()) != day { // the PIX may have fallen on the next day
		p.json(&struct{}{}, "reconcile", "run", "--provider", "b", "--date", "today")
		p.json(&r, "reconcile", "report", "--provider", "b", "--date", "today")
	}
	if len(r.Items) != 1 || r.Items[0].Kind != "missing_in_pixgate" || r.Run.Reconciled {
		t.Fatalf("provider b's day: %+v", r)
	}
}

// The worker reconciles the default provider and every provider record it
// can build a connector for; one it cannot is left out, with an error in
// the log, and the others are still reconciled.
func TestWorkerReconcilesEveryProvider(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	for _, p := range []storage.Provider{
		{Name: "b", Kind: "woovi", URL: "http://127.0.0.1:9", ClientID: "app-id"},
		{Name: "broken", Kind: "family", URL: "http://127.0.0.1:9", ClientSecretRef: "env:PIXGATE_TEST_PROVIDER_NOT_SET"},
	} {
		if _, err := db.AddProvider(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	var logs bytes.Buffer
	c := &cli{cfg: config{ProviderURL: "http://127.0.0.1:9"}, log: slog.New(slog.NewTextHandler(&logs, nil))}
	conns, err := c.statementProviders(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, conn := range conns {
		names = append(names, conn.Name())
	}
	if strings.Join(names, ",") != "default,b" || !strings.Contains(logs.String(), "provider=broken") {
		t.Fatalf("reconciled providers %v; log:\n%s", names, logs.String())
	}
}
