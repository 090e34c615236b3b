// Package provideraudit checks PixGate's books against the providers' own
// (pixgate audit --providers; docs/ledger.md, "The audit"): each
// provider's balance against the money its float says PixGate expects it
// to hold, and every transfer a provider's statement shows settled against
// PixGate's record of it. It reads PixGate's records and each provider's
// books through interfaces, so that what it decides is tested with fakes;
// a provider it cannot read is a finding of its own, never skipped.
package provideraudit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/worker/statements"
)

// Checks, the names findings carry.
const (
	// FloatBalanceMismatch: a provider's reported balance differs from
	// the money its float says PixGate expects it to hold, on every read
	// over the settle wait.
	FloatBalanceMismatch = "float_balance_mismatch"
	// ProviderUnreadable: a provider's balance or statement could not be
	// read (its connector not built, its contract without a statement, an
	// error); what needed it is not judged.
	ProviderUnreadable = "provider_unreadable"
	// PaidTwice: one transfer settled twice, at two providers or at one.
	PaidTwice = "paid_twice"
	// FailedButPaid: PixGate failed a transfer (its money went back to the
	// wallet) that a provider settled.
	FailedButPaid = "failed_but_paid"
	// CompletedButUnpaid: PixGate completed a transfer that no provider's
	// statement shows settled.
	CompletedButUnpaid = "completed_but_unpaid"
	// PaidElsewhere: a provider other than the one PixGate records settled
	// the transfer.
	PaidElsewhere = "paid_elsewhere"
	// AmountMismatch: a provider settled another amount than PixGate's
	// record moves.
	AmountMismatch = "amount_mismatch"
)

// Books is what the audit reads of a provider: its balance and its
// statement (connectors have both).
type Books interface {
	Capabilities() providerclient.Capabilities
	Balance(ctx context.Context) (*providerclient.Balance, error)
	statements.StatementReader
}

// Provider is one provider the process knows: its name and its books, or
// why they could not be opened (Books nil, Err set).
type Provider struct {
	Name  string
	Books Books
	Err   error
}

// Records is what the audit reads of PixGate's books (storage.DB).
type Records interface {
	// FloatBalances is the money each provider's float says PixGate
	// expects it to hold.
	FloatBalances(ctx context.Context) (map[string]money.Money, error)
	// TransfersByStatementRefs returns the transfers statement lines of
	// provider may name: by PixGate's id, by end-to-end id, or by
	// provider's own id.
	TransfersByStatementRefs(ctx context.Context, provider string, ids []uuid.UUID, endToEndIDs, pixIDs []string) ([]storage.Transfer, error)
	// EachTransferCompleted calls each with every transfer completed in
	// [from, to).
	EachTransferCompleted(ctx context.Context, from, to time.Time, each func(storage.Transfer) error) error
	// AmountAdjustments is, for each of ids, what resolved reconciliation
	// exceptions of its amount booked onto its provider's float.
	AmountAdjustments(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID]money.Money, error)
}

// Config says what the audit reads. Zero durations get the defaults.
type Config struct {
	// Since and Until are the first and last statement days read
	// (providerclient.StatementZone).
	Since, Until providerclient.Day
	// SettleWait bounds how long a provider's balance may take to agree
	// with its float (money in flight makes a passing difference): it is
	// read again every Poll until it agrees or the wait is over. Zero
	// reads once.
	SettleWait time.Duration
	// Poll is how often the balances are read again within SettleWait.
	// Default a tenth of it, between 10ms and 2s.
	Poll time.Duration
	// Boundary is how far apart a provider and PixGate may date one
	// settlement (around midnight, a day's line may be the next day's
	// record): a completed transfer this close to the window's edges is
	// not judged absent. Default statements.DefaultBoundary.
	Boundary time.Duration
	// Now is the clock the days are judged by (which are over); default
	// time.Now. The settle wait runs on the wall clock.
	Now func() time.Time
}

func (c Config) withDefaults() Config {
	if c.Poll <= 0 {
		c.Poll = min(max(c.SettleWait/10, 10*time.Millisecond), 2*time.Second)
	}
	if c.Boundary <= 0 {
		c.Boundary = statements.DefaultBoundary
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Finding is one disagreement between PixGate's books and a provider's.
// Provider is the provider it concerns (for a transfer, the one PixGate
// records); the other fields are set by the checks they belong to.
type Finding struct {
	Check    string `json:"check"`
	Provider string `json:"provider"`
	Detail   string `json:"detail"`

	// float_balance_mismatch: the float, the reported balance (available
	// plus pending), and the balance less the float.
	Float      *money.Money `json:"float,omitempty"`
	Balance    *money.Money `json:"balance,omitempty"`
	Difference *money.Money `json:"difference,omitempty"`

	// Transfer findings: PixGate's record (its amount is what it moves)
	// and every settlement of it the statements show.
	Kind   storage.TransferKind   `json:"kind,omitempty"`
	ID     *uuid.UUID             `json:"id,omitempty"`
	Status storage.TransferStatus `json:"status,omitempty"`
	Amount *money.Money           `json:"amount,omitempty"`
	Paid   []Settlement           `json:"paid,omitempty"`
}

func (f Finding) String() string { return f.Check + ": " + f.Detail }

// Settlement is a statement line that settled a transfer.
type Settlement struct {
	Provider   string      `json:"provider"`
	Amount     money.Money `json:"amount"`
	SettledAt  time.Time   `json:"settled_at"`
	ProviderID string      `json:"provider_id,omitempty"`
}

// Report is what an audit read and found.
type Report struct {
	Since     string   `json:"since"`
	Until     string   `json:"until"`
	Providers []string `json:"providers"`
	// Lines is how many transfer lines the statements showed, Matched how
	// many of them named a record of PixGate's.
	Lines   int `json:"lines"`
	Matched int `json:"matched"`
	// Completed is how many completed transfers were looked for in the
	// statements, settled from CompletedFrom to CompletedTo; none when a
	// provider's statement could not be read (AbsenceJudged false): a
	// transfer missing from half the books proves nothing.
	AbsenceJudged bool       `json:"absence_judged"`
	Completed     int        `json:"completed"`
	CompletedFrom *time.Time `json:"completed_from,omitempty"`
	CompletedTo   *time.Time `json:"completed_to,omitempty"`
	Findings      []Finding  `json:"findings"`
}

// Run audits providers against records: the balances first (re-read over
// the settle wait), then every transfer line of their statements of the
// window. A provider that cannot be read is a finding; an error is
// PixGate's own books failing to answer.
func Run(ctx context.Context, cfg Config, records Records, providers []Provider) (Report, error) {
	a := &audit{cfg: cfg.withDefaults(), records: records}
	r := Report{Since: cfg.Since.String(), Until: cfg.Until.String(), Providers: []string{}, Findings: []Finding{}}
	var open []Provider
	for _, p := range providers {
		r.Providers = append(r.Providers, p.Name)
		if p.Books == nil {
			r.Findings = append(r.Findings, unreadable(p.Name, fmt.Sprintf("its connector cannot be built (%v): neither its balance nor its statement is read", p.Err)))
			continue
		}
		open = append(open, p)
	}
	floats, err := a.floats(ctx, open)
	if err != nil {
		return r, err
	}
	r.Findings = append(r.Findings, floats...)
	if err := a.transfers(ctx, open, len(open) == len(providers), &r); err != nil {
		return r, err
	}
	return r, nil
}

type audit struct {
	cfg     Config
	records Records
}

func unreadable(provider, why string) Finding {
	return Finding{Check: ProviderUnreadable, Provider: provider, Detail: "provider " + provider + ": " + why}
}

// floats compares each provider's reported balance with its float, read
// again every Poll while any disagrees, until all agree or SettleWait is
// over: a provider that agreed once is clean; one that never did is a
// finding, with its last reading; one whose balance was never read is
// unreadable.
func (a *audit) floats(ctx context.Context, providers []Provider) ([]Finding, error) {
	type reading struct {
		p        Provider
		balance  *providerclient.Balance
		float    money.Money
		err      error
		attempts int
	}
	var open []*reading
	for _, p := range providers {
		open = append(open, &reading{p: p})
	}
	deadline := time.Now().Add(a.cfg.SettleWait) // the wall clock: money settles in real time
	for len(open) > 0 {
		floats, err := a.records.FloatBalances(ctx)
		if err != nil {
			return nil, err
		}
		still := open[:0]
		for _, r := range open {
			r.attempts++
			b, err := r.p.Books.Balance(ctx)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if err != nil {
				r.err = err
				still = append(still, r)
				continue
			}
			r.balance, r.float = b, floats[r.p.Name]
			if b.Available+b.Pending != r.float {
				still = append(still, r)
			}
		}
		open = still
		left := time.Until(deadline)
		if len(open) == 0 || left <= 0 {
			break
		}
		t := time.NewTimer(min(a.cfg.Poll, left))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
	var out []Finding
	for _, r := range open {
		if r.balance == nil {
			out = append(out, unreadable(r.p.Name, fmt.Sprintf("its balance cannot be read (%d tries over %v): %v", r.attempts, a.cfg.SettleWait, r.err)))
			continue
		}
		reported := r.balance.Available + r.balance.Pending
		diff := reported - r.float
		out = append(out, Finding{Check: FloatBalanceMismatch, Provider: r.p.Name, Float: &r.float, Balance: &reported, Difference: &diff,
			Detail: fmt.Sprintf("provider %s reports %s (available %s, pending %s) but its float says PixGate expects it to hold %s: a difference of %s, on each of %d reads over %v",
				r.p.Name, reported, r.balance.Available, r.balance.Pending, r.float, diff, r.attempts, a.cfg.SettleWait)})
	}
	return out, nil
}

// pixgateError is PixGate's own books failing to answer while a statement
// is read: an error of the audit, not a finding about the provider.
type pixgateError struct{ err error }

func (e pixgateError) Error() string { return e.err.Error() }
func (e pixgateError) Unwrap() error { return e.err }

// asPixgate returns the error of PixGate's books err carries, if any.
func asPixgate(err error) (error, bool) {
	var p pixgateError
	if errors.As(err, &p) {
		return p.err, true
	}
	return nil, false
}
