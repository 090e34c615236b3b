package woovi_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// firstPaymentRequest is a QR_WITH_PAYMENT recurrence starting today,
// its first payment the fixed amount, under new ids.
func firstPaymentRequest() providerclient.RecurrenceRequest {
	req := recurrenceRequest(recurrence.JourneyQRWithPayment, 0)
	req.Calendar.Start = due.Today(time.Now())
	req.FirstPayment, req.FirstPaymentID = req.Amount.Fixed, newID()
	return req
}

// Journey 3 is PAYMENT_ON_APPROVAL: created once however often asked,
// with the composite BR Code and the first charge's id, which Read reads
// as any charge (PENDING, then PAID with its amount and end-to-end id once
// the payer approves), notified as any charge.
func TestRecurrenceFirstPaymentAgainstTheSandbox(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	conn := providerclient.Wrap(e.conn, providerclient.Config{Name: "woovi"})
	req := firstPaymentRequest()
	rec, err := conn.CreateRecurrence(ctx, req)
	if err != nil || rec.Status != recurrence.RecurrenceCreated || rec.FirstPaymentID != req.ID {
		t.Fatalf("create: %+v, %v", rec, err)
	}
	if p, err := brcodetest.Parse(rec.QRCode); err != nil || p.Location == "" || p.RecurrenceLocation == "" || p.Amount != req.FirstPayment {
		t.Fatalf("the composite code %q: %+v, %v", rec.QRCode, p, err)
	}
	ref := providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: rec.FirstPaymentID, ID: req.FirstPaymentID}
	if c, err := conn.Read(ctx, ref); err != nil || c.Status != providerclient.StatusPending || c.Amount != req.FirstPayment {
		t.Fatalf("the first charge: %+v, %v", c, err)
	}
	again, err := conn.CreateRecurrence(ctx, req)
	if err != nil || again.ProviderID != rec.ProviderID || again.FirstPaymentID != rec.FirstPaymentID || again.QRCode != rec.QRCode {
		t.Fatalf("a repeat: %+v, %v", again, err)
	}
	if n, m := e.subscriptionsAsked(), len(e.sb.Transactions(contract.TypeReceivePix)); n != 2 || m != 1 {
		t.Fatalf("%d creates asked, %d charges made", n, m)
	}
	if got, err := conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: req.ID}); err != nil || got.FirstPaymentID != rec.FirstPaymentID {
		t.Fatalf("read: %+v, %v", got, err)
	}

	if _, err := e.sb.ApproveRecurrence(rec.ProviderID, 0); err != nil {
		t.Fatal(err)
	}
	c, err := conn.Read(ctx, ref)
	if err != nil || c.Status != providerclient.StatusPaid || c.Amount != req.FirstPayment || c.EndToEndID == "" {
		t.Fatalf("the first charge once approved: %+v, %v", c, err)
	}
	for i := 0; ; i++ {
		body, h := e.webhook(i)
		evs, err := e.conn.ParseNotification(h, body)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 1 && evs[0].Kind == providerclient.KindCharge {
			if evs[0].ProviderID != rec.FirstPaymentID || evs[0].Status != providerclient.StatusPaid {
				t.Fatalf("the charge's notification: %+v", evs[0])
			}
			break
		}
	}
}

// Journey 3's terms Woovi cannot hold are refused before any call; a
// subscription of another journey under the same correlationID is not
// this one.
func TestRecurrenceFirstPaymentRefusals(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	for name, c := range map[string]struct {
		change func(*providerclient.RecurrenceRequest)
		field  string
	}{
		"a start in a week": {func(r *providerclient.RecurrenceRequest) { r.Calendar.Start = r.Calendar.Start.AddDays(7) }, "calendar.start"},
		"no first payment":  {func(r *providerclient.RecurrenceRequest) { r.FirstPayment = 0 }, "first_payment"},
		"another amount":    {func(r *providerclient.RecurrenceRequest) { r.FirstPayment++ }, "first_payment"},
		"below the floor":   {func(r *providerclient.RecurrenceRequest) { r.Amount = recurrence.Amount{Floor: r.FirstPayment + 1} }, "first_payment"},
		"one on the QR journey": {func(r *providerclient.RecurrenceRequest) {
			r.Journey, r.Calendar.Start = recurrence.JourneyQR, r.Calendar.Start.AddDays(7)
		}, "first_payment"},
		"a payer without its name":  {func(r *providerclient.RecurrenceRequest) { r.Payer.Name = "" }, "payer"},
		"a contract of 30 letters ": {func(r *providerclient.RecurrenceRequest) { r.Contract = strings.Repeat("x", 30) }, "contract"},
	} {
		req := firstPaymentRequest()
		c.change(&req)
		_, err := e.conn.CreateRecurrence(ctx, req)
		var pe *providerclient.Error
		if !errors.As(err, &pe) || !strings.HasPrefix(pe.Message, c.field+": ") || !errors.Is(err, providerclient.ErrProvedAbsent) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := e.subscriptionsAsked(); n != 0 {
		t.Fatalf("%d subscriptions asked", n)
	}

	req := firstPaymentRequest()
	if _, err := e.conn.CreateRecurrence(ctx, req); err != nil {
		t.Fatal(err)
	}
	qr := recurrenceRequest(recurrence.JourneyQR, 0)
	qr.ID = req.ID // the same correlationID and value, journey 2: not this one
	if _, err := e.conn.CreateRecurrence(ctx, qr); !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("another journey under a used correlationID: %v", err)
	}
	variable := firstPaymentRequest()
	variable.Amount = recurrence.Amount{Floor: money.FromReais(10, 0)}
	rec, err := e.conn.CreateRecurrence(ctx, variable)
	if err != nil || rec.FirstPaymentID != variable.ID {
		t.Fatalf("a variable one, its first payment above the floor: %+v, %v", rec, err)
	}
}
