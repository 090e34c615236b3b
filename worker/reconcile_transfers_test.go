package worker

import (
	"context"
	"crypto/sha256"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// The provider lost a withdrawal it had accepted (it answers 404 for its
// transaction): the reconciler sends it again with the same external_id,
// records the new transaction, and the withdrawal completes, paid once.
func TestWithdrawalUnknownToTheProviderIsSentAgain(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	w := h.createWithdrawal(1000, "fulano@example.com")
	h.loseRedis()
	if err := h.db.RecordTransferSent(context.Background(), storage.KindWithdrawal, w.ID, "forgotten-by-the-provider", ""); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("withdrawal sent again", 5*time.Second, func() bool {
		p := h.withdrawal(w.ID).PixID
		return p != nil && *p != "forgotten-by-the-provider"
	})
	pixID := *h.withdrawal(w.ID).PixID
	if tx, err := h.sb.Transaction(pixID); err != nil || tx.ExternalID != w.ID.String() {
		t.Fatalf("provider transaction %+v, %v; want external_id %s", tx, err, w.ID)
	}
	if _, err := h.sb.Settle(pixID); err != nil {
		t.Fatal(err)
	}
	h.eventually("withdrawal COMPLETED", 5*time.Second, func() bool { return h.withdrawal(w.ID).Status == storage.TransferCompleted })
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want 1", n)
	}
	if r, _ := h.db.TransferRecovery(context.Background(), storage.KindWithdrawal, w.ID); r.Resends != 1 || r.FlaggedAt != nil {
		t.Fatalf("recovery = %+v, want one resend and no flag", r)
	}
	h.auditClean()
}

// A provider that keeps losing a withdrawal gets it MaxResends times; the
// next time the withdrawal is flagged for an operator, keeps its money
// reserved, and the reconciler stops asking about it.
func TestWithdrawalLostAgainAndAgainIsFlaggedForAnOperator(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	h.reconcile.MaxResends = 1
	ctx := context.Background()
	w := h.createWithdrawal(1000, "fulano@example.com")
	h.loseRedis()
	if err := h.db.RecordTransferSent(ctx, storage.KindWithdrawal, w.ID, "lost-once", ""); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("withdrawal sent again", 5*time.Second, func() bool { return *h.withdrawal(w.ID).PixID != "lost-once" })
	// Lost again.
	if _, err := h.db.Pool().Exec(ctx, `UPDATE withdrawals SET pix_id = 'lost-twice' WHERE id = $1`, w.ID); err != nil {
		t.Fatal(err)
	}
	h.eventually("withdrawal flagged", 5*time.Second, func() bool {
		flagged, _ := h.db.FlaggedTransfers(ctx, 10)
		return len(flagged) == 1
	})
	flagged, _ := h.db.FlaggedTransfers(ctx, 10)
	if f := flagged[0]; f.ID != w.ID || f.Kind != storage.KindWithdrawal || f.Resends != 1 || f.FlagReason == "" {
		t.Fatalf("flagged %+v", f)
	}
	if got := h.withdrawal(w.ID); got.Status != storage.TransferProcessing || *got.PixID != "lost-twice" {
		t.Fatalf("flagged withdrawal %s %s; it waits for an operator", got.Status, *got.PixID)
	}
	if n := h.sb.Stats().PaymentsCreated; n != 1 {
		t.Fatalf("payments = %d, want the one re-send", n)
	}
	if stale, _ := h.db.StaleTransfers(ctx, storage.KindWithdrawal, 0, 10); len(stale) != 0 {
		t.Fatalf("the reconciler still looks at %d flagged withdrawals", len(stale))
	}
	if wl, _ := h.db.Wallet(ctx, h.integrator.ID); wl.Reserved != w.Amount+w.Fee {
		t.Fatalf("reserved %v, want %v kept for the operator", wl.Reserved, w.Amount+w.Fee)
	}
	h.auditClean()
}

// Refunds the provider lost are sent again like withdrawals, with
// /v2/pix/refund and the refund's id as external_id.
func TestRefundUnknownToTheProviderIsSentAgain(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	refundID := h.processingRefund(1000, "forgotten-refund")
	h.start()
	h.eventually("refund sent again", 5*time.Second, func() bool {
		f, _ := h.db.TransferByID(context.Background(), storage.KindRefund, refundID)
		return f.PixID != nil && *f.PixID != "forgotten-refund"
	})
	f, _ := h.db.TransferByID(context.Background(), storage.KindRefund, refundID)
	if _, err := h.sb.Settle(*f.PixID); err != nil {
		t.Fatal(err)
	}
	h.eventually("refund COMPLETED", 5*time.Second, func() bool {
		f, _ := h.db.TransferByID(context.Background(), storage.KindRefund, refundID)
		return f.Status == storage.TransferCompleted
	})
	if n := h.sb.Stats().RefundsCreated; n != 1 {
		t.Fatalf("refunds = %d, want 1", n)
	}
	h.auditClean()
}

// processingRefund pays a charge at the sandbox and in PixGate, and reserves
// a refund of amount against it (as refund creation does), PROCESSING with
// the given provider id.
func (h *harness) processingRefund(amount money.Money, pixID string) uuid.UUID {
	h.t.Helper()
	ctx := context.Background()
	c, chargePix := h.issueCharge(5000)
	if _, err := h.sb.PayCharge(chargePix, sandbox.Payer{}); err != nil {
		h.t.Fatal(err)
	}
	if err := h.db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.MarkChargePaid(ctx, c.ID, storage.Settlement{PixID: chargePix, At: time.Now()})
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	id, _ := uuid.NewV7()
	hash := sha256.Sum256(id[:])
	err := h.db.InTx(ctx, func(tx *storage.Tx) error {
		if _, err := h.db.Pool().Exec(ctx, `INSERT INTO refunds (id, integrator_id, charge_id, request_hash, amount, fee, status, pix_id)
			VALUES ($1, $2, $3, $4, $5, 50, 'PROCESSING', $6)`, id, h.integrator.ID, c.ID, hash[:], amount, pixID); err != nil {
			return err
		}
		if _, err := h.db.Pool().Exec(ctx, `UPDATE charges SET refunded_amount = refunded_amount + $2 WHERE id = $1`, c.ID, amount); err != nil {
			return err
		}
		_, err := tx.Post(ctx, ledger.Transaction{Reference: "refund:" + id.String() + ":reserve", Kind: "refund.reserve",
			Entries: []ledger.Entry{{Account: ledger.Of(h.integrator.ID, ledger.Available), Amount: -(amount + 50)},
				{Account: ledger.Of(h.integrator.ID, ledger.Reserved), Amount: amount + 50}}})
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return id
}

// An operator settles a flagged refund of a whole charge: the refund
// completes and the charge is REFUNDED, through the same transition as the
// provider's answer would take, with the audit record.
func TestOperatorSettlesAFlaggedRefund(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	refundID := h.processingRefund(5000, "lost-refund")
	if _, err := ResolveTransfer(ctx, h.db, Resolution{ID: refundID, Settle: true, Reason: "paid per statement", Operator: "alice"}); err == nil {
		t.Fatal("resolved a refund that is not flagged, without Force")
	}
	if _, err := h.db.FlagTransfer(ctx, storage.KindRefund, refundID, "lost"); err != nil {
		t.Fatal(err)
	}
	done, err := ResolveTransfer(ctx, h.db, Resolution{ID: refundID, Settle: true, Reason: "paid per statement", Operator: "alice"})
	if err != nil || done.Kind != storage.KindRefund || done.Status != storage.TransferCompleted || done.Action.Action != "refund.settle" {
		t.Fatalf("resolved %+v, %v", done, err)
	}
	f, _ := h.db.TransferByID(ctx, storage.KindRefund, refundID)
	if c, _ := h.db.ChargeByID(ctx, f.ChargeID); c.Status != storage.ChargeRefunded {
		t.Fatalf("charge %s after its whole amount was refunded", c.Status)
	}
	h.auditClean()
}
