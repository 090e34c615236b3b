package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
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
	rows, _ := q.Query(ctx, `SELECT `+chargeColumns+` FROM charges WHERE id = $1`, id)
	c, err := pgx.CollectExactlyOneRow(rows, scanCharge)
	return c, notFound(err)
}

// MarkChargePaid moves a PENDING (or EXPIRED: a payment the provider
// accepted late still counts) charge to PAID and credits the wallet: the
// amount arrives at the provider, the fee goes to the platform and the net
// to the integrator: to its available balance at once, or under a
// settlement hold to its pending balance until available_at (paid_at plus
// the integrator's hold at this moment), when the worker releases it. The
// settlement's end-to-end id is kept when the provider gave one. changed is
// false (and nothing is written) when the charge was already paid.
//
// A same-holder integrator keeps no payment made from another document:
// when s.Return is given, the integrator has the rule, and s.PayerDocument
// is not the charge's payer.document (or is unknown), the charge is paid
// and returned at once instead (see returnCharge): it comes back with its
// ReturnedReason set.
func (t *Tx) MarkChargePaid(ctx context.Context, id uuid.UUID, s Settlement) (c Charge, changed bool, err error) {
	var reason *string
	if s.Return != nil {
		reason = &s.Return.Reason
	}
	rows, _ := t.tx.Query(ctx, `WITH h AS (
			SELECT i.cashin_hold AS hold,
			       CASE WHEN $10::bigint > 0 THEN $10::bigint ELSE c.amount END AS amt,
			       CASE WHEN $10::bigint > 0 THEN $11::bigint ELSE c.fee END AS fe,
			       $8::text IS NOT NULL AND i.same_holder AND c.payer_document IS DISTINCT FROM nullif($9, '') AS returned,
			       EXISTS (SELECT FROM ledger_accounts a WHERE a.integrator_id = c.integrator_id AND a.kind = 'debt' AND a.balance < 0) AS owes
			FROM charges c JOIN integrators i ON i.id = c.integrator_id WHERE c.id = $1)
		UPDATE charges SET status = 'PAID', paid_at = $2, amount = h.amt, fee = h.fe, pix_id = coalesce(pix_id, nullif($3, '')),
			end_to_end_id = nullif($4, ''), updated_at = now(),
			payer_account_name = nullif($5, ''), payer_account_tax_id = nullif($6, ''), payer_account_bank = nullif($7, ''),
			available_at = $2::timestamptz + CASE WHEN h.returned THEN interval '0' ELSE h.hold END,
			held_amount = CASE WHEN h.hold > interval '0' AND NOT h.returned THEN h.amt - h.fe ELSE 0 END,
			released_at = CASE WHEN h.hold > interval '0' AND NOT h.returned THEN NULL ELSE now() END,
			refunded_amount = CASE WHEN h.returned THEN h.amt ELSE refunded_amount END,
			returned_reason = CASE WHEN h.returned THEN $8 END
		FROM h WHERE id = $1 AND status IN ('PENDING', 'EXPIRED') RETURNING `+chargeColumns+`, h.owes`, id, s.At, s.PixID, s.EndToEndID,
		s.PayerAccount.Name, s.PayerAccount.TaxID, s.PayerAccount.Bank, reason, s.PayerDocument, s.Amount, s.Fee)
	var owes bool
	c, err = pgx.CollectExactlyOneRow(rows, func(r pgx.CollectableRow) (Charge, error) {
		var c Charge
		return c, r.Scan(append(chargeFields(&c), &owes)...)
	})
	if err == pgx.ErrNoRows {
		c, err = getChargeByID(ctx, t.tx, id)
		return c, false, err
	}
	if err != nil {
		return Charge{}, false, fmt.Errorf("storage: mark charge paid: %w", err)
	}
	if c.ReturnedReason != nil {
		err = t.returnCharge(ctx, c, *s.Return)
		return c, err == nil, err
	}
	held := c.HeldAmount > 0
	parts, err := t.applySplit(ctx, &c)
	if err != nil {
		return Charge{}, false, err
	}
	var recovered money.Money
	if owes {
		if recovered, err = t.recoverDebt(ctx, &c, splitTotal(parts)); err != nil {
			return Charge{}, false, err
		}
	}
	_, err = t.Post(ctx, chargePaid(c.ID, c.IntegratorID, c.Provider, c.Amount, c.Fee, held, recovered, parts...))
	return c, err == nil, err
}

// recoverDebt takes what its integrator owes (its debt: MED returns beyond
// what was blocked) out of a charge just marked paid, before anything of
// it is credited to the integrator: at most the charge's net less what its
// split's recipients took (split), read under the wallet's lock
// (taken after the charge's, as every transaction that moves a charge's
// money does). What it takes is recorded on the charge (debt_recovered)
// and leaves what the charge holds under a settlement hold; a charge left
// holding nothing is released at once.
func (t *Tx) recoverDebt(ctx context.Context, c *Charge, split money.Money) (money.Money, error) {
	wallet, err := t.lockWallet(ctx, c.IntegratorID)
	if err != nil {
		return 0, err
	}
	r := min(-wallet[ledger.Debt], c.Amount-c.Fee-split)
	if r <= 0 {
		return 0, nil
	}
	if err := t.tx.QueryRow(ctx, `UPDATE charges SET debt_recovered = $2,
			held_amount = CASE WHEN released_at IS NULL THEN held_amount - $2 ELSE held_amount END,
			released_at = CASE WHEN released_at IS NULL AND held_amount = $2 THEN now() ELSE released_at END
		WHERE id = $1 RETURNING held_amount, released_at, debt_recovered`, c.ID, r).Scan(&c.HeldAmount, &c.ReleasedAt, &c.DebtRecovered); err != nil {
		return 0, fmt.Errorf("storage: recover debt from charge %s: %w", c.ID, err)
	}
	return r, nil
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

// ChargeReturn is how PixGate returns a payment it may not keep: the refund
// that sends the whole amount back to the payer, why, and the messages
// that send it.
type ChargeReturn struct {
	RefundID uuid.UUID
	Reason   string
	Outbox   []OutboxMessage
	// TraceParent is the W3C traceparent the refund keeps (see
	// Transfer.TraceParent), "" when tracing is off.
	TraceParent string
}

// returnCharge returns a charge just marked paid that PixGate may not keep
// (a same-holder integrator's, paid from another document): its amount
// goes straight into the reservation of a refund of all of it, fee-free,
// PROCESSING with its outbox messages (chargePaidByAnotherHolder), so the
// integrator never holds the money. The charge becomes REFUNDED when the
// refund completes.
func (t *Tx) returnCharge(ctx context.Context, c Charge, r ChargeReturn) error {
	if _, err := t.tx.Exec(ctx, `INSERT INTO refunds (id, integrator_id, charge_id, request_hash, amount, fee, status, description, postback_url, provider, trace_parent)
		VALUES ($1, $2, $3, '\x00'::bytea, $4, 0, 'PROCESSING', $5, $6, $7, nullif($8::text, ''))`,
		r.RefundID, c.IntegratorID, c.ID, c.Amount, r.Reason, c.PostbackURL, c.Provider, r.TraceParent); err != nil {
		return fmt.Errorf("storage: return charge %s: %w", c.ID, err)
	}
	if err := writeOutbox(ctx, t.tx, r.Outbox...); err != nil {
		return err
	}
	_, err := t.Post(ctx, chargePaidByAnotherHolder(c.ID, c.IntegratorID, c.Provider, c.Amount))
	return err
}
