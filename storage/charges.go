package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
)

// Payer is who pays a charge.
type Payer struct {
	Name     string  `json:"name"`
	Document string  `json:"document"`
	Email    *string `json:"email,omitempty"`
}

// Charge is a dynamic-QR PIX charge (cash-in).
type Charge struct {
	ID             uuid.UUID
	IntegratorID   int64
	ExternalID     string
	Amount         money.Money
	Fee            money.Money
	Status         ChargeStatus
	PixID          *string // the provider's transactionId
	QRCode         *string // the BR Code
	ExpiresAt      *time.Time
	Payer          Payer
	PayerQuestion  *string
	PostbackURL    *string
	Split          json.RawMessage
	RefundedAmount money.Money
	FailureReason  *string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	PaidAt         *time.Time
	EndToEndID     *string // the PIX end-to-end id, once paid
	// AvailableAt is when the net becomes available: paid_at plus the
	// integrator's settlement hold when it was paid.
	AvailableAt *time.Time
	// HeldAmount is the part of the net still in the pending balance.
	HeldAmount money.Money
	// DebtRecovered is what the net paid of its integrator's debt when
	// paid, before the rest was credited.
	DebtRecovered money.Money
	// ReleasedAt is when the net reached the available balance.
	ReleasedAt *time.Time
	// Expiration is how long the charge can be paid, in seconds from its
	// creation: what the integrator asked for, else the provider's answer
	// (nil for charges issued before PixGate kept it).
	Expiration *int
	// PayerAccount is the account the charge was paid from, as the provider
	// reported it with the payment; empty fields when it did not say.
	PayerAccount PayerAccount
	// ReturnedReason says why PixGate itself returned the payment to its
	// payer (a same-holder integrator's charge paid by another document);
	// nil for a charge PixGate did not return.
	ReturnedReason *string
	// Disputed: a MED infraction on the charge is open (its money blocked);
	// the charge cannot be refunded meanwhile.
	Disputed bool
	// Provider is the provider that issued (or is issuing) the charge: its
	// reads, notifications and refunds go there.
	Provider string
	// Due makes it a due-date charge; nil for an immediate one.
	Due *ChargeDue
	// TraceParent is the W3C traceparent of the span that created the
	// charge, "" when tracing was off: its settlement joins that trace.
	TraceParent string
}

// PayerAccount is the account a payment came from: its holder and bank.
type PayerAccount struct {
	Name  string
	TaxID string
	Bank  string
}

// Net is what the integrator receives when the charge is paid.
func (c Charge) Net() money.Money { return c.Amount - c.Fee }

// Issued says whether the provider has issued the QR code.
func (c Charge) Issued() bool { return c.PixID != nil }

// NewCharge is a validated charge request; the caller picks the id (UUIDv7).
type NewCharge struct {
	ID            uuid.UUID
	IntegratorID  int64
	ExternalID    string
	Amount        money.Money
	Fee           money.Money
	Payer         Payer
	PayerQuestion *string
	PostbackURL   *string
	Split         json.RawMessage
	// Expiration is the validity asked for, in seconds; nil leaves it to
	// the provider.
	Expiration  *int
	RequestHash []byte
	// Provider is the provider the charge is first sent to (see
	// ChargeIssue.Provider for another that issues it instead); ""
	// is DefaultProvider.
	Provider string
	// Due makes it a due-date charge: Amount is Due.Terms.Original and Fee
	// the fee on it.
	Due *ChargeDue
	// TraceParent is the W3C traceparent of the request's span, "" when
	// tracing is off (see Charge.TraceParent).
	TraceParent string
}

const chargeColumns = `id, integrator_id, external_id, amount, fee, status, pix_id, qrcode, expires_at,
	payer_name, payer_document, payer_email, payer_question, postback_url, split, refunded_amount,
	failure_reason, created_at, updated_at, paid_at, end_to_end_id, available_at, held_amount, released_at, expiration,
	coalesce(payer_account_name, ''), coalesce(payer_account_tax_id, ''), coalesce(payer_account_bank, ''), returned_reason,
	EXISTS (SELECT FROM infractions i WHERE i.charge_id = charges.id AND i.status = 'OPEN'), provider, debt_recovered, due, coalesce(trace_parent, '')`

func scanCharge(r pgx.CollectableRow) (Charge, error) {
	var c Charge
	err := r.Scan(chargeFields(&c)...)
	return c, err
}

// chargeFields are the destinations of chargeColumns.
func chargeFields(c *Charge) []any {
	return []any{&c.ID, &c.IntegratorID, &c.ExternalID, &c.Amount, &c.Fee, &c.Status, &c.PixID, &c.QRCode, &c.ExpiresAt,
		&c.Payer.Name, &c.Payer.Document, &c.Payer.Email, &c.PayerQuestion, &c.PostbackURL, &c.Split, &c.RefundedAmount,
		&c.FailureReason, &c.CreatedAt, &c.UpdatedAt, &c.PaidAt, &c.EndToEndID, &c.AvailableAt, &c.HeldAmount, &c.ReleasedAt,
		&c.Expiration, &c.PayerAccount.Name, &c.PayerAccount.TaxID, &c.PayerAccount.Bank, &c.ReturnedReason, &c.Disputed, &c.Provider, &c.DebtRecovered, &c.Due, &c.TraceParent}
}

// CreateCharge inserts the charge PENDING, not yet issued. A replay (same
// external_id, same request) returns the existing charge with created false;
// the same external_id with a different request is ErrIdempotencyConflict.
// A new charge is one statement (its own transaction, one round trip); a
// replay reads the charge that holds the external_id.
func (db *DB) CreateCharge(ctx context.Context, nc NewCharge) (c Charge, created bool, err error) {
	var split any
	if len(nc.Split) > 0 {
		split = nc.Split
	}
	rows, _ := db.pool.Query(ctx, `INSERT INTO charges (id, integrator_id, external_id, request_hash, amount, fee, status,
			payer_name, payer_document, payer_email, payer_question, postback_url, split, expiration, provider, due, trace_parent)
		VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $8, $9, $10, $11, $12, $13, coalesce(nullif($14::text, ''), 'default'), $15, nullif($16::text, ''))
		ON CONFLICT (integrator_id, external_id) DO NOTHING RETURNING `+chargeColumns,
		nc.ID, nc.IntegratorID, nc.ExternalID, nc.RequestHash, nc.Amount, nc.Fee,
		nc.Payer.Name, nc.Payer.Document, nc.Payer.Email, nc.PayerQuestion, nc.PostbackURL, split, nc.Expiration, nc.Provider, nc.Due, nc.TraceParent)
	inserted, err := pgx.CollectRows(rows, scanCharge)
	switch {
	case err != nil:
		return Charge{}, false, fmt.Errorf("storage: insert charge: %w", err)
	case len(inserted) == 1:
		return inserted[0], true, nil
	}
	var hash []byte
	rows, _ = db.pool.Query(ctx, `SELECT request_hash, `+chargeColumns+` FROM charges WHERE integrator_id = $1 AND external_id = $2`,
		nc.IntegratorID, nc.ExternalID)
	c, err = pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) (Charge, error) {
		var c Charge
		err := r.Scan(append([]any{&hash}, chargeFields(&c)...)...)
		return c, err
	})
	switch {
	case err != nil:
		return Charge{}, false, fmt.Errorf("storage: find charge: %w", err)
	case !bytes.Equal(hash, nc.RequestHash):
		return Charge{}, false, ErrIdempotencyConflict
	}
	return c, false, nil
}

// Charge returns one of the integrator's charges by UUID or external_id.
func (db *DB) Charge(ctx context.Context, integratorID int64, ref string) (Charge, error) {
	return findByRef(ctx, db.pool, `SELECT `+chargeColumns+` FROM charges WHERE integrator_id = $1`, scanCharge, integratorID, ref)
}

// ChargeByPixID returns the charge the provider knows as pixID.
func (db *DB) ChargeByPixID(ctx context.Context, pixID string) (Charge, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+chargeColumns+` FROM charges WHERE pix_id = $1`, pixID)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	return c, notFound(err)
}

// ChargeByEndToEndID returns the charge the PIX of end-to-end id e2e paid.
func (db *DB) ChargeByEndToEndID(ctx context.Context, e2e string) (Charge, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+chargeColumns+` FROM charges WHERE end_to_end_id = $1`, e2e)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	return c, notFound(err)
}

// ChargeIssue is what the provider returned for a charge.
type ChargeIssue struct {
	PixID     string
	QRCode    string
	ExpiresAt time.Time
	// Expiration is the validity the provider answered, in seconds (0 when
	// it said none); kept when the integrator asked for none.
	Expiration int
	// Provider is the provider that issued the charge when it is not the
	// one the charge was created for (a failover); "" keeps that one.
	Provider string
}

// ErrStateChanged: the record is no longer in the state the change expects
// (another request or worker moved it first).
var ErrStateChanged = fmt.Errorf("record changed state concurrently")

// IssueCharge records the provider's QR code on a PENDING charge not yet
// issued. Recording the same issue twice is harmless.
func (db *DB) IssueCharge(ctx context.Context, id uuid.UUID, is ChargeIssue) (Charge, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE charges SET pix_id = $2, qrcode = $3, expires_at = $4, failure_reason = NULL, updated_at = now(),
			expiration = coalesce(expiration, nullif($5::integer, 0)), provider = coalesce(nullif($6::text, ''), provider)
		WHERE id = $1 AND status = 'PENDING' AND (pix_id IS NULL OR pix_id = $2)
		RETURNING `+chargeColumns, id, is.PixID, is.QRCode, is.ExpiresAt, max(is.Expiration, 0), is.Provider)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	if err != nil {
		return Charge{}, fmt.Errorf("storage: issue charge %s: %w", id, stateChanged(err))
	}
	return c, nil
}

// FailCharge marks a charge that was never issued FAILED, keeping why.
func (db *DB) FailCharge(ctx context.Context, id uuid.UUID, reason string) (Charge, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE charges SET status = 'FAILED', failure_reason = $2, updated_at = now()
		WHERE id = $1 AND status = 'PENDING' AND pix_id IS NULL RETURNING `+chargeColumns, id, reason)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	if err != nil {
		return Charge{}, fmt.Errorf("storage: fail charge %s: %w", id, stateChanged(err))
	}
	return c, nil
}

// ReopenCharge puts a FAILED charge back to PENDING so that a retry with the
// same external_id can ask the provider again.
func (db *DB) ReopenCharge(ctx context.Context, id uuid.UUID) (Charge, error) {
	rows, _ := db.pool.Query(ctx, `UPDATE charges SET status = 'PENDING', updated_at = now()
		WHERE id = $1 AND status = 'FAILED' AND pix_id IS NULL RETURNING `+chargeColumns, id)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	if err != nil {
		return Charge{}, fmt.Errorf("storage: reopen charge %s: %w", id, stateChanged(err))
	}
	return c, nil
}

func stateChanged(err error) error {
	if err == pgx.ErrNoRows {
		return ErrStateChanged
	}
	return err
}
