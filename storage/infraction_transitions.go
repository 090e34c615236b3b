package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// NewInfraction is an infraction as its provider reported it; the caller
// picks the id (a UUIDv7).
type NewInfraction struct {
	ID         uuid.UUID
	ChargeID   uuid.UUID
	ProviderID string
	Amount     money.Money
	Reason     string
	ReportedAt time.Time // zero: not said
	DueAt      time.Time // zero: not said
}

// ErrChargeNotPaid: an infraction names a charge PixGate has not seen paid
// (yet); nothing was written.
var ErrChargeNotPaid = errors.New("the disputed charge is not paid")

// OpenInfraction records an infraction on a paid charge and blocks what it
// disputes, in the caller's transaction, under the charge's lock and then
// the wallet's: as much as the charge still has to give (its amount, less
// what was refunded or is blocked by its other open infractions), taken
// from the charge's net still held in pending first and then from the
// available balance, never more than they hold (infractionBlocked). What
// they did not cover is the infraction's shortfall, recorded on it. The
// same infraction arriving again (by notification, by polling, from two
// workers at once) returns the one recorded, with created false, and
// writes nothing.
func (t *Tx) OpenInfraction(ctx context.Context, ni NewInfraction) (Infraction, bool, error) {
	var (
		integrator             int64
		status                 ChargeStatus
		amount, refunded, held money.Money
	)
	err := t.tx.QueryRow(ctx, `SELECT integrator_id, status, amount, refunded_amount, held_amount FROM charges WHERE id = $1 FOR UPDATE`,
		ni.ChargeID).Scan(&integrator, &status, &amount, &refunded, &held)
	if err != nil {
		return Infraction{}, false, fmt.Errorf("storage: open infraction: %w", notFound(err))
	}
	if known, err := selectInfraction(ctx, t.tx, `charge_id = $1 AND provider_id = $2`, ni.ChargeID, ni.ProviderID); !errors.Is(err, ErrNotFound) {
		return known, false, err
	}
	if !status.Settled() {
		return Infraction{}, false, fmt.Errorf("%w: charge %s is %s", ErrChargeNotPaid, ni.ChargeID, status)
	}
	var blockedByOthers money.Money
	if err := t.tx.QueryRow(ctx, `SELECT coalesce(sum(blocked_amount), 0)::bigint FROM infractions WHERE charge_id = $1 AND status = 'OPEN'`,
		ni.ChargeID).Scan(&blockedByOthers); err != nil {
		return Infraction{}, false, fmt.Errorf("storage: open infraction: %w", err)
	}
	wallet, err := t.lockWallet(ctx, integrator)
	if err != nil {
		return Infraction{}, false, err
	}
	available := wallet[ledger.Available]
	want := min(ni.Amount, max(amount-refunded-blockedByOthers, 0))
	fromPending := min(want, held)
	fromAvailable := min(want-fromPending, max(available, 0))
	rows, _ := t.tx.Query(ctx, `WITH c AS (
			UPDATE charges SET held_amount = held_amount - $6, updated_at = now() WHERE id = $3
		)
		INSERT INTO infractions (id, integrator_id, charge_id, provider_id, amount, blocked_amount, from_pending, status, reason, reported_at, due_at)
		VALUES ($1, $2, $3, $4, $5, $6 + $7, $6, 'OPEN', nullif($8, ''), $9, $10) RETURNING `+infractionColumns,
		ni.ID, integrator, ni.ChargeID, ni.ProviderID, ni.Amount, fromPending, fromAvailable, ni.Reason,
		nullTime(ni.ReportedAt), nullTime(ni.DueAt))
	inf, err := pgx.CollectExactlyOneRow(rows, scanInfraction)
	if err != nil {
		return Infraction{}, false, fmt.Errorf("storage: open infraction: %w", err)
	}
	if inf.Blocked > 0 {
		if _, err := t.Post(ctx, infractionBlocked(inf.ID, integrator, fromPending, fromAvailable)); err != nil {
			return Infraction{}, false, err
		}
	}
	return inf, true, nil
}

// lockWallet locks the integrator's accounts in id order (the ledger's
// order) and returns their balances by kind.
func (t *Tx) lockWallet(ctx context.Context, integrator int64) (map[ledger.Kind]money.Money, error) {
	rows, _ := t.tx.Query(ctx, `SELECT kind, balance FROM ledger_accounts WHERE integrator_id = $1 ORDER BY id FOR UPDATE`, integrator)
	var (
		kind    string
		balance money.Money
	)
	balances := map[ledger.Kind]money.Money{}
	_, err := pgx.ForEachRow(rows, []any{&kind, &balance}, func() error {
		balances[ledger.Kind(kind)] = balance
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("storage: lock wallet %d: %w", integrator, err)
	}
	return balances, nil
}

// InfractionClosing is how an infraction closes.
type InfractionClosing struct {
	Status   InfractionStatus // AGREED, DISAGREED or CANCELLED
	Analysis string
	// MedReturnID is the id (a UUIDv7) of the MED return an agreed
	// infraction creates when the provider returns anything, and Outbox the messages that
	// create asks for (its send), written with it.
	MedReturnID uuid.UUID
	Outbox      []OutboxMessage
	// TraceParent is the W3C traceparent the MED return keeps (see
	// Transfer.TraceParent), "" when tracing is off.
	TraceParent string
}

// CloseInfraction closes an open infraction once, in the caller's
// transaction, under its charge's lock. Disagreed or cancelled, its
// blocked money is released (infractionReleased): what it took from the
// charge's held net back to pending while the charge is unreleased, the
// rest to available. Agreed, the provider returns to the payer what the
// infraction disputes, as far as the charge still had it to give
// (countReturned), whatever PixGate could block of it: that whole amount
// is reserved for a MED return (medReturnCreated), a transfer PROCESSING,
// the blocked money covering what it can and the rest booked as the
// integrator's debt; it is returned as ret (nil when the provider returns
// nothing). changed is false, and nothing is written, when the infraction
// was already closed.
func (t *Tx) CloseInfraction(ctx context.Context, id uuid.UUID, cl InfractionClosing) (inf Infraction, ret *Transfer, changed bool, err error) {
	if !InfractionOpen.CanMoveTo(cl.Status) {
		return Infraction{}, nil, false, fmt.Errorf("storage: close infraction %s as %q", id, cl.Status)
	}
	if _, err := t.tx.Exec(ctx, `SELECT 1 FROM charges WHERE id = (SELECT charge_id FROM infractions WHERE id = $1) FOR UPDATE`, id); err != nil {
		return Infraction{}, nil, false, fmt.Errorf("storage: close infraction %s: %w", id, err)
	}
	rows, _ := t.tx.Query(ctx, `UPDATE infractions SET status = $2, analysis = nullif($3, ''), closed_at = now(), updated_at = now()
		WHERE id = $1 AND status = 'OPEN' RETURNING `+infractionColumns, id, cl.Status, cl.Analysis)
	inf, err = pgx.CollectExactlyOneRow(rows, scanInfraction)
	if errors.Is(err, pgx.ErrNoRows) {
		inf, err = selectInfraction(ctx, t.tx, `id = $1`, id)
		return inf, nil, false, err
	}
	if err != nil {
		return Infraction{}, nil, false, fmt.Errorf("storage: close infraction %s: %w", id, err)
	}
	if cl.Status == InfractionAgreed {
		returned, err := t.countReturned(ctx, inf)
		if err != nil || returned == 0 {
			return inf, nil, err == nil, err
		}
		ret, err = t.createMedReturn(ctx, &inf, returned, cl)
		return inf, ret, err == nil, err
	}
	if inf.Blocked == 0 {
		return inf, nil, true, nil
	}
	var toPending money.Money
	if err := t.tx.QueryRow(ctx, `UPDATE charges SET held_amount = held_amount + CASE WHEN released_at IS NULL THEN $2::bigint ELSE 0 END,
			updated_at = now() WHERE id = $1 RETURNING CASE WHEN released_at IS NULL THEN $2::bigint ELSE 0 END`,
		inf.ChargeID, inf.FromPending).Scan(&toPending); err != nil {
		return Infraction{}, nil, false, fmt.Errorf("storage: release infraction %s: %w", id, err)
	}
	_, err = t.Post(ctx, infractionReleased(inf.ID, inf.IntegratorID, inf.Blocked, toPending))
	return inf, nil, err == nil, err
}

// countReturned counts what an agreed infraction gives the payer back
// against its charge's refundable amount, records it on the infraction
// (returned_amount) and returns it: the provider returns what the
// infraction disputes, however much of it PixGate blocked, so none of it
// may be refunded again. It is what the infraction disputes, at most what
// the charge still has to give (its amount less what was refunded and what
// its other open infractions block), and at least what it blocked. A
// charge with nothing left to give and nothing in flight is REFUNDED at
// once (an infraction that returns nothing has no MED return to complete
// it).
func (t *Tx) countReturned(ctx context.Context, inf Infraction) (money.Money, error) {
	var returned money.Money
	if err := t.tx.QueryRow(ctx, `WITH n AS (
			SELECT greatest($3::bigint, least($2::bigint, c.amount - c.refunded_amount - coalesce((SELECT sum(o.blocked_amount)
				FROM infractions o WHERE o.charge_id = c.id AND o.status = 'OPEN' AND o.id <> $1), 0))) AS n
			FROM charges c WHERE c.id = $4
		), i AS (
			UPDATE infractions SET returned_amount = n.n FROM n WHERE id = $1
		)
		UPDATE charges c SET refunded_amount = c.refunded_amount + n.n, updated_at = now(),
			status = CASE WHEN n.n = 0 AND c.status = 'PAID' AND c.refunded_amount + n.n = c.amount
				AND NOT EXISTS (SELECT 1 FROM refunds p WHERE p.charge_id = c.id AND p.status = 'PROCESSING')
				AND NOT EXISTS (SELECT 1 FROM med_returns p WHERE p.charge_id = c.id AND p.status = 'PROCESSING')
				THEN 'REFUNDED' ELSE c.status END
		FROM n WHERE c.id = $4 RETURNING n.n`, inf.ID, inf.Amount, inf.Blocked, inf.ChargeID).Scan(&returned); err != nil {
		return 0, fmt.Errorf("storage: count infraction %s as returned: %w", inf.ID, err)
	}
	return returned, nil
}

// createMedReturn writes an agreed infraction's MED return of returned,
// PROCESSING, with its outbox messages and its reservation (its charge
// already counts it: countReturned): what the infraction blocked covers
// what it can, then the available balance as far as it goes (money that
// arrived since the infraction opened), read under the wallet's lock; the
// rest is booked as the integrator's debt. covered records what blocked
// and available paid. The infraction is linked to it (inf.MedReturnID).
func (t *Tx) createMedReturn(ctx context.Context, inf *Infraction, returned money.Money, cl InfractionClosing) (*Transfer, error) {
	blocked := min(inf.Blocked, returned)
	shares, err := t.splitShares(ctx, inf.ChargeID)
	if err != nil {
		return nil, err
	}
	var (
		fromAvailable money.Money
		reversed      []splitMove
	)
	if returned > blocked || len(shares) > 0 {
		wallet, err := t.lockWallet(ctx, inf.IntegratorID)
		if err != nil {
			return nil, err
		}
		if reversed, err = t.medSplitReversals(ctx, inf.ChargeID, shares); err != nil {
			return nil, err
		}
		fromAvailable = max(min(returned-blocked, wallet[ledger.Available]+splitTotal(reversed)), 0)
	}
	covered := blocked + fromAvailable
	rows, _ := t.tx.Query(ctx, `WITH c AS (
			SELECT postback_url, provider FROM charges WHERE id = $3
		), i AS (
			UPDATE infractions SET med_return_id = $1 WHERE id = $4
		)
		INSERT INTO med_returns (id, integrator_id, charge_id, infraction_id, amount, covered, status, description, postback_url, provider, trace_parent)
		SELECT $1, $2, $3, $4, $5, $7, 'PROCESSING', $6, c.postback_url, c.provider, nullif($8::text, '') FROM c
		RETURNING `+KindMedReturn.columns(),
		cl.MedReturnID, inf.IntegratorID, inf.ChargeID, inf.ID, returned, "MED return of infraction "+inf.ProviderID, covered, cl.TraceParent)
	ret, err := pgx.CollectExactlyOneRow(rows, KindMedReturn.scan)
	if err != nil {
		return nil, fmt.Errorf("storage: create MED return of infraction %s: %w", inf.ID, err)
	}
	inf.MedReturnID = &ret.ID
	if err := writeOutbox(ctx, t.tx, cl.Outbox...); err != nil {
		return nil, err
	}
	if len(reversed) > 0 {
		if _, err := t.tx.Exec(ctx, recordSplitReversalSQL, splitReversalArgs(ret.ID, inf.ChargeID, reversed)...); err != nil {
			return nil, fmt.Errorf("storage: take back the split of infraction %s: %w", inf.ID, err)
		}
	}
	if _, err := t.Post(ctx, medReturnCreated(ret.ID, ret.IntegratorID, blocked, fromAvailable, returned-covered, reversed...)); err != nil {
		return nil, err
	}
	return &ret, nil
}

func nullTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
