package storage

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// Wallet is an integrator's account balances.
type Wallet struct {
	Available money.Money `json:"available"`
	Pending   money.Money `json:"pending"`
	Reserved  money.Money `json:"reserved"`
	Blocked   money.Money `json:"blocked"`
	// Debt is what the integrator owes the platform (its debt account,
	// which holds minus it): MED returns beyond what was blocked, not yet
	// recovered from its cash-ins.
	Debt money.Money `json:"debt"`
}

// Wallet reads an integrator's balances; ErrNotFound for an unknown integrator.
func (db *DB) Wallet(ctx context.Context, integratorID int64) (Wallet, error) {
	rows, err := db.pool.Query(ctx, `SELECT kind, balance FROM ledger_accounts WHERE integrator_id = $1`, integratorID)
	if err != nil {
		return Wallet{}, fmt.Errorf("storage: wallet: %w", err)
	}
	defer rows.Close()
	var (
		w     Wallet
		found bool
	)
	for rows.Next() {
		var (
			kind    string
			balance money.Money
		)
		if err := rows.Scan(&kind, &balance); err != nil {
			return Wallet{}, fmt.Errorf("storage: wallet: %w", err)
		}
		found = true
		switch ledger.Kind(kind) {
		case ledger.Available:
			w.Available = balance
		case ledger.Pending:
			w.Pending = balance
		case ledger.Reserved:
			w.Reserved = balance
		case ledger.Blocked:
			w.Blocked = balance
		case ledger.Debt:
			w.Debt = -balance
		}
	}
	if err := rows.Err(); err != nil {
		return Wallet{}, fmt.Errorf("storage: wallet: %w", err)
	}
	if !found {
		return Wallet{}, ErrNotFound
	}
	return w, nil
}

// PlatformBalance reads a platform account (fees, provider, adjustments):
// the sum of its shards (see migration 12).
func (db *DB) PlatformBalance(ctx context.Context, kind ledger.Kind) (money.Money, error) {
	var m *money.Money
	err := db.pool.QueryRow(ctx, `SELECT sum(balance)::bigint FROM ledger_accounts WHERE integrator_id IS NULL AND kind = $1`, kind).Scan(&m)
	if err != nil {
		return 0, err
	}
	if m == nil {
		return 0, ErrNotFound
	}
	return *m, nil
}

// CreditWallet is a manual operator adjustment: it moves amount from the
// platform adjustments account into the integrator's available balance.
func (db *DB) CreditWallet(ctx context.Context, integratorID int64, amount money.Money, reason string) (ledger.Posted, error) {
	if amount <= 0 {
		return ledger.Posted{}, fmt.Errorf("%w: credit must be positive", ledger.ErrInvalid)
	}
	return db.adjustWallet(ctx, integratorID, amount, reason, "")
}

// DebitWallet is the mirror of CreditWallet, to undo a mistaken credit: it
// moves amount from the integrator's available balance back to the
// adjustments account. It takes nothing from pending or reserved money, and
// fails with a *ledger.InsufficientFundsError, changing nothing, when
// available does not cover it.
func (db *DB) DebitWallet(ctx context.Context, integratorID int64, amount money.Money, reason string) (ledger.Posted, error) {
	if amount <= 0 {
		return ledger.Posted{}, fmt.Errorf("%w: debit must be positive", ledger.ErrInvalid)
	}
	return db.adjustWallet(ctx, integratorID, -amount, reason, "")
}

// AdjustWallet is CreditWallet (amount > 0) or DebitWallet (amount < 0)
// posted under the operator's reference, so that running the same
// adjustment again fails with ledger.ErrDuplicate and changes nothing. An
// empty reference posts under a new random one, as CreditWallet does.
func (db *DB) AdjustWallet(ctx context.Context, integratorID int64, amount money.Money, reason, reference string) (ledger.Posted, error) {
	if amount == 0 {
		return ledger.Posted{}, fmt.Errorf("%w: an adjustment must not be zero", ledger.ErrInvalid)
	}
	return db.adjustWallet(ctx, integratorID, amount, reason, reference)
}

// adjustWallet posts a manual adjustment of delta (a credit when positive)
// to the integrator's available balance, against the adjustments account.
func (db *DB) adjustWallet(ctx context.Context, integratorID int64, delta money.Money, reason, reference string) (ledger.Posted, error) {
	if reference == "" {
		reference = uuid.NewString()
	}
	var posted ledger.Posted
	err := db.inTx(ctx, func(tx pgx.Tx) (err error) {
		posted, err = ledger.Post(ctx, tx, walletAdjusted(integratorID, delta, reason, reference))
		return err
	})
	return posted, err
}

// Debt is what one integrator owes the platform.
type Debt struct {
	IntegratorID int64       `json:"integrator_id"`
	Name         string      `json:"name"`
	Owed         money.Money `json:"owed"`
}

// Debts lists the integrators that owe the platform (what MED returns took
// beyond what their infractions blocked, not yet recovered from their
// cash-ins), the largest debt first.
func (db *DB) Debts(ctx context.Context) ([]Debt, error) {
	rows, _ := db.pool.Query(ctx, `SELECT a.integrator_id, i.name, -a.balance FROM ledger_accounts a
		JOIN integrators i ON i.id = a.integrator_id WHERE a.kind = 'debt' AND a.balance < 0 ORDER BY a.balance, a.integrator_id`)
	debts, err := pgx.CollectRows(rows, pgx.RowToStructByPos[Debt])
	if err != nil {
		return nil, fmt.Errorf("storage: debts: %w", err)
	}
	return debts, nil
}
