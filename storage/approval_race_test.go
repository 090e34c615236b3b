package storage_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// raceDecisions runs approvals, rejections and expiries of one record in
// many goroutines at once, from startAt (near its expiry), and returns
// which won: exactly one may.
func raceDecisions(t *testing.T, startAt time.Time, approve, reject, expire func() error) (winner string) {
	t.Helper()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		wins   []string
		others atomic.Int64
	)
	start := make(chan struct{})
	run := func(name string, f func() error) {
		defer wg.Done()
		<-start
		switch err := f(); {
		case err == nil:
			mu.Lock()
			wins = append(wins, name)
			mu.Unlock()
		case errors.Is(err, storage.ErrNotAwaitingApproval):
			others.Add(1)
		default:
			t.Errorf("%s: %v", name, err)
		}
	}
	for range 8 {
		wg.Add(3)
		go run("approve", approve)
		go run("reject", reject)
		go run("expire", expire)
	}
	time.Sleep(time.Until(startAt))
	close(start)
	wg.Wait()
	if len(wins) != 1 || others.Load() != 23 {
		t.Fatalf("winners %v, refused %d: want exactly one winner and 23 refusals", wins, others.Load())
	}
	return wins[0]
}

// Approvals, rejections and expiries race on one withdrawal and on one
// batch: exactly one wins each time, and the ledger moves each centavo
// once (the wallet's available and reserved balances are exactly the
// winner's, and the audit is clean).
func TestApprovalRace(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	const funds = 100_000_00
	in, maker, checker := makerChecker(t, db, funds)
	send := func(id uuid.UUID) storage.OutboxMessage {
		return storage.OutboxMessage{Type: "withdrawal:send", ID: "withdrawal:send:" + id.String(), Payload: []byte(`{}`)}
	}
	notify := func() storage.OutboxMessage {
		return storage.OutboxMessage{Type: "withdrawal:decided", ID: "n-" + uuid.NewString(), Payload: []byte(`{}`)}
	}
	var available, reserved money.Money = funds, 0
	settle := func(winner string, total money.Money) {
		if winner == "approve" {
			reserved += total
		} else {
			available += total
		}
		wantBalances(t, db, in.ID, available, reserved)
		mustAuditClean(t, db)
	}
	seen := map[string]bool{}
	for round := range 6 {
		// Expiry 150 ms ahead; the racers start just before it, at it or
		// just after, give or take the scheduler: any of the three may win.
		offset := time.Duration(round%3-1) * 3 * time.Millisecond
		at := time.Now().Add(150 * time.Millisecond)
		nw := newWithdrawal(in.ID, 10_00, 25, uuid.NewString())
		nw.CreatedByKey = maker
		w, _, err := db.CreateWithdrawal(ctx, nw.Held(&at))
		if err != nil {
			t.Fatal(err)
		}
		available -= w.Total()
		winner := raceDecisions(t, at.Add(offset),
			func() error { _, err := db.ApproveWithdrawal(ctx, in.ID, w.ID, checker, send(w.ID)); return err },
			func() error { _, err := db.RejectWithdrawal(ctx, in.ID, w.ID, checker, "no", notify()); return err },
			func() error { _, err := db.ExpireWithdrawalApproval(ctx, in.ID, w.ID, notify()); return err })
		seen[winner] = true
		settle(winner, w.Total())

		at = time.Now().Add(150 * time.Millisecond)
		nb := newBatch(in, maker, uuid.NewString(), 200, 5_00, 10, &at)
		b, _, err := db.CreateWithdrawalBatch(ctx, nb)
		if err != nil {
			t.Fatal(err)
		}
		available -= b.Amount + b.Fee
		winner = raceDecisions(t, at.Add(offset),
			func() error { _, err := db.ApproveBatch(ctx, in.ID, b.ID, checker, send); return err },
			func() error { _, err := db.RejectBatch(ctx, in.ID, b.ID, checker, "no", notify()); return err },
			func() error { _, err := db.ExpireBatchApproval(ctx, in.ID, b.ID, notify()); return err })
		seen[winner] = true
		settle(winner, b.Amount+b.Fee)
		t.Logf("round %d: %v", round, seen)
	}
}
