package storage

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/split"
)

// A split charge (docs/api-v1.md#split) credits parts of its net to
// sub-accounts of its integrator when paid, in its charge.paid posting,
// and takes them back pro rata when refunded or returned under MED, in
// those postings. charge_splits records what each recipient was credited
// and what was taken back; split_reversals what each refund or MED return
// took, so that a failed one gives it back.

// applySplit divides a charge just marked paid among its split's
// recipients (split.Parts) and records their parts (charge_splits); what
// they take leaves what the charge holds for its integrator under a
// settlement hold (a charge left holding nothing is released at once). A
// charge without an executable split moves nothing.
func (t *Tx) applySplit(ctx context.Context, c *Charge) ([]splitMove, error) {
	s, err := split.Decode(c.Split)
	if err != nil {
		return nil, nil
	}
	parts, _ := s.Parts(c.Amount, c.Fee)
	moves := make([]splitMove, 0, len(parts))
	ids, credited := make([]int64, len(parts)), make([]int64, len(parts))
	for i, p := range parts {
		ids[i], credited[i] = p.SubAccount, int64(p.Credited)
		moves = append(moves, splitMove{recipient: p.SubAccount, amount: p.Credited})
	}
	if _, err := t.tx.Exec(ctx, `INSERT INTO charge_splits (charge_id, recipient_id, credited)
		SELECT $1, r, c FROM unnest($2::bigint[], $3::bigint[]) AS x(r, c)`, c.ID, ids, credited); err != nil {
		return nil, fmt.Errorf("storage: split charge %s: %w", c.ID, err)
	}
	if total := splitTotal(moves); total > 0 && c.ReleasedAt == nil {
		if err := t.tx.QueryRow(ctx, `UPDATE charges SET held_amount = held_amount - $2,
				released_at = CASE WHEN held_amount = $2 THEN now() END
			WHERE id = $1 RETURNING held_amount, released_at`, c.ID, total).Scan(&c.HeldAmount, &c.ReleasedAt); err != nil {
			return nil, fmt.Errorf("storage: split charge %s: %w", c.ID, err)
		}
	}
	return moves, nil
}

// splitShare is one recipient's record of a split charge.
type splitShare struct {
	recipient          int64
	credited, reversed money.Money
}

// chargeSplitSQL reads a charge's recipients, in their id order (the
// order their wallets are locked in).
const chargeSplitSQL = `SELECT recipient_id, credited, reversed FROM charge_splits WHERE charge_id = $1 ORDER BY recipient_id`

func scanSplitShares(rows pgx.Rows) ([]splitShare, error) {
	var (
		out []splitShare
		s   splitShare
	)
	_, err := pgx.ForEachRow(rows, []any{&s.recipient, &s.credited, &s.reversed}, func() error {
		out = append(out, s)
		return nil
	})
	return out, err
}

// splitReversals is what giving the payer of a charge of amount back
// returned in all (this return included) takes back from each recipient
// (split.Reversal), at most limit(recipient) when limit is not nil.
func splitReversals(shares []splitShare, amount, returned money.Money, limit func(int64) money.Money) []splitMove {
	var moves []splitMove
	for _, s := range shares {
		x := split.Reversal(s.credited, s.reversed, amount, returned)
		if limit != nil {
			x = max(min(x, limit(s.recipient)), 0)
		}
		if x > 0 {
			moves = append(moves, splitMove{recipient: s.recipient, amount: x})
		}
	}
	return moves
}

// splitShares reads a charge's recipients.
func (t *Tx) splitShares(ctx context.Context, charge uuid.UUID) ([]splitShare, error) {
	rows, _ := t.tx.Query(ctx, chargeSplitSQL, charge)
	shares, err := scanSplitShares(rows)
	if err != nil {
		return nil, fmt.Errorf("storage: read the split of charge %s: %w", charge, err)
	}
	return shares, nil
}

// medSplitReversals is what a MED return of a split charge, which its
// charge already counts as given back (refunded_amount), takes back from
// each recipient: its pro rata part, as far as its available balance goes
// (read under its wallet's lock, taken after the integrator's). What a
// recipient no longer has is the integrator's to return.
func (t *Tx) medSplitReversals(ctx context.Context, charge uuid.UUID, shares []splitShare) ([]splitMove, error) {
	if len(shares) == 0 {
		return nil, nil
	}
	var amount, returned money.Money
	if err := t.tx.QueryRow(ctx, `SELECT amount, refunded_amount FROM charges WHERE id = $1`, charge).Scan(&amount, &returned); err != nil {
		return nil, fmt.Errorf("storage: read charge %s: %w", charge, err)
	}
	available := map[int64]money.Money{}
	for _, s := range shares {
		w, err := t.lockWallet(ctx, s.recipient)
		if err != nil {
			return nil, err
		}
		available[s.recipient] = w[ledger.Available]
	}
	return splitReversals(shares, amount, returned, func(r int64) money.Money { return available[r] }), nil
}

// recordSplitReversalSQL records what transfer $1 (a refund or a MED
// return) of charge $2 took back from recipients $3 (amounts $4), only when
// the transfer was written: a refused refund records nothing.
const recordSplitReversalSQL = `WITH x AS (
		SELECT r, a FROM unnest($3::bigint[], $4::bigint[]) AS x(r, a)
		WHERE EXISTS (SELECT FROM refunds WHERE id = $1) OR EXISTS (SELECT FROM med_returns WHERE id = $1)
	), i AS (
		INSERT INTO split_reversals (transfer_id, charge_id, recipient_id, amount) SELECT $1, $2, r, a FROM x
	)
	UPDATE charge_splits s SET reversed = s.reversed + x.a FROM x WHERE s.charge_id = $2 AND s.recipient_id = x.r`

// splitReversalArgs are recordSplitReversalSQL's arguments.
func splitReversalArgs(transfer, charge uuid.UUID, moves []splitMove) []any {
	ids, amounts := make([]int64, len(moves)), make([]int64, len(moves))
	for i, m := range moves {
		ids[i], amounts[i] = m.recipient, int64(m.amount)
	}
	return []any{transfer, charge, ids, amounts}
}

// giveSplitBack undoes what a failed refund or MED return took back from
// its charge's recipients, and returns it for its release posting.
func (t *Tx) giveSplitBack(ctx context.Context, transfer uuid.UUID) ([]splitMove, error) {
	rows, _ := t.tx.Query(ctx, `WITH d AS (
			DELETE FROM split_reversals WHERE transfer_id = $1 RETURNING charge_id, recipient_id, amount
		), u AS (
			UPDATE charge_splits s SET reversed = s.reversed - d.amount FROM d WHERE s.charge_id = d.charge_id AND s.recipient_id = d.recipient_id
		)
		SELECT recipient_id, amount FROM d ORDER BY recipient_id`, transfer)
	var (
		moves []splitMove
		m     splitMove
	)
	if _, err := pgx.ForEachRow(rows, []any{&m.recipient, &m.amount}, func() error {
		moves = append(moves, m)
		return nil
	}); err != nil {
		return nil, fmt.Errorf("storage: give back the split of %s: %w", transfer, err)
	}
	return moves, nil
}

// splitShort is the refusal of a refund of a split charge on one of its
// recipients' accounts as a SplitRecipientShortError; other errors are
// returned as they are.
func splitShort(err error, integrator int64) error {
	var short *ledger.InsufficientFundsError
	if errors.As(err, &short) && short.Account.Integrator != integrator && short.Account.Integrator != 0 {
		return &SplitRecipientShortError{SubAccount: short.Account.Integrator, Part: short.Requested, Available: short.Balance}
	}
	return err
}

// SplitRecipientShortError refuses a refund of a split charge when one of
// its recipients' available balance does not cover the recipient's part of
// it. It is a ledger.ErrInsufficientFunds; nothing was reserved.
type SplitRecipientShortError struct {
	SubAccount int64
	Part       money.Money // what the refund takes back from it
	Available  money.Money // its available balance
}

func (e *SplitRecipientShortError) Error() string {
	return fmt.Sprintf("insufficient funds: the refund takes back R$ %s from sub-account %d, whose available balance is R$ %s",
		e.Part, e.SubAccount, e.Available)
}

// Is makes errors.Is(err, ledger.ErrInsufficientFunds) true.
func (e *SplitRecipientShortError) Is(target error) bool {
	return target == ledger.ErrInsufficientFunds
}

// splitMismatchSQL is the audit's check of split charges: each recipient's
// part recorded on a charge (charge_splits.credited) is what the charge's
// charge.paid posting credited its available balance, what was taken back
// of it (reversed) is what its refunds and MED returns not failed took
// (split_reversals), and the parts of a charge sum to at most its net.
const splitMismatchSQL = `
		SELECT format('charge %s credited sub-account %s %s by its paid posting but records %s', s.charge_id, s.recipient_id,
		       coalesce(e.amount, 0), s.credited)
		FROM charge_splits s
		LEFT JOIN (SELECT t.reference, a.integrator_id, e.amount FROM ledger_transactions t
		           JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
		           WHERE t.kind = 'charge.paid' AND a.kind = 'available') e
		       ON e.reference = 'charge:' || s.charge_id || ':paid' AND e.integrator_id = s.recipient_id
		WHERE coalesce(e.amount, 0) <> s.credited
		UNION ALL
		SELECT format('charge %s records %s taken back from sub-account %s but its refunds and MED returns took %s',
		       s.charge_id, s.reversed, s.recipient_id, coalesce(r.taken, 0))
		FROM charge_splits s
		LEFT JOIN (SELECT charge_id, recipient_id, sum(amount) AS taken FROM split_reversals GROUP BY charge_id, recipient_id) r
		       ON r.charge_id = s.charge_id AND r.recipient_id = s.recipient_id
		WHERE s.reversed <> coalesce(r.taken, 0)
		UNION ALL
		SELECT format('charge %s credits its split''s recipients %s, more than its net %s', c.id, s.total, c.amount - c.fee)
		FROM charges c JOIN (SELECT charge_id, sum(credited) AS total FROM charge_splits GROUP BY charge_id) s ON s.charge_id = c.id
		WHERE s.total > c.amount - c.fee`
