package worker

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// Resolution is an operator's decision on a withdrawal or refund left
// PROCESSING, taken from the provider's own records (its statement, its
// support): did the money leave?
type Resolution struct {
	ID uuid.UUID
	// Settle: the money left, the transfer is COMPLETED (its reservation
	// goes to the provider and the fee to the platform). Otherwise it did
	// not: FAILED, the reservation returns to the available balance.
	Settle bool
	// Reason is why, in the operator's words (required). A failed
	// transfer's failure_reason, shown to the integrator, carries it.
	Reason string
	// Operator is who decides (required); kept in the audit trail only.
	Operator string
	// EndToEndID is the PIX end-to-end id of a settled transfer, if known.
	EndToEndID string
	// Force resolves a transfer the reconciler has not flagged, that is,
	// one it is still trying to finish.
	Force bool
}

// Resolved is what a resolution did.
type Resolved struct {
	Kind   storage.TransferKind   `json:"kind"`
	ID     uuid.UUID              `json:"id"`
	Status storage.TransferStatus `json:"status"`
	Action storage.OperatorAction `json:"action"`
}

// Errors of ResolveTransfer; a transfer that does not exist is
// storage.ErrNotFound.
var (
	ErrNotProcessing = errors.New("it is no longer PROCESSING")
	ErrNotFlagged    = errors.New("it is not flagged for an operator: the reconciler is still trying to finish it (force to resolve it anyway)")
)

// ResolveTransfer settles or fails a PROCESSING withdrawal or refund as an
// operator decided: the same transition, balanced ledger posting and
// postback as the provider's own answer would make, and an audit record of
// who, why and when, all in one SQL transaction.
func ResolveTransfer(ctx context.Context, db *storage.DB, r Resolution) (Resolved, error) {
	return resolveTransfer(ctx, dbStore{db}, r)
}

// resolveStore is what an operator's resolution reads and writes.
type resolveStore interface {
	transferStore
	txRunner
}

// resolutionStore is the worker's own stores in a resolution's roles, for
// the money console's resolutions: fakes in the decision tests.
func (w *Worker) resolutionStore() resolveStore {
	return struct {
		transferStore
		txRunner
	}{w.transfers, w.tx}
}

func resolveTransfer(ctx context.Context, st resolveStore, r Resolution) (Resolved, error) {
	if strings.TrimSpace(r.Reason) == "" || strings.TrimSpace(r.Operator) == "" {
		return Resolved{}, errors.New("an operator resolution needs the operator's name and a reason")
	}
	t, err := findTransfer(ctx, st, r.ID)
	if err != nil {
		return Resolved{}, err
	}
	if t.Status != storage.TransferProcessing {
		return Resolved{}, fmt.Errorf("%s %s is %s: %w", t.Kind, t.ID, t.Status, ErrNotProcessing)
	}
	if !r.Force {
		rc, err := st.TransferRecovery(ctx, t.Kind, t.ID)
		if err != nil {
			return Resolved{}, err
		}
		if rc.FlaggedAt == nil {
			return Resolved{}, fmt.Errorf("%s %s: %w", t.Kind, t.ID, ErrNotFlagged)
		}
	}
	out := Resolved{Kind: t.Kind, ID: t.ID}
	err = st.InTx(ctx, func(tx Tx) error {
		var (
			done    storage.Transfer
			changed bool
			err     error
			verb    = "fail"
		)
		if r.Settle {
			verb = "settle"
			done, changed, err = completeTransfer(ctx, tx, t, storage.Settlement{EndToEndID: r.EndToEndID, At: time.Now()})
		} else {
			done, changed, err = failTransfer(ctx, tx, t, storage.Failure{Reason: "failed by an operator: " + r.Reason})
		}
		if err != nil {
			return err
		}
		if !changed {
			return fmt.Errorf("%s %s finished meanwhile: %w", t.Kind, t.ID, ErrNotProcessing)
		}
		out.Status = done.Status
		out.Action, err = tx.RecordOperatorAction(ctx, storage.OperatorAction{
			Operator: r.Operator, Action: string(t.Kind) + "." + verb, ResourceType: string(t.Kind), ResourceID: t.ID, Reason: r.Reason,
			LedgerReference: storage.TransferPosting(t.Kind, t.ID, r.Settle),
		})
		return err
	})
	if err != nil {
		return Resolved{}, err
	}
	return out, nil
}

// findTransfer reads the transfer whose id is id, whatever its kind.
func findTransfer(ctx context.Context, st transferStore, id uuid.UUID) (storage.Transfer, error) {
	for _, kind := range storage.TransferKinds {
		t, err := st.TransferByID(ctx, kind, id)
		if !errors.Is(err, storage.ErrNotFound) {
			return t, err
		}
	}
	return storage.Transfer{}, storage.ErrNotFound
}
