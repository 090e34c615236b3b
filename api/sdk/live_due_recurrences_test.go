package pixgate_test

import (
	"context"
	"errors"
	"testing"
	"time"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// A due-date charge and a Pix Automático recurrence through the SDK,
// against a running PixGate (moving no money: TestAgainstPixGate counts
// the balance).
func TestDueChargeAndRecurrenceAgainstPixGate(t *testing.T) {
	l := newLive(t)
	ctx := context.Background()
	in := func(days int) string { return time.Now().In(brasilia).AddDate(0, 0, days).Format(time.DateOnly) }
	five := pixgate.MustAmount("5.00")
	ch, err := l.c.CreateCharge(ctx, pixgate.ChargeRequest{Amount: pixgate.MustAmount("100.00"),
		Payer: pixgate.Payer{Name: "Fulano de Tal", Document: "529.982.247-25"},
		Due: &pixgate.DueTerms{Date: in(20), Fine: &pixgate.DueFine{Mode: "percent", Value: pixgate.MustAmount("2.00")},
			Discount: &pixgate.DueDiscount{Mode: "fixed_until", Dates: []pixgate.DatedDiscount{{Until: in(10), Value: five}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Due == nil || ch.Due.AmountDue == nil || ch.Due.DaysAfter != 30 || ch.Due.LastDay == "" {
		t.Fatalf("due charge %+v", ch.Due)
	}
	same(t, "amount due today", ch.Due.AmountDue.Total, "95.00")
	same(t, "original", ch.Due.OriginalAmount, "100.00")

	floor := pixgate.MustAmount("20.00")
	r, err := l.c.CreateRecurrence(ctx, pixgate.RecurrenceRequest{Journey: "QR",
		Payer: pixgate.RecurrencePayer{Name: "Fulano de Tal", Document: "529.982.247-25"}, Contract: "4417",
		Calendar: pixgate.RecurrenceCalendar{Periodicity: "MONTHLY", Start: in(15), Count: 12},
		Amount:   pixgate.RecurrenceAmount{Type: "variable", Floor: &floor}, RetryPolicy: "NONE"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != pixgate.RecurrenceCreated || r.QRCode == "" || r.ProviderID == "" || r.Replayed {
		t.Fatalf("recurrence %+v", r)
	}
	l.control("/sandbox/recurrences/"+r.ProviderID+"/approve", `{"payerMax": 50.00}`)
	l.eventually("recurrence APPROVED", func() bool {
		got, err := l.c.Recurrence(ctx, r.ExternalID)
		return err == nil && got.Status == pixgate.RecurrenceApproved
	})
	found := false
	for got, err := range l.c.AllRecurrences(ctx, pixgate.ListParams{Status: pixgate.RecurrenceApproved}) {
		if err != nil {
			t.Fatal(err)
		}
		found = found || got.ID == r.ID
	}
	if !found {
		t.Error("the approved recurrence is not listed")
	}
	// A variable recurrence's cycles wait for their amounts: none yet.
	if cycles, err := l.c.Cycles(ctx, r.ExternalID); err != nil || len(cycles) != 0 {
		t.Fatalf("cycles: %v %v", cycles, err)
	}
	var pe *pixgate.Error
	if _, err := l.c.Cycle(ctx, r.ID, 0); !errors.As(err, &pe) || pe.Code != "not_found" {
		t.Fatalf("cycle 0: %v", err)
	}
	// Its third cycle, set and then cancelled before it is sent.
	if cy, err := l.c.SetCycleAmount(ctx, r.ID, 2, pixgate.MustAmount("25.00")); err != nil || cy.Status != "SCHEDULED" {
		t.Fatalf("set cycle 2: %+v %v", cy, err)
	}
	if cy, err := l.c.CancelCycle(ctx, r.ID, 2); err != nil || cy.Status != "CANCELLED" {
		t.Fatalf("cancel cycle 2: %+v %v", cy, err)
	}
	if _, err := l.c.CancelRecurrence(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	l.eventually("recurrence CANCELLED", func() bool {
		got, err := l.c.Recurrence(ctx, r.ID)
		return err == nil && got.Status == pixgate.RecurrenceCancelled && got.CancelledBy == "INTEGRATOR"
	})
}

// brasilia is the zone PixGate counts due dates in.
var brasilia = time.FixedZone("BRT", -3*60*60)
