package storage_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// makerChecker is an integrator with two keys: the maker creates, the
// checker decides.
func makerChecker(t *testing.T, db *storage.DB, funds money.Money) (in storage.Integrator, maker, checker int64) {
	t.Helper()
	ctx := context.Background()
	in = newIntegrator(t, db)
	for _, k := range []*int64{&maker, &checker} {
		key, _, err := db.CreateKey(ctx, storage.NewKey{IntegratorID: in.ID})
		if err != nil {
			t.Fatal(err)
		}
		*k = key.ID
	}
	if funds > 0 {
		if _, err := db.CreditWallet(ctx, in.ID, funds, "seed"); err != nil {
			t.Fatal(err)
		}
	}
	return in, maker, checker
}

// newBatch is a batch of n items of amount and fee each, held for
// approval until expires when it is set.
func newBatch(in storage.Integrator, maker int64, ext string, n int, amount, fee money.Money, expires *time.Time) storage.NewWithdrawalBatch {
	id, _ := uuid.NewV7()
	h := sha256.Sum256(fmt.Append(nil, ext, n, amount, fee))
	nb := storage.NewWithdrawalBatch{ID: id, IntegratorID: in.ID, ExternalID: ext, RequestHash: h[:], CreatedByKey: maker, ApprovalExpiresAt: expires}
	for i := range n {
		nb.Items = append(nb.Items, newWithdrawal(in.ID, amount, fee, fmt.Sprintf("%s-%d", ext, i)))
	}
	return nb
}

func wantBalances(t *testing.T, db *storage.DB, integrator int64, available, reserved money.Money) {
	t.Helper()
	w := wallet(t, db, integrator)
	if w.Available != available || w.Reserved != reserved {
		t.Fatalf("wallet available %s reserved %s, want %s and %s", w.Available, w.Reserved, available, reserved)
	}
}

func countRows(t *testing.T, db *storage.DB, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Pool().QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A batch the wallet does not cover whole reserves nothing and writes
// nothing; once covered, it is reserved whole, by one posting, each item
// a PROCESSING withdrawal naming it with its send in the outbox.
func TestBatchIsReservedWholeOrNotAtAll(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, maker, _ := makerChecker(t, db, money.FromReais(100, 0))
	nb := newBatch(in, maker, "lote-1", 10, 1000, 50, nil) // R$ 105.00 in all
	_, _, err := db.CreateWithdrawalBatch(ctx, nb)
	if !errors.Is(err, ledger.ErrInsufficientFunds) {
		t.Fatalf("a batch beyond the balance: %v, want insufficient funds", err)
	}
	wantBalances(t, db, in.ID, 100_00, 0)
	if n := countRows(t, db, `SELECT count(*) FROM withdrawals WHERE integrator_id = $1`, in.ID); n != 0 {
		t.Fatalf("%d withdrawals written by a refused batch", n)
	}
	if _, err := db.WithdrawalBatchByID(ctx, in.ID, "lote-1"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("refused batch lookup: %v, want not found", err)
	}
	if _, err := db.CreditWallet(ctx, in.ID, 5_00, "more"); err != nil {
		t.Fatal(err)
	}
	b, created, err := db.CreateWithdrawalBatch(ctx, nb)
	if err != nil || !created {
		t.Fatalf("create: %v (created %v)", err, created)
	}
	if b.Status != storage.BatchProcessing || b.Count != 10 || b.Amount != 100_00 || b.Fee != 5_00 || b.Processing != 10 {
		t.Fatalf("batch %+v", b)
	}
	wantBalances(t, db, in.ID, 0, 105_00)
	if n := countRows(t, db, `SELECT count(*) FROM withdrawals WHERE batch_id = $1 AND status = 'PROCESSING'`, b.ID); n != 10 {
		t.Fatalf("%d items PROCESSING, want 10", n)
	}
	if n := countRows(t, db, `SELECT count(*) FROM outbox WHERE task_id = ANY($1)`, sendIDs(nb)); n != 10 {
		t.Fatalf("%d sends in the outbox, want 10", n)
	}
	if n := countRows(t, db, `SELECT count(*) FROM ledger_transactions WHERE reference LIKE 'withdrawal_batch:%'`); n != 1 {
		t.Fatalf("%d batch postings, want 1", n)
	}
	mustAuditClean(t, db)
}

func sendIDs(nb storage.NewWithdrawalBatch) []string {
	var ids []string
	for _, it := range nb.Items {
		ids = append(ids, it.Outbox[0].ID)
	}
	return ids
}

// The same batch sent again is the batch it created; another request
// under its external_id is a conflict. Item by item: an item whose
// external_id an earlier withdrawal of the same request holds is that
// withdrawal (not created or reserved again); with another request, the
// batch names it and writes nothing.
func TestBatchReplay(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, maker, _ := makerChecker(t, db, money.FromReais(1000, 0))
	nb := newBatch(in, maker, "lote-r", 5, 1000, 0, nil)
	b, created, err := db.CreateWithdrawalBatch(ctx, nb)
	if err != nil || !created {
		t.Fatal(err)
	}
	again := nb
	again.ID = uuid.Must(uuid.NewV7())
	r, created, err := db.CreateWithdrawalBatch(ctx, again)
	if err != nil || created || r.ID != b.ID || r.Count != 5 {
		t.Fatalf("replay: %+v created %v err %v", r, created, err)
	}
	wantBalances(t, db, in.ID, 950_00, 50_00)
	other := newBatch(in, maker, "lote-r", 4, 1000, 0, nil)
	if _, _, err := db.CreateWithdrawalBatch(ctx, other); !errors.Is(err, storage.ErrIdempotencyConflict) {
		t.Fatalf("another request under the batch's external_id: %v", err)
	}

	// An earlier withdrawal is one of the next batch's items.
	single := newWithdrawal(in.ID, 1000, 0, "lote-s-1")
	if _, _, err := db.CreateWithdrawal(ctx, single); err != nil {
		t.Fatal(err)
	}
	next := newBatch(in, maker, "lote-s", 3, 1000, 0, nil)
	next.Items[1].RequestHash = single.RequestHash
	nb2, _, err := db.CreateWithdrawalBatch(ctx, next)
	if err != nil || nb2.Count != 2 || nb2.Amount != 20_00 {
		t.Fatalf("batch with an earlier withdrawal as an item: %+v %v", nb2, err)
	}
	wantBalances(t, db, in.ID, 920_00, 80_00)
	// ... made with another request: the batch names it.
	clash := newBatch(in, maker, "lote-c", 3, 1000, 0, nil)
	clash.Items[2].ExternalID = single.ExternalID
	var conflict *storage.BatchItemConflictError
	if _, _, err := db.CreateWithdrawalBatch(ctx, clash); !errors.As(err, &conflict) || len(conflict.Items) != 1 || conflict.Items[0] != 2 {
		t.Fatalf("an item reusing an external_id: %v", err)
	}
	if _, err := db.WithdrawalBatchByID(ctx, in.ID, "lote-c"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the refused batch was written: %v", err)
	}
	wantBalances(t, db, in.ID, 920_00, 80_00)
	mustAuditClean(t, db)
}

func heldUntil(d time.Duration) *time.Time {
	at := time.Now().Add(d)
	return &at
}

// Each way out of AWAITING_APPROVAL happens once: the maker may not
// decide; approval sends (outbox); rejection and expiry give the money
// back; whatever comes second is refused and moves nothing.
func TestApprovalDecidedOnce(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, maker, checker := makerChecker(t, db, money.FromReais(1000, 0))
	send := func(id uuid.UUID) storage.OutboxMessage {
		return storage.OutboxMessage{Type: "withdrawal:send", ID: "withdrawal:send:" + id.String(), Payload: []byte(`{}`)}
	}
	notify := storage.OutboxMessage{Type: "withdrawal:decided", ID: "n-" + uuid.NewString(), Payload: []byte(`{}`)}
	hold := func(ext string, d time.Duration) storage.Transfer {
		nw := newWithdrawal(in.ID, 100_00, 1_00, ext)
		nw.CreatedByKey = maker
		w, _, err := db.CreateWithdrawal(ctx, nw.Held(heldUntil(d)))
		if err != nil || w.Status != storage.TransferAwaitingApproval {
			t.Fatalf("held create: %+v %v", w, err)
		}
		return w
	}
	// Approval.
	w := hold("a", time.Hour)
	wantBalances(t, db, in.ID, 899_00, 101_00)
	if _, err := db.ApproveWithdrawal(ctx, in.ID, w.ID, maker, send(w.ID)); !errors.Is(err, storage.ErrSelfApproval) {
		t.Fatalf("self-approval: %v", err)
	}
	got, err := db.ApproveWithdrawal(ctx, in.ID, w.ID, checker, send(w.ID))
	if err != nil || got.Status != storage.TransferProcessing {
		t.Fatalf("approve: %+v %v", got, err)
	}
	if n := countRows(t, db, `SELECT count(*) FROM outbox WHERE task_id = $1`, send(w.ID).ID); n != 1 {
		t.Fatalf("approval wrote %d sends", n)
	}
	if _, err := db.RejectWithdrawal(ctx, in.ID, w.ID, checker, "late", notify); !errors.Is(err, storage.ErrNotAwaitingApproval) {
		t.Fatalf("reject after approval: %v", err)
	}
	wantBalances(t, db, in.ID, 899_00, 101_00)
	// Rejection.
	w = hold("b", time.Hour)
	got, err = db.RejectWithdrawal(ctx, in.ID, w.ID, checker, "wrong recipient", notify)
	if err != nil || got.Status != storage.TransferFailed || *got.FailureReason != "rejected: wrong recipient" {
		t.Fatalf("reject: %+v %v", got, err)
	}
	if _, err := db.ApproveWithdrawal(ctx, in.ID, w.ID, checker, send(w.ID)); !errors.Is(err, storage.ErrNotAwaitingApproval) {
		t.Fatalf("approve after rejection: %v", err)
	}
	wantBalances(t, db, in.ID, 899_00, 101_00)
	// Expiry: only past its time, and then no approval.
	w = hold("c", -time.Second)
	if _, err := db.ApproveWithdrawal(ctx, in.ID, w.ID, checker, send(w.ID)); !errors.Is(err, storage.ErrNotAwaitingApproval) {
		t.Fatalf("approve after expiry: %v", err)
	}
	early := hold("d", time.Hour)
	if _, err := db.ExpireWithdrawalApproval(ctx, in.ID, early.ID, notify); !errors.Is(err, storage.ErrNotAwaitingApproval) {
		t.Fatalf("expire before its time: %v", err)
	}
	expired, err := db.ExpiredApprovals(ctx, 10)
	if err != nil || len(expired) != 1 || expired[0].ID != w.ID || expired[0].Batch {
		t.Fatalf("expired approvals: %+v %v", expired, err)
	}
	got, err = db.ExpireWithdrawalApproval(ctx, in.ID, w.ID, notify)
	if err != nil || got.Status != storage.TransferFailed || *got.FailureReason != storage.ReasonApprovalExpired {
		t.Fatalf("expire: %+v %v", got, err)
	}
	if _, err := db.ExpireWithdrawalApproval(ctx, in.ID, w.ID, notify); !errors.Is(err, storage.ErrNotAwaitingApproval) {
		t.Fatalf("expire twice: %v", err)
	}
	wantBalances(t, db, in.ID, 798_00, 202_00) // a approved, d still held
	// Batches: the same, with their items.
	b, _, err := db.CreateWithdrawalBatch(ctx, newBatch(in, maker, "lote-h", 20, 10_00, 10, heldUntil(time.Hour)))
	if err != nil || b.Status != storage.BatchAwaitingApproval {
		t.Fatalf("held batch: %+v %v", b, err)
	}
	wantBalances(t, db, in.ID, 596_00, 404_00)
	if n := countRows(t, db, `SELECT count(*) FROM outbox WHERE payload::text LIKE '%' || $1 || '%'`, b.ID.String()); n != 0 {
		t.Fatalf("a held batch has %d outbox rows", n)
	}
	if _, err := db.ApproveBatch(ctx, in.ID, b.ID, maker, send); !errors.Is(err, storage.ErrSelfApproval) {
		t.Fatalf("batch self-approval: %v", err)
	}
	item, _ := db.BatchItemsAfter(ctx, b.ID, uuid.Nil, 1)
	if _, err := db.ApproveWithdrawal(ctx, in.ID, item[0].ID, checker, send(item[0].ID)); !errors.Is(err, storage.ErrNotAwaitingApproval) {
		t.Fatalf("an item approved alone: %v", err)
	}
	got2, err := db.RejectBatch(ctx, in.ID, b.ID, checker, "", notify)
	if err != nil || got2.Status != storage.BatchRejected || got2.Failed != 20 || *got2.RejectionReason != "rejected" {
		t.Fatalf("reject batch: %+v %v", got2, err)
	}
	if _, err := db.ApproveBatch(ctx, in.ID, b.ID, checker, send); !errors.Is(err, storage.ErrNotAwaitingApproval) {
		t.Fatalf("approve a rejected batch: %v", err)
	}
	wantBalances(t, db, in.ID, 798_00, 202_00)
	b, _, err = db.CreateWithdrawalBatch(ctx, newBatch(in, maker, "lote-a", 20, 10_00, 10, heldUntil(time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	got2, err = db.ApproveBatch(ctx, in.ID, b.ID, checker, send)
	if err != nil || got2.Status != storage.BatchProcessing || got2.Processing != 20 {
		t.Fatalf("approve batch: %+v %v", got2, err)
	}
	if n := countRows(t, db, `SELECT count(*) FROM outbox o JOIN withdrawals w ON o.task_id = 'withdrawal:send:' || w.id WHERE w.batch_id = $1`, b.ID); n != 20 {
		t.Fatalf("approval wrote %d sends, want 20", n)
	}
	mustAuditClean(t, db)
}

// A batch is COMPLETED once every item is final, once, with its postback
// written in the same transaction.
func TestBatchFinishesOnceEveryItemIsFinal(t *testing.T) {
	db := storagetest.NewDB(t)
	ctx := context.Background()
	in, maker, _ := makerChecker(t, db, money.FromReais(100, 0))
	url := "https://example.com/lotes"
	nb := newBatch(in, maker, "lote-f", 3, 10_00, 0, nil)
	nb.PostbackURL = &url
	b, _, err := db.CreateWithdrawalBatch(ctx, nb)
	if err != nil {
		t.Fatal(err)
	}
	var posted []storage.WithdrawalBatch
	finish := func() []storage.WithdrawalBatch {
		t.Helper()
		done, err := db.FinishBatches(ctx, 10, func(b storage.WithdrawalBatch) (storage.NewPostback, bool) {
			posted = append(posted, b)
			return storage.NewPostback{ID: uuid.Must(uuid.NewV7()), IntegratorID: b.IntegratorID, ResourceType: "withdrawal_batch",
				ResourceID: b.ID, Event: b.Status, URL: url, Body: []byte(`{}`),
				Outbox: storage.OutboxMessage{Type: "postback:deliver", ID: "pb-" + b.ID.String(), Payload: []byte(`{}`)}}, true
		})
		if err != nil {
			t.Fatal(err)
		}
		return done
	}
	if done := finish(); len(done) != 0 {
		t.Fatalf("finished with items in flight: %+v", done)
	}
	for i, it := range nb.Items {
		err := db.InTx(ctx, func(tx *storage.Tx) error {
			var err error
			if i == 0 {
				_, _, err = tx.FailTransfer(ctx, storage.KindWithdrawal, it.ID, storage.Failure{Reason: "key not found"})
			} else {
				_, _, err = tx.CompleteTransfer(ctx, storage.KindWithdrawal, it.ID, storage.Settlement{PixID: "p" + it.ID.String(), At: time.Now()})
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	done := finish()
	if len(done) != 1 || done[0].ID != b.ID || done[0].Status != storage.BatchCompleted || done[0].Completed != 2 || done[0].Failed != 1 ||
		done[0].FailedAmount != 10_00 {
		t.Fatalf("finished: %+v", done)
	}
	if again := finish(); len(again) != 0 || len(posted) != 1 {
		t.Fatalf("finished twice: %+v", again)
	}
	if n := countRows(t, db, `SELECT count(*) FROM postbacks WHERE resource_id = $1`, b.ID); n != 1 {
		t.Fatalf("%d batch postbacks", n)
	}
	wantBalances(t, db, in.ID, 80_00, 0) // two paid, one back
	mustAuditClean(t, db)
}
