package storage_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// storeEvent records a notification of transaction txID whose outbox
// message carries payload.
func storeEvent(ctx context.Context, db *storage.DB, txID, payload string) (bool, error) {
	_, stored, err := db.RecordProviderEvent(ctx, storage.NewProviderEvent{TransactionType: "charge", TransactionID: txID,
		Status: "PAID", Payload: []byte(`{}`)}, func(id int64) storage.OutboxMessage {
		return storage.OutboxMessage{Type: "provider:event", ID: fmt.Sprint("provider:event:", id), Payload: []byte(payload)}
	})
	return stored, err
}

// Calls that arrive while the flusher is busy share its next pipeline and
// commit, each with its own answer; a statement the server refuses fails
// its own call alone, the others' writes committed all the same.
func TestSharedCommitAnswersEachCallAndIsolatesARefusal(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	db.ShareCommits(ctx, 1, 32)

	// A transaction holds the row the first call updates: the flusher
	// waits on it while the others queue.
	in, _ := paidCharge(t, db, 1000)
	w, _, err := db.CreateWithdrawal(ctx, newWithdrawal(in.ID, 300, 50, "shared-1"))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.Pool().Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM withdrawals WHERE id = $1 FOR UPDATE`, w.ID); err != nil {
		t.Fatal(err)
	}
	first := make(chan error, 1)
	go func() { first <- db.RecordTransferSent(ctx, storage.KindWithdrawal, w.ID, "pix-shared-1", "") }()
	time.Sleep(200 * time.Millisecond) // the flusher is waiting on the lock

	const good = 20
	var wg sync.WaitGroup
	errs := make([]error, good+1)
	stored := make([]bool, good+1)
	for i := range good + 1 {
		payload := `{}`
		if i == good {
			payload = `not json` // refused by the server: the whole pipeline rolls back
		}
		wg.Go(func() { stored[i], errs[i] = storeEvent(ctx, db, fmt.Sprint("shared-tx-", i), payload) })
	}
	time.Sleep(200 * time.Millisecond) // every call waits for the flusher
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-first; err != nil {
		t.Fatalf("the first call: %v", err)
	}
	wg.Wait()
	for i := range good {
		if errs[i] != nil || !stored[i] {
			t.Errorf("call %d: stored %v, %v", i, stored[i], errs[i])
		}
	}
	if errs[good] == nil {
		t.Error("the refused statement's call succeeded")
	}
	var events int
	if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM provider_events`).Scan(&events); err != nil || events != good {
		t.Fatalf("%d events stored, %v; want %d", events, err, good)
	}
	batches, shared := db.SharedCommitCounts()
	// The first alone, the 21 others together, then each of them alone
	// again after the refusal.
	if shared != good+1 || batches != 1+1+good+1 {
		t.Errorf("%d pipelines, %d calls shared; want %d and %d", batches, shared, 1+1+good+1, good+1)
	}
	got, err := db.TransferByID(ctx, storage.KindWithdrawal, w.ID)
	if err != nil || got.PixID == nil || *got.PixID != "pix-shared-1" {
		t.Fatalf("withdrawal %+v, %v: its send not recorded", got, err)
	}
	mustAuditClean(t, db)
}
