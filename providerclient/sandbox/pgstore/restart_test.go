package pgstore_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
)

// A charge created before a restart is paid after it, keeps its expiry, and
// its money reaches the balance; its external_id still finds it.
func TestChargeCreatedBeforeARestartIsPaidAfterIt(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	a := start(t, url, sandbox.Config{})
	ch, err := a.client.CreateCharge(ctx, charge("order-1", 100))
	if err != nil {
		t.Fatal(err)
	}
	before, _ := a.sb.Transaction(ch.TransactionID)
	a.stop()

	b := start(t, url, sandbox.Config{})
	paid, err := b.sb.PayCharge(ch.TransactionID, sandbox.Payer{})
	if err != nil {
		t.Fatalf("pay after the restart: %v", err)
	}
	if paid.Status != contract.StatusPaid || paid.DueDate != before.DueDate || paid.QRCode != before.QRCode ||
		paid.CreditParty == nil || paid.CreditParty.TaxID != "52998224725" {
		t.Fatalf("after the restart the charge is %+v, before it was %+v", paid, before)
	}
	if got, want := b.sb.Balance().Available, sandbox.DefaultInitialBalance+money.FromReais(100, 0); got != want {
		t.Fatalf("available = %v, want %v", got, want)
	}
	again, err := b.client.CreateCharge(ctx, charge("order-1", 100))
	if err != nil || again.TransactionID != ch.TransactionID || again.Status != contract.StatusPaid {
		t.Fatalf("same external_id after the restart: %+v, %v; want charge %s PAID", again, err, ch.TransactionID)
	}
	if n := b.sb.Stats().ChargesCreated; n != 0 {
		t.Fatalf("a repeated external_id created %d charges", n)
	}
}

// A payment left PROCESSING by a sandbox that stopped settles on the next
// one: at once when overdue.
func TestProcessingPaymentSettlesAfterARestart(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	a := start(t, url, sandbox.Config{SettleDelay: 20 * time.Millisecond})
	a.sb.SetFaults(sandbox.Faults{ManualSettle: true})
	amount := money.FromReais(25, 10)
	p, err := a.client.CreatePayment(ctx, payment("wd-1", amount))
	if err != nil {
		t.Fatal(err)
	}
	if bal := a.sb.Balance(); bal.Pending != amount {
		t.Fatalf("pending = %v, want %v", bal.Pending, amount)
	}
	a.stop()

	b := start(t, url, sandbox.Config{SettleDelay: 20 * time.Millisecond})
	waitFor(t, "the payment to settle on the restarted sandbox", func() bool {
		return status(b.sb, p.TransactionID) == contract.StatusCompleted
	})
	want := sandbox.DefaultInitialBalance - amount
	if bal := b.sb.Balance(); bal.Available != want || bal.Pending != 0 {
		t.Fatalf("balance %+v, want available %v and nothing pending", bal, want)
	}
	again, err := b.client.CreatePayment(ctx, payment("wd-1", amount))
	if err != nil || again.TransactionID != p.TransactionID {
		t.Fatalf("same external_id after the restart: %+v, %v; want payment %s", again, err, p.TransactionID)
	}
	if bal := b.sb.Balance(); bal.Available != want {
		t.Fatalf("a repeated external_id paid again: available %v, want %v", bal.Available, want)
	}
}

// A payment not yet due when the sandbox restarts waits for its settlement
// delay, and the control endpoints still settle it.
func TestProcessingPaymentKeepsItsDelayAcrossARestart(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	a := start(t, url, sandbox.Config{SettleDelay: time.Hour})
	p, err := a.client.CreatePayment(ctx, payment("wd-1", money.FromReais(10, 0)))
	if err != nil {
		t.Fatal(err)
	}
	a.stop()

	b := start(t, url, sandbox.Config{SettleDelay: time.Hour})
	if st := status(b.sb, p.TransactionID); st != contract.StatusProcessing {
		t.Fatalf("payment due in an hour is %s after the restart", st)
	}
	if tx, err := b.sb.Settle(p.TransactionID); err != nil || tx.Status != contract.StatusCompleted {
		t.Fatalf("settle after the restart: %+v, %v", tx, err)
	}
}

// Everything the sandbox answered before a restart is what it holds after:
// every transaction as consult describes it, in creation order, and the
// balance; a partly refunded charge refunds no more than what is left.
func TestLedgerSurvivesARestart(t *testing.T) {
	url, ctx := newStoreURL(t), context.Background()
	a := start(t, url, sandbox.Config{SettleDelay: time.Hour})
	ch, err := a.client.CreateCharge(ctx, charge("order-1", 100))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.sb.PayCharge(ch.TransactionID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	rf, err := a.client.CreateRefund(ctx, family.RefundRequest{PixID: ch.TransactionID, Amount: money.FromReais(30, 0), ExternalID: "rf-1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.sb.Settle(rf.TransactionID); err != nil {
		t.Fatal(err)
	}
	p, err := a.client.CreatePayment(ctx, payment("wd-1", money.FromReais(25, 10)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.sb.Fail(p.TransactionID, "conta encerrada"); err != nil {
		t.Fatal(err)
	}
	expired, err := a.client.CreateCharge(ctx, charge("order-2", 5))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.sb.ExpireCharge(expired.TransactionID); err != nil {
		t.Fatal(err)
	}
	ledger, balance := a.sb.Transactions(""), a.sb.Balance()
	a.stop()

	b := start(t, url, sandbox.Config{SettleDelay: time.Hour})
	if after := b.sb.Transactions(""); !reflect.DeepEqual(after, ledger) {
		t.Fatalf("ledger after the restart:\n%+v\nbefore:\n%+v", after, ledger)
	}
	if got := b.sb.Balance(); got != balance {
		t.Fatalf("balance after the restart %+v, before %+v", got, balance)
	}
	_, err = b.client.CreateRefund(ctx, family.RefundRequest{PixID: ch.TransactionID, Amount: money.FromReais(70, 1)})
	if err == nil {
		t.Fatal("refunded more than what was left of the charge after the restart")
	}
	if _, err := b.client.CreateRefund(ctx, family.RefundRequest{PixID: ch.TransactionID, Amount: money.FromReais(70, 0)}); err != nil {
		t.Fatalf("refund of what is left: %v", err)
	}
}

// An infraction, its defense and the MED return of its agreement survive a
// restart, and the return still counts against the charge.
func TestInfractionSurvivesARestart(t *testing.T) {
	url := newStoreURL(t)
	cfg := sandbox.Config{SettleDelay: 10 * time.Millisecond}
	r := start(t, url, cfg)
	ch, err := r.client.CreateCharge(context.Background(), charge("c-med", 50))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.sb.PayCharge(ch.TransactionID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	inf, err := r.sb.OpenInfraction(ch.TransactionID, money.FromReais(50, 0), "golpe")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.sb.DefendInfraction(inf.TransactionID, "autorizado"); err != nil {
		t.Fatal(err)
	}
	closed, err := r.sb.CloseInfraction(inf.TransactionID, "AGREED", "procedente")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the MED return", func() bool { return status(r.sb, closed.ReturnTransactionID) == "COMPLETED" })
	r.stop()

	again := start(t, url, cfg)
	got, err := again.sb.Transaction(inf.TransactionID)
	if err != nil || got.Status != "AGREED" || got.Defense != "autorizado" || got.AnalysisDetails != "procedente" ||
		got.ReturnTransactionID != closed.ReturnTransactionID {
		t.Fatalf("after the restart: %+v, %v", got, err)
	}
	if _, err := again.client.CreateRefund(context.Background(), family.RefundRequest{PixID: ch.TransactionID, Amount: 1}); err == nil {
		t.Fatal("a charge its MED return emptied was refunded after the restart")
	}
}
