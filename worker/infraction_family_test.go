package worker

import (
	"context"
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// An infraction of a family provider with PixGate's extensions whose
// notification is lost is still found, by the poll of the provider's list,
// and the disputed money is blocked: the notification is not the only way
// an infraction reaches PixGate.
func TestLostInfractionNotificationIsFoundByThePoll(t *testing.T) {
	h := newHarness(t)
	h.withExtensions()
	h.reconcile = fastReconcile
	h.reconcile.InfractionPoll = fastReconcile.Interval
	var received atomic.Int64
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { received.Add(1) }))
	t.Cleanup(hook.Close)
	h.sb.SetFaults(sandbox.Faults{DropNotifications: true})

	c, pixID := h.paidChargeNotifying(money.FromReais(20, 0), hook.URL)
	opened, err := h.sb.OpenInfraction(pixID, money.FromReais(6, 0), "golpe")
	if err != nil {
		t.Fatal(err)
	}
	h.start()
	ctx := context.Background()
	h.eventually("the infraction found", 5*time.Second, func() bool {
		_, err := h.db.InfractionOf(ctx, c.ID, opened.TransactionID)
		return err == nil
	})
	inf, err := h.db.InfractionOf(ctx, c.ID, opened.TransactionID)
	if err != nil || inf.Status != storage.InfractionOpen || inf.Amount != money.FromReais(6, 0) {
		t.Fatalf("infraction %+v, %v", inf, err)
	}
	if w, err := h.db.Wallet(ctx, h.integrator.ID); err != nil || w.Blocked != money.FromReais(6, 0) {
		t.Fatalf("wallet %+v, %v; want 6.00 blocked", w, err)
	}
	if n, attempts := received.Load(), h.sb.Stats().NotificationAttempts; n != 0 || attempts != 0 {
		t.Fatalf("%d notifications received, %d sent; the fault should have lost them", n, attempts)
	}
	h.auditClean()
}

// withExtensions has the workers speak to the sandbox with PixGate's
// extensions of the family contract on, as pixgate dev does.
func (h *harness) withExtensions() {
	cfg := providerclient.Config{BaseURL: h.sbURL, ClientID: "sandbox", ClientSecret: "sandbox",
		Timeout: 2 * time.Second, BreakerOpenTimeout: 200 * time.Millisecond, Extensions: true}
	h.conn = providerclient.Wrap(family.NewConnector(cfg), cfg)
}

// paidChargeNotifying is paidCharge with the sandbox's charge notifying
// url, so that a lost notification is the fault's doing, not the want of
// a URL.
func (h *harness) paidChargeNotifying(amount money.Money, url string) (storage.Charge, string) {
	h.t.Helper()
	ctx := context.Background()
	id, _ := uuid.NewV7()
	hash := sha256.Sum256([]byte(id.String()))
	c, _, err := h.db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: h.integrator.ID, ExternalID: "chg-" + id.String(),
		Amount: amount, Fee: h.integrator.CashIn.Compute(amount), RequestHash: hash[:], Payer: storage.Payer{Name: "Fulano de Tal"}})
	if err != nil {
		h.t.Fatal(err)
	}
	issued, err := h.provider.CreateCharge(ctx, family.ChargeRequest{Amount: amount, ExternalID: c.ID.String(), PostbackURL: url})
	if err != nil {
		h.t.Fatal(err)
	}
	if c, err = h.db.IssueCharge(ctx, c.ID, storage.ChargeIssue{PixID: issued.TransactionID, QRCode: issued.QRCode,
		ExpiresAt: issued.ExpiresAt}); err != nil {
		h.t.Fatal(err)
	}
	if _, err := h.sb.PayCharge(issued.TransactionID, sandbox.Payer{}); err != nil {
		h.t.Fatal(err)
	}
	return h.markPaid(c), issued.TransactionID
}
