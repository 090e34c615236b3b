package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
)

// ChargeByID returns a charge by id, whoever owns it (for workers).
func (db *DB) ChargeByID(ctx context.Context, id uuid.UUID) (Charge, error) {
	return getChargeByID(ctx, db.pool, id)
}

// ChargeByID reads a charge in this transaction, for a change that
// already holds locks: through the pool it would need a second connection
// while holding them.
func (t *Tx) ChargeByID(ctx context.Context, id uuid.UUID) (Charge, error) {
	return getChargeByID(ctx, t.tx, id)
}

func getChargeByID(ctx context.Context, q ledger.Querier, id uuid.UUID) (Charge, error) {
	return getByID(ctx, q, "charges", chargeColumns, scanCharge, id)
}

// MarkChargePaid moves a PENDING (or EXPIRED: a payment the provider
// accepted late still counts) charge to PAID and credits the wallet: the
// amount arrives at the provider, the fee goes to the platform and the net
// to the integrator: to its available balance at once, or under a
// settlement hold to its pending balance until available_at (paid_at plus
// the integrator's hold at this moment), when the worker releases it. The
// settlement's end-to-end id is kept when the provider gave one. changed is
// false (and nothing is written) when the charge was already paid.
func (t *Tx) MarkChargePaid(ctx context.Context, id uuid.UUID, s Settlement) (c Charge, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `WITH h AS (
			SELECT i.cashin_hold AS hold FROM charges c JOIN integrators i ON i.id = c.integrator_id WHERE c.id = $1)
		UPDATE charges SET status = 'PAID', paid_at = $2, pix_id = coalesce(pix_id, nullif($3, '')),
			end_to_end_id = nullif($4, ''), updated_at = now(),
			available_at = $2::timestamptz + h.hold,
			held_amount = CASE WHEN h.hold > interval '0' THEN amount - fee ELSE 0 END,
			released_at = CASE WHEN h.hold > interval '0' THEN NULL ELSE now() END
		FROM h WHERE id = $1 AND status IN ('PENDING', 'EXPIRED') RETURNING `+chargeColumns, id, s.At, s.PixID, s.EndToEndID)
	c, err = pgx.CollectExactlyOneRow(rows, scanCharge)
	if err == pgx.ErrNoRows {
		c, err = getChargeByID(ctx, t.tx, id)
		return c, false, err
	}
	if err != nil {
		return Charge{}, false, fmt.Errorf("storage: mark charge paid: %w", err)
	}
	credited := ledger.Available
	if c.HeldAmount > 0 {
		credited = ledger.Pending
	}
	entries := []ledger.Entry{
		{Account: ledger.Platform(ledger.Provider), Amount: -c.Amount},
		{Account: ledger.Of(c.IntegratorID, credited), Amount: c.Net()},
	}
	if c.Fee > 0 {
		entries = append(entries, ledger.Entry{Account: ledger.Platform(ledger.Fees), Amount: c.Fee})
	}
	_, err = t.Post(ctx, ledger.Transaction{Reference: "charge:" + id.String() + ":paid", Kind: "charge.paid", Entries: entries})
	return c, err == nil, err
}

// ExpireCharge moves a PENDING charge to EXPIRED; no money moves.
func (t *Tx) ExpireCharge(ctx context.Context, id uuid.UUID) (c Charge, changed bool, err error) {
	rows, _ := t.tx.Query(ctx, `UPDATE charges SET status = 'EXPIRED', updated_at = now()
		WHERE id = $1 AND status = 'PENDING' RETURNING `+chargeColumns, id)
	c, err = pgx.CollectExactlyOneRow(rows, scanCharge)
	if err == pgx.ErrNoRows {
		c, err = getChargeByID(ctx, t.tx, id)
		return c, false, err
	}
	return c, err == nil, err
}

// UnissuedCharges returns PENDING charges that never got a QR code and are
// older than olderThan: the request that created them died mid-way.
func (db *DB) UnissuedCharges(ctx context.Context, olderThan time.Duration, limit int) ([]Charge, error) {
	rows, _ := db.pool.Query(ctx, `SELECT `+chargeColumns+` FROM charges
		WHERE status = 'PENDING' AND pix_id IS NULL AND created_at < now() - $1::interval ORDER BY created_at LIMIT $2`, olderThan, limit)
	return pgx.CollectRows(rows, scanCharge)
}
