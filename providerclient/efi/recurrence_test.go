package efi_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix/brcode/brcodetest"
	"github.com/pixgate/pixgate/providerclient/recurrencetest"
	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// recurrenceRequest is the connectors' tests' recurrence of journey j,
// under a new id.
func recurrenceRequest(j recurrence.Journey, floor money.Money) providerclient.RecurrenceRequest {
	return recurrencetest.Request(newID(), j, floor)
}

// recurrences is how many recurrences the sandbox holds.
func (e *env) recurrences() int { return len(e.sb.Transactions(contract.TypeRecurrence)) }

// The connector offers the QR, PUSH and QR_WITH_PAYMENT journeys, and
// refuses the others before sending anything.
func TestRecurrenceJourneys(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	c := e.conn.Capabilities()
	want := []recurrence.Journey{recurrence.JourneyQR, recurrence.JourneyPush, recurrence.JourneyQRWithPayment}
	if !c.Recurrences || !reflect.DeepEqual(c.Journeys, want) {
		t.Fatalf("capabilities: %+v", c)
	}
	for _, j := range []recurrence.Journey{recurrence.JourneyQRWithDuePayment, "JOURNEY_9"} {
		if _, err := e.conn.CreateRecurrence(t.Context(), recurrenceRequest(j, 0)); !errors.Is(err, providerclient.ErrUnsupported) {
			t.Errorf("journey %s: %v", j, err)
		}
	}
	noAccount := recurrenceRequest(recurrence.JourneyPush, 0)
	noAccount.PayerAccount = nil
	if _, err := e.conn.CreateRecurrence(t.Context(), noAccount); !errors.Is(err, providerclient.ErrRejected) ||
		!strings.Contains(err.Error(), "payer_account") {
		t.Errorf("a push without the account: %v", err)
	}
	if n := len(e.sb.Stats().Requests); n != 0 {
		t.Fatalf("requests sent: %v", e.sb.Stats().Requests)
	}
}

// A QR recurrence is registered on a location of its own, its BR Code read
// back; a repeat is the same one. Approved at the sandbox it reads
// APPROVED (the BCB carries no maximum of the payer's); cancelled by the
// integrator it reads CANCELLED by INTEGRATOR, and a second cancel is no
// error. Each change is notified at {webhookUrl}/rec and parsed into a
// claim about the recurrence.
func TestRecurrenceQR(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	req := recurrenceRequest(recurrence.JourneyQR, money.FromReais(20, 0))
	got, err := e.conn.CreateRecurrence(ctx, req)
	if err != nil || len(got.ProviderID) != 29 || !strings.HasPrefix(got.ProviderID, "RR") || got.ExternalID != req.ID ||
		got.Status != recurrence.RecurrenceCreated {
		t.Fatalf("create: %+v, %v", got, err)
	}
	if p, err := brcodetest.Parse(got.QRCode); err != nil || !strings.Contains(p.Location, "/qr/v2/rec/") {
		t.Fatalf("QR Code %q: %+v, %v", got.QRCode, p, err)
	}
	again, err := e.conn.CreateRecurrence(ctx, req)
	if err != nil || !reflect.DeepEqual(again, got) || e.recurrences() != 1 || e.sb.Stats().Requests["/v2/locrec"] != 1 {
		t.Fatalf("a repeat: %+v, %v; %d recurrences, %v", again, err, e.recurrences(), e.sb.Stats().Requests)
	}
	at, _ := e.sb.Recurrence(got.ProviderID)
	last := req.Calendar.Start.AddDays(21).String()
	if at.Journey != "QR" || at.Periodicity != "WEEKLY" || at.End != last || at.MinimumAmount != money.FromReais(20, 0) ||
		at.RetryPolicy != "THREE_IN_7_DAYS" || at.Contract != strings.ReplaceAll(req.ID, "-", "") || at.Description != "Plano Ouro" ||
		at.Payer.Document != "52998224725" {
		t.Fatalf("at the sandbox: %+v", at)
	}

	if _, err := e.sb.ApproveRecurrence(got.ProviderID, money.FromReais(50, 0)); err != nil {
		t.Fatal(err)
	}
	approved := readRecurrence(t, e, got.ProviderID)
	if approved.Status != recurrence.RecurrenceApproved || approved.ApprovedAt.IsZero() || approved.PayerMax != 0 {
		t.Fatalf("approved: %+v", approved)
	}
	waitFor(t, "the approval's notification", func() bool { return len(e.hook.bodies()) == 1 })
	if p := e.hook.paths[0]; p != "/webhooks/provider/token/rec" {
		t.Fatalf("webhook path %q: the BCB's callback is {webhookUrl}/rec", p)
	}
	evs, err := e.conn.ParseNotification(nil, e.hook.bodies()[0])
	if err != nil || len(evs) != 1 || evs[0].Kind != providerclient.KindRecurrence || evs[0].ProviderID != got.ProviderID ||
		evs[0].ID != "" || evs[0].Status != providerclient.Status(recurrence.RecurrenceApproved) {
		t.Fatalf("notification: %+v, %v", evs, err)
	}

	ref := providerclient.RecurrenceRef{ID: req.ID, ProviderID: got.ProviderID}
	if err := e.conn.CancelRecurrence(ctx, ref); err != nil {
		t.Fatal(err)
	}
	cancelled := readRecurrence(t, e, got.ProviderID)
	if cancelled.Status != recurrence.RecurrenceCancelled || cancelled.CancelledBy != recurrence.PartyIntegrator ||
		cancelled.EndCode != "SLCR" || cancelled.EndReason == "" || cancelled.ApprovedAt.IsZero() {
		t.Fatalf("cancelled: %+v", cancelled)
	}
	if err := e.conn.CancelRecurrence(ctx, ref); err != nil {
		t.Fatalf("cancelled twice: %v", err)
	}
	waitFor(t, "the cancel's notification", func() bool { return len(e.hook.bodies()) == 2 })
	if evs, err := e.conn.ParseNotification(nil, e.hook.bodies()[1]); err != nil || evs[0].Status != providerclient.Status(recurrence.RecurrenceCancelled) {
		t.Fatalf("notification: %+v, %v", evs, err)
	}
	checkedRecRoutes(t, e, "POST /locrec", "POST /rec", "GET /rec", "GET /rec/{idRec}", "PATCH /rec/{idRec}", "PUT /webhookrec")
}

// A PUSH recurrence is registered and its consent request sent to the
// payer's account, open until the consent's deadline; refused by the payer
// it reads REJECTED with the BCB's code.
func TestRecurrencePush(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	req := recurrenceRequest(recurrence.JourneyPush, 0)
	got, err := e.conn.CreateRecurrence(ctx, req)
	if err != nil || got.Status != recurrence.RecurrenceCreated || got.QRCode != "" {
		t.Fatalf("create: %+v, %v", got, err)
	}
	at, _ := e.sb.Recurrence(got.ProviderID)
	if at.Journey != "PUSH" || at.Payer.Bank == nil || at.Payer.Bank.Account != "550689" || at.Payer.Bank.ISPB != "91193552" ||
		at.ConsentExpiresAt != contract.FormatDate(req.ConsentExpiresAt) || at.Amount != money.FromReais(35, 0) {
		t.Fatalf("at the sandbox: %+v", at)
	}
	if _, err := e.conn.CreateRecurrence(ctx, req); err != nil || e.sb.Stats().Requests["/v2/solicrec"] != 1 || e.recurrences() != 1 {
		t.Fatalf("a repeat: %v; %d recurrences, %v", err, e.recurrences(), e.sb.Stats().Requests)
	}
	if _, err := e.sb.RejectRecurrence(got.ProviderID, "AP13"); err != nil {
		t.Fatal(err)
	}
	rejected := readRecurrence(t, e, got.ProviderID)
	if rejected.Status != recurrence.RecurrenceRejected || rejected.EndCode != "AP13" || rejected.EndReason == "" || rejected.CancelledBy != "" {
		t.Fatalf("rejected: %+v", rejected)
	}
	// Cancelling a rejected one is refused, and it stays rejected.
	if err := e.conn.CancelRecurrence(ctx, providerclient.RecurrenceRef{ProviderID: got.ProviderID}); !errors.Is(err, providerclient.ErrRejected) {
		t.Fatalf("cancel a rejected one: %v", err)
	}
	checkedRecRoutes(t, e, "POST /solicrec")
}

// The payer's side ends a recurrence: its consent lapses (EXPIRED), or
// their bank cancels it (CANCELLED by PAYER_BANK, with the BCB's code).
func TestRecurrenceEndedByThePayersSide(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	lapsed, err := e.conn.CreateRecurrence(ctx, recurrenceRequest(recurrence.JourneyPush, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.ExpireRecurrence(lapsed.ProviderID); err != nil {
		t.Fatal(err)
	}
	if got := readRecurrence(t, e, lapsed.ProviderID); got.Status != recurrence.RecurrenceExpired || got.EndCode != "" {
		t.Fatalf("expired: %+v", got)
	}
	fraud, err := e.conn.CreateRecurrence(ctx, recurrenceRequest(recurrence.JourneyQR, 0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.ApproveRecurrence(fraud.ProviderID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.CancelRecurrence(fraud.ProviderID, recurrence.PartyPayerBank, "FRUD"); err != nil {
		t.Fatal(err)
	}
	got := readRecurrence(t, e, fraud.ProviderID)
	if got.Status != recurrence.RecurrenceCancelled || got.CancelledBy != recurrence.PartyPayerBank || got.EndCode != "FRUD" || got.ApprovedAt.IsZero() {
		t.Fatalf("cancelled by the payer's bank: %+v", got)
	}
	waitFor(t, "three notifications", func() bool { return len(e.hook.bodies()) == 3 })
}

// An answer lost after the recurrence, or its consent request, was made:
// the create asked again finds the first, and makes neither twice.
func TestRecurrenceAnswerLost(t *testing.T) {
	ctx := t.Context()
	for route, j := range map[string]recurrence.Journey{"/v2/rec/{idRec}": recurrence.JourneyQR, "/v2/solicrec": recurrence.JourneyPush} {
		t.Run(string(j), func(t *testing.T) {
			e := newEnv(t, sandbox.Config{})
			req := recurrenceRequest(j, 0)
			e.sb.SetFaults(sandbox.Faults{TimeoutRate: 1, Routes: []string{route}})
			if _, err := e.conn.CreateRecurrence(ctx, req); !errors.Is(err, providerclient.ErrUnknownOutcome) {
				t.Fatalf("timeout: %v", err)
			}
			e.sb.ResetFaults()
			got, err := e.conn.CreateRecurrence(ctx, req)
			if err != nil || got.Status != recurrence.RecurrenceCreated || e.recurrences() != 1 || e.sb.Stats().Requests["/v2/solicrec"] > 1 {
				t.Fatalf("retry: %+v, %v; %d recurrences, %v", got, err, e.recurrences(), e.sb.Stats().Requests)
			}
		})
	}
}

// What Efí refuses is ErrRejected naming the property; an unknown
// recurrence is ErrNotFound; a notification naming no idRec names
// nothing; a ref without an idRec asks nothing.
func TestRecurrenceRefusals(t *testing.T) {
	e := newEnv(t, sandbox.Config{})
	ctx := t.Context()
	late := recurrenceRequest(recurrence.JourneyQR, 0)
	late.Calendar.Start = due.Today(time.Now()).AddDays(-1)
	var pe *providerclient.Error
	if _, err := e.conn.CreateRecurrence(ctx, late); !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) ||
		!errors.As(err, &pe) || !strings.Contains(pe.Message, "rec.calendario.dataInicial") {
		t.Fatalf("a past start: %v", err)
	}
	unknown := providerclient.RecurrenceRef{ProviderID: "RN99999999" + "20260101" + "abcdefghijk"}
	if _, err := e.conn.ReadRecurrence(ctx, unknown); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("read an unknown one: %v", err)
	}
	if err := e.conn.CancelRecurrence(ctx, unknown); !errors.Is(err, providerclient.ErrNotFound) {
		t.Fatalf("cancel an unknown one: %v", err)
	}
	if evs, err := e.conn.ParseNotification(nil, []byte(`{"recs":[{"idRec":"RN1","status":"APROVADA"}]}`)); err == nil {
		t.Fatalf("a notification of no idRec: %+v", evs)
	}
	before := e.sb.Stats().Requests["/v2/rec/{idRec}"]
	if _, err := e.conn.ReadRecurrence(ctx, providerclient.RecurrenceRef{ID: newID()}); !errors.Is(err, providerclient.ErrRejected) ||
		e.sb.Stats().Requests["/v2/rec/{idRec}"] != before {
		t.Fatalf("read by PixGate's id alone: %v", err)
	}
}

func readRecurrence(t *testing.T, e *env, idRec string) *providerclient.Recurrence {
	t.Helper()
	got, err := e.conn.ReadRecurrence(t.Context(), providerclient.RecurrenceRef{ProviderID: idRec})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// checkedRecRoutes fails unless requests to each route were checked
// against the BCB's specification.
func checkedRecRoutes(t *testing.T, e *env, routes ...string) {
	t.Helper()
	for _, route := range routes {
		if e.v.Checked()[route] == 0 {
			t.Errorf("no request to %s was checked against the specification (checked: %v)", route, e.v.Checked())
		}
	}
}
