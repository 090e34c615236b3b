package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// NewRefund is a validated refund of one of the integrator's charges, which
// it names by pix_id. The caller chooses the id (a UUIDv7) so it can name
// the outbox message that sends it.
type NewRefund struct {
	ID           uuid.UUID
	IntegratorID int64
	ChargePixID  string
	ExternalID   *string
	Amount       money.Money
	Fee          money.Money
	Description  *string
	RequestHash  []byte
	Outbox       []OutboxMessage
	// Check judges the charge, read under its row lock, against the refund
	// rules; an error refuses the refund and is returned as it is. Storage
	// itself only keeps the refunds within the charge's amount (a CHECK).
	// Concurrent refunds of one charge are judged one after the other.
	Check func(Charge) error
	// TraceParent is the W3C traceparent of the span that writes it, ""
	// when tracing is off (see Transfer.TraceParent).
	TraceParent string
}

// createRefundSQL writes a refund judged under its charge's lock (see
// transferCreateSQL): the refund row and the charge's refunded and held
// amounts, with the outbox messages and the reservation
// (refundCreated).
var createRefundSQL = transferCreateSQL(`INSERT INTO refunds (id, integrator_id, charge_id, external_id, request_hash, amount, fee, status,
      description, postback_url, from_pending, provider, trace_parent)
  SELECT $11::uuid, $12::bigint, $13::uuid, $14::text, $15::bytea, $16::bigint, $17::bigint, 'PROCESSING', $18::text, $19::text,
      $20::bigint, $21::text, nullif($22::text, '')`, `, c AS (
  UPDATE charges SET refunded_amount = refunded_amount + $16, held_amount = held_amount - $20, updated_at = now()
  FROM w WHERE charges.id = $13
)`)

// CreateRefund refunds part or all of a paid charge. In one SQL transaction
// it locks the charge, lets Check judge it, adds the amount to the charge's
// refunded amount, inserts the refund PROCESSING (its postbacks go to the
// charge's postbackUrl) with its outbox messages, and reserves amount + fee:
// from the pending balance first, as far as the charge's own net is still
// held there under a settlement hold, and the rest from the available
// balance (see refundCreated). A replay (same external_id, same request)
// returns the existing refund with created false and changes nothing. It
// fails with ErrNotFound (no such charge for this integrator), Check's
// error, ledger.ErrInsufficientFunds or ErrIdempotencyConflict, and then
// nothing changed.
//
// The transaction is two round trips on one connection: BEGIN, the charge's
// lock and the replay's lookup pipelined; then, once Check has passed, the
// writes as one statement pipelined with COMMIT. The charge is locked
// before the wallet, as when a refund finishes. Every answer is read on
// that one connection, never on a second one from the pool: as many
// concurrent replays as the pool has connections would each hold one and
// wait for another, forever.
func (db *DB) CreateRefund(ctx context.Context, nr NewRefund) (Transfer, bool, error) {
	conn, err := db.pool.Acquire(ctx)
	if err != nil {
		return Transfer{}, false, fmt.Errorf("storage: create refund: %w", err)
	}
	// A connection released inside a transaction is closed, not pooled:
	// whatever went wrong below, nothing stays locked.
	defer conn.Release()
	c, shares, replay, err := beginRefund(ctx, conn, nr)
	if err == nil && !replay && nr.Check != nil {
		err = nr.Check(c)
	}
	if err != nil || replay {
		_, _ = conn.Exec(ctx, "ROLLBACK")
		if err != nil {
			return Transfer{}, false, err
		}
		f, err := replayedTransfer(ctx, conn, KindRefund, nr.IntegratorID, nr.ExternalID, nr.RequestHash)
		return f, false, err
	}
	f := Transfer{Kind: KindRefund, ID: nr.ID, IntegratorID: nr.IntegratorID, ChargeID: c.ID, ChargePixID: nr.ChargePixID,
		ExternalID: nr.ExternalID, Amount: nr.Amount, Fee: nr.Fee, Status: TransferProcessing, Description: nr.Description,
		PostbackURL: c.PostbackURL, Provider: c.Provider, TraceParent: nr.TraceParent}
	reversed := splitReversals(shares, c.Amount, c.RefundedAmount+f.Amount, nil)
	reserve, fromPending := refundCreated(f.ID, f.IntegratorID, f.Amount, f.Fee, c.HeldAmount, reversed...)
	if err := reserve.Validate(); err != nil {
		_, _ = conn.Exec(ctx, "ROLLBACK")
		return Transfer{}, false, err
	}
	f.FromPending = fromPending
	var (
		wrote   bool
		refusal error // the statement's answer; COMMIT runs all the same
	)
	b := &pgx.Batch{}
	b.Queue(createRefundSQL, transferCreateArgs(reserve, nr.Outbox, f.ID, f.IntegratorID, f.ChargeID, f.ExternalID, nr.RequestHash,
		f.Amount, f.Fee, f.Description, f.PostbackURL, f.FromPending, f.Provider, f.TraceParent)...).QueryRow(func(row pgx.Row) (err error) {
		wrote, err = transferCreated(row, &f.CreatedAt, &f.UpdatedAt)
		if ledger.IsRefusal(err) {
			refusal, err = err, nil
		}
		return err
	})
	if len(reversed) > 0 {
		b.Queue(recordSplitReversalSQL, splitReversalArgs(f.ID, f.ChargeID, reversed)...)
	}
	b.Queue("COMMIT") // a refused refund commits nothing but the end of the charge's lock
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		_, _ = conn.Exec(ctx, "ROLLBACK")
		return Transfer{}, false, fmt.Errorf("storage: create refund: %w", err)
	}
	if !wrote {
		f, err = notCreated(ctx, conn, KindRefund, nr.IntegratorID, nr.ExternalID, nr.RequestHash,
			heldShort(splitShort(refusal, f.IntegratorID), f.Amount+f.Fee, fromPending))
		return f, false, err
	}
	db.afterCommit(ctx, nr.Outbox)
	return f, true, nil
}

// beginRefund begins the transaction and locks the integrator's
// charge nr names, and reads its split's recipients (shares, none for a
// charge without a split); replay is true when a refund already holds nr's
// external_id (it is answered before the rules: it may be what used the
// charge up). One round trip.
func beginRefund(ctx context.Context, conn *pgxpool.Conn, nr NewRefund) (c Charge, shares []splitShare, replay bool, err error) {
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue(`SELECT `+chargeColumns+` FROM charges WHERE integrator_id = $1 AND pix_id = $2 FOR UPDATE`,
		nr.IntegratorID, nr.ChargePixID).Query(func(rows pgx.Rows) (err error) {
		c, err = pgx.CollectExactlyOneRow(rows, scanCharge)
		return notFound(err)
	})
	b.Queue(`SELECT s.recipient_id, s.credited, s.reversed FROM charge_splits s JOIN charges c ON c.id = s.charge_id
		WHERE c.integrator_id = $1 AND c.pix_id = $2 ORDER BY s.recipient_id`, nr.IntegratorID, nr.ChargePixID).Query(func(rows pgx.Rows) (err error) {
		shares, err = scanSplitShares(rows)
		return err
	})
	if nr.ExternalID != nil {
		b.Queue(`SELECT EXISTS (SELECT FROM refunds WHERE integrator_id = $1 AND external_id = $2)`,
			nr.IntegratorID, nr.ExternalID).QueryRow(func(r pgx.Row) error { return r.Scan(&replay) })
	}
	if err := conn.SendBatch(ctx, b).Close(); err != nil {
		if !errors.Is(err, ErrNotFound) {
			err = fmt.Errorf("storage: create refund: %w", err)
		}
		return Charge{}, nil, false, err
	}
	return c, shares, replay, nil
}

// heldShort is the refusal of a refund of a held charge that the charge's
// held net and the available balance together do not cover: err, the
// ledger's refusal, as a HeldRefundShortError.
func heldShort(err error, total, fromPending money.Money) error {
	var short *ledger.InsufficientFundsError
	if errors.As(err, &short) && fromPending > 0 {
		return &HeldRefundShortError{Total: total, FromHeld: fromPending, Available: short.Balance}
	}
	return err
}

// HeldRefundShortError refuses a refund of a held charge that the charge's
// held net and the available balance together do not cover. It is a
// ledger.ErrInsufficientFunds; nothing was reserved.
type HeldRefundShortError struct {
	Total     money.Money // amount + fee
	FromHeld  money.Money // what the charge's held net in pending covers
	Available money.Money // the available balance, short of the rest
}

func (e *HeldRefundShortError) Error() string {
	return fmt.Sprintf("insufficient funds: the refund needs %s, the charge's held net covers %s and the available balance %s does not cover the rest",
		e.Total, e.FromHeld, e.Available)
}

// Is makes errors.Is(err, ledger.ErrInsufficientFunds) true.
func (e *HeldRefundShortError) Is(target error) bool { return target == ledger.ErrInsufficientFunds }
