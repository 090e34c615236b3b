package worker

import (
	"context"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

// receive stores a notification as the webhook does and reports whether it
// was stored (false: a duplicate).
func (h *harness) receive(typ, txID, status string) (int64, bool) {
	h.t.Helper()
	id, stored, err := h.db.RecordProviderEvent(context.Background(), storage.NewProviderEvent{
		TransactionType: typ, TransactionID: txID, Status: status, Payload: []byte(`{}`),
	}, func(id int64) storage.OutboxMessage {
		return storage.OutboxMessage(tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: id}, 0))
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return id, stored
}

// process runs the provider:event task of one stored event, as a worker
// would, without the queue.
func (h *harness) process(w *Worker, eventID int64) storage.ProviderEvent {
	h.t.Helper()
	ev, err := h.db.ProviderEventByID(context.Background(), eventID)
	if err != nil {
		h.t.Fatal(err)
	}
	// The task repeats its event's claim, as the webhook's does.
	task, err := tasks.ProviderEventMessage(tasks.ProviderEvent{EventID: eventID,
		TransactionType: ev.TransactionType, TransactionID: ev.TransactionID}, 0).Task()
	if err != nil {
		h.t.Fatal(err)
	}
	if err := w.Handler().ProcessTask(context.Background(), task); err != nil {
		h.t.Fatal(err)
	}
	if ev, err = h.db.ProviderEventByID(context.Background(), eventID); err != nil {
		h.t.Fatal(err)
	}
	return ev
}

// An early or forged PAID, which the provider does not confirm, must not
// make the genuine PAID that follows a duplicate: only an event that was
// confirmed and applied does.
func TestEarlyNotificationDoesNotSwallowTheGenuineOne(t *testing.T) {
	h := newHarness(t)
	w := h.newWorker()
	c, pixID := h.issueCharge(2000)

	early, _ := h.receive("charge", pixID, "PAID")
	if ev := h.process(w, early); ev.ProcessedAt == nil || ev.Confirmed {
		t.Fatalf("early PAID: processed %v, confirmed %v; want processed, unconfirmed", ev.ProcessedAt, ev.Confirmed)
	}
	if st := h.charge(c.ID).Status; st != storage.ChargePending {
		t.Fatalf("charge %s after an unconfirmed PAID", st)
	}

	if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	genuine, stored := h.receive("charge", pixID, "PAID")
	if !stored {
		t.Fatal("the genuine PAID was dropped as a duplicate of the early one")
	}
	if ev := h.process(w, genuine); !ev.Confirmed {
		t.Fatalf("genuine PAID not confirmed: %v", *ev.Outcome)
	}
	if st := h.charge(c.ID).Status; st != storage.ChargePaid {
		t.Fatalf("charge %s after the genuine PAID", st)
	}
	if id, stored := h.receive("charge", pixID, "PAID"); stored || id != genuine {
		t.Fatalf("a copy after confirmation: stored %v as %d, want a duplicate of %d", stored, id, genuine)
	}
	h.auditClean()
}

// The claim is compared field by field: "charge:X" + "coll2" and
// "charge" + "X:coll2" are two claims, not one.
func TestNotificationClaimsAreUnambiguous(t *testing.T) {
	h := newHarness(t)
	w := h.newWorker()
	_, pixID := h.issueCharge(1000)
	if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	first, _ := h.receive("charge", pixID, "PAID")
	if ev := h.process(w, first); !ev.Confirmed {
		t.Fatalf("PAID not confirmed: %v", *ev.Outcome)
	}
	for _, claim := range [][3]string{
		{"charge:" + pixID[:4], pixID[4:], "PAID"},
		{"charge", pixID + ":PAID", ""},
		{"charge", pixID, "PAID:"},
	} {
		if _, stored := h.receive(claim[0], claim[1], claim[2]); !stored {
			t.Errorf("claim %q taken for a copy of (RECEIVEPIX, %s, PAID)", claim, pixID)
		}
	}
}

// A storm of one claim costs one event, one task and one consult: a copy is
// acknowledged without a row while an identical event waits in the queue
// unpicked, or when one was consulted lately and the provider bore its
// claim out. A copy that arrives while the consult is under way, or after a
// consult that refuted the claim, is stored: it may be the genuine one.
func TestIdenticalNotificationsCoalesce(t *testing.T) {
	h := newHarness(t)
	w := h.newWorker()
	ctx := context.Background()
	_, pixID := h.issueCharge(2000)
	events := func() int {
		var n int
		if err := h.db.Pool().QueryRow(ctx, `SELECT count(*) FROM provider_events`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	first, stored := h.receive("charge", pixID, "PENDING")
	if !stored {
		t.Fatal("the first PENDING was not stored")
	}
	for range 20 {
		if id, stored := h.receive("charge", pixID, "PENDING"); stored || id != first {
			t.Fatalf("a copy of a queued claim: stored %v as %d, want acknowledged as %d", stored, id, first)
		}
	}
	// Consulted, and the provider says PENDING too: copies are still
	// acknowledged, for CoalesceWindow.
	if ev := h.process(w, first); !ev.BorneOut || ev.Confirmed {
		t.Fatalf("PENDING consulted: borne out %v, confirmed %v; want borne out, not confirmed", ev.BorneOut, ev.Confirmed)
	}
	if id, stored := h.receive("charge", pixID, "PENDING"); stored || id != first {
		t.Fatalf("a copy of a claim just borne out: stored %v as %d", stored, id)
	}
	if n := events(); n != 1 {
		t.Fatalf("events stored = %d, want 1", n)
	}
	if _, err := h.db.Pool().Exec(ctx, `UPDATE provider_events SET processed_at = processed_at - $2::interval WHERE id = $1`,
		first, storage.CoalesceWindow+time.Second); err != nil {
		t.Fatal(err)
	}
	if _, stored := h.receive("charge", pixID, "PENDING"); !stored {
		t.Fatal("a copy after the window was not stored")
	}

	// A PAID the provider refutes (the charge is unpaid): copies coalesce
	// only while it is queued unpicked.
	forged, _ := h.receive("charge", pixID, "PAID")
	if id, stored := h.receive("charge", pixID, "PAID"); stored || id != forged {
		t.Fatalf("a copy of a queued PAID: stored %v as %d", stored, id)
	}
	if _, _, err := h.db.PickProviderEvent(ctx, forged, storage.RecordLookup{}); err != nil { // a worker begins its consult
		t.Fatal(err)
	}
	during, stored := h.receive("charge", pixID, "PAID")
	if !stored {
		t.Fatal("a copy that arrived while the consult was under way was not stored")
	}
	if ev := h.process(w, forged); ev.BorneOut || ev.Confirmed {
		t.Fatalf("forged PAID: borne out %v, confirmed %v", ev.BorneOut, ev.Confirmed)
	}
	if id, stored := h.receive("charge", pixID, "PAID"); stored || id != during {
		t.Fatalf("a copy with another one queued: stored %v as %d, want acknowledged as %d", stored, id, during)
	}
	if ev := h.process(w, during); ev.BorneOut {
		t.Fatal("the unpaid charge's PAID borne out")
	}
	if _, stored := h.receive("charge", pixID, "PAID"); !stored {
		t.Fatal("a copy after a refuting consult was not stored")
	}
}
