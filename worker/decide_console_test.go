package worker

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/console"
)

// The money console resolves a flagged transfer over the worker's own
// stores, under the signed-in operator; a transfer that is not flagged,
// or no longer PROCESSING, is the console's conflict and writes nothing.
func TestConsoleResolveTransferOverTheWorkerStores(t *testing.T) {
	st := newFakeStore()
	w, _ := fakeWorker(st, &fakeProvider{})
	ops := consoleOps{w}
	flagged, unflagged, done := newTransfer(storage.KindRefund, ptr("prov-1")), newTransfer(storage.KindWithdrawal, ptr("prov-2")),
		newTransfer(storage.KindWithdrawal, ptr("prov-3"))
	done.Status = storage.TransferCompleted
	for _, tr := range []storage.Transfer{flagged, unflagged, done} {
		st.transfers[tr.ID] = tr
	}
	st.recovery[flagged.ID] = storage.Recovery{FlaggedAt: ptr(time.Now())}
	st.recovery[done.ID] = storage.Recovery{FlaggedAt: ptr(time.Now())}
	ctx := context.Background()

	for _, tr := range []storage.Transfer{unflagged, done} {
		_, _, err := ops.ResolveTransfer(ctx, console.TransferDecision{ID: tr.ID, Settle: true, Operator: "alice", Reason: "paid"})
		if !errors.Is(err, console.ErrConflict) {
			t.Errorf("%s %s: err = %v, want a conflict", tr.Kind, tr.Status, err)
		}
	}
	if len(st.actions) != 0 {
		t.Fatalf("refused resolutions wrote %+v", st.actions)
	}
	action, status, err := ops.ResolveTransfer(ctx, console.TransferDecision{ID: flagged.ID, Operator: "alice", Reason: "never paid"})
	if err != nil || status != storage.TransferFailed || action.Operator != "alice" || action.Action != "refund.fail" {
		t.Fatalf("resolved %+v, %s, %v; want the refund failed by alice", action, status, err)
	}
	if st.transfers[flagged.ID].Status != storage.TransferFailed || len(st.actions) != 1 {
		t.Errorf("store holds %s with actions %+v", st.transfers[flagged.ID].Status, st.actions)
	}
}
