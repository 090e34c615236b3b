package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/recurrence"
	"github.com/pixgate/pixgate/tasks"
)

// ErrCycleEnded: a cycle that has ended (or is ending) cannot be
// cancelled.
var ErrCycleEnded = errors.New("the cycle cannot be cancelled in its status")

// CancelCycle cancels cycle n of one of the integrator's recurrences. One
// not yet sent is cancelled here, at once (accepted is true: the answer
// is the cancelled cycle, and no postback repeats it). One sent is
// cancelled at its provider, which refuses it from its due date on (the
// BCB: before its first attempt's date); PixGate's record follows the
// provider's as for every change, through a notification of the cancel
// that a worker confirms and applies, with the CANCELLED postback; the
// cycle is returned as it stands.
func (s *Service) CancelCycle(ctx context.Context, integratorID int64, ref string, n int) (c storage.Cycle, accepted bool, err error) {
	r, cycles, err := s.Cycles(ctx, integratorID, ref)
	if err != nil {
		return c, false, err
	}
	i := -1
	for j := range cycles {
		if cycles[j].N == n {
			i = j
		}
	}
	if i < 0 {
		return c, false, storage.ErrNotFound
	}
	c = cycles[i]
	switch c.Status {
	case recurrence.CycleScheduled:
		c, err = s.recurrences.CancelScheduledCycle(ctx, c.ID)
		if errors.Is(err, storage.ErrCycleNotSettable) { // sent meanwhile
			return s.CancelCycle(ctx, integratorID, ref, n)
		}
		return c, false, err
	case recurrence.CycleCreated, recurrence.CycleActive:
	default:
		return c, false, &RuleError{Rule: ErrCycleEnded, Field: "status",
			Detail: fmt.Sprintf("is %s: only a SCHEDULED, CREATED or ACTIVE cycle can be cancelled", c.Status)}
	}
	conn, ok := s.connector(r.Provider)
	if !ok || c.ProviderID == nil || r.ProviderID == nil {
		return c, false, &providerclient.Error{Op: providerclient.OpCancelCycle, Kind: providerclient.ErrUnavailable,
			Message: "provider " + r.Provider + " is not configured"}
	}
	cctx, cancel := context.WithTimeout(ctx, s.cfg.ProviderTimeout)
	defer cancel()
	ref2 := providerclient.CycleRef{ID: c.ID.String(), ProviderID: *c.ProviderID, DueDate: c.DueDate,
		Recurrence: providerclient.RecurrenceRef{ID: r.ID.String(), ProviderID: *r.ProviderID}}
	if err := conn.CancelCycle(cctx, ref2); err != nil {
		return c, false, err
	}
	kind := string(providerclient.KindRecurrenceCycle)
	_, _, err = s.store.RecordProviderEvent(ctx, storage.NewProviderEvent{
		Provider: r.Provider, TransactionType: kind, TransactionID: *c.ProviderID, ExternalID: c.ID.String(),
		Status: string(recurrence.CycleCancelled), Payload: []byte(`{"cancelled_by":"INTEGRATOR"}`),
	}, func(id int64) storage.OutboxMessage {
		return storage.OutboxMessage(tasks.NewProviderEventMessage(tasks.ProviderEvent{EventID: id, TransactionType: kind, TransactionID: *c.ProviderID}))
	})
	return c, true, err
}
