package providerclient

import (
	"context"
	"time"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// KindRecurrenceCycle is one cycle of a Pix Automático recurrence (the
// BCB's cobr) as a notification's Event names it; it is read with
// Cycles.ReadCycle, not Read. The Event's ID is PixGate's cycle id when
// the notification carries it, ProviderID the provider's id of the cycle.
const KindRecurrenceCycle Kind = "recurrence_cycle"

// Cycles is a provider's side of a recurrence's cycles
// (docs/recurrences.md): PixGate sends each cycle's charge ahead of its
// due date, reads it back with its attempts, asks a retry of an attempt
// that failed, and cancels a cycle not yet attempted. Every connector that
// is a Recurrences is a Cycles.
type Cycles interface {
	// SendCycle registers the cycle's charge under PixGate's id (a
	// repeated call returns the one registered, never a second).
	SendCycle(ctx context.Context, req CycleRequest) (*Cycle, error)
	// ReadCycle reads it; one the provider does not know is ErrNotFound.
	ReadCycle(ctx context.Context, ref CycleRef) (*Cycle, error)
	// RetryCycle asks that the cycle's payment be tried again, to settle
	// on day. A provider that retries by itself (Capabilities.
	// RetriesItself) answers nil and asks nothing.
	RetryCycle(ctx context.Context, ref CycleRef, day due.Date) error
	// CancelCycle cancels it on the integrator's behalf; cancelling one
	// already cancelled is no error.
	CancelCycle(ctx context.Context, ref CycleRef) error
}

// CycleRequest asks for one cycle's charge.
type CycleRequest struct {
	// ID is PixGate's id of the cycle, where the contract deduplicates.
	ID         string
	Recurrence RecurrenceRef
	// N is the cycle's number in its recurrence's calendar (1 the first
	// after the start; 0 the first payment of journeys that have one).
	N       int
	DueDate due.Date
	Amount  money.Money
	// Payer is the recurrence's payer; Description is shown to them.
	Payer       Party
	Description string
	NotifyURL   string
}

// CycleRef names a cycle to read, retry or cancel.
type CycleRef struct {
	ID, ProviderID string
	Recurrence     RecurrenceRef
	DueDate        due.Date
}

// Cycle is what the provider says of a cycle's charge.
type Cycle struct {
	ProviderID string
	// ExternalID is PixGate's id as the provider echoes it.
	ExternalID string
	Status     recurrence.CycleStatus
	DueDate    due.Date
	Amount     money.Money
	// Attempts are its tries at settlement, oldest first.
	Attempts []Attempt
	// RejectionCode is why it was rejected (REJECTED).
	RejectionCode string
	// CancelledBy is who cancelled it (CANCELLED).
	CancelledBy recurrence.Party
	// EndToEndID and PaidAt are its payment's (PAID), Payer who paid.
	EndToEndID string
	PaidAt     time.Time
	Payer      Party
}

// Attempt is one try at settling a cycle's charge.
type Attempt struct {
	Kind          recurrence.AttemptKind
	SettleOn      due.Date
	Status        recurrence.AttemptStatus
	RejectionCode string
	EndToEndID    string
}

// OpenAttempt is the cycle's attempt still waiting for its outcome, if any.
func (c *Cycle) OpenAttempt() (Attempt, bool) {
	for _, a := range c.Attempts {
		if a.Status.Open() {
			return a, true
		}
	}
	return Attempt{}, false
}
