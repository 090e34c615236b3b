package worker

import (
	"context"
	"testing"

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
	}, func(id int64) storage.OutboxMessage { return storage.OutboxMessage(tasks.ProviderEventMessage(id, 0)) })
	if err != nil {
		h.t.Fatal(err)
	}
	return id, stored
}

// process runs the provider:event task of one stored event, as a worker
// would, without the queue.
func (h *harness) process(w *Worker, eventID int64) storage.ProviderEvent {
	h.t.Helper()
	task, err := tasks.ProviderEventMessage(eventID, 0).Task()
	if err != nil {
		h.t.Fatal(err)
	}
	if err := w.Handler().ProcessTask(context.Background(), task); err != nil {
		h.t.Fatal(err)
	}
	ev, err := h.db.ProviderEventByID(context.Background(), eventID)
	if err != nil {
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

	early, _ := h.receive("RECEIVEPIX", pixID, "PAID")
	if ev := h.process(w, early); ev.ProcessedAt == nil || ev.Confirmed {
		t.Fatalf("early PAID: processed %v, confirmed %v; want processed, unconfirmed", ev.ProcessedAt, ev.Confirmed)
	}
	if st := h.charge(c.ID).Status; st != storage.ChargePending {
		t.Fatalf("charge %s after an unconfirmed PAID", st)
	}

	if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	genuine, stored := h.receive("RECEIVEPIX", pixID, "PAID")
	if !stored {
		t.Fatal("the genuine PAID was dropped as a duplicate of the early one")
	}
	if ev := h.process(w, genuine); !ev.Confirmed {
		t.Fatalf("genuine PAID not confirmed: %v", *ev.Outcome)
	}
	if st := h.charge(c.ID).Status; st != storage.ChargePaid {
		t.Fatalf("charge %s after the genuine PAID", st)
	}
	if id, stored := h.receive("RECEIVEPIX", pixID, "PAID"); stored || id != genuine {
		t.Fatalf("a copy after confirmation: stored %v as %d, want a duplicate of %d", stored, id, genuine)
	}
	h.auditClean()
}

// The claim is compared field by field: "RECEIVEPIX:X" + "coll2" and
// "RECEIVEPIX" + "X:coll2" are two claims, not one.
func TestNotificationClaimsAreUnambiguous(t *testing.T) {
	h := newHarness(t)
	w := h.newWorker()
	_, pixID := h.issueCharge(1000)
	if _, err := h.sb.PayCharge(pixID, sandbox.Payer{}); err != nil {
		t.Fatal(err)
	}
	first, _ := h.receive("RECEIVEPIX", pixID, "PAID")
	if ev := h.process(w, first); !ev.Confirmed {
		t.Fatalf("PAID not confirmed: %v", *ev.Outcome)
	}
	for _, claim := range [][3]string{
		{"RECEIVEPIX:" + pixID[:4], pixID[4:], "PAID"},
		{"RECEIVEPIX", pixID + ":PAID", ""},
		{"RECEIVEPIX", pixID, "PAID:"},
	} {
		if _, stored := h.receive(claim[0], claim[1], claim[2]); !stored {
			t.Errorf("claim %q taken for a copy of (RECEIVEPIX, %s, PAID)", claim, pixID)
		}
	}
}
