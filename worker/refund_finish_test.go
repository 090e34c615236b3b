package worker

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// Finishing a refund takes one database connection: the refunded charge,
// whose pix_id the postback carries, is read in the refund's own
// transaction. Read through the pool, it needs a second connection while
// the first holds the charge's and the wallet's locks; when every
// connection of a worker is in such a transaction (a burst of refund
// notifications after a provider outage), none gets its second one until
// the tasks time out, and meanwhile every posting on those wallets, the
// API's withdrawal creates included, waits for their locks.
func TestFinishingARefundTakesOneConnection(t *testing.T) {
	h := newHarness(t)
	c, chargePixID := h.paidCharge(2000)
	f := h.createRefund(c, 500)
	one := h.openOwnDB(1)
	w := New(Config{}, Deps{DB: one, Redis: h.rdb, Provider: h.conn, Logger: h.log})
	// The bound only ends the wait of a refund that cannot finish.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, status := range []providerclient.Status{providerclient.StatusCompleted, providerclient.StatusFailed} {
		if status == providerclient.StatusFailed {
			f = h.createRefund(c, 700)
		}
		txn := &providerclient.Transaction{Kind: providerclient.KindRefund, ProviderID: strings.ReplaceAll(f.ID.String(), "-", ""),
			ExternalID: f.ID.String(), Amount: f.Amount, Status: status}
		if _, err := w.applyConfirmed(ctx, txn, nil); err != nil {
			t.Fatalf("refund %s with one connection: %v", status, err)
		}
		if got := h.refund(f.ID); string(got.Status) != string(status) {
			t.Fatalf("refund is %s, want %s", got.Status, status)
		}
		var body []byte
		if err := h.db.Pool().QueryRow(ctx, `SELECT body FROM postbacks WHERE resource_id = $1 AND event = $2`, f.ID, string(status)).Scan(&body); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(body), `"pix_id":"`+chargePixID+`"`) {
			t.Fatalf("the %s postback does not name the refunded charge %s: %s", status, chargePixID, body)
		}
	}
	h.auditClean()
}

// openOwnDB opens another handle on the harness's database with at most
// maxConns connections.
func (h *harness) openOwnDB(maxConns int32) *storage.DB {
	h.t.Helper()
	var name string
	if err := h.db.Pool().QueryRow(context.Background(), `SELECT current_database()`).Scan(&name); err != nil {
		h.t.Fatal(err)
	}
	u, err := url.Parse(storagetest.AdminURL())
	if err != nil {
		h.t.Fatal(err)
	}
	u.Path = "/" + name
	db, err := storage.Open(context.Background(), storage.Config{URL: u.String(), MaxConns: maxConns})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(db.Close)
	return db
}
