package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/console"
)

// consoleOps is what the money console asks of the worker: the actions
// whose code lives in this package, which the console (imported by it)
// cannot reach itself.
type consoleOps struct{ w *Worker }

// ResolveTransfer is the CLI's pixgate transfer settle|fail: the same
// ResolveTransfer, on flagged transfers only (the console offers no
// force), its refusals for a transfer that moved on made console's
// conflicts.
func (o consoleOps) ResolveTransfer(ctx context.Context, d console.TransferDecision) (storage.OperatorAction, storage.TransferStatus, error) {
	done, err := ResolveTransfer(ctx, o.w.deps.DB, Resolution{ID: d.ID, Settle: d.Settle, Reason: d.Reason,
		Operator: d.Operator, EndToEndID: d.EndToEndID})
	if errors.Is(err, ErrNotProcessing) || errors.Is(err, ErrNotFlagged) {
		return storage.OperatorAction{}, "", fmt.Errorf("%w: %w", console.ErrConflict, err)
	}
	return done.Action, done.Status, err
}
