package api

import (
	"time"

	"github.com/pixgate/pixgate/storage"
)

// dueAt reads a withdrawal's optional due_at (PixGate's extension on v2's
// payment request too): an RFC 3339 time in the future, at most
// storage.MaxPayoutDeadline ahead. It replaces the integrator's payout
// deadline for this withdrawal (docs/operations.md, "Payout deadlines").
func (o object) dueAt(now time.Time) *time.Time {
	s, ok := o.str("due_at")
	if !ok {
		return nil
	}
	at, err := time.Parse(time.RFC3339Nano, s)
	switch {
	case err != nil:
		o.errs.add(o.path("due_at"), "must be an RFC 3339 date and time with its offset, such as 2026-03-02T15:04:05-03:00")
		return nil
	case !at.After(now):
		o.errs.add(o.path("due_at"), "must be in the future")
		return nil
	case at.Sub(now) > storage.MaxPayoutDeadline:
		o.errs.add(o.path("due_at"), "must be at most 30 days ahead")
		return nil
	}
	return &at
}
