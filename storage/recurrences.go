package storage

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Recurrence is a Pix Automático recurrence: the payer's consent to be
// debited every cycle of its calendar (docs/recurrences.md).
type Recurrence struct {
	ID           uuid.UUID
	IntegratorID int64
	ExternalID   string
	// Provider holds it; ProviderID is its id there, nil until registered.
	Provider   string
	ProviderID *string
	Status     recurrence.RecurrenceStatus
	Journey    recurrence.Journey
	Calendar   recurrence.Calendar
	Amount     recurrence.Amount
	// PayerMax is the maximum the payer set when consenting, once known.
	PayerMax    *money.Money
	RetryPolicy recurrence.RetryPolicy
	Payer       Payer
	// PayerAccount is where a pushed consent request went (journey PUSH).
	PayerAccount         *RecurrencePayerAccount
	Contract             string
	Description          *string
	QRCode               *string
	ConsentExpiresAt     time.Time
	CancelledBy          *string
	EndCode, EndReason   *string
	PostbackURL          *string
	FailureReason        *string
	CreatedAt, UpdatedAt time.Time
	ApprovedAt, EndedAt  *time.Time
	// FirstCharge is the first payment of a journey that has one: an
	// ordinary charge, paid with the payer's consent (cycle 0).
	FirstCharge *RecurrenceCharge
}

// RecurrenceCharge is a recurrence's first payment as its charge stands.
type RecurrenceCharge struct {
	ID     uuid.UUID
	PixID  *string
	Status string
	Amount money.Money
}

// RecurrencePayerAccount is the payer's account a pushed consent request
// goes to.
type RecurrencePayerAccount struct {
	ISPB    string `json:"ispb"`
	Branch  string `json:"branch"`
	Account string `json:"account"`
}

// Registered says whether the provider has registered it.
func (r Recurrence) Registered() bool { return r.ProviderID != nil }

// NewRecurrence is a validated recurrence request; the caller picks the id.
type NewRecurrence struct {
	ID               uuid.UUID
	IntegratorID     int64
	ExternalID       string
	RequestHash      []byte
	Provider         string
	Journey          recurrence.Journey
	Calendar         recurrence.Calendar
	Amount           recurrence.Amount
	RetryPolicy      recurrence.RetryPolicy
	Payer            Payer
	PayerAccount     *RecurrencePayerAccount
	Contract         string
	Description      *string
	ConsentExpiresAt time.Time
	PostbackURL      *string
	// FirstPayment is the first payment's charge, for the journeys that
	// have one (zero Amount: none): written with the recurrence.
	FirstPayment NewFirstPayment
}

// NewFirstPayment is a recurrence's first payment: its charge's id, amount
// and cash-in fee.
type NewFirstPayment struct {
	ChargeID    uuid.UUID
	Amount, Fee money.Money
}

const recurrenceColumns = `id, integrator_id, external_id, provider, provider_id, status, journey, periodicity,
	start_date, end_date, coalesce(cycle_count, 0), coalesce(amount_fixed, 0), coalesce(amount_floor, 0), payer_max, retry_policy,
	payer_name, payer_document, payer_email, payer_account, contract, description, qrcode, consent_expires_at,
	cancelled_by, end_code, end_reason, postback_url, failure_reason, created_at, updated_at, approved_at, ended_at, first_charge_id,
	(SELECT ch.pix_id FROM charges ch WHERE ch.id = recurrences.first_charge_id),
	(SELECT ch.status FROM charges ch WHERE ch.id = recurrences.first_charge_id),
	(SELECT ch.amount FROM charges ch WHERE ch.id = recurrences.first_charge_id)`

func scanRecurrence(row pgx.CollectableRow) (Recurrence, error) {
	var r Recurrence
	var start time.Time
	var end *time.Time
	var first *uuid.UUID
	var firstPix, firstStatus *string
	var firstAmount *money.Money
	err := row.Scan(&r.ID, &r.IntegratorID, &r.ExternalID, &r.Provider, &r.ProviderID, &r.Status, &r.Journey, &r.Calendar.Periodicity,
		&start, &end, &r.Calendar.Count, &r.Amount.Fixed, &r.Amount.Floor, &r.PayerMax, &r.RetryPolicy,
		&r.Payer.Name, &r.Payer.Document, &r.Payer.Email, &r.PayerAccount, &r.Contract, &r.Description, &r.QRCode, &r.ConsentExpiresAt,
		&r.CancelledBy, &r.EndCode, &r.EndReason, &r.PostbackURL, &r.FailureReason, &r.CreatedAt, &r.UpdatedAt, &r.ApprovedAt, &r.EndedAt, &first,
		&firstPix, &firstStatus, &firstAmount)
	if first != nil && firstStatus != nil && firstAmount != nil {
		r.FirstCharge = &RecurrenceCharge{ID: *first, PixID: firstPix, Status: *firstStatus, Amount: *firstAmount}
	}
	r.Calendar.Start = due.DateOf(start)
	if end != nil {
		r.Calendar.End = due.DateOf(*end)
	}
	return r, err
}

// dateArg is a day as Postgres takes a date; nil for the zero Date.
func dateArg(d due.Date) *string {
	if d.IsZero() {
		return nil
	}
	s := d.String()
	return &s
}

// CreateRecurrence inserts the recurrence CREATED, not yet registered. A
// replay (same external_id, same request) returns the existing one with
// created false; the same external_id with another request is
// ErrIdempotencyConflict.
func (db *DB) CreateRecurrence(ctx context.Context, nr NewRecurrence) (r Recurrence, created bool, err error) {
	var inserted []Recurrence
	err = db.InTx(ctx, func(t *Tx) error {
		rows, _ := t.tx.Query(ctx, `INSERT INTO recurrences (id, integrator_id, external_id, request_hash, provider, status, journey,
				periodicity, start_date, end_date, cycle_count, amount_fixed, amount_floor, retry_policy, payer_name, payer_document,
				payer_email, payer_account, contract, description, consent_expires_at, postback_url)
			VALUES ($1, $2, $3, $4, coalesce(nullif($5::text, ''), 'default'), 'CREATED', $6, $7, $8::date, $9::date, nullif($10::integer, 0),
				nullif($11::bigint, 0), nullif($12::bigint, 0), $13, $14, $15, $16, $17, $18, $19, $20, $21)
			ON CONFLICT (integrator_id, external_id) DO NOTHING RETURNING `+recurrenceColumns,
			nr.ID, nr.IntegratorID, nr.ExternalID, nr.RequestHash, nr.Provider, nr.Journey, nr.Calendar.Periodicity,
			nr.Calendar.Start.String(), dateArg(nr.Calendar.End), nr.Calendar.Count, nr.Amount.Fixed, nr.Amount.Floor, nr.RetryPolicy,
			nr.Payer.Name, nr.Payer.Document, nr.Payer.Email, nr.PayerAccount, nr.Contract, nr.Description, nr.ConsentExpiresAt, nr.PostbackURL)
		var err error
		if inserted, err = pgx.CollectRows(rows, scanRecurrence); err != nil || len(inserted) == 0 || nr.FirstPayment.Amount == 0 {
			return err
		}
		inserted[0], err = t.addFirstPayment(ctx, nr)
		return err
	})
	switch {
	case err != nil:
		return Recurrence{}, false, fmt.Errorf("storage: insert recurrence: %w", err)
	case len(inserted) == 1:
		return inserted[0], true, nil
	}
	var hash []byte
	rows, _ := db.pool.Query(ctx, `SELECT request_hash, `+recurrenceColumns+` FROM recurrences WHERE integrator_id = $1 AND external_id = $2`,
		nr.IntegratorID, nr.ExternalID)
	r, err = pgx.CollectExactlyOneRow(rows, func(row pgx.CollectableRow) (Recurrence, error) {
		var h []byte
		rec, err := scanRecurrence(prefixed{row, &h})
		hash = h
		return rec, err
	})
	switch {
	case err != nil:
		return Recurrence{}, false, fmt.Errorf("storage: find recurrence: %w", err)
	case !bytes.Equal(hash, nr.RequestHash):
		return Recurrence{}, false, ErrIdempotencyConflict
	}
	return r, false, nil
}

// prefixed scans one column ahead of a row's own.
type prefixed struct {
	pgx.CollectableRow
	first any
}

func (p prefixed) Scan(dest ...any) error {
	return p.CollectableRow.Scan(append([]any{p.first}, dest...)...)
}

// Recurrence returns one of the integrator's recurrences by id or
// external_id.
func (db *DB) Recurrence(ctx context.Context, integratorID int64, ref string) (Recurrence, error) {
	return findByRef(ctx, db.pool, `SELECT `+recurrenceColumns+` FROM recurrences WHERE integrator_id = $1`, scanRecurrence, integratorID, ref)
}

// ListRecurrences is one page of the integrator's recurrences, newest
// first (ListParams as every list).
func (db *DB) ListRecurrences(ctx context.Context, p ListParams) ([]Recurrence, bool, error) {
	return list(ctx, db, `SELECT `+recurrenceColumns+` FROM recurrences`, scanRecurrence, p)
}

// RecurrenceByID returns a recurrence by PixGate's id.
func (db *DB) RecurrenceByID(ctx context.Context, id uuid.UUID) (Recurrence, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+recurrenceColumns+` FROM recurrences WHERE id = $1`, id)
	r, err := pgx.CollectExactlyOneRow(rows, scanRecurrence)
	return r, notFound(err)
}

// RecurrenceByProviderID returns the recurrence a provider knows as id.
func (db *DB) RecurrenceByProviderID(ctx context.Context, provider, id string) (Recurrence, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+recurrenceColumns+` FROM recurrences WHERE provider = $1 AND provider_id = $2`, provider, id)
	r, err := pgx.CollectExactlyOneRow(rows, scanRecurrence)
	return r, notFound(err)
}

// addFirstPayment writes a new recurrence's first payment: an ordinary
// charge (PENDING, not yet issued; external_id rec-<recurrence id>, the
// recurrence's payer and postback URL, payable until the consent's
// deadline), linked as its first_charge_id.
func (t *Tx) addFirstPayment(ctx context.Context, nr NewRecurrence) (Recurrence, error) {
	fp := nr.FirstPayment
	expiration := max(int(time.Until(nr.ConsentExpiresAt).Seconds()), 1)
	if _, err := t.tx.Exec(ctx, `INSERT INTO charges (id, integrator_id, external_id, request_hash, amount, fee, status, payer_name,
			payer_document, payer_email, postback_url, provider, expiration)
		VALUES ($1, $2, $3 || $4::text, decode(replace($4::text, '-', ''), 'hex'), $5, $6, 'PENDING', $7, $8, $9, $10,
			coalesce(nullif($11::text, ''), 'default'), $12)`,
		fp.ChargeID, nr.IntegratorID, CycleChargePrefix, nr.ID, fp.Amount, fp.Fee, nr.Payer.Name, nr.Payer.Document, nr.Payer.Email,
		nr.PostbackURL, nr.Provider, expiration); err != nil {
		return Recurrence{}, err
	}
	rows, _ := t.tx.Query(ctx, `UPDATE recurrences SET first_charge_id = $2 WHERE id = $1 RETURNING `+recurrenceColumns, nr.ID, fp.ChargeID)
	return pgx.CollectExactlyOneRow(rows, scanRecurrence)
}
