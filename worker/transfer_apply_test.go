package worker

import (
	"context"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
)

// The provider failed a payment, and its notification is handled before the
// answer of the send call was recorded: the withdrawal fails with the
// provider's transaction id, as a completed one would, so its record and its
// postback name the transaction.
func TestFailedBeforeTheSendAnswerKeepsThePixID(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	w := h.createWithdrawal(1000, "fulano@example.com")
	// The send task is in flight: its row is taken, its answer not yet back.
	if _, err := h.db.Pool().Exec(ctx, `UPDATE outbox SET enqueued_at = now() WHERE enqueued_at IS NULL`); err != nil {
		t.Fatal(err)
	}
	pay, err := h.provider.CreatePayment(ctx, family.PaymentRequest{Amount: w.Amount, ExternalID: w.ID.String(),
		CreditParty: family.CreditParty{Name: w.CreditParty.Name, KeyType: w.CreditParty.KeyType, Key: w.CreditParty.Key, TaxID: w.CreditParty.TaxID}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.sb.Fail(pay.TransactionID, "conta encerrada"); err != nil {
		t.Fatal(err)
	}
	h.storeEvent("payout", pay.TransactionID, "FAILED")
	h.start()
	h.eventually("withdrawal FAILED", 5*time.Second, func() bool { return h.withdrawal(w.ID).Status == storage.TransferFailed })
	if got := h.withdrawal(w.ID); got.PixID == nil || *got.PixID != pay.TransactionID {
		t.Fatalf("failed withdrawal pix_id = %v, want %s", got.PixID, pay.TransactionID)
	}
	h.auditClean()
}
