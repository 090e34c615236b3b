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

	// Call 0's statement is refused by the server (its outbox payload is
	// not JSON): the whole pipeline it shares rolls back. It queues first,
	// the 20 good ones after it.
	const calls = 21
	var wg sync.WaitGroup
	errs := make([]error, calls)
	stored := make([]bool, calls)
	for i := range calls {
		payload := `{}`
		if i == 0 {
			payload = `not json`
		}
		wg.Go(func() { stored[i], errs[i] = storeEvent(ctx, db, fmt.Sprint("shared-tx-", i), payload) })
		if i == 0 {
			time.Sleep(50 * time.Millisecond)
		}
	}
	time.Sleep(200 * time.Millisecond) // every call waits for the flusher
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-first; err != nil {
		t.Fatalf("the first call: %v", err)
	}
	wg.Wait()
	if errs[0] == nil {
		t.Error("the refused statement's call succeeded")
	}
	for i := 1; i < calls; i++ {
		if errs[i] != nil || !stored[i] {
			t.Errorf("call %d: stored %v, %v", i, stored[i], errs[i])
		}
	}
	var events int
	if err := db.Pool().QueryRow(ctx, `SELECT count(*) FROM provider_events`).Scan(&events); err != nil || events != calls-1 {
		t.Fatalf("%d events stored, %v; want %d", events, err, calls-1)
	}
	// The calls that waited for the busy flusher rode together (on a slow
	// machine some may come late and ride in a later pipeline).
	if batches, shared := db.SharedCommitCounts(); shared < 2 {
		t.Errorf("%d pipelines, %d calls shared; want calls that waited together to share one", batches, shared)
	}
	got, err := db.TransferByID(ctx, storage.KindWithdrawal, w.ID)
	if err != nil || got.PixID == nil || *got.PixID != "pix-shared-1" {
		t.Fatalf("withdrawal %+v, %v: its send not recorded", got, err)
	}
	mustAuditClean(t, db)
}
