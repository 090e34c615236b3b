package sandbox

import (
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// firstPaymentSpec creates, through the core, a charge of 49.90 notified
// to postback and a QR_WITH_PAYMENT recurrence naming it; it returns the
// recurrence's and the charge's ids.
func (e *env) firstPaymentSpec(externalID, postback string) (recID, chargeID string) {
	e.t.Helper()
	now := time.Now()
	payer := contract.Party{Name: "Fulano de Tal", TaxID: "52998224725"}
	charge, _, err := e.sb.createCharge(chargeSpec{id: newTransactionID(), externalID: "pay-" + externalID, amount: 4990,
		debtor: payer, postbackURL: postback, expiration: 24 * time.Hour}, now)
	if err != nil {
		e.t.Fatal(err)
	}
	rec, created, err := e.sb.createRecurrence(recurrenceSpec{externalID: externalID, postbackURL: postback,
		deadline: now.Add(24 * time.Hour), firstPayment: charge.id, data: RecurrenceData{
			Journey: recurrence.JourneyQRWithPayment, RetryPolicy: recurrence.RetryNone, Amount: recurrence.Amount{Fixed: 4990},
			Calendar: recurrence.Calendar{Periodicity: recurrence.Monthly, Start: due.Today(now).AddDays(30), Count: 3},
			Payer:    contract.RecurrencePayer{Name: payer.Name, Document: payer.TaxID}}}, now)
	if err != nil || !created {
		e.t.Fatalf("create: %v, %v", created, err)
	}
	return rec.id, charge.id
}

// The recurrence and its first payment share one composite BR Code: the
// charge's location and amount, and the recurrence's location in 80.
func TestFirstPaymentCompositeCode(t *testing.T) {
	e := newEnv(t, Config{})
	id, charge := e.firstPaymentSpec("rec-j3", "")
	rec, err := e.sb.Recurrence(id)
	if err != nil || rec.FirstPayment == nil || rec.FirstPayment.TransactionID != charge || rec.FirstPayment.QRCode != rec.QRCode {
		t.Fatalf("recurrence %+v, %v", rec, err)
	}
	p, err := brcodetest.Parse(rec.QRCode)
	if err != nil || p.Location != DefaultPublicHost+"/qr/v2/"+charge || p.Amount != 4990 ||
		p.RecurrenceLocation != DefaultPublicHost+"/qr/v2/rec/"+id {
		t.Fatalf("BR Code %+v, %v", p, err)
	}
	if c, err := e.sb.Transaction(charge); err != nil || c.QRCode != rec.QRCode || c.Status != contract.StatusPending {
		t.Fatalf("charge %+v, %v", c, err)
	}
}

// Approving pays the first payment once, notified as the paid RECEIVEPIX
// it is, then the recurrence; a repeated approval pays nothing more.
func TestFirstPaymentPaidOnApproval(t *testing.T) {
	e := newEnv(t, Config{})
	rc := newReceiver(t, 0)
	before := e.sb.Balance().Available
	id, charge := e.firstPaymentSpec("rec-j3", rc.url())
	for range 2 {
		if rec, err := e.sb.ApproveRecurrence(id, 0); err != nil || rec.Status != string(recurrence.RecurrenceApproved) {
			t.Fatalf("approve: %+v, %v", rec, err)
		}
	}
	c, err := e.sb.Transaction(charge)
	if err != nil || c.Status != contract.StatusPaid || c.Amount != 4990 {
		t.Fatalf("first payment %+v, %v", c, err)
	}
	if b := e.sb.Balance(); b.Available != before+4990 {
		t.Fatalf("balance %+v, want 49.90 more once", b)
	}
	waitFor(t, "two notifications", func() bool { return len(rc.bodies()) == 2 })
	time.Sleep(50 * time.Millisecond) // a third would come now
	// Deliveries run apart: their order is not the changes'.
	byType := map[any]map[string]any{}
	for _, n := range rc.bodies() {
		byType[n["transactionType"]] = n
	}
	paid, approved := byType[contract.TypeReceivePix], byType[contract.TypeRecurrence]
	if len(rc.bodies()) != 2 || paid["transactionId"] != charge || paid["status"] != contract.StatusPaid ||
		approved["transactionId"] != id || approved["status"] != "APPROVED" {
		t.Fatalf("notifications %v", rc.bodies())
	}
}

// A first payment no longer PENDING is left as it is: the approval pays
// nothing.
func TestFirstPaymentExpiredThenApproved(t *testing.T) {
	e := newEnv(t, Config{})
	before := e.sb.Balance().Available
	id, charge := e.firstPaymentSpec("rec-j3", "")
	if _, err := e.sb.ExpireCharge(charge); err != nil {
		t.Fatal(err)
	}
	if rec, err := e.sb.ApproveRecurrence(id, 0); err != nil || rec.Status != "APPROVED" {
		t.Fatalf("approve: %+v, %v", rec, err)
	}
	if c, _ := e.sb.Transaction(charge); c.Status != contract.StatusExpired || e.sb.Balance().Available != before {
		t.Fatalf("first payment %+v, balance %+v", c, e.sb.Balance())
	}
}

// A rejected, expired or cancelled recurrence leaves its first payment
// unpaid.
func TestFirstPaymentUnpaidWhenNotApproved(t *testing.T) {
	e := newEnv(t, Config{})
	before := e.sb.Balance().Available
	ends := map[string]func(id string) (contract.Recurrence, error){
		"rejected": func(id string) (contract.Recurrence, error) { return e.sb.RejectRecurrence(id, "AP13") },
		"expired":  e.sb.ExpireRecurrence,
		"cancelled": func(id string) (contract.Recurrence, error) {
			return e.sb.CancelRecurrence(id, recurrence.PartyPayer, "ACCL")
		},
	}
	for name, end := range ends {
		id, charge := e.firstPaymentSpec("rec-"+name, "")
		if _, err := end(id); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := e.sb.ApproveRecurrence(id, 0); !errors.Is(err, ErrConflict) {
			t.Fatalf("%s then approved: %v", name, err)
		}
		if c, _ := e.sb.Transaction(charge); c.Status != contract.StatusPending {
			t.Fatalf("%s: first payment %s", name, c.Status)
		}
	}
	if b := e.sb.Balance(); b.Available != before {
		t.Fatalf("balance %+v", b)
	}
}

// The core refuses a first payment that is no charge, not PENDING, a
// due-date charge or another recurrence's, and a journey that does not
// match it.
func TestFirstPaymentRefusals(t *testing.T) {
	e := newEnv(t, Config{})
	now := time.Now()
	_, taken := e.firstPaymentSpec("rec-taken", "")
	paid, _, _ := e.sb.createCharge(chargeSpec{id: newTransactionID(), amount: 100}, now)
	if _, err := e.sb.PayCharge(paid.id, Payer{}); err != nil {
		t.Fatal(err)
	}
	terms := &due.Terms{Original: 100, Date: due.Today(now).AddDays(3), DaysAfter: 1}
	dueCharge, _, err := e.sb.createCharge(chargeSpec{id: newTransactionID(), amount: 100, due: terms}, now)
	if err != nil {
		t.Fatal(err)
	}
	pending, _, _ := e.sb.createCharge(chargeSpec{id: newTransactionID(), amount: 100}, now)
	cases := []struct {
		name, charge string
		journey      recurrence.Journey
		want         error
	}{
		{"no charge", "nope", recurrence.JourneyQRWithPayment, ErrNotFound},
		{"a paid charge", paid.id, recurrence.JourneyQRWithPayment, ErrConflict},
		{"a due-date charge", dueCharge.id, recurrence.JourneyQRWithPayment, ErrConflict},
		{"another's first payment", taken, recurrence.JourneyQRWithPayment, ErrConflict},
		{"the QR journey with one", pending.id, recurrence.JourneyQR, nil},
		{"journey 3 without one", "", recurrence.JourneyQRWithPayment, nil},
	}
	for _, c := range cases {
		sp := recurrenceSpec{externalID: "rec-" + c.name, deadline: now.Add(time.Hour), firstPayment: c.charge,
			data: RecurrenceData{Journey: c.journey}}
		_, _, err := e.sb.createRecurrence(sp, now)
		if err == nil || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if n := len(e.sb.Transactions(contract.TypeRecurrence)); n != 1 {
		t.Fatalf("%d recurrences, want 1", n)
	}
	if c, _ := e.sb.Transaction(pending.id); c.Status != contract.StatusPending {
		t.Fatalf("a refused one's charge: %+v", c)
	}
}
