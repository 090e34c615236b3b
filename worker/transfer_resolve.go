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
	Status string                 `json:"status"`
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
	if strings.TrimSpace(r.Reason) == "" || strings.TrimSpace(r.Operator) == "" {
		return Resolved{}, errors.New("an operator resolution needs the operator's name and a reason")
	}
	wd, err := db.WithdrawalByID(ctx, r.ID)
	if err == nil {
		return resolve(ctx, db, withdrawalKind(db), wd, r)
	}
	if !errors.Is(err, storage.ErrNotFound) {
		return Resolved{}, err
	}
	f, err := db.RefundByID(ctx, r.ID)
	if err != nil {
		return Resolved{}, err
	}
	return resolve(ctx, db, refundKind(db), f, r)
}

func resolve[T any](ctx context.Context, db *storage.DB, k transferKind[T], rec T, r Resolution) (Resolved, error) {
	id, _ := k.ident(rec)
	if st := k.status(rec); st != storage.WithdrawalProcessing {
		return Resolved{}, fmt.Errorf("%s %s is %s: %w", k.what, id, st, ErrNotProcessing)
	}
	if !r.Force {
		rc, err := db.TransferRecovery(ctx, k.kind, id)
		if err != nil {
			return Resolved{}, err
		}
		if rc.FlaggedAt == nil {
			return Resolved{}, fmt.Errorf("%s %s: %w", k.what, id, ErrNotFlagged)
		}
	}
	change, verb := k.failing(ctx, id, storage.Failure{Reason: "failed by an operator: " + r.Reason}), "fail"
	if r.Settle {
		change, verb = k.completing(ctx, id, storage.Settlement{EndToEndID: r.EndToEndID, At: time.Now()}), "settle"
	}
	out := Resolved{Kind: k.kind, ID: id}
	err := db.InTx(ctx, func(tx *storage.Tx) error {
		done, changed, err := change(tx)
		if err != nil {
			return err
		}
		if !changed {
			return fmt.Errorf("%s %s finished meanwhile: %w", k.what, id, ErrNotProcessing)
		}
		out.Status = k.status(done)
		out.Action, err = tx.RecordOperatorAction(ctx, storage.OperatorAction{
			Operator: r.Operator, Action: k.what + "." + verb, ResourceType: k.what, ResourceID: id, Reason: r.Reason,
			LedgerReference: storage.TransferPosting(k.kind, id, r.Settle),
		})
		return err
	})
	if err != nil {
		return Resolved{}, err
	}
	return out, nil
}
