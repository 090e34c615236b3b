package worker

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// Every notification of a paid charge is lost; the reconciler's own checks,
// on the default schedule and tick, credit it within 60 s of the payment.
// The worker's clock is the test's: the ticks are simulated every Interval
// from the charge's creation, so no test waits a minute.
func TestPaidChargeWithEveryNotificationLostIsCreditedWithinAMinute(t *testing.T) {
	for _, paidAt := range []time.Duration{0, 14 * time.Second, 20 * time.Second, 50 * time.Second} {
		t.Run(fmt.Sprintf("paid %v after creation", paidAt), func(t *testing.T) {
			h := newHarness(t)
			h.sb.SetFaults(sandbox.Faults{DropNotifications: true})
			w := h.newWorker() // the default schedule
			c, pixID := h.issueCharge(2000)
			clock := c.CreatedAt
			w.now = func() time.Time { return clock }
			var paid bool
			for ; clock.Sub(c.CreatedAt) <= 5*time.Minute; clock = clock.Add(w.cfg.Reconcile.Interval) {
				if !paid && clock.Sub(c.CreatedAt) >= paidAt {
					if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
						t.Fatal(err)
					}
					paid = true
				}
				if err := w.checkPendingCharges(context.Background(), 0); err != nil {
					t.Fatal(err)
				}
				if h.charge(c.ID).Status == storage.ChargePaid {
					break
				}
			}
			if got := h.charge(c.ID).Status; got != storage.ChargePaid {
				t.Fatalf("status %s five minutes after creation", got)
			}
			if waited := clock.Sub(c.CreatedAt) - paidAt; waited > time.Minute {
				t.Fatalf("credited %v after the payment, want within 60 s", waited)
			}
			t.Logf("paid at %v, credited at %v", paidAt, clock.Sub(c.CreatedAt))
			if wl, _ := h.db.Wallet(context.Background(), h.integrator.ID); wl.Available != money.FromReais(100, 0)+2000-30 {
				t.Fatalf("available = %v, want 100.00 + 20.00 − 0.30", wl.Available)
			}
			h.auditClean()
		})
	}
}

// The schedule of an unpaid one-hour charge: checks back off from 15 s
// after creation, the gap never above 15 min, the last one a minute after
// the expiry. Ten consults in its hour, however long it waits.
func TestUnpaidChargeCheckSchedule(t *testing.T) {
	rc := ReconcileConfig{}.withDefaults()
	created := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	expires := created.Add(time.Hour)
	ch := storage.Charge{CreatedAt: created, ExpiresAt: &expires}
	var got []time.Duration
	for at := created.Add(rc.ChargeFirstCheck); ; {
		got = append(got, at.Sub(created))
		if !at.Before(expires.Add(rc.ExpiryGrace)) {
			break
		}
		at = rc.nextChargeCheck(ch, at)
	}
	want := []time.Duration{15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute,
		8 * time.Minute, 16 * time.Minute, 31 * time.Minute, 46 * time.Minute, 61 * time.Minute}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("checks at %v, want %v", got, want)
	}
}

// A charge still PENDING after its last check (a payment of another amount,
// refused for an operator) was scheduled at that past last check, so every
// tick consulted it again, for good. Past the last check it backs off like
// any other.
func TestChargePendingPastItsLastCheckBacksOff(t *testing.T) {
	rc := ReconcileConfig{}.withDefaults()
	created := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	expires := created.Add(time.Hour)
	ch := storage.Charge{CreatedAt: created, ExpiresAt: &expires}
	for _, at := range []time.Time{expires.Add(rc.ExpiryGrace), expires.Add(rc.ExpiryGrace + time.Second), expires.Add(5 * time.Hour)} {
		if next := rc.nextChargeCheck(ch, at); next.Sub(at) != rc.ChargeMaxGap {
			t.Errorf("checked at expiry%+v: next check %v later, want %v", at.Sub(expires), next.Sub(at), rc.ChargeMaxGap)
		}
	}
}

// A tick consults at most Batch charges however many are due, and two ticks
// running at once never consult the same charge.
func TestChargeChecksAreBoundedAndShared(t *testing.T) {
	h := newHarness(t)
	h.reconcile = ReconcileConfig{Batch: 4}
	ctx := context.Background()
	for range 10 {
		h.issueCharge(1000)
	}
	w := h.newWorker()
	later := time.Now().Add(time.Minute) // all ten are due
	w.now = func() time.Time { return later }
	first, err := h.db.ClaimDueCharges(ctx, later, w.cfg.Reconcile.ChargeFirstCheck, time.Minute, 4)
	if err != nil || len(first) != 4 {
		t.Fatalf("first claim: %d charges, %v", len(first), err)
	}
	before := h.sb.Stats().Requests["/v2/consult-transaction"]
	if err := w.checkPendingCharges(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if n := h.sb.Stats().Requests["/v2/consult-transaction"] - before; n != 4 {
		t.Fatalf("one tick consulted %d charges, want the batch of 4", n)
	}
	rest, err := h.db.ClaimDueCharges(ctx, later, w.cfg.Reconcile.ChargeFirstCheck, time.Minute, 100)
	if err != nil || len(rest) != 2 {
		t.Fatalf("left after two claims of 4: %d, %v; want 2", len(rest), err)
	}
	seen := map[string]bool{}
	for _, c := range first {
		seen[c.ID.String()] = true
	}
	for _, c := range rest {
		if seen[c.ID.String()] {
			t.Fatalf("charge %s claimed twice", c.ID)
		}
	}
}

// The running worker's ticks check pending charges: a charge paid with
// every notification lost is credited long before its expiry.
func TestRunningWorkerCreditsAPaidChargeWithoutItsNotification(t *testing.T) {
	h := newHarness(t)
	h.reconcile = fastReconcile
	h.sb.SetFaults(sandbox.Faults{DropNotifications: true})
	c, pixID := h.issueCharge(2000)
	if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eventually("paid charge PAID", 5*time.Second, func() bool { return h.charge(c.ID).Status == storage.ChargePaid })
	h.auditClean()
}
