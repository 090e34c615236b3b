package storage_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
	"github.com/pixgate/pixgate/storage/storagetest"
)

func newRecurrence(in storage.Integrator, ext string, hash byte) storage.NewRecurrence {
	start, _ := due.ParseDate("2026-12-10")
	return storage.NewRecurrence{ID: uuid.Must(uuid.NewV7()), IntegratorID: in.ID, ExternalID: ext, RequestHash: []byte{hash},
		Journey: recurrence.JourneyQR, Calendar: recurrence.Calendar{Periodicity: recurrence.Monthly, Start: start, Count: 12},
		Amount: recurrence.Amount{Fixed: 3500}, RetryPolicy: recurrence.RetryThreeInSeven,
		Payer: storage.Payer{Name: "Fulano", Document: "52998224725"}, Contract: "4417",
		ConsentExpiresAt: time.Now().Add(30 * 24 * time.Hour).Truncate(time.Second)}
}

// A recurrence is created once per external_id (a replay returns it, a
// different request conflicts), registered once, and moved only from the
// status the move expects.
func TestRecurrenceLifecycle(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, 0)
	nr := newRecurrence(in, "plano-1", 1)
	r, created, err := db.CreateRecurrence(ctx, nr)
	if err != nil || !created || r.Status != recurrence.RecurrenceCreated || r.Registered() || r.Calendar != nr.Calendar || r.Amount != nr.Amount {
		t.Fatalf("created %+v %v %v", r, created, err)
	}
	again := nr
	again.ID = uuid.Must(uuid.NewV7())
	if r2, created, err := db.CreateRecurrence(ctx, again); err != nil || created || r2.ID != r.ID {
		t.Fatalf("replay: %v %v %v", r2.ID, created, err)
	}
	again.RequestHash = []byte{2}
	if _, _, err := db.CreateRecurrence(ctx, again); !errors.Is(err, storage.ErrIdempotencyConflict) {
		t.Fatalf("conflict: %v", err)
	}
	if r, err = db.IssueRecurrence(ctx, r.ID, storage.RecurrenceIssue{ProviderID: "rec-1", QRCode: "000201"}); err != nil || !r.Registered() || *r.QRCode != "000201" {
		t.Fatalf("issued %+v %v", r, err)
	}
	if got, err := db.RecurrenceByProviderID(ctx, "default", "rec-1"); err != nil || got.ID != r.ID {
		t.Fatalf("by provider id: %v", err)
	}
	id := r.ID
	move := func(from recurrence.RecurrenceStatus, c storage.RecurrenceChange) (r storage.Recurrence, changed bool) {
		err := db.InTx(ctx, func(tx *storage.Tx) (err error) {
			r, changed, err = tx.MoveRecurrence(ctx, id, from, c)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return r, changed
	}
	r, changed := move(recurrence.RecurrenceCreated, storage.RecurrenceChange{To: recurrence.RecurrenceApproved, PayerMax: money.FromReais(50, 0)})
	if !changed || r.Status != recurrence.RecurrenceApproved || r.ApprovedAt == nil || *r.PayerMax != 5000 || r.EndedAt != nil {
		t.Fatalf("approved %+v %v", r, changed)
	}
	if r, changed = move(recurrence.RecurrenceCreated, storage.RecurrenceChange{To: recurrence.RecurrenceRejected}); changed || r.Status != recurrence.RecurrenceApproved {
		t.Fatalf("a move from a status it left: %v %s", changed, r.Status)
	}
	r, changed = move(recurrence.RecurrenceApproved, storage.RecurrenceChange{To: recurrence.RecurrenceCancelled, CancelledBy: "PAYER", EndCode: "SLDB"})
	if !changed || r.EndedAt == nil || *r.CancelledBy != "PAYER" || *r.EndCode != "SLDB" {
		t.Fatalf("cancelled %+v", r)
	}
	// Failed, then reopened by the same request.
	f, _, _ := db.CreateRecurrence(ctx, newRecurrence(in, "plano-2", 1))
	if f, err = db.FailRecurrence(ctx, f.ID, "refused"); err != nil || f.Status != recurrence.RecurrenceFailed {
		t.Fatalf("failed %+v %v", f, err)
	}
	if f, err = db.ReopenRecurrence(ctx, f.ID); err != nil || f.Status != recurrence.RecurrenceCreated {
		t.Fatalf("reopened %+v %v", f, err)
	}
}
