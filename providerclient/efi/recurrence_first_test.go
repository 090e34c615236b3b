package efi_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// firstPaymentRequest is a QR_WITH_PAYMENT recurrence starting today,
// whose first payment (cycle 0) is its fixed amount, under a new charge
// id.
func firstPaymentRequest() providerclient.RecurrenceRequest {
	req := recurrenceRequest(recurrence.JourneyQRWithPayment, 0)
	req.Calendar.Start = due.Today(time.Now())
	req.FirstPayment, req.FirstPaymentID = req.Amount.Fixed, newID()
	return req
}

// charges is how many immediate charges the sandbox holds.
func (e *env) charges() int { return len(e.sb.Transactions(contract.TypeReceivePix)) }

// Journey 3: the first payment is a cob under the txid of PixGate's charge
// id, which the connector's Read reads as any charge; the recurrence names
// it, and its BR Code is the composite one of both. A repeat is the same
// recurrence and the same cob. Approving pays the cob: Read says PAID, and
// the recurrence reads APPROVED with its first payment.
func TestRecurrenceQRWithPayment(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	req := firstPaymentRequest()
	txid := strings.ReplaceAll(req.FirstPaymentID, "-", "")
	got, err := e.conn.CreateRecurrence(ctx, req)
	if err != nil || got.Status != recurrence.RecurrenceCreated || got.FirstPaymentID != txid || got.ExternalID != req.ID {
		t.Fatalf("create: %+v, %v", got, err)
	}
	p, err := brcodetest.Parse(got.QRCode)
	if err != nil || !strings.Contains(p.RecurrenceLocation, "/rec/") || p.Location == "" || strings.Contains(p.Location, "/rec/") {
		t.Fatalf("composite QR Code %q: %+v, %v", got.QRCode, p, err)
	}
	charge := providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: got.FirstPaymentID}
	first, err := e.conn.Read(ctx, charge)
	if err != nil || first.Status != providerclient.StatusPending || first.Amount != money.FromReais(35, 0) {
		t.Fatalf("the first payment: %+v, %v", first, err)
	}
	again, err := e.conn.CreateRecurrence(ctx, req)
	if err != nil || !reflect.DeepEqual(again, got) || e.recurrences() != 1 || e.charges() != 1 || e.sb.Stats().Requests["/v2/locrec"] != 1 {
		t.Fatalf("a repeat: %+v, %v; %d recurrences, %d charges, %v", again, err, e.recurrences(), e.charges(), e.sb.Stats().Requests)
	}
	at, _ := e.sb.Recurrence(got.ProviderID)
	if at.Journey != string(recurrence.JourneyQRWithPayment) {
		t.Fatalf("at the sandbox: %+v", at)
	}

	if _, err := e.sb.ApproveRecurrence(got.ProviderID, 0); err != nil {
		t.Fatal(err)
	}
	paid, err := e.conn.Read(ctx, charge)
	if err != nil || paid.Status != providerclient.StatusPaid || paid.EndToEndID == "" {
		t.Fatalf("the first payment once approved: %+v, %v", paid, err)
	}
	approved := readRecurrence(t, e, got.ProviderID)
	if approved.Status != recurrence.RecurrenceApproved || approved.FirstPaymentID != txid || approved.ApprovedAt.IsZero() {
		t.Fatalf("approved: %+v", approved)
	}
	waitFor(t, "the payment's and the approval's notifications", func() bool {
		e.hook.mu.Lock()
		defer e.hook.mu.Unlock()
		return slices.Contains(e.hook.paths, "/webhooks/provider/token/pix") && slices.Contains(e.hook.paths, "/webhooks/provider/token/rec")
	})
	// A repeat once paid still finds both.
	if again, err := e.conn.CreateRecurrence(ctx, req); err != nil || again.FirstPaymentID != txid || e.charges() != 1 {
		t.Fatalf("a repeat once paid: %+v, %v", again, err)
	}
	checkedRecRoutes(t, e, "PUT /cob/{txid}", "GET /cob/{txid}", "POST /locrec", "POST /rec", "GET /rec/{idRec}")
}

// An answer lost after the cob, the recurrence or the composite read: the
// create asked again makes neither the cob nor the recurrence twice.
func TestRecurrenceQRWithPaymentAnswerLost(t *testing.T) {
	for _, route := range []string{"/v2/cob/{txid}", "/v2/rec/{idRec}"} {
		t.Run(route, func(t *testing.T) {
			e := newEnv(t, sandbox.Config{})
			req := firstPaymentRequest()
			e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{route}})
			if _, err := e.conn.CreateRecurrence(t.Context(), req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
				t.Fatalf("timeout: %v", err)
			}
			e.sb.ResetFaults()
			got, err := e.conn.CreateRecurrence(t.Context(), req)
			if err != nil || got.QRCode == "" || e.recurrences() != 1 || e.charges() != 1 {
				t.Fatalf("retry: %+v, %v; %d recurrences, %d charges", got, err, e.recurrences(), e.charges())
			}
		})
	}
}

// A cob an earlier try made under the first payment's txid (its PUT
// answered or not) is taken, not made again; one of another amount is
// refused, and no recurrence is made.
func TestRecurrenceQRWithPaymentEarlierCob(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	for amount, ok := range map[money.Money]bool{money.FromReais(35, 0): true, money.FromReais(30, 0): false} {
		req := firstPaymentRequest()
		charge := providerclient.ChargeRequest{ID: req.FirstPaymentID, Amount: amount, Payer: req.Payer}
		if _, err := e.conn.CreateCharge(ctx, charge); err != nil {
			t.Fatal(err)
		}
		before := e.charges()
		got, err := e.conn.CreateRecurrence(ctx, req)
		switch {
		case ok && (err != nil || got.FirstPaymentID != strings.ReplaceAll(req.FirstPaymentID, "-", "")):
			t.Errorf("the earlier cob of the same amount: %+v, %v", got, err)
		case !ok && !errors.Is(err, providerclient.ErrRejected):
			t.Errorf("an earlier cob of another amount: %+v, %v", got, err)
		case e.charges() != before:
			t.Errorf("%d charges, want %d", e.charges(), before)
		}
	}
	if e.recurrences() != 1 {
		t.Fatalf("%d recurrences, want 1", e.recurrences())
	}
}

// Journey 3 without a first payment it can send is refused before any
// call, as is a fixed recurrence whose first payment is of another amount.
func TestRecurrenceQRWithPaymentRefusals(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	for name, c := range map[string]struct {
		edit func(*providerclient.RecurrenceRequest)
		says string
	}{
		"no amount":             {func(r *providerclient.RecurrenceRequest) { r.FirstPayment = 0 }, "first_payment"},
		"another amount":        {func(r *providerclient.RecurrenceRequest) { r.FirstPayment = money.FromReais(30, 0) }, "first_payment"},
		"no charge id":          {func(r *providerclient.RecurrenceRequest) { r.FirstPaymentID = "" }, "pattern"},
		"a charge id too short": {func(r *providerclient.RecurrenceRequest) { r.FirstPaymentID = "abc-123" }, "pattern"},
		"a charge id of symbols": {func(r *providerclient.RecurrenceRequest) {
			r.FirstPaymentID = strings.Repeat("ç", 30)
		}, "pattern"},
	} {
		req := firstPaymentRequest()
		c.edit(&req)
		if _, err := e.conn.CreateRecurrence(t.Context(), req); !errors.Is(err, providerclient.ErrRejected) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := len(e.sb.Stats().Requests); n != 0 {
		t.Fatalf("requests sent: %v", e.sb.Stats().Requests)
	}
}
