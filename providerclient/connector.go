// Package providerclient is how PixGate talks to settlement providers.
//
// A Connector speaks one provider contract (the BSPay / PixUp family's
// legacy /v2 in package family, the Banco Central's API Pix as Efí serves
// it in package efi, Woovi's API in package woovi) and translates it into
// PixGate's own, provider-neutral terms: a charge, a payout (a PIX sent), a
// refund, a transaction read back, a balance and the claims of a
// notification. Nothing of a contract's wire shape leaves its connector.
//
// Wrap composes the layers every connector gets, each a Connector wrapping
// the next:
//
//	retry (WithRetry) → circuit breaker (WithBreaker) → [metrics (WithMetrics)] → connector
//
// Errors are *Error values; branch on their kind with errors.Is:
// ErrRejected (and ErrNotFound), ErrUnavailable (and ErrBreakerOpen),
// ErrUnknownOutcome.
//
// A provider is a value (Config: a name, a kind and the kind's settings),
// so several connectors, of the same kind or not, live side by side in one
// process, each with its own breaker.
package providerclient

import (
	"context"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/storage/recurrence"
)

// Connector is one provider, in PixGate's terms. Every method is safe for
// concurrent use.
//
// The ids PixGate sends (ChargeRequest.ID, PayoutRequest.ID,
// RefundRequest.ID) are its own record ids: a connector sends them in
// whatever field the contract deduplicates by, so repeating a call after an
// unknown outcome never creates a second charge, payout or refund.
type Connector interface {
	// Name is the provider's name ("default" for a single-provider
	// deployment); Kind is its contract ("family", "efi", "woovi").
	Name() string
	Kind() string
	// Capabilities says which operations the provider supports; the others
	// answer ErrUnsupported.
	Capabilities() Capabilities
	// CreateCharge issues a dynamic-QR PIX charge.
	CreateCharge(ctx context.Context, req ChargeRequest) (*Charge, error)
	// SendPix sends a PIX to a key (a withdrawal).
	SendPix(ctx context.Context, req PayoutRequest) (*Payout, error)
	// Refund returns part or all of a paid charge to its payer.
	Refund(ctx context.Context, req RefundRequest) (*Refund, error)
	// Read asks the provider for the current state of a transaction. An id
	// the provider does not know is ErrNotFound.
	Read(ctx context.Context, ref Ref) (*Transaction, error)
	// Balance reads the provider account's balance.
	Balance(ctx context.Context) (*Balance, error)
	// ParseNotification reads what an incoming notification claims, one
	// Event per transaction it names (a batch names several). It makes no
	// call: PixGate believes no claim until Read (ReadInfraction for an
	// infraction) confirms it. A body that names no transaction is a
	// *NotificationError.
	ParseNotification(header http.Header, body []byte) ([]Event, error)

	// ReadInfraction asks the provider for a MED infraction; one it does
	// not know is ErrNotFound.
	ReadInfraction(ctx context.Context, ref InfractionRef) (*Infraction, error)
	// ListInfractions lists the infractions opened or changed since, for
	// providers that are polled rather than notifying them.
	ListInfractions(ctx context.Context, since time.Time) ([]Infraction, error)
	// DefendInfraction sends the integrator's defense of an open
	// infraction to the provider.
	DefendInfraction(ctx context.Context, ref InfractionRef, text string) error
	// LookupKey asks who a PIX key (canonical, with its type) belongs to;
	// a key the DICT does not have is ErrNotFound.
	LookupKey(ctx context.Context, keyType, key string) (*KeyHolder, error)

	// Statement reads one page of the provider's statement of a day: the
	// transactions it settled that day and, where the contract says, the
	// day's balances. Each page is its own call, safe to repeat.
	Statement(ctx context.Context, req StatementRequest) (*StatementPage, error)

	// Recurrences and Cycles: Pix Automático; a connector without them
	// answers ErrUnsupported.
	Recurrences
	Cycles
}

// Capabilities lists what a provider can do through its connector.
type Capabilities struct {
	Charges, Payouts, Refunds, Reads, Balance, Notifications bool
	// SignedNotifications: the provider signs its notifications and the
	// connector checks the signature (PixGate still confirms by Read).
	SignedNotifications bool
	// RefundNeedsEndToEndID: a refund names the charge by the end-to-end id
	// of its payment (the BCB API Pix), not by the provider's charge id.
	RefundNeedsEndToEndID bool
	// ReadsByID: Read finds a charge, payout or refund by PixGate's id
	// alone (a Ref with ID and no ProviderID, as before the provider's id
	// is known), and the contract's own "no such transaction" answer to
	// that read proves it absent (ErrProvedAbsent). Without it, such a read
	// is refused and proves nothing.
	ReadsByID bool

	// Infractions: ReadInfraction works. InfractionNotifications: the
	// provider notifies infractions as they open and close;
	// InfractionList: ListInfractions works (the provider is polled).
	// InfractionDefense: DefendInfraction works.
	Infractions, InfractionNotifications, InfractionList, InfractionDefense bool
	// KeyLookup: LookupKey works.
	KeyLookup bool
	// Statement: Statement works; StatementBalances: its pages carry the
	// day's opening and closing balances.
	Statement, StatementBalances bool
	// PayerDocument: a paid charge read back names the document of who
	// paid it (Transaction.Payer or PayerAccount), which the same-holder
	// rule needs.
	PayerDocument bool
	// DueCharges: CreateCharge takes a ChargeRequest with Due (a due-date
	// charge), and Read a Ref with Due reads one back; a paid one's
	// Transaction.Amount is what the payer paid on the day.
	DueCharges bool
	// Recurrences: the connector is a Recurrences (Pix Automático), for
	// the journeys in Journeys.
	Recurrences bool
	Journeys    []recurrence.Journey
	// RetriesItself: the provider asks a failed cycle's retries by
	// itself, under the recurrence's policy; RetryCycle asks nothing.
	RetriesItself bool
}

// All reports whether every operation PixGate needs is supported.
func (c Capabilities) All() bool {
	return c.Charges && c.Payouts && c.Refunds && c.Reads && c.Balance && c.Notifications
}
