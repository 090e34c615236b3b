package worker

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// cycleFixture is an approved weekly recurrence with one cycle sent
// (CREATED, its charge PENDING), due on 2026-12-10, at a provider that
// answers with cycle.
type cycleFixture struct {
	st      *fakeStore
	w       *Worker
	c       storage.Cycle
	cycle   *providerclient.Cycle
	retries *[]due.Date
}

func newCycleFixture(t *testing.T, policy recurrence.RetryPolicy, itself bool) *cycleFixture {
	t.Helper()
	st := newFakeStore()
	pid, url, cpid := "rec-1", "https://shop.example/hook", "cobr-1"
	start, _ := due.ParseDate("2026-12-10")
	r := storage.Recurrence{ID: uuid.New(), IntegratorID: 1, Provider: providerclient.DefaultName, ProviderID: &pid,
		Status: recurrence.RecurrenceApproved, Journey: recurrence.JourneyQR, PostbackURL: &url, RetryPolicy: policy,
		Calendar: recurrence.Calendar{Periodicity: recurrence.Weekly, Start: start, Count: 4}, Amount: recurrence.Amount{Fixed: 3500}}
	st.recurrences[r.ID] = r
	chargeID := uuid.New()
	st.charges[chargeID] = storage.Charge{ID: chargeID, IntegratorID: 1, Amount: 3500, Fee: 53, Status: storage.ChargePending, PixID: &cpid}
	c := storage.Cycle{ID: uuid.New(), RecurrenceID: r.ID, N: 0, DueDate: start, Amount: 3500, Fee: 53,
		Status: recurrence.CycleCreated, ChargeID: &chargeID, ProviderID: &cpid}
	st.cycles[c.ID] = c
	f := &cycleFixture{st: st, c: c, retries: &[]due.Date{},
		cycle: &providerclient.Cycle{ProviderID: cpid, ExternalID: c.ID.String(), Status: recurrence.CycleActive, DueDate: start, Amount: 3500,
			Attempts: []providerclient.Attempt{{Kind: recurrence.AttemptFirst, SettleOn: start, Status: recurrence.AttemptScheduled}}}}
	p := cycleProvider{fakeProvider: &fakeProvider{}, cycle: f.cycle, retries: f.retries, itself: itself}
	today := start
	f.w = newWorker(Config{Today: func() due.Date { return today }}, st, p, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	return f
}

// notify delivers a notification of the cycle in its status at the
// provider, as the API stores it.
func (f *cycleFixture) notify(t *testing.T, id int64) storage.ProviderEvent {
	t.Helper()
	ev := storage.ProviderEvent{ID: id, TransactionType: string(providerclient.KindRecurrenceCycle), TransactionID: f.cycle.ProviderID,
		Status: string(f.cycle.Status), ExternalID: f.c.ID.String()}
	f.st.events[id] = ev
	if err := f.w.applyCycleEvent(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	return f.st.events[id]
}

// postbacks counts the postbacks written, by resource type and event.
func (f *cycleFixture) postbacks() map[string]int {
	out := map[string]int{}
	for _, p := range f.st.postbacks {
		out[p.ResourceType+" "+p.Event]++
	}
	return out
}

// A paid cycle is credited once, through its charge's charge.paid, however
// often it is told; each status of the cycle and of its attempt is posted
// once.
func TestCyclePaidOnceWhateverRepeats(t *testing.T) {
	f := newCycleFixture(t, recurrence.RetryThreeInSeven, false)
	f.notify(t, 1) // ACTIVE, its attempt SCHEDULED
	f.cycle.Status, f.cycle.EndToEndID = recurrence.CyclePaid, "E1"
	f.cycle.Attempts[0].Status, f.cycle.Attempts[0].EndToEndID = recurrence.AttemptPaid, "E1"
	for i := range int64(3) {
		f.notify(t, 2+i)
	}
	if got := strings.Join(f.st.postings, ","); got != "charge:"+f.c.ChargeID.String()+":paid" {
		t.Errorf("postings %s, want the charge paid once", got)
	}
	if f.st.charges[*f.c.ChargeID].Status != storage.ChargePaid || f.st.cycles[f.c.ID].Status != recurrence.CyclePaid {
		t.Errorf("charge %s, cycle %s", f.st.charges[*f.c.ChargeID].Status, f.st.cycles[f.c.ID].Status)
	}
	want := map[string]int{"recurrence_cycle ACTIVE": 1, "recurrence_cycle PAID": 1, "recurrence_attempt SCHEDULED": 1,
		"recurrence_attempt PAID": 1}
	if got := f.postbacks(); len(got) != len(want) || got["recurrence_cycle PAID"] != 1 || got["recurrence_attempt PAID"] != 1 ||
		got["recurrence_cycle ACTIVE"] != 1 || got["recurrence_attempt SCHEDULED"] != 1 {
		t.Errorf("postbacks %v, want %v", got, want)
	}
}

// A payment of another amount is never credited; a status the cycle's
// history cannot reach changes nothing.
func TestCycleRefusesWhatItCannotBe(t *testing.T) {
	f := newCycleFixture(t, recurrence.RetryNone, false)
	f.cycle.Status, f.cycle.Amount = recurrence.CyclePaid, 3600
	f.notify(t, 1)
	if len(f.st.postings) != 0 || f.st.cycles[f.c.ID].Status != recurrence.CycleCreated {
		t.Fatalf("a payment of R$ 36.00 for a cycle of R$ 35.00: postings %v, cycle %s", f.st.postings, f.st.cycles[f.c.ID].Status)
	}
	f.cycle.Amount = 3500
	f.notify(t, 2)
	f.cycle.Status = recurrence.CycleCancelled
	f.notify(t, 3)
	if c := f.st.cycles[f.c.ID]; c.Status != recurrence.CyclePaid || f.st.charges[*f.c.ChargeID].Status != storage.ChargePaid {
		t.Errorf("a paid cycle told CANCELLED: %s", c.Status)
	}
}

// An attempt rejected with a code that leaves the cycle to the policy is
// retried on the policy's day, once, however often the rejection is told,
// and each notice of the same cycle status is news (never coalesced as a
// copy of the one before); a code that ends the cycle, a policy without
// retries and a provider that retries by itself ask nothing.
func TestCycleRetriedByItsPolicy(t *testing.T) {
	reject := func(f *cycleFixture, code string) {
		f.cycle.Attempts[0].Status, f.cycle.Attempts[0].RejectionCode = recurrence.AttemptRejected, code
		f.cycle.Attempts[0].EndToEndID = "E00000000202612100800rejected001" // the order's, as the BCB's cobr names it
	}
	f := newCycleFixture(t, recurrence.RetryThreeInSeven, false)
	if ev := f.notify(t, 1); ev.Confirmed || ev.BorneOut { // ACTIVE
		t.Fatalf("a cycle's notice recorded as confirmed: a later one of the same status would be dropped as its copy")
	}
	reject(f, "AM02")
	f.notify(t, 2) // still ACTIVE, its attempt rejected: retried
	f.notify(t, 3)
	if len(*f.retries) != 1 || (*f.retries)[0].String() != "2026-12-11" {
		t.Fatalf("retries asked %v, want one on D+1", *f.retries)
	}
	if a := f.st.attempts[f.c.ID]; len(a) != 2 || a[1].Kind != recurrence.AttemptRetry || f.st.cycles[f.c.ID].Retries != 1 {
		t.Fatalf("attempts %+v, retries %d", a, f.st.cycles[f.c.ID].Retries)
	} else if a[0].EndToEndID != nil {
		t.Errorf("a rejected attempt keeps an end-to-end id (%s): only a payment's is told, whatever the contract", *a[0].EndToEndID)
	}
	for _, tc := range []struct {
		name   string
		policy recurrence.RetryPolicy
		code   string
		itself bool
	}{
		{"a code that ends the cycle", recurrence.RetryThreeInSeven, "AC05", false},
		{"no retries", recurrence.RetryNone, "AM02", false},
		{"the provider retries by itself", recurrence.RetryThreeInSeven, "AM02", true},
	} {
		f := newCycleFixture(t, tc.policy, tc.itself)
		reject(f, tc.code)
		f.notify(t, 1)
		if len(*f.retries) != 0 {
			t.Errorf("%s: retries asked %v", tc.name, *f.retries)
		}
	}
}

// A cycle scheduled before its recurrence was approved (a variable one's
// amount, set early) waits for the consent rather than being cancelled;
// once the recurrence has ended, it is cancelled and never sent.
func TestScheduledCycleWaitsForTheConsent(t *testing.T) {
	f := newCycleFixture(t, recurrence.RetryNone, false)
	r := f.st.recurrences[f.c.RecurrenceID]
	r.Status = recurrence.RecurrenceCreated
	f.st.recurrences[r.ID] = r
	c := f.c
	c.Status, c.ChargeID, c.ProviderID, c.SendOn = recurrence.CycleScheduled, nil, nil, c.DueDate.AddDays(-10)
	f.st.cycles[c.ID] = c
	f.w.cfg.Today = func() due.Date { return c.SendOn } // its window open
	ctx := context.Background()
	if err := f.w.sendCycles(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if got := f.st.cycles[c.ID].Status; got != recurrence.CycleScheduled {
		t.Fatalf("a cycle of a recurrence still waiting for its consent is %s", got)
	}
	r.Status = recurrence.RecurrenceRejected
	f.st.recurrences[r.ID] = r
	if err := f.w.sendCycles(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if got := f.st.cycles[c.ID].Status; got != recurrence.CycleCancelled {
		t.Fatalf("a cycle of a rejected recurrence is %s", got)
	}
}
