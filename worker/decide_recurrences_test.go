package worker

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// A recurrence follows what its provider says, through the core's
// transitions: approved once (one postback, with the payer's maximum),
// however often it is told; a status its history cannot reach is refused
// and changes nothing; a notification the provider does not confirm
// changes nothing.
func TestRecurrenceFollowsItsProvider(t *testing.T) {
	st := newFakeStore()
	pid, url := "rec-1", "https://shop.example/hook"
	rec := storage.Recurrence{ID: uuid.New(), IntegratorID: 1, Provider: providerclient.DefaultName, ProviderID: &pid,
		Status: recurrence.RecurrenceCreated, Journey: recurrence.JourneyQR, PostbackURL: &url}
	st.recurrences[rec.ID] = rec
	p := recurrenceReader{fakeProvider: &fakeProvider{}, rec: &providerclient.Recurrence{ProviderID: pid,
		Status: recurrence.RecurrenceApproved, PayerMax: 5000}}
	w := newWorker(Config{}, st, p, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	ctx := context.Background()
	event := func(id int64) storage.ProviderEvent {
		ev := storage.ProviderEvent{ID: id, TransactionType: string(providerclient.KindRecurrence), TransactionID: pid, Status: "APPROVED"}
		st.events[id] = ev
		return ev
	}
	for i := range int64(3) {
		if err := w.applyRecurrenceEvent(ctx, event(i+1)); err != nil {
			t.Fatal(err)
		}
	}
	got := st.recurrences[rec.ID]
	if got.Status != recurrence.RecurrenceApproved || got.PayerMax == nil || *got.PayerMax != 5000 {
		t.Fatalf("recurrence %s, payer max %v", got.Status, got.PayerMax)
	}
	if n := len(st.postbacks); n != 1 || st.postbacks[0].Event != "APPROVED" || st.postbacks[0].ResourceType != "recurrence" {
		t.Fatalf("postbacks %+v", st.postbacks)
	}
	// APPROVED cannot become REJECTED: refused, nothing changes.
	p.rec.Status = recurrence.RecurrenceRejected
	w.provider = p
	if err := w.applyRecurrenceEvent(ctx, event(4)); err != nil {
		t.Fatal(err)
	}
	if st.recurrences[rec.ID].Status != recurrence.RecurrenceApproved || len(st.postbacks) != 1 {
		t.Fatalf("after a status it cannot reach: %s, %d postbacks", st.recurrences[rec.ID].Status, len(st.postbacks))
	}
	// Cancelled by the payer: CANCELLED, with who, and its postback.
	p.rec.Status, p.rec.CancelledBy = recurrence.RecurrenceCancelled, recurrence.PartyPayer
	if err := w.applyRecurrenceEvent(ctx, event(5)); err != nil {
		t.Fatal(err)
	}
	if got := st.recurrences[rec.ID]; got.Status != recurrence.RecurrenceCancelled || *got.CancelledBy != "PAYER" || len(st.postbacks) != 2 {
		t.Fatalf("cancelled: %+v, %d postbacks", got, len(st.postbacks))
	}
	// One the provider does not know: ignored.
	p.err = &providerclient.Error{Kind: providerclient.ErrNotFound}
	w.provider = p
	if err := w.applyRecurrenceEvent(ctx, event(6)); err != nil || len(st.postbacks) != 2 {
		t.Fatalf("unconfirmed: %v, %d postbacks", err, len(st.postbacks))
	}
}

// The reconciler reads the recurrences still waiting at their provider:
// an approval whose notification was lost is applied, with its postback;
// one still waiting goes to the back of the queue.
func TestReconcilerFindsALostApproval(t *testing.T) {
	st := newFakeStore()
	pid, url := "rec-2", "https://shop.example/hook"
	rec := storage.Recurrence{ID: uuid.New(), IntegratorID: 1, Provider: providerclient.DefaultName, ProviderID: &pid,
		Status: recurrence.RecurrenceCreated, Journey: recurrence.JourneyQR, PostbackURL: &url, ConsentExpiresAt: time.Now().Add(time.Hour)}
	st.recurrences[rec.ID] = rec
	p := recurrenceReader{fakeProvider: &fakeProvider{}, rec: &providerclient.Recurrence{ProviderID: pid, Status: recurrence.RecurrenceCreated}}
	w := newWorker(Config{}, st, p, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if err := w.reconcileRecurrences(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if st.touched[rec.ID] != 1 || len(st.postbacks) != 0 {
		t.Fatalf("still waiting: touched %d, %d postbacks", st.touched[rec.ID], len(st.postbacks))
	}
	p.rec.Status = recurrence.RecurrenceApproved
	w.provider = p
	if err := w.reconcileRecurrences(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if st.recurrences[rec.ID].Status != recurrence.RecurrenceApproved || len(st.postbacks) != 1 || st.touched[rec.ID] != 1 {
		t.Fatalf("after the approval: %s, %d postbacks, touched %d", st.recurrences[rec.ID].Status, len(st.postbacks), st.touched[rec.ID])
	}
}

// A consent its payer did not give by its deadline, while the provider
// still waits (the BCB sets a QR journey's rec none), is cancelled at the
// provider, then EXPIRED at PixGate with its postback; the provider's
// CANCELLED that follows changes nothing. Before the deadline, nothing
// is cancelled.
func TestUnansweredConsentExpiresAtItsDeadline(t *testing.T) {
	st := newFakeStore()
	pid, url := "rec-3", "https://shop.example/hook"
	deadline := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	rec := storage.Recurrence{ID: uuid.New(), IntegratorID: 1, Provider: providerclient.DefaultName, ProviderID: &pid,
		Status: recurrence.RecurrenceCreated, Journey: recurrence.JourneyQR, PostbackURL: &url, ConsentExpiresAt: deadline}
	st.recurrences[rec.ID] = rec
	cancels := 0
	p := recurrenceReader{fakeProvider: &fakeProvider{}, cancels: &cancels,
		rec: &providerclient.Recurrence{ProviderID: pid, Status: recurrence.RecurrenceCreated}}
	w := newWorker(Config{}, st, p, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	ctx := context.Background()
	w.now = func() time.Time { return deadline.Add(-time.Minute) }
	if err := w.reconcileRecurrences(ctx, 0); err != nil || cancels != 0 || st.recurrences[rec.ID].Status != recurrence.RecurrenceCreated {
		t.Fatalf("before the deadline: %v, %d cancels, %s", err, cancels, st.recurrences[rec.ID].Status)
	}
	w.now = func() time.Time { return deadline }
	if err := w.reconcileRecurrences(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if got := st.recurrences[rec.ID]; cancels != 1 || got.Status != recurrence.RecurrenceExpired || len(st.postbacks) != 1 || st.postbacks[0].Event != "EXPIRED" {
		t.Fatalf("at the deadline: %d cancels, %s, %d postbacks", cancels, got.Status, len(st.postbacks))
	}
	p.rec.Status, p.rec.CancelledBy = recurrence.RecurrenceCancelled, recurrence.PartyIntegrator
	w.provider = p
	ev := storage.ProviderEvent{ID: 7, TransactionType: string(providerclient.KindRecurrence), TransactionID: pid, Status: "CANCELLED"}
	st.events[7] = ev
	if err := w.applyRecurrenceEvent(ctx, ev); err != nil {
		t.Fatal(err)
	}
	if got := st.recurrences[rec.ID]; got.Status != recurrence.RecurrenceExpired || len(st.postbacks) != 1 {
		t.Fatalf("after the provider's cancel: %s, %d postbacks", got.Status, len(st.postbacks))
	}
}

// An integrator's cancel the provider reports without a code (woovi) is
// given the BCB's code of a receiver's cancel, as the providers that name
// one do, so that the answer is the same whatever the provider.
func TestIntegratorCancelGetsTheBCBCode(t *testing.T) {
	st := newFakeStore()
	pid := "rec-1"
	rec := storage.Recurrence{ID: uuid.New(), IntegratorID: 1, Provider: providerclient.DefaultName, ProviderID: &pid,
		Status: recurrence.RecurrenceApproved, Journey: recurrence.JourneyQR}
	st.recurrences[rec.ID] = rec
	w := newWorker(Config{}, st, &fakeProvider{}, &fakeQueue{}, slog.New(slog.NewTextHandler(io.Discard, nil)), nil)
	if _, err := w.applyRecurrence(context.Background(), rec, &providerclient.Recurrence{Status: recurrence.RecurrenceCancelled,
		CancelledBy: recurrence.PartyIntegrator}, nil); err != nil {
		t.Fatal(err)
	}
	if got := st.recurrences[rec.ID]; got.EndCode == nil || *got.EndCode != recurrence.IntegratorCancelCode {
		t.Fatalf("end_code %v, want %s", got.EndCode, recurrence.IntegratorCancelCode)
	}
}
