package storage

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// A transfer is money that leaves through the provider after being
// reserved: a withdrawal (a PIX to a recipient's key), a refund (money of
// a paid charge back to its payer) or a MED return (an agreed infraction's
// blocked money back to the payer). Every kind is one model: the same
// record, the same statuses, the same way out of PROCESSING with the same
// postings (postings.go); what a kind adds is data, one row of
// transferKinds (transfer_kinds.go).

// TransferStatus is where a transfer stands: PROCESSING from its creation
// until the provider settles it (COMPLETED) or it fails (FAILED).
type TransferStatus string

// Transfer statuses.
const (
	TransferProcessing TransferStatus = "PROCESSING"
	TransferCompleted  TransferStatus = "COMPLETED"
	TransferFailed     TransferStatus = "FAILED"
)

// TransferStatuses are every status, in lifecycle order.
var TransferStatuses = []TransferStatus{TransferProcessing, TransferCompleted, TransferFailed}

// Final says whether the transfer has reached COMPLETED or FAILED, for
// good.
func (s TransferStatus) Final() bool { return s == TransferCompleted || s == TransferFailed }

// Transfer is one withdrawal, refund or MED return.
type Transfer struct {
	Kind         TransferKind
	ID           uuid.UUID
	IntegratorID int64
	ExternalID   *string
	Amount       money.Money
	Fee          money.Money
	Status       TransferStatus
	Description  *string
	PostbackURL  *string
	// PixID is the provider's transactionId, once the provider accepted the
	// transfer. Integrators know the transfer by PublicPixID.
	PixID         *string
	EndToEndID    *string
	FailureReason *string
	CreatedAt     time.Time
	UpdatedAt     time.Time
	FinishedAt    *time.Time
	// Provider is the provider that holds the transfer: a refund's and a
	// MED return's is their charge's.
	Provider string
	// TraceParent is the W3C traceparent of the span that wrote the
	// transfer, "" when tracing was off: its settlement joins that trace.
	TraceParent string

	// CreditParty is a withdrawal's recipient.
	CreditParty CreditParty
	// ChargeID is the charge a refund returns money of, ChargePixID the
	// provider's transactionId for that charge (its pix_id).
	ChargeID    uuid.UUID
	ChargePixID string
	// FromPending is the part of a refund's reservation taken from the
	// charge's held net in pending (see refundCreated).
	FromPending money.Money
	// DueAt is when a withdrawal is due (its payout deadline), nil when
	// none applies.
	DueAt *time.Time
	// BatchID is the batch a withdrawal was created in, nil for one created
	// alone (and for every other kind).
	BatchID *uuid.UUID
}

// Total is what the transfer reserves: amount + fee.
func (t Transfer) Total() money.Money { return t.Amount + t.Fee }

// CreditParty is the recipient of a withdrawal.
type CreditParty struct {
	Name    string `json:"name"`
	KeyType string `json:"keyType"`
	Key     string `json:"key"`
	TaxID   string `json:"taxId"`
}

// Settlement is what the provider reports of a completed transfer (or a
// paid charge).
type Settlement struct {
	PixID      string
	EndToEndID string
	At         time.Time
	// PayerAccount is, for a charge, the account it was paid from as the
	// provider reported it.
	PayerAccount PayerAccount
	// PayerDocument is, for a charge, the document (normalized) of who paid
	// it as the provider reported it, "" when it did not say; Return is how
	// to return the payment should the same-holder rule refuse it (nil:
	// never).
	PayerDocument string
	Return        *ChargeReturn
	// Amount and Fee are, for a due-date charge, what was paid on the day
	// and the fee on it (ChargeDue.Settle); zero for any other.
	Amount, Fee money.Money
}

// Failure is why a transfer failed, and the provider's transaction id when
// the provider knew it (a failure it reported, or a rejection before it
// had any).
type Failure struct {
	PixID  string
	Reason string
}

// transferColumns are the columns every kind's table has, then the
// kind's own (kindSpec.own), in scanTransfer's order.
const transferColumns = `id, integrator_id, external_id, amount, fee, status, description, postback_url,
	pix_id, end_to_end_id, failure_reason, created_at, updated_at, finished_at, provider, coalesce(trace_parent, ''), `

// columns is the kind's select list for scanTransfer.
func (k TransferKind) columns() string { return transferColumns + k.spec().own }

// scan reads a row of the kind's columns.
func (k TransferKind) scan(r pgx.CollectableRow) (Transfer, error) { return k.scanWith(r) }

// scanWith reads a row of the kind's columns followed by more columns,
// into more.
func (k TransferKind) scanWith(r pgx.CollectableRow, more ...any) (Transfer, error) {
	t := Transfer{Kind: k}
	var chargeID *uuid.UUID
	err := r.Scan(append([]any{&t.ID, &t.IntegratorID, &t.ExternalID, &t.Amount, &t.Fee, &t.Status, &t.Description, &t.PostbackURL,
		&t.PixID, &t.EndToEndID, &t.FailureReason, &t.CreatedAt, &t.UpdatedAt, &t.FinishedAt, &t.Provider, &t.TraceParent,
		&t.CreditParty.Name, &t.CreditParty.KeyType, &t.CreditParty.Key, &t.CreditParty.TaxID, &chargeID, &t.ChargePixID, &t.FromPending,
		&t.DueAt, &t.BatchID},
		more...)...)
	if chargeID != nil {
		t.ChargeID = *chargeID
	}
	return t, err
}

// selectOne reads the kind's one row that where (a condition on its
// table, with args) selects.
func (k TransferKind) selectOne(ctx context.Context, q ledger.Querier, where string, args ...any) (Transfer, error) {
	rows, _ := q.Query(ctx, `SELECT `+k.columns()+` FROM `+k.spec().table+` WHERE `+where, args...)
	t, err := pgx.CollectExactlyOneRow(rows, k.scan)
	return t, notFound(err)
}

// TransferByID returns a transfer of the kind by id, whoever owns it (for
// workers).
func (db *DB) TransferByID(ctx context.Context, kind TransferKind, id uuid.UUID) (Transfer, error) {
	return kind.selectOne(ctx, db.pool, `id = $1`, id)
}

// TransferByPixID returns the transfer of the kind the provider knows as
// pixID.
func (db *DB) TransferByPixID(ctx context.Context, kind TransferKind, pixID string) (Transfer, error) {
	return kind.selectOne(ctx, db.pool, `pix_id = $1`, pixID)
}

// Transfer returns one of the integrator's transfers of the kind by its
// UUID or its external_id; ErrNotFound otherwise (including another
// integrator's).
func (db *DB) Transfer(ctx context.Context, kind TransferKind, integratorID int64, ref string) (Transfer, error) {
	return findByRef(ctx, db.pool, `SELECT `+kind.columns()+` FROM `+kind.spec().table+` WHERE integrator_id = $1`, kind.scan, integratorID, ref)
}

// ListTransfers returns one page of the integrator's transfers of the kind
// and whether more follow.
func (db *DB) ListTransfers(ctx context.Context, kind TransferKind, p ListParams) ([]Transfer, bool, error) {
	return list(ctx, db, `SELECT `+kind.columns()+` FROM `+kind.spec().table, kind.scan, p)
}
