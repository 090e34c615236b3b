package pgstore_test

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/providerclient/sandbox/pgstore"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// running is a sandbox on a Postgres store, served over real HTTP, with a
// provider client pointed at it.
type running struct {
	sb     *sandbox.Sandbox
	store  *pgstore.Store
	client family.Client
	cfg    providerclient.Config // the client's, for a connector
	stop   func()
}

// newStoreURL is a fresh database for the test, dropped when it ends.
func newStoreURL(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("needs Postgres")
	}
	return storagetest.NewDatabaseURL(t)
}

// start opens a sandbox on the store at url, as `pixgate sandbox` does;
// stop (also run when the test ends) closes it as a shutdown does.
func start(t *testing.T, url string, cfg sandbox.Config) *running {
	t.Helper()
	ctx := context.Background()
	st, err := pgstore.Open(ctx, pgstore.Config{URL: url})
	if err != nil {
		t.Fatal(err)
	}
	sb, err := sandbox.Open(ctx, cfg, st)
	if err != nil {
		st.Close()
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	var once sync.Once
	r := &running{sb: sb, store: st, stop: func() {
		once.Do(func() {
			sb.Close()
			srv.Close()
			st.Close()
		})
	}}
	r.cfg = providerclient.Config{
		BaseURL: srv.URL, ClientID: sandbox.DefaultClientID, ClientSecret: sandbox.DefaultClientSecret,
		Timeout: 2 * time.Second, RetryMaxElapsed: time.Millisecond,
	}
	r.client = family.NewBase(r.cfg)
	t.Cleanup(r.stop)
	return r
}

func charge(externalID string, reais int64) family.ChargeRequest {
	return family.ChargeRequest{Amount: money.FromReais(reais, 0), ExternalID: externalID,
		Payer: &family.Payer{Name: "Fulano de Tal", Document: "52998224725"}}
}

func payment(externalID string, amount money.Money) family.PaymentRequest {
	return family.PaymentRequest{
		Amount: amount, ExternalID: externalID, Description: "saque",
		CreditParty: family.CreditParty{Name: "Fulano", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"},
	}
}

// waitFor polls cond every few milliseconds until it holds or 5 s pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func status(sb *sandbox.Sandbox, id string) string {
	tx, err := sb.Transaction(id)
	if err != nil {
		return err.Error()
	}
	return tx.Status
}
