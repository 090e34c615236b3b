package worker

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// What the worker needs of storage and of the provider, one narrow
// interface per role; *storage.DB (through dbStore) and the provider's
// providerclient.Connector are the real ones, and the decision tests give fakes that need
// no Postgres, Redis or provider.

// chargeStore is the charges the worker settles, checks and releases.
type chargeStore interface {
	ChargeByID(ctx context.Context, id uuid.UUID) (storage.Charge, error)
	ChargeByPixID(ctx context.Context, pixID string) (storage.Charge, error)
	ClaimDueCharges(ctx context.Context, now time.Time, first, lease time.Duration, limit int) ([]storage.Charge, error)
	ScheduleChargeCheck(ctx context.Context, id uuid.UUID, at time.Time) error
	UnissuedCharges(ctx context.Context, olderThan time.Duration, limit int) ([]storage.Charge, error)
	FailCharge(ctx context.Context, id uuid.UUID, reason string) (storage.Charge, error)
	DueReleases(ctx context.Context, limit int) ([]uuid.UUID, error)
	ReleaseCharge(ctx context.Context, id uuid.UUID) (money.Money, error)
	DeferRelease(ctx context.Context, id uuid.UUID, after time.Duration) error
}

// transferStore is the transfers the worker sends, settles and recovers.
type transferStore interface {
	TransferByID(ctx context.Context, kind storage.TransferKind, id uuid.UUID) (storage.Transfer, error)
	TransferByPixID(ctx context.Context, kind storage.TransferKind, pixID string) (storage.Transfer, error)
	RecordTransferSent(ctx context.Context, kind storage.TransferKind, id uuid.UUID, pixID, outboxDone string) error
	StaleTransfers(ctx context.Context, kind storage.TransferKind, olderThan time.Duration, limit int) ([]storage.Transfer, error)
	TouchTransfer(ctx context.Context, kind storage.TransferKind, id uuid.UUID) error
	RedriveTransfer(ctx context.Context, kind storage.TransferKind, id uuid.UUID, msg storage.OutboxMessage) error
	TransferRecovery(ctx context.Context, kind storage.TransferKind, id uuid.UUID) (storage.Recovery, error)
	RecordResent(ctx context.Context, kind storage.TransferKind, id uuid.UUID, oldPixID, newPixID string) error
	FlagTransfer(ctx context.Context, kind storage.TransferKind, id uuid.UUID, reason string) (bool, error)
	CountFlaggedTransfers(ctx context.Context) (map[storage.TransferKind]int, error)
	// A withdrawal's failover: each send at the provider it records,
	// numbered; its move to the next provider of its integrator's route, on
	// one send's proof.
	ClaimWithdrawalSend(ctx context.Context, id uuid.UUID) (storage.Transfer, int, error)
	EndWithdrawalSend(ctx context.Context, id uuid.UUID) error
	MoveWithdrawal(ctx context.Context, id uuid.UUID, from, to string, send int) error
	RouteFor(ctx context.Context, integratorID int64) (storage.Route, error)
}

// infractionStore is the MED infractions the worker opens, closes and
// re-reads, and the disputed charge a provider names by its end-to-end id.
type infractionStore interface {
	ChargeByEndToEndID(ctx context.Context, e2e string) (storage.Charge, error)
	InfractionOf(ctx context.Context, chargeID uuid.UUID, providerID string) (storage.Infraction, error)
	InfractionOfReturn(ctx context.Context, retID uuid.UUID) (storage.Infraction, error)
	StaleInfractions(ctx context.Context, olderThan time.Duration, limit int) ([]storage.Infraction, error)
	TouchInfraction(ctx context.Context, id uuid.UUID) error
}

// eventStore is the provider's notifications, as the API stored them.
type eventStore interface {
	// PickProviderEvent reads an event for its consult and records that
	// the consult began (copies of its claim are stored from then on),
	// with the record the lookup names read in the same round trip.
	PickProviderEvent(ctx context.Context, id int64, look storage.RecordLookup) (storage.ProviderEvent, storage.EventRecord, error)
	UnprocessedEvents(ctx context.Context, olderThan time.Duration, limit int) ([]storage.ProviderEvent, error)
}

// postbackStore is the postbacks the worker delivers.
type postbackStore interface {
	PostbackForDelivery(ctx context.Context, id uuid.UUID) (storage.Postback, string, error)
	// WebhookSecret is an integrator's signing secret, from memory when the
	// store keeps it there.
	WebhookSecret(ctx context.Context, integratorID int64) (string, error)
	RecordPostbackAttempt(ctx context.Context, id uuid.UUID, res storage.PostbackAttemptResult) (storage.Postback, error)
	OverduePostbacks(ctx context.Context, olderThan time.Duration, limit int) ([]storage.Postback, error)
	RedriveOverduePostback(ctx context.Context, id uuid.UUID, olderThan time.Duration, msg storage.OutboxMessage) (bool, error)
	MayHoldDeliveries(ctx context.Context, integratorID int64) (bool, error)
	GateDelivery(ctx context.Context, integratorID int64, url string, id uuid.UUID, outboxDone string) (storage.EndpointGate, error)
	DisableFailingEndpoints(ctx context.Context, failingBefore time.Time, limit int) ([]storage.DisabledEndpoint, error)
}

// outboxStore is the outbox the relay empties into the queue.
type outboxStore interface {
	RelayOutbox(ctx context.Context, olderThan time.Duration, limit int, enqueue func(context.Context, storage.PendingOutbox) error) (int, error)
	OutboxLag(ctx context.Context, olderThan time.Duration) (time.Duration, error)
}

// retentionStore is the finished bookkeeping the worker prunes.
type retentionStore interface {
	PruneProcessedEvents(ctx context.Context, olderThan time.Duration, limit int) (int64, error)
	PruneSentOutbox(ctx context.Context, olderThan time.Duration, limit int) (int64, error)
}

// txRunner runs fn in one SQL transaction: a state change, its posting,
// its postback and the record of what caused it are written together or
// not at all.
type txRunner interface {
	InTx(ctx context.Context, fn func(tx Tx) error) error
}

// Tx is what the worker writes inside one transaction; *storage.Tx is one.
type Tx interface {
	MarkChargePaid(ctx context.Context, id uuid.UUID, s storage.Settlement) (storage.Charge, bool, error)
	ExpireCharge(ctx context.Context, id uuid.UUID) (storage.Charge, bool, error)
	CompleteTransfer(ctx context.Context, kind storage.TransferKind, id uuid.UUID, s storage.Settlement) (storage.Transfer, bool, error)
	FailTransfer(ctx context.Context, kind storage.TransferKind, id uuid.UUID, f storage.Failure) (storage.Transfer, bool, error)
	WritePostback(ctx context.Context, np storage.NewPostback) error
	MarkEventProcessed(ctx context.Context, id int64, outcome string, confirmed, borneOut bool, outboxDone string) error
	RecordOperatorAction(ctx context.Context, a storage.OperatorAction) (storage.OperatorAction, error)
	OpenInfraction(ctx context.Context, ni storage.NewInfraction) (storage.Infraction, bool, error)
	CloseInfraction(ctx context.Context, id uuid.UUID, cl storage.InfractionClosing) (storage.Infraction, *storage.Transfer, bool, error)
	MoveRecurrence(ctx context.Context, id uuid.UUID, from recurrence.RecurrenceStatus, c storage.RecurrenceChange) (storage.Recurrence, bool, error)
	cycleTx
}

// cycleTx is what the worker writes of a recurrence's cycles, in the
// transaction of the change.
type cycleTx interface {
	LockCycle(ctx context.Context, id uuid.UUID) (storage.Cycle, error)
	IssueCycle(ctx context.Context, c storage.Cycle, r storage.Recurrence, providerID string) (storage.Cycle, bool, error)
	MoveCycle(ctx context.Context, id uuid.UUID, from recurrence.CycleStatus, ch storage.CycleChange) (storage.Cycle, bool, error)
	SetCycleRetries(ctx context.Context, id uuid.UUID, retries int) error
	RecordAttempt(ctx context.Context, a storage.CycleAttempt) (storage.CycleAttempt, bool, error)
	CancelScheduledCycles(ctx context.Context, recurrenceID uuid.UUID, by string) ([]storage.Cycle, error)
	ParkSchedule(ctx context.Context, id uuid.UUID) error
}

// cycleStore is the recurrences' cycles the worker schedules, sends and
// watches.
type cycleStore interface {
	DueRecurrences(ctx context.Context, today due.Date, limit int) ([]storage.Recurrence, error)
	ScheduleCycles(ctx context.Context, id uuid.UUID, today due.Date) ([]storage.Cycle, error)
	CyclesToSend(ctx context.Context, today due.Date, limit int) ([]storage.Cycle, error)
	OpenCycles(ctx context.Context, olderThan time.Duration, limit int) ([]storage.Cycle, error)
	CycleByID(ctx context.Context, id uuid.UUID) (storage.Cycle, error)
	CycleByProviderID(ctx context.Context, provider, providerID string) (storage.Cycle, error)
	TouchCycle(ctx context.Context, id uuid.UUID) error
	CashInFee(ctx context.Context, integratorID int64, amount money.Money) (money.Money, error)
}

// recurrenceStore is the Pix Automático recurrences whose changes the
// worker applies.
type recurrenceStore interface {
	RecurrenceByID(ctx context.Context, id uuid.UUID) (storage.Recurrence, error)
	RecurrenceByProviderID(ctx context.Context, provider, id string) (storage.Recurrence, error)
	WaitingRecurrences(ctx context.Context, olderThan time.Duration, limit int) ([]storage.Recurrence, error)
	TouchRecurrence(ctx context.Context, id uuid.UUID) error
}

// store is every role at once, as one database serves them.
type store interface {
	chargeStore
	transferStore
	infractionStore
	recurrenceStore
	cycleStore
	eventStore
	postbackStore
	outboxStore
	retentionStore
	txRunner
	Ping(ctx context.Context) error
}

// dbStore is the database in the worker's roles: *storage.DB with InTx
// handing out its transactions as Tx.
type dbStore struct{ *storage.DB }

func (s dbStore) InTx(ctx context.Context, fn func(Tx) error) error {
	return s.DB.InTx(ctx, func(tx *storage.Tx) error { return fn(tx) })
}

// consulter reads a transaction at the provider: notifications and the
// reconciler believe nothing until the provider confirms it.
type consulter interface {
	Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error)
}

// transferSender hands transfers to the provider.
type transferSender interface {
	SendPix(ctx context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error)
	Refund(ctx context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error)
}

// Provider is what the worker asks of the settlement provider; a
// providerclient.Connector is one.
type Provider interface {
	consulter
	transferSender
}

// disputes is what the worker asks a provider about MED infractions, when
// the provider offers them (Capabilities); a providerclient.Connector is
// one.
type disputes interface {
	Capabilities() providerclient.Capabilities
	ReadInfraction(ctx context.Context, ref providerclient.InfractionRef) (*providerclient.Infraction, error)
	ListInfractions(ctx context.Context, since time.Time) ([]providerclient.Infraction, error)
}

// disputesOf is p's infraction reads, or nil when it has none.
func disputesOf(p Provider) disputes {
	if d, ok := p.(disputes); ok && d.Capabilities().Infractions {
		return d
	}
	return nil
}
