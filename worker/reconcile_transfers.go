package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/fleet"
	"github.com/pixgate/pixgate/storage"
)

// reconcileTransfers is the reconciler's step for the stale transfers of
// a kind (one step per kind, "withdrawals", "refunds"): it sends again
// those that were never sent, and asks the provider about the others. A
// transfer whose reconciliation fails is touched, so that it goes to the
// back of the queue instead of heading every batch.
//
// A kind storage has and outbound has no row for cannot be sent or read
// back: its step fails, every tick, saying so, and the other steps go on.
func (w *Worker) reconcileTransfers(ctx context.Context, kind storage.TransferKind, slot int64) error {
	if _, ok := outbound[kind]; !ok {
		return fmt.Errorf("the worker has no outbound row for %s transfers: they are neither sent again nor read back", kind)
	}
	stale, err := w.transfers.StaleTransfers(ctx, kind, w.cfg.Reconcile.StaleAfter, w.cfg.Reconcile.Batch)
	if err != nil {
		return err
	}
	return forEach(ctx, w, string(kind)+"s", stale, func(t storage.Transfer) string { return t.ID.String() },
		func(t storage.Transfer) error {
			if t.PixID == nil {
				return w.transfers.RedriveTransfer(ctx, kind, t.ID, storage.OutboxMessage(outbound[kind].sendTask(t.ID, int(slot))))
			}
			return touchOnError(w.consultTransfer(ctx, t), func() error { return w.transfers.TouchTransfer(ctx, kind, t.ID) })
		})
}

// consultTransfer applies what the provider says of a transfer it
// accepted. Unknown to the provider, the transfer is sent again or, past
// the bound, flagged for an operator. Still in flight there, it is touched.
func (w *Worker) consultTransfer(ctx context.Context, t storage.Transfer) error {
	ref, err := outbound[t.Kind].ref(ctx, w, t)
	if err != nil {
		return err
	}
	p, err := w.providerAt(t.Provider)
	if err != nil {
		return err
	}
	txn, err := p.Read(ctx, ref)
	if errors.Is(err, providerclient.ErrNotFound) {
		return w.recoverUnknown(ctx, t)
	}
	if err != nil {
		return err
	}
	if txn.ProviderID == "" {
		txn.ProviderID = *t.PixID
	}
	if txn.Status != providerclient.StatusCompleted && txn.Status != providerclient.StatusFailed {
		return w.transfers.TouchTransfer(ctx, t.Kind, t.ID)
	}
	_, err = w.applyConfirmed(ctx, txn, nil)
	return err
}

// recoverUnknown handles a transfer the provider accepted and no longer
// knows. It is sent again with the same external_id: a provider that still
// has it answers with it, one that lost it pays it once. A refusal that
// proves the provider holds nothing under its id fails it (its reservation
// returns); any other refusal leaves it to the next tick. After MaxResends it is
// flagged for an operator instead, once, with an error line, and the
// reconciler leaves it alone.
func (w *Worker) recoverUnknown(ctx context.Context, t storage.Transfer) error {
	rc, err := w.transfers.TransferRecovery(ctx, t.Kind, t.ID)
	if err != nil {
		return err
	}
	if rc.Resends >= w.cfg.Reconcile.MaxResends {
		reason := fmt.Sprintf("the provider does not know transaction %s, after %d re-sends", *t.PixID, rc.Resends)
		flagged, err := w.transfers.FlagTransfer(ctx, t.Kind, t.ID, reason)
		if flagged {
			w.metrics.flagged(string(t.Kind))
			w.log.Error(string(t.Kind)+" flagged for an operator: settle or fail it with `pixgate transfer`", "id", t.ID,
				"pix_id", *t.PixID, "resends", rc.Resends, "reason", reason)
		}
		return err
	}
	pixID, err := w.callProvider(ctx, t)
	if fleet.NothingHeld(err) {
		w.log.Warn(string(t.Kind)+" unknown to the provider was rejected when sent again; it fails", "id", t.ID, "err", err)
		return w.fail(ctx, t, rejectionReason(string(t.Kind)+" when it was sent again", err))
	}
	if err != nil {
		return err
	}
	w.log.Warn(string(t.Kind)+" unknown to the provider was sent again with the same external_id", "id", t.ID,
		"old_pix_id", *t.PixID, "pix_id", pixID, "resend", rc.Resends+1)
	err = w.transfers.RecordResent(ctx, t.Kind, t.ID, *t.PixID, pixID)
	if errors.Is(err, storage.ErrStateChanged) {
		return nil // finished meanwhile
	}
	return err
}

// countFlagged keeps the gauge of transfers waiting for an operator.
func (w *Worker) countFlagged(ctx context.Context, _ int64) error {
	if w.metrics == nil {
		return nil
	}
	counts, err := w.transfers.CountFlaggedTransfers(ctx)
	if err != nil {
		return err
	}
	for _, kind := range storage.TransferKinds {
		w.metrics.setFlagged(string(kind), counts[kind])
	}
	return nil
}
