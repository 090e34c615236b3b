package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/worker/console"
)

// consoleOps is what the money console asks of the worker: the actions
// whose code lives in this package, which the console (imported by it)
// cannot reach itself.
type consoleOps struct{ w *Worker }

// ResolveTransfer is the CLI's pixgate transfer settle|fail: the same
// resolution as ResolveTransfer, over the worker's stores, on flagged
// transfers only (the console offers no force), its refusals for a
// transfer that moved on made console's conflicts.
func (o consoleOps) ResolveTransfer(ctx context.Context, d console.TransferDecision) (storage.OperatorAction, storage.TransferStatus, error) {
	done, err := resolveTransfer(ctx, o.w.resolutionStore(), Resolution{ID: d.ID, Settle: d.Settle, Reason: d.Reason,
		Operator: d.Operator, EndToEndID: d.EndToEndID})
	if errors.Is(err, ErrNotProcessing) || errors.Is(err, ErrNotFlagged) {
		return storage.OperatorAction{}, "", fmt.Errorf("%w: %w", console.ErrConflict, err)
	}
	return done.Action, done.Status, err
}

// BreakerStates is each provider's breaker of each lane: a fleet's (the
// process's provider in production) from the fleet; a lone provider's
// under the default name when it is a breaker itself, none otherwise.
func (o consoleOps) BreakerStates() map[string]map[providerclient.Lane]string {
	if f, ok := o.w.provider.(interface {
		BreakerStates() map[string]map[providerclient.Lane]string
	}); ok {
		return f.BreakerStates()
	}
	c, ok := o.w.provider.(providerclient.Connector)
	if !ok {
		return nil
	}
	lanes := map[providerclient.Lane]string{}
	for _, lane := range providerclient.Lanes {
		if st := providerclient.BreakerState(c, lane); st != "" {
			lanes[lane] = st
		}
	}
	if len(lanes) == 0 {
		return nil
	}
	return map[string]map[providerclient.Lane]string{providerclient.DefaultName: lanes}
}
