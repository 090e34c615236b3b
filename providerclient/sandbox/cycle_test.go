package sandbox

import (
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// cycleRec registers an APPROVED weekly recurrence of count cycles, the
// first due in 5 days (its window open today), with amount (0: variable,
// its payer's maximum payerMax) and policy, and returns its id.
func cycleRec(t *testing.T, s *Sandbox, amount, payerMax money.Money, policy recurrence.RetryPolicy) string {
	t.Helper()
	now := time.Now()
	cal := recurrence.Calendar{Periodicity: recurrence.Weekly, Start: due.Today(now).AddDays(5), Count: 4}
	r, _, err := s.createRecurrence(recurrenceSpec{deadline: now.Add(time.Hour), data: RecurrenceData{
		Journey: recurrence.JourneyQR, Calendar: cal, Amount: recurrence.Amount{Fixed: amount}, RetryPolicy: policy,
		Payer: contract.RecurrencePayer{Name: "Fulano", Document: "52998224725"}}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ApproveRecurrence(r.id, payerMax); err != nil {
		t.Fatal(err)
	}
	return r.id
}

// sendCycle creates cycle n of recurrence rec (due 5 + 7n days on) with
// amount.
func sendCycle(t *testing.T, s *Sandbox, rec, ext string, n int, amount money.Money, auto bool) string {
	t.Helper()
	r, _, err := s.createCycle(cycleSpec{externalID: ext, recurrence: rec, amount: amount, autoRetry: auto,
		dueDate: due.Today(time.Now()).AddDays(5 + 7*n)}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return r.id
}

func TestCycleCreateRules(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	today := due.Today(time.Now())
	rec := cycleRec(t, s, 0, 0, recurrence.RetryThreeInSeven)
	pending, _, _ := s.createRecurrence(recurrenceSpec{deadline: time.Now().Add(time.Hour), data: RecurrenceData{
		Calendar: recurrence.Calendar{Periodicity: recurrence.Weekly, Start: today.AddDays(5)}}}, time.Now())
	first := sendCycle(t, s, rec, "c-1", 0, money.FromReais(10, 0), false)
	cases := []struct {
		name string
		sp   cycleSpec
		want error // nil: a plain error
	}{
		{"unknown recurrence", cycleSpec{recurrence: "nope", dueDate: today.AddDays(5), amount: 100}, ErrNotFound},
		{"not approved", cycleSpec{recurrence: pending.id, dueDate: today.AddDays(5), amount: 100}, ErrConflict},
		{"no amount", cycleSpec{recurrence: rec, dueDate: today.AddDays(5)}, nil},
		{"not a due date", cycleSpec{recurrence: rec, dueDate: today.AddDays(6), amount: 100}, nil},
		{"before the start", cycleSpec{recurrence: rec, dueDate: today.AddDays(4), amount: 100}, nil},
		{"after the last", cycleSpec{recurrence: rec, dueDate: today.AddDays(5 + 28), amount: 100}, nil},
		{"window not open", cycleSpec{recurrence: rec, dueDate: today.AddDays(12), amount: 100}, ErrConflict},
		{"a live one for N", cycleSpec{externalID: "c-2", recurrence: rec, dueDate: today.AddDays(5), amount: 100}, ErrConflict},
	}
	for _, c := range cases {
		_, _, err := s.createCycle(c.sp, time.Now())
		switch {
		case err == nil:
			t.Errorf("%s: created", c.name)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		case c.want == nil && (errors.Is(err, ErrConflict) || errors.Is(err, ErrNotFound)):
			t.Errorf("%s: %v, want a plain error", c.name, err)
		}
	}
	again, created, err := s.createCycle(cycleSpec{externalID: "c-1", recurrence: rec, dueDate: today.AddDays(5), amount: 999}, time.Now())
	if err != nil || created || again.id != first || again.amount != money.FromReais(10, 0) {
		t.Fatalf("the same external id: %v %v %v", again, created, err)
	}
	c, _ := s.Cycle("c-1")
	if c.Status != "CREATED" || c.RecurrenceID != rec || len(c.Attempts) != 1 || c.Attempts[0].Type != "AGND" ||
		c.Attempts[0].Status != "REQUESTED" || c.Attempts[0].SettleOn != today.AddDays(5).String() {
		t.Fatalf("created: %+v", c)
	}
	// A cancelled one leaves its place to a new charge.
	if _, err := s.cancelCycle(first, recurrence.PartyIntegrator); err != nil {
		t.Fatal(err)
	}
	sendCycle(t, s, rec, "c-3", 0, 100, false)
}
