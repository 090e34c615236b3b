package storage_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/recurrence"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// A recurrence with a first payment is written with its charge: failed
// and reopened with it, issued with it (its provider's id and the
// composite QR Code), and its scheduler starts at cycle 1.
func TestRecurrenceFirstPayment(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in := heldIntegrator(t, db, 0)
	nr := newRecurrence(in, "primeiro", 1)
	nr.Journey = recurrence.JourneyQRWithPayment
	nr.Calendar = recurrence.Calendar{Periodicity: recurrence.Weekly, Start: day(t, "2026-12-10"), Count: 3}
	nr.FirstPayment = storage.NewFirstPayment{ChargeID: uuid.Must(uuid.NewV7()), Amount: 3500, Fee: 53}
	r, created, err := db.CreateRecurrence(ctx, nr)
	if err != nil || !created || r.FirstCharge == nil || r.FirstCharge.Status != "PENDING" || r.FirstCharge.Amount != 3500 || r.FirstCharge.PixID != nil {
		t.Fatalf("created %+v %v %v", r.FirstCharge, created, err)
	}
	if again, created, err := db.CreateRecurrence(ctx, nr); err != nil || created || again.FirstCharge.ID != r.FirstCharge.ID {
		t.Fatalf("replay: %v %v", created, err)
	}
	if r, err = db.FailRecurrence(ctx, r.ID, "down"); err != nil || r.FirstCharge.Status != "FAILED" {
		t.Fatalf("failed %+v %v", r.FirstCharge, err)
	}
	if r, err = db.ReopenRecurrence(ctx, r.ID); err != nil || r.FirstCharge.Status != "PENDING" {
		t.Fatalf("reopened %+v %v", r.FirstCharge, err)
	}
	r, err = db.IssueRecurrence(ctx, r.ID, storage.RecurrenceIssue{ProviderID: "rec-p", QRCode: "000201composite", FirstPaymentID: "cob-1"})
	if err != nil || r.FirstCharge.PixID == nil || *r.FirstCharge.PixID != "cob-1" {
		t.Fatalf("issued %+v %v", r.FirstCharge, err)
	}
	c, err := db.ChargeByPixID(ctx, "cob-1")
	if err != nil || c.QRCode == nil || *c.QRCode != "000201composite" || c.ExpiresAt == nil || !c.ExpiresAt.Equal(r.ConsentExpiresAt) ||
		c.ExternalID != "rec-"+r.ID.String() || c.Fee != 53 {
		t.Fatalf("first charge %+v %v", c, err)
	}
	if err := db.InTx(ctx, func(tx *storage.Tx) error {
		_, _, err := tx.MoveRecurrence(ctx, r.ID, recurrence.RecurrenceCreated, storage.RecurrenceChange{To: recurrence.RecurrenceApproved})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if cycles, err := db.ScheduleCycles(ctx, r.ID, day(t, "2026-12-08")); err != nil || len(cycles) != 1 || cycles[0].N != 1 {
		t.Fatalf("scheduled %+v %v: cycle 0 is the first payment", cycles, err)
	}
}
