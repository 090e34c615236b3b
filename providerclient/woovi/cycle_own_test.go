package woovi_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// soonRecurrence is an approved weekly recurrence whose first cycle is
// due in 3 days (the earliest start Woovi takes), of a fixed amount or,
// with floor, a variable one.
func (e *env) soonRecurrence(floor money.Money) (providerclient.RecurrenceRequest, *providerclient.Recurrence) {
	e.t.Helper()
	req := recurrenceRequest(recurrence.JourneyQR, floor)
	req.Calendar.Start = due.Today(time.Now()).AddDays(3)
	rec, err := e.conn.CreateRecurrence(e.t.Context(), req)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.sb.ApproveRecurrence(rec.ProviderID, 0); err != nil {
		e.t.Fatal(err)
	}
	return req, rec
}

// cobrsAsked is how many manual cobrs reached the sandbox.
func (e *env) cobrsAsked() int { return e.v.Checked()["POST "+wooviapi.PathInstallmentCobr] }

// A cycle due in 3 or 4 days, past its manual cobr's days, is Woovi's own
// cobr, adopted: made when the sandbox's clock reached 4 days before the
// day (notified before any send), or at the send's read of the
// installments; no manual cobr is asked.
func TestCycleAdoptsWooviOwnCobr(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	req, rec := e.soonRecurrence(0)
	first := cycleOf(req, rec, 0)
	cy, err := e.conn.SendCycle(ctx, first)
	if err != nil || cy.Status != recurrence.CycleCreated || cy.Amount != first.Amount || cy.DueDate != first.DueDate || e.cobrsAsked() != 0 {
		t.Fatalf("due in 3 days, made at the read: %+v, %v (%d cobrs asked)", cy, err, e.cobrsAsked())
	}

	later, laterRec := e.approvedRecurrence(true) // due in 7 days
	if err := e.sb.SetToday(due.Today(time.Now()).AddDays(3)); err != nil {
		t.Fatal(err)
	}
	events := e.cycleEvents(4) // two approvals, two own cobrs, in any order
	next := cycleOf(later, laterRec, 0)
	got, err := e.conn.SendCycle(ctx, next)
	if err != nil || got.Status != recurrence.CycleCreated || e.cobrsAsked() != 0 {
		t.Fatalf("made when the clock moved: %+v, %v (%d cobrs asked)", got, err, e.cobrsAsked())
	}
	want := []providerclient.Event{{Kind: providerclient.KindRecurrenceCycle, ProviderID: cy.ProviderID, Status: "CREATED"},
		{Kind: providerclient.KindRecurrenceCycle, ProviderID: got.ProviderID, Status: "CREATED"}}
	if !sameEvents(events, want) {
		t.Fatalf("own cobrs told: %+v\nwant %+v", events, want)
	}
}

// A manual cobr refused too late, the installment still without one
// (the sandbox makes no own cobr of a variable subscription, whose value
// Woovi does not say), is retryable, never ErrRejected: the worker asks
// again until its window closes.
func TestCycleTooLateIsRetryableAgainstTheSandbox(t *testing.T) {
	e := newEnv(t)
	req, rec := e.soonRecurrence(money.FromReais(20, 0))
	c := cycleOf(req, rec, 0)
	c.Amount = money.FromReais(42, 0)
	_, err := e.conn.SendCycle(t.Context(), c)
	if !errors.Is(err, providerclient.ErrUnavailable) || errors.Is(err, providerclient.ErrRejected) ||
		!strings.Contains(err.Error(), "itself 4 days before its due date") || e.cobrsAsked() != 1 {
		t.Fatalf("too late: %v (%d cobrs asked)", err, e.cobrsAsked())
	}
}

// Against a Woovi that refuses the manual cobr of an installment due in 3
// days and has not made its own yet: the send is retryable; once Woovi's
// own cobr is there, the next send adopts it without asking one. A cobr
// refused 7 days before the day, or after the day, stays refused; Woovi's
// own of another value is refused, naming both.
func TestCycleRetryableUntilWooviOwnCobr(t *testing.T) {
	today := due.Today(time.Now())
	inst := func(day due.Date) wooviapi.Installment {
		return wooviapi.Installment{GlobalID: "inst-" + day.String(), DateGenerateCharge: day.String() + "T12:00:00.000Z", Value: 3500,
			Status: "SCHEDULED", PaymentSubscriptionGlobalID: "sub1"}
	}
	soon, far, passed := today.AddDays(3), today.AddDays(7), today.AddDays(-1)
	f := &wooviInstallments{refuse: true, list: []wooviapi.Installment{inst(soon), inst(far), inst(passed)}}
	conn := newInstallmentsConn(t, f)
	ctx := t.Context()
	if _, err := conn.SendCycle(ctx, cycleRequest(soon, 3500)); !errors.Is(err, providerclient.ErrUnavailable) ||
		errors.Is(err, providerclient.ErrRejected) || !strings.Contains(err.Error(), "itself 4 days before") {
		t.Fatalf("refused 3 days before: %v", err)
	}
	for name, day := range map[string]due.Date{"7 days before": far, "the day passed": passed} {
		if _, err := conn.SendCycle(ctx, cycleRequest(day, 3500)); !errors.Is(err, providerclient.ErrRejected) {
			t.Errorf("%s: %v", name, err)
		}
	}
	f.mu.Lock()
	makeCobr(&f.list[0], 3500) // Woovi's own, 4 days before
	posts := f.posts
	f.mu.Unlock()
	cy, err := conn.SendCycle(ctx, cycleRequest(soon, 3500))
	if err != nil || cy.ProviderID != "inst-"+soon.String() || cy.Status != recurrence.CycleCreated || f.posts != posts {
		t.Fatalf("adopted: %+v, %v (%d posts, %d before)", cy, err, f.posts, posts)
	}
	if _, err := conn.SendCycle(ctx, cycleRequest(soon, 4000)); !errors.Is(err, providerclient.ErrRejected) ||
		!strings.Contains(err.Error(), "3500 centavos, not 4000") {
		t.Fatalf("another value: %v", err)
	}
}
