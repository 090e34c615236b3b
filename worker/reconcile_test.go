package worker

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

var fastReconcile = ReconcileConfig{Interval: 100 * time.Millisecond, StaleAfter: 300 * time.Millisecond, ChargeFirstCheck: 200 * time.Millisecond,
	ExpiryGrace: time.Millisecond}

// loseRedis plays the relay having handed every outbox row to a Redis that
// then lost everything: rows marked sent, no task anywhere.
func (h *harness) loseRedis() {
	h.t.Helper()
	if _, err := h.db.Pool().Exec(context.Background(), `UPDATE outbox SET enqueued_at = now() WHERE enqueued_at IS NULL`); err != nil {
		h.t.Fatal(err)
	}
	if err := h.rdb.FlushDB(context.Background()).Err(); err != nil {
		h.t.Fatal(err)
	}
}

func TestRedisLostWithdrawalIsSentByTheReconciler(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	w := h.createWithdrawal(1000, "fulano@example.com")
	h.loseRedis()
	h.start()
	h.eventually("withdrawal re-driven and sent", 5*time.Second, func() bool { return h.withdrawal(w.ID).PixID != nil })
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
	h.auditClean()
}

func TestRedisLostNotificationIsAppliedByTheReconciler(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	c, pixID := h.issueCharge(2000)
	if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	h.storeEvent("charge", pixID, "PAID")
	h.loseRedis()
	h.start()
	h.eventually("charge paid after re-drive", 5*time.Second, func() bool { return h.charge(c.ID).Status == storage.ChargePaid })
	if w, _ := h.db.Wallet(context.Background(), h.integrator.ID); w.Available != money.FromReais(100, 0)+2000-30 {
		t.Fatalf("available = %v, want 100.00 + 20.00 − 0.30", w.Available)
	}
	h.auditClean()
}

func TestExpiredChargesAreConfirmedWithTheProvider(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	unpaid, _ := h.issueCharge(1500)
	paid, paidPix := h.issueCharge(2500)
	// The payer paid, but the notification never came.
	if _, err := h.sb.PayCharge(paidPix, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool().Exec(context.Background(), `UPDATE charges SET expires_at = now() - interval '1 minute'`); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("unpaid charge EXPIRED", 5*time.Second, func() bool { return h.charge(unpaid.ID).Status == storage.ChargeExpired })
	h.eventually("paid charge PAID", 5*time.Second, func() bool { return h.charge(paid.ID).Status == storage.ChargePaid })
	if w, _ := h.db.Wallet(context.Background(), h.integrator.ID); w.Available != money.FromReais(100, 0)+2500-38 {
		t.Fatalf("available = %v, want 100.00 + 25.00 − 0.38", w.Available)
	}
	h.auditClean()
}

// issueCharge creates a charge and has the sandbox issue it, as the API does.
func (h *harness) issueCharge(amount money.Money) (storage.Charge, string) {
	h.t.Helper()
	ctx := context.Background()
	id, _ := uuid.NewV7()
	hash := sha256.Sum256([]byte(id.String()))
	c, _, err := h.db.CreateCharge(ctx, storage.NewCharge{ID: id, IntegratorID: h.integrator.ID, ExternalID: "chg-" + id.String(),
		Amount: amount, Fee: h.integrator.CashIn.Compute(amount), RequestHash: hash[:],
		Payer: storage.Payer{Name: "Fulano de Tal", Document: "52998224725"}})
	if err != nil {
		h.t.Fatal(err)
	}
	issued, err := h.provider.CreateCharge(ctx, family.ChargeRequest{Amount: amount, ExternalID: c.ID.String(),
		Payer: &family.Payer{Name: "Fulano de Tal", Document: "52998224725"}})
	if err != nil {
		h.t.Fatal(err)
	}
	c, err = h.db.IssueCharge(ctx, c.ID, storage.ChargeIssue{PixID: issued.TransactionID, QRCode: issued.QRCode, ExpiresAt: issued.ExpiresAt})
	if err != nil {
		h.t.Fatal(err)
	}
	return c, issued.TransactionID
}

// storeEvent stores a notification as the webhook does.
func (h *harness) storeEvent(typ, txID, status string) {
	h.t.Helper()
	_, _, err := h.db.RecordProviderEvent(context.Background(), storage.NewProviderEvent{
		TransactionType: typ, TransactionID: txID, Status: status, Payload: []byte(`{}`),
	}, func(id int64) storage.OutboxMessage {
		return storage.OutboxMessage(tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: id}, 0))
	})
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) charge(id uuid.UUID) storage.Charge {
	h.t.Helper()
	c, err := h.db.ChargeByID(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}
