package worker

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// A PENDING charge the provider answers 404 for heads the queue of expired
// charges; it must neither stop the reconciler nor keep a paid charge behind
// it from being credited. The provider does not know it, so nobody can pay
// it: once past its expiry it is EXPIRED.
func TestUnknownExpiredChargeDoesNotBlockTheOthers(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	ctx := context.Background()
	unknown, _ := h.issueCharge(1500)
	paid, paidPix := h.issueCharge(2500)
	if _, err := h.sb.PayCharge(paidPix, sandbox.Payer{}); err != nil { // its notification is lost
		t.Fatal(err)
	}
	if _, err := h.db.Pool().Exec(ctx, `UPDATE charges SET pix_id = 'unknown-to-the-provider', expires_at = now() - interval '1 hour' WHERE id = $1`, unknown.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := h.db.Pool().Exec(ctx, `UPDATE charges SET expires_at = now() - interval '1 minute' WHERE id = $1`, paid.ID); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("paid charge PAID", 5*time.Second, func() bool { return h.charge(paid.ID).Status == storage.ChargePaid })
	h.eventually("unknown charge EXPIRED", 5*time.Second, func() bool { return h.charge(unknown.ID).Status == storage.ChargeExpired })
	h.auditClean()
}

// A withdrawal whose completion cannot be posted (here: nothing was ever
// reserved for it) fails on every tick; the withdrawals behind it are still
// finished.
func TestOneBrokenWithdrawalDoesNotStopTheOthers(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	ctx := context.Background()
	good := h.createWithdrawal(1000, "fulano@example.com")
	h.loseRedis() // its notification and tasks are gone: only the reconciler can finish it
	goodPix := h.payAtProvider(good.ID, good.Amount)
	if err := h.db.RecordTransferSent(ctx, storage.KindWithdrawal, good.ID, goodPix, ""); err != nil {
		t.Fatal(err)
	}
	brokenID, _ := uuid.NewV7()
	brokenPix := h.payAtProvider(brokenID, money.FromReais(500, 0))
	if _, err := h.db.Pool().Exec(ctx, `INSERT INTO withdrawals (id, integrator_id, request_hash, amount, fee, status,
			credit_party_name, credit_party_key_type, credit_party_key, credit_party_tax_id, pix_id, updated_at)
		VALUES ($1, $2, '\x00', 50000, 50, 'PROCESSING', 'Fulano', 'EMAIL', 'fulano@example.com', '52998224725', $3, now() - interval '1 hour')`,
		brokenID, h.integrator.ID, brokenPix); err != nil {
		t.Fatal(err)
	}
	for _, pix := range []string{goodPix, brokenPix} {
		if _, err := h.sb.Settle(pix); err != nil {
			t.Fatal(err)
		}
	}
	h.start()
	h.eventually("the good withdrawal COMPLETED", 5*time.Second, func() bool { return h.withdrawal(good.ID).Status == storage.TransferCompleted })
	if got := h.withdrawal(brokenID).Status; got != storage.TransferProcessing {
		t.Fatalf("broken withdrawal %s; its completion cannot be posted", got)
	}
}

// payAtProvider makes the provider payment of a withdrawal, as its send does.
func (h *harness) payAtProvider(id uuid.UUID, amount money.Money) string {
	h.t.Helper()
	pay, err := h.provider.CreatePayment(context.Background(), family.PaymentRequest{Amount: amount, ExternalID: id.String(),
		CreditParty: family.CreditParty{Name: "Fulano de Tal", KeyType: "EMAIL", Key: "fulano@example.com", TaxID: "52998224725"}})
	if err != nil {
		h.t.Fatal(err)
	}
	return pay.TransactionID
}
