// Package ledger posts balanced double-entry transactions.
//
// Every balance change in PixGate is one call to Post inside the SQL
// transaction of the state change that caused it. Post refuses unbalanced
// entries, never lets an integrator account go below zero, and records the
// balance after each entry. Its reference is unique, so a cause posts once.
package ledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pixgate/pixgate/storage/money"
)

// Kind names an account's role.
type Kind string

// Integrator accounts, one of each per integrator.
const (
	Available Kind = "available" // spendable balance
	Pending   Kind = "pending"   // cash-in under a settlement hold
	Reserved  Kind = "reserved"  // held for in-flight withdrawals and refunds
	Blocked   Kind = "blocked"   // frozen by the provider under an open MED infraction
	// Debt is what the integrator owes the platform (minus it: the one
	// integrator account that goes negative, never above zero): what a MED
	// return took beyond what its infraction could block, recovered from
	// the integrator's next cash-ins.
	Debt Kind = "debt"
)

// Platform accounts: one of each for the whole deployment, but for
// Provider, of which each settlement provider has its own (its float).
const (
	Fees        Kind = "fees"        // fees earned by the platform
	Provider    Kind = "provider"    // money at a settlement provider (its float); may go negative
	Adjustments Kind = "adjustments" // source of manual operator postings; may go negative
)

// IntegratorKinds are the accounts every integrator has.
var IntegratorKinds = []Kind{Available, Pending, Reserved, Blocked, Debt}

// MayGoNegative reports whether an account of kind k may go below zero:
// platform floats and adjustments, and an integrator's debt.
func MayGoNegative(k Kind) bool { return k == Provider || k == Adjustments || k == Debt }

// Account identifies an account: an integrator's, or a platform account when
// Integrator is zero. Provider names the settlement provider of a float
// (Kind Provider) and is empty for every other account.
type Account struct {
	Integrator int64
	Kind       Kind
	Provider   string
}

// Of returns the integrator's account of the given kind.
func Of(integrator int64, kind Kind) Account { return Account{Integrator: integrator, Kind: kind} }

// Platform returns the platform account of the given kind (Fees or
// Adjustments; a provider's float is Float).
func Platform(kind Kind) Account { return Account{Kind: kind} }

// Float returns the float account of the named settlement provider: the
// money PixGate expects that provider to hold.
func Float(provider string) Account { return Account{Kind: Provider, Provider: provider} }

func (a Account) String() string {
	switch {
	case a.Kind == Provider:
		return fmt.Sprintf("provider %s float", a.Provider)
	case a.Integrator == 0:
		return string(a.Kind)
	}
	return fmt.Sprintf("integrator %d %s", a.Integrator, a.Kind)
}

// Entry moves Amount into (positive) or out of (negative) Account.
type Entry struct {
	Account Account
	Amount  money.Money
}

// Transaction is one balanced posting.
type Transaction struct {
	// Reference names the cause and is unique across the ledger, e.g.
	// "withdrawal:<id>:reserve". Posting the same reference twice fails with
	// ErrDuplicate and changes nothing.
	Reference string
	Kind      string // e.g. "withdrawal.reserve", "charge.paid", "adjustment"
	Memo      string
	Entries   []Entry
}

// Errors returned by Post.
var (
	ErrUnbalanced     = errors.New("ledger: entries do not sum to zero")
	ErrInvalid        = errors.New("ledger: invalid transaction")
	ErrDuplicate      = errors.New("ledger: reference already posted")
	ErrUnknownAccount = errors.New("ledger: unknown account")
)

// InsufficientFundsError says which account would have gone below zero.
type InsufficientFundsError struct {
	Account   Account
	Balance   money.Money
	Requested money.Money
}

func (e *InsufficientFundsError) Error() string {
	return fmt.Sprintf("ledger: insufficient funds in %s: balance %s, debit %s", e.Account, e.Balance, e.Requested)
}

// ErrInsufficientFunds matches any *InsufficientFundsError with errors.Is.
var ErrInsufficientFunds = errors.New("ledger: insufficient funds")

// Is makes errors.Is(err, ErrInsufficientFunds) true.
func (e *InsufficientFundsError) Is(target error) bool { return target == ErrInsufficientFunds }

// Querier is what Post needs: a pgx transaction (or anything that runs SQL
// inside one).
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Validate refuses a malformed posting: no reference or kind, fewer than
// two entries, a zero entry, an account twice, entries not summing to zero.
func (t Transaction) Validate() error {
	if t.Reference == "" || t.Kind == "" {
		return fmt.Errorf("%w: reference and kind are required", ErrInvalid)
	}
	if len(t.Entries) < 2 {
		return fmt.Errorf("%w: a posting needs at least two entries", ErrInvalid)
	}
	seen := make(map[Account]bool, len(t.Entries))
	var sum money.Money
	for _, e := range t.Entries {
		if e.Amount == 0 {
			return fmt.Errorf("%w: zero entry on %s", ErrInvalid, e.Account)
		}
		if seen[e.Account] {
			return fmt.Errorf("%w: %s appears twice", ErrInvalid, e.Account)
		}
		seen[e.Account] = true
		sum += e.Amount
	}
	if sum != 0 {
		return fmt.Errorf("%w (%s off)", ErrUnbalanced, sum)
	}
	return nil
}
