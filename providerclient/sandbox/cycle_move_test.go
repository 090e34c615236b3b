package sandbox

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// attempts is a cycle's attempts as "KIND:STATUS[:CODE]" joined by
// spaces.
func attempts(c contract.RecurrenceCycle) string {
	var out []string
	for _, a := range c.Attempts {
		s := a.Type + ":" + a.Status
		if a.RejectionCode != "" {
			s += ":" + a.RejectionCode
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// The payer's bank's moves and the receiver's retries, each case on a
// cycle of its own: what the cycle and its attempts end as.
func TestCycleMoves(t *testing.T) {
	const ten = money.Money(1000)
	accept := func(s *Sandbox, id string) error { _, err := s.AcceptCycle(id); return err }
	pay := func(s *Sandbox, id string) error { _, err := s.PayCycle(id); return err }
	reject := func(code string) func(*Sandbox, string) error {
		return func(s *Sandbox, id string) error { _, err := s.RejectCycle(id, code); return err }
	}
	expire := func(s *Sandbox, id string) error { _, err := s.ExpireCycle(id); return err }
	retry := func(days int) func(*Sandbox, string) error {
		return func(s *Sandbox, id string) error {
			_, err := s.retryCycle(id, due.Today(time.Now()).AddDays(5+days))
			return err
		}
	}
	payerCancel := func(s *Sandbox, id string) error { _, err := s.PayerCancelCycle(id); return err }
	cancel := func(s *Sandbox, id string) error { _, err := s.cancelCycle(id, recurrence.PartyIntegrator); return err }
	type step func(*Sandbox, string) error
	cases := []struct {
		name              string
		fixed, max, amt   money.Money
		policy            recurrence.RetryPolicy
		auto              bool
		steps             []step
		status, attempts  string
		retries           int
		code, cancelledBy string
	}{
		{name: "accept and pay", fixed: ten, amt: ten, policy: recurrence.RetryNone, steps: []step{accept, accept, pay},
			status: "PAID", attempts: "AGND:PAID"},
		{name: "paid unaccepted", amt: ten, policy: recurrence.RetryNone, steps: []step{pay}, status: "PAID", attempts: "AGND:PAID"},
		{name: "not the fixed amount", fixed: ten, amt: ten + 1, policy: recurrence.RetryThreeInSeven, steps: []step{accept, pay},
			status: "REJECTED", attempts: "AGND:REJECTED:AM09", code: "AM09"},
		{name: "above the payer's maximum, waits", max: ten, amt: ten + 1, policy: recurrence.RetryThreeInSeven, steps: []step{pay},
			status: "CREATED", attempts: "AGND:REJECTED:AM02"},
		{name: "above the maximum, no retry", max: ten, amt: ten + 1, policy: recurrence.RetryNone, steps: []step{accept, pay},
			status: "EXPIRED", attempts: "AGND:REJECTED:AM02"},
		{name: "a code that ends it", amt: ten, policy: recurrence.RetryThreeInSeven, steps: []step{accept, reject("ac05")},
			status: "REJECTED", attempts: "AGND:REJECTED:AC05", code: "AC05"},
		{name: "a code left to the policy, retried and paid", amt: ten, policy: recurrence.RetryThreeInSeven,
			steps:  []step{accept, reject("AM02"), retry(1), retry(1), accept, pay},
			status: "PAID", attempts: "AGND:REJECTED:AM02 NTAG:PAID", retries: 1},
		{name: "expired, no policy", amt: ten, policy: recurrence.RetryNone, steps: []step{expire}, status: "EXPIRED", attempts: "AGND:EXPIRED"},
		{name: "retries spent", amt: ten, policy: recurrence.RetryThreeInSeven,
			steps:  []step{expire, retry(1), expire, retry(3), expire, retry(5), expire},
			status: "EXPIRED", attempts: "AGND:EXPIRED NTAG:EXPIRED NTAG:EXPIRED NTAG:EXPIRED", retries: 3},
		{name: "the provider retries itself", amt: ten, policy: recurrence.RetryThreeInSeven, auto: true,
			steps:  []step{reject("AB10"), expire, expire, expire},
			status: "EXPIRED", attempts: "AGND:REJECTED:AB10 NTAG:EXPIRED NTAG:EXPIRED NTAG:EXPIRED", retries: 3},
		{name: "the provider retries itself, paid", amt: ten, policy: recurrence.RetryThreeInSeven, auto: true,
			steps: []step{expire, accept, pay}, status: "PAID", attempts: "AGND:EXPIRED NTAG:PAID", retries: 1},
		{name: "the payer cancels", amt: ten, policy: recurrence.RetryNone, steps: []step{accept, payerCancel},
			status: "CANCELLED", attempts: "AGND:CANCELLED", cancelledBy: "PAYER"},
		{name: "the integrator cancels twice", amt: ten, policy: recurrence.RetryNone, steps: []step{cancel, cancel},
			status: "CANCELLED", attempts: "AGND:CANCELLED", cancelledBy: "INTEGRATOR"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New(Config{})
			t.Cleanup(s.Close)
			id := sendCycle(t, s, cycleRec(t, s, c.fixed, c.max, c.policy), "c", 0, c.amt, c.auto)
			for i, st := range c.steps {
				if err := st(s, id); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
			got, _ := s.Cycle(id)
			if got.Status != c.status || attempts(got) != c.attempts || got.Retries != c.retries ||
				got.RejectionCode != c.code || got.CancelledBy != c.cancelledBy {
				t.Fatalf("got %s [%s] retries %d code %q by %q", got.Status, attempts(got), got.Retries, got.RejectionCode, got.CancelledBy)
			}
		})
	}
}

// What the payer's bank and the receiver are refused, and why.
func TestCycleRefusals(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	rec := cycleRec(t, s, 0, 0, recurrence.RetryThreeInSeven)
	id := sendCycle(t, s, rec, "c", 0, 1000, false)
	today := due.Today(time.Now())
	if _, err := s.RejectCycle(id, "XX99"); err == nil || errors.Is(err, ErrConflict) {
		t.Fatalf("an unknown code: %v", err)
	}
	if _, err := s.retryCycle(id, today.AddDays(6)); !errors.Is(err, ErrConflict) {
		t.Fatalf("a retry while the first attempt is open: %v", err)
	}
	if _, err := s.ExpireCycle(id); err != nil {
		t.Fatal(err)
	}
	for name, day := range map[string]due.Date{"on the due date": today.AddDays(5), "after 7 days": today.AddDays(13),
		"today": today} {
		if _, err := s.retryCycle(id, day); !errors.Is(err, ErrConflict) {
			t.Errorf("a retry %s: %v", name, err)
		}
	}
	for name, f := range map[string]func(string) (contract.RecurrenceCycle, error){
		"accept": s.AcceptCycle, "pay": s.PayCycle, "expire": s.ExpireCycle} {
		if _, err := f(id); !errors.Is(err, ErrConflict) {
			t.Errorf("%s with no attempt open: %v", name, err)
		}
		if _, err := f("nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s an unknown cycle: %v", name, err)
		}
	}
	if _, err := s.PayerCancelCycle(id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.PayCycle(id); !errors.Is(err, ErrConflict) {
		t.Fatalf("pay a cancelled one: %v", err)
	}
	paid := sendCycle(t, s, rec, "c2", 0, 1000, false)
	if _, err := s.PayCycle(paid); err != nil {
		t.Fatal(err)
	}
	if _, err := s.cancelCycle(paid, recurrence.PartyIntegrator); !errors.Is(err, ErrConflict) {
		t.Fatalf("cancel a paid one: %v", err)
	}
	if _, err := s.retryCycle(paid, today.AddDays(6)); !errors.Is(err, ErrConflict) {
		t.Fatalf("retry a paid one: %v", err)
	}
}

// A cycle waiting for a retry expires once the clock passes the retry
// range's last day; the clock never goes before the real today.
func TestCycleClock(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	today := due.Today(time.Now())
	if err := s.SetToday(today.AddDays(-1)); err == nil {
		t.Fatal("the clock went before the real today")
	}
	rec := cycleRec(t, s, 0, 0, recurrence.RetryThreeInSeven)
	id := sendCycle(t, s, rec, "c", 0, 1000, false)
	if _, err := s.ExpireCycle(id); err != nil {
		t.Fatal(err)
	}
	if err := s.SetToday(today.AddDays(10)); err != nil || s.Today() != today.AddDays(10) {
		t.Fatalf("set: %v %s", err, s.Today())
	}
	if c, _ := s.Cycle(id); c.Status != "CREATED" {
		t.Fatalf("with days left for a retry: %s", c.Status)
	}
	// The next cycle is due on day 12: the retries end on day 11.
	if _, err := s.retryCycle(id, today.AddDays(12)); !errors.Is(err, ErrConflict) {
		t.Fatalf("a retry on the next cycle's due date: %v", err)
	}
	if err := s.SetToday(today.AddDays(11)); err != nil { // the last day: a retry settles after it
		t.Fatal(err)
	}
	if c, _ := s.Cycle(id); c.Status != "EXPIRED" {
		t.Fatalf("past the retry range: %s", c.Status)
	}
	// On day 11, cycle 1's window (due 12: days 2 to 10) has closed;
	// cycle 2's (due 19: days 9 to 17) is open.
	if _, _, err := s.createCycle(cycleSpec{recurrence: rec, dueDate: today.AddDays(12), amount: 1}, time.Now()); !errors.Is(err, ErrConflict) {
		t.Fatalf("after the window: %v", err)
	}
	sendCycle(t, s, rec, "c2", 2, 1000, false)
}

// A paid cycle credits the account once and is one cash-in line of the
// day's statement, under its id, paid by the recurrence's payer; a
// rejected one moves nothing.
func TestCycleMoney(t *testing.T) {
	s := New(Config{})
	t.Cleanup(s.Close)
	before := s.Balance()
	rec := cycleRec(t, s, 0, 0, recurrence.RetryNone)
	rejected := sendCycle(t, s, rec, "c", 0, 1234, false)
	if _, err := s.RejectCycle(rejected, "AC05"); err != nil {
		t.Fatal(err)
	}
	id := sendCycle(t, s, rec, "c2", 0, 1234, false)
	paid, err := s.PayCycle(id)
	if err != nil || paid.Status != "PAID" || len(paid.EndToEndID) != 32 || paid.Attempts[0].EndToEndID != paid.EndToEndID ||
		paid.PaidAt == "" || paid.Payer == nil || paid.Payer.TaxID != "52998224725" {
		t.Fatalf("paid: %+v %v", paid, err)
	}
	if got := s.Balance(); got.Available != before.Available+1234 || got.Balance != before.Balance+1234 {
		t.Fatalf("balance %+v, before %+v", got, before)
	}
	day, _ := providerclient.ParseDay(due.Today(time.Now()).String())
	st := s.Statement(day, 1, 50)
	var lines []contract.StatementLine
	for _, l := range st.Lines {
		if l.TransactionType == contract.TypeRecurrenceCycle {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || lines[0].TransactionID != id || lines[0].ExternalID != "c2" || lines[0].Amount != 1234 ||
		lines[0].Status != contract.StatusPaid || lines[0].EndToEndID != paid.EndToEndID || st.ClosingBalance-st.OpeningBalance != 1234 {
		t.Fatalf("statement %+v", st)
	}
}

// A recurrence cancelled, by either side, cancels its live cycles (by the
// same side), each notified; ended ones stay as they are.
func TestCycleRecurrenceCancel(t *testing.T) {
	for _, by := range []recurrence.Party{recurrence.PartyPayer, recurrence.PartyIntegrator} {
		s := New(Config{})
		t.Cleanup(s.Close)
		rc := newReceiver(t, 0)
		rec := cycleRec(t, s, 0, 0, recurrence.RetryNone)
		live, _, err := s.createCycle(cycleSpec{externalID: "live", recurrence: rec, dueDate: due.Today(time.Now()).AddDays(5),
			amount: 1000, postbackURL: rc.url()}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcceptCycle("live"); err != nil {
			t.Fatal(err)
		}
		if by == recurrence.PartyPayer {
			_, err = s.CancelRecurrence(rec, by, "SLDB")
		} else {
			_, err = s.cancelRecurrence(rec, by, integratorCancelCode, integratorCancelReason)
		}
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := s.Cycle(live.id); c.Status != "CANCELLED" || c.CancelledBy != string(by) || attempts(c) != "AGND:CANCELLED" {
			t.Fatalf("%s: %+v", by, c)
		}
		waitFor(t, "the cancel's notification", func() bool {
			n := rc.bodies() // each sent apart: in any order
			return len(n) == 2 && (n[0]["status"] == "CANCELLED" || n[1]["status"] == "CANCELLED")
		})
	}
}
