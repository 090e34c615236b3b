package worker

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/tasks"
)

const refundHook = "https://loja.example/pix"

// paidCharge issues a charge with a postback URL and has the payer pay it,
// at the sandbox and in PixGate.
func (h *harness) paidCharge(amount money.Money) (storage.Charge, string) {
	h.t.Helper()
	c, pixID := h.issueCharge(amount)
	if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
		h.t.Fatal(err)
	}
	return h.markPaid(c), pixID
}

// markPaid records a charge as paid in PixGate (whatever the provider
// says), with the integrator's postback URL.
func (h *harness) markPaid(c storage.Charge) storage.Charge {
	h.t.Helper()
	ctx := context.Background()
	if _, err := h.db.Pool().Exec(ctx, `UPDATE charges SET postback_url = $2 WHERE id = $1`, c.ID, refundHook); err != nil {
		h.t.Fatal(err)
	}
	err := h.db.InTx(ctx, func(tx *storage.Tx) (err error) {
		c, _, err = tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: *c.PixID, At: time.Now()})
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// createRefund commits a refund as the API does.
func (h *harness) createRefund(c storage.Charge, amount money.Money) storage.Transfer {
	h.t.Helper()
	id, _ := uuid.NewV7()
	f, _, err := h.db.CreateRefund(context.Background(), storage.NewRefund{
		ID: id, IntegratorID: h.integrator.ID, ChargePixID: *c.PixID, Amount: amount, Fee: h.integrator.CashOut.Compute(amount),
		RequestHash: id[:], Outbox: []storage.OutboxMessage{storage.OutboxMessage(tasks.RefundSendMessage(id, 0))},
		Check: func(storage.Charge) error { return nil },
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return f
}

func (h *harness) refund(id uuid.UUID) storage.Transfer {
	h.t.Helper()
	f, err := h.db.TransferByID(context.Background(), storage.KindRefund, id)
	if err != nil {
		h.t.Fatal(err)
	}
	return f
}

// postbacks counts the integrator's postbacks of a record reaching event.
func (h *harness) postbacks(resource uuid.UUID, event string) int {
	h.t.Helper()
	var n int
	if err := h.db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM postbacks WHERE resource_id = $1 AND event = $2 AND url = $3`,
		resource, event, refundHook).Scan(&n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

// A partial refund and then the rest: each is sent once to the provider's
// /v2/pix/refund with the refund's id as external_id, completes when the
// provider says so, and tells the integrator; the charge is REFUNDED once
// the whole amount went back.
func TestRefundsAreSentAndComplete(t *testing.T) {
	h := newHarness(t)
	h.start()
	c, pixID := h.paidCharge(2000)
	for i, amount := range []money.Money{500, 1500} {
		f := h.createRefund(c, amount)
		h.eventually("refund sent", 3*time.Second, func() bool { return h.refund(f.ID).PixID != nil })
		providerID := *h.refund(f.ID).PixID
		tx, err := h.sb.Transaction(providerID)
		if err != nil || tx.ExternalID != f.ID.String() || tx.PixID != pixID || tx.Amount != amount || tx.TransactionType != "REFUND" {
			t.Fatalf("provider refund = %+v, %v", tx, err)
		}
		if _, err := h.sb.Settle(providerID); err != nil {
			t.Fatal(err)
		}
		h.storeEvent("refund", providerID, "COMPLETED")
		h.eventually("refund completed", 3*time.Second, func() bool { return h.refund(f.ID).Status == storage.TransferCompleted })
		if n := h.postbacks(f.ID, "COMPLETED"); n != 1 {
			t.Fatalf("refund %d: %d COMPLETED postbacks to the charge's URL, want 1", i, n)
		}
		want := storage.ChargePaid
		if i == 1 {
			want = storage.ChargeRefunded
		}
		if got := h.charge(c.ID); got.Status != want || got.RefundedAmount != 500+money.Money(i)*1500 {
			t.Fatalf("after refund %d the charge is %s with %s refunded", i, got.Status, got.RefundedAmount)
		}
	}
	if n := h.sb.Stats().RefundsCreated; n != 2 {
		t.Fatalf("provider refunds = %d, want 2", n)
	}
	// 100.00 + 20.00 − 0.30 cash-in fee − 20.00 refunded − 2 × 0.50 fees.
	if w, _ := h.db.Wallet(context.Background(), h.integrator.ID); w.Available != 10000+2000-30-2000-100 || w.Reserved != 0 {
		t.Fatalf("wallet = %+v", w)
	}
	h.auditClean()
}

// A refund the provider refuses fails: the reservation returns to the
// wallet, the amount to the charge's refundable amount, and the integrator
// is told.
func TestRejectedRefundFailsAndRestores(t *testing.T) {
	h := newHarness(t)
	// The provider refuses to refund a charge it has not seen paid.
	unpaid, _ := h.issueCharge(2000)
	c := h.markPaid(unpaid)
	before, _ := h.db.Wallet(context.Background(), h.integrator.ID)
	f := h.createRefund(c, 700)
	h.start()
	h.eventually("refund failed", 3*time.Second, func() bool { return h.refund(f.ID).Status == storage.TransferFailed })
	got := h.refund(f.ID)
	if got.FailureReason == nil || *got.FailureReason == "" || got.PixID != nil {
		t.Fatalf("failed refund = %+v", got)
	}
	if after, _ := h.db.Wallet(context.Background(), h.integrator.ID); after != before {
		t.Fatalf("wallet %+v, want %+v as before", after, before)
	}
	if ch := h.charge(c.ID); ch.RefundedAmount != 0 || ch.Status != storage.ChargePaid {
		t.Fatalf("charge %s with %s refunded, want PAID with nothing", ch.Status, ch.RefundedAmount)
	}
	if n := h.postbacks(f.ID, "FAILED"); n != 1 {
		t.Fatalf("%d FAILED postbacks, want 1", n)
	}
	h.auditClean()
}

func TestRedisLostRefundIsSentByTheReconciler(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	c, _ := h.paidCharge(2000)
	f := h.createRefund(c, 1000)
	h.loseRedis()
	h.start()
	h.eventually("refund re-driven and sent", 5*time.Second, func() bool { return h.refund(f.ID).PixID != nil })
	if n := h.sb.Stats().RefundsCreated; n != 1 {
		t.Fatalf("provider refunds = %d, want 1", n)
	}
	h.auditClean()
}
