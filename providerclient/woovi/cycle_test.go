package woovi_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// approvedRecurrence is a weekly recurrence of four cycles from a week
// away, created through the connector and, when approve, approved by its
// payer at the sandbox.
func (e *env) approvedRecurrence(approve bool) (providerclient.RecurrenceRequest, *providerclient.Recurrence) {
	e.t.Helper()
	req := recurrenceRequest(recurrence.JourneyQR, 0)
	rec, err := e.conn.CreateRecurrence(e.t.Context(), req)
	if err != nil {
		e.t.Fatal(err)
	}
	if approve {
		if _, err := e.sb.ApproveRecurrence(rec.ProviderID, 0); err != nil {
			e.t.Fatal(err)
		}
	}
	return req, rec
}

// cycleOf is the request of cycle n of a recurrence.
func cycleOf(req providerclient.RecurrenceRequest, rec *providerclient.Recurrence, n int) providerclient.CycleRequest {
	day, _ := req.Calendar.Due(n)
	return providerclient.CycleRequest{ID: newID(), Recurrence: providerclient.RecurrenceRef{ID: req.ID, ProviderID: rec.ProviderID},
		N: n, DueDate: day, Amount: req.Amount.Fixed, Payer: req.Payer, Description: req.Description}
}

// A cycle is sent once, read with its tries through the payer's bank's
// moves, rejected with a code the policy retries and retried by Woovi
// itself (RetryCycle asks nothing), then paid; another rejected with a
// code that ends it. Each change is a signed webhook that parses into an
// Event of the cycle under the same provider id.
func TestCycleLifecycleAgainstTheSandbox(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	req, rec := e.approvedRecurrence(true)
	first := cycleOf(req, rec, 0)
	cy, err := e.conn.SendCycle(ctx, first)
	if err != nil || cy.Status != recurrence.CycleCreated || cy.DueDate != first.DueDate || cy.Amount != first.Amount ||
		len(cy.Attempts) != 1 || cy.Attempts[0].Kind != recurrence.AttemptFirst || cy.Attempts[0].SettleOn != first.DueDate ||
		!strings.HasPrefix(cy.ProviderID, "UGF5bWVudFN1YnNjcmlwdGlvbkluc3RhbGxtZW50") {
		t.Fatalf("send: %+v, %v", cy, err)
	}
	if again, err := e.conn.SendCycle(ctx, first); err != nil || again.ProviderID != cy.ProviderID {
		t.Fatalf("a repeat: %+v, %v", again, err)
	}
	if n := e.v.Checked()["POST "+wooviapi.PathInstallmentCobr]; n != 1 {
		t.Fatalf("%d cobrs asked", n)
	}
	ref := providerclient.CycleRef{ID: first.ID, ProviderID: cy.ProviderID, Recurrence: first.Recurrence, DueDate: first.DueDate}
	read := func(ref providerclient.CycleRef) *providerclient.Cycle {
		t.Helper()
		got, err := e.conn.ReadCycle(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if _, err := e.sb.AcceptCycle(cy.ProviderID); err != nil {
		t.Fatal(err)
	}
	if got := read(ref); got.Status != recurrence.CycleActive || got.Attempts[0].Status != recurrence.AttemptScheduled {
		t.Fatalf("accepted: %+v", got)
	}
	if _, err := e.sb.RejectCycle(cy.ProviderID, "AM02"); err != nil {
		t.Fatal(err)
	}
	got := read(providerclient.CycleRef{Recurrence: first.Recurrence, DueDate: first.DueDate}) // by its day alone
	if got.Status != recurrence.CycleCreated || len(got.Attempts) != 2 || got.Attempts[0].RejectionCode != "AM02" ||
		got.Attempts[1].Kind != recurrence.AttemptRetry || got.Attempts[1].Status != recurrence.AttemptRequested || got.ProviderID != cy.ProviderID {
		t.Fatalf("a try rejected, Woovi's retry asked: %+v", got)
	}
	asked := len(e.v.Checked())
	if err := e.conn.RetryCycle(ctx, ref, got.Attempts[1].SettleOn); err != nil || len(e.v.Checked()) != asked {
		t.Fatalf("retry: %v", err)
	}
	for _, move := range []func(string) error{
		func(id string) error { _, err := e.sb.AcceptCycle(id); return err },
		func(id string) error { _, err := e.sb.PayCycle(id); return err },
	} {
		if err := move(cy.ProviderID); err != nil {
			t.Fatal(err)
		}
	}
	paid := read(ref)
	if paid.Status != recurrence.CyclePaid || paid.EndToEndID == "" || paid.PaidAt.IsZero() ||
		paid.Attempts[1].Status != recurrence.AttemptPaid || paid.Attempts[1].EndToEndID != paid.EndToEndID {
		t.Fatalf("paid: %+v", paid)
	}

	if err := e.sb.SetToday(due.Today(time.Now()).AddDays(5)); err != nil {
		t.Fatal(err)
	}
	second := cycleOf(req, rec, 1)
	cy2, err := e.conn.SendCycle(ctx, second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.sb.RejectCycle(cy2.ProviderID, "AC05"); err != nil {
		t.Fatal(err)
	}
	if got := read(providerclient.CycleRef{ProviderID: cy2.ProviderID}); got.Status != recurrence.CycleRejected || got.RejectionCode != "AC05" {
		t.Fatalf("rejected: %+v", got)
	}
	if err := e.conn.CancelCycle(ctx, providerclient.CycleRef{ProviderID: cy2.ProviderID}); !errors.Is(err, providerclient.ErrUnsupported) {
		t.Fatalf("cancel: %v", err)
	}

	kind := providerclient.KindRecurrenceCycle
	want := []providerclient.Event{
		{Kind: kind, ProviderID: cy.ProviderID, Status: "CREATED"}, {Kind: kind, ProviderID: cy.ProviderID, Status: "ACTIVE"},
		// the try rejected, then Woovi's retry requested: both FAILED_TRY
		{Kind: kind, ProviderID: cy.ProviderID, Status: "CREATED"}, {Kind: kind, ProviderID: cy.ProviderID, Status: "CREATED"},
		{Kind: kind, ProviderID: cy.ProviderID, Status: "ACTIVE"},
		{Kind: kind, ProviderID: cy.ProviderID, Status: "PAID"},
		{Kind: kind, ProviderID: cy2.ProviderID, Status: "CREATED"}, {Kind: kind, ProviderID: cy2.ProviderID, Status: "REJECTED"},
	}
	events := e.cycleEvents(1 + len(want)) // and the consent's approval
	if !sameEvents(events, want) {
		t.Fatalf("events %+v\nwant %+v", events, want)
	}
	body, h := e.webhook(0)
	if _, err := e.conn.ParseNotification(h, []byte(strings.Replace(string(body), `"value":`, `"value":1`, 1))); err == nil {
		t.Fatal("a changed body was accepted")
	}
}

// cycleEvents parses the first n webhooks, their signatures checked, and
// returns the cycles' events, without their payloads.
func (e *env) cycleEvents(n int) []providerclient.Event {
	e.t.Helper()
	var out []providerclient.Event
	for i := range n {
		body, h := e.webhook(i)
		evs, err := e.conn.ParseNotification(h, body)
		if err != nil || len(evs) != 1 {
			e.t.Fatalf("parse %s: %+v, %v", body, evs, err)
		}
		if evs[0].Kind == providerclient.KindRecurrenceCycle {
			evs[0].Payload = nil
			out = append(out, evs[0])
		}
	}
	return out
}

// What Woovi refuses is ErrRejected, nothing made: a cobr before the
// window, a day with no installment, a recurrence not approved.
func TestCycleSendRefusedByTheSandbox(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	req, rec := e.approvedRecurrence(true)
	pending, pendingRec := e.approvedRecurrence(false)
	if err := e.sb.SetToday(due.Today(time.Now()).AddDays(3)); err != nil {
		t.Fatal(err)
	}
	noDay := cycleOf(req, rec, 0)
	noDay.DueDate = noDay.DueDate.AddDays(1)
	for name, c := range map[string]struct {
		req  providerclient.CycleRequest
		says string
	}{
		"before the window": {cycleOf(req, rec, 1), "is sent from"},
		"not listed yet":    {cycleOf(req, rec, 2), "no installment"},
		"no installment":    {noDay, "no installment"},
		"not approved":      {cycleOf(pending, pendingRec, 1), "not APPROVED"},
	} {
		if _, err := e.conn.SendCycle(ctx, c.req); !errors.Is(err, providerclient.ErrRejected) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := e.conn.ReadCycle(ctx, providerclient.CycleRef{Recurrence: providerclient.RecurrenceRef{ProviderID: rec.ProviderID},
		DueDate: cycleOf(req, rec, 1).DueDate}); !errors.Is(err, providerclient.ErrProvedAbsent) {
		t.Fatalf("read a cycle never sent: %v", err)
	}
	if n := e.v.Checked()["POST "+wooviapi.PathInstallmentCobr]; n != 2 {
		t.Fatalf("%d cobrs asked, want 2 (the day without installment asks none)", n)
	}
}
