package storage_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// together runs fns at the same moment and fails the test on any error.
func together(t *testing.T, fns ...func() error) {
	t.Helper()
	start := make(chan struct{})
	var wg sync.WaitGroup
	for _, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if err := fn(); err != nil {
				t.Error(err)
			}
		}()
	}
	close(start)
	wg.Wait()
}

func createRefunds(t *testing.T, db *storage.DB, in storage.Integrator, c storage.Charge, amounts ...money.Money) []uuid.UUID {
	t.Helper()
	var ids []uuid.UUID
	for _, a := range amounts {
		f, _, err := db.CreateRefund(context.Background(), newRefund(in, c, a, ""))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, f.ID)
	}
	return ids
}

func complete(db *storage.DB, id uuid.UUID) func() error {
	return func() error {
		ctx := context.Background()
		return db.InTx(ctx, func(tx *storage.Tx) error {
			_, _, err := tx.CompleteTransfer(ctx, storage.KindRefund, id, storage.Settlement{PixID: "p-" + id.String(), At: time.Now()})
			return err
		})
	}
}

// Refunds being created while others of the same charge complete or fail
// take their locks in one order (the charge, then the wallet): none
// deadlocks.
func TestRefundsCreatedWhileOthersFinish(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	for range 20 {
		in, c := paidCharge(t, db, 1000)
		ids := createRefunds(t, db, in, c, 1000, 1000)
		fail := func() error {
			return db.InTx(ctx, func(tx *storage.Tx) error {
				_, _, err := tx.FailTransfer(ctx, storage.KindRefund, ids[1], storage.Failure{Reason: "bank said no"})
				return err
			})
		}
		create := func() error { _, _, err := db.CreateRefund(ctx, newRefund(in, c, 100, "")); return err }
		together(t, complete(db, ids[0]), fail, create, create)
	}
	mustAuditClean(t, db)
}
