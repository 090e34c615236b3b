package storage

import (
	"time"

	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage/money"
)

// Reconciliation matches a provider's statement of a day with PixGate's
// records of that day, in the database: the statement is streamed into a
// temporary table (COPY) and matched there, so a day of any size is
// reconciled in bounded memory. The results are records: a run per
// attempt, the day's current result, and an item for each exception, each
// item still expected and each match across a day's boundary; plain
// matches are counted, not kept. See docs/reconciliation.md.

// ReconKind is what an item is.
type ReconKind string

// Item kinds. ReconMatched items are matches across a day's boundary, kept
// for the adjacent day's run; the others are exceptions, or ReconExpected.
const (
	ReconMatched           ReconKind = "matched"
	ReconExpected          ReconKind = "expected"
	ReconMissingInPixGate  ReconKind = "missing_in_pixgate"
	ReconMissingAtProvider ReconKind = "missing_at_provider"
	ReconAmountMismatch    ReconKind = "amount_mismatch"
	ReconStatusMismatch    ReconKind = "status_mismatch"
	ReconDuplicate         ReconKind = "duplicate_at_provider"
)

// ReconExceptionKinds are the kinds an operator resolves.
var ReconExceptionKinds = []ReconKind{ReconMissingInPixGate, ReconMissingAtProvider, ReconAmountMismatch,
	ReconStatusMismatch, ReconDuplicate}

// Run triggers.
const (
	TriggerWorker   = "worker"
	TriggerOperator = "operator"
)

// StatementLine is one line of a provider's statement, in storage's terms:
// Kind is "charge" or a transfer kind ("withdrawal", "refund",
// "med_return"), or whatever the provider called it when it is none of
// them; Direction +1 for money in, -1 for money out.
type StatementLine struct {
	Kind       string
	Direction  int
	ProviderID string
	ExternalID string
	// RecordID is ExternalID read as PixGate's record id, when it is one.
	RecordID   *uuid.UUID
	EndToEndID string
	Amount     money.Money
	Fee        money.Money
	Status     string
	SettledAt  time.Time
}

// StatementSource yields a statement's lines one at a time (Next, Line),
// then says why it stopped (Err) and, once it is read to the end, the
// day's balances when the provider reports them.
type StatementSource interface {
	Next() bool
	Line() StatementLine
	Err() error
	Balances() (opening, closing money.Money, ok bool)
}

// ReconSpec is one run: the provider and day, the day's span, when its
// items stop being expected, the width of a day's boundary and who asked.
type ReconSpec struct {
	Provider   string
	Day        string // YYYY-MM-DD
	Start, End time.Time
	GraceUntil time.Time
	// Boundary: an item settled within it of the day's start or end may be
	// dated on the adjacent day by the other side.
	Boundary time.Duration
	Trigger  string
	// Now is the run's clock (zero: time.Now()).
	Now time.Time
}

// ReconRun is a run's record and the day's figures it found.
type ReconRun struct {
	ID                                int64
	Provider, Day, Trigger            string
	Status                            ReconRunStatus
	Error                             *string
	StartedAt, FinishedAt, GraceUntil time.Time
	Lines, Records, Matched           int64
	Expected, Exceptions              int64
	OpeningBalance, ClosingBalance    *money.Money
	LinesNet, FloatNet                money.Money
	FloatAtClose                      *money.Money
	DayDifference                     *money.Money
	Explained                         money.Money
	Unexplained, ClosingDifference    *money.Money
	ByKind                            map[ReconKind]int64
	DayStatus                         ReconDayStatus // "" when the day has no result
	OpenExceptions                    int64
}

// Reconciled says whether the day's books agree: no open exception and
// no balance difference left unexplained.
func (r ReconRun) Reconciled() bool {
	return r.Status == ReconRunDone && r.OpenExceptions == 0 && (r.Unexplained == nil || *r.Unexplained == 0)
}

// ReconItem is one item of a day.
type ReconItem struct {
	ID                             uuid.UUID
	Provider, Day, Key             string
	RunID                          int64
	Kind                           ReconKind
	ExpectedKind                   *string
	Status                         ReconItemStatus
	LineKind, LineProviderID       *string
	LineExternalID, LineEndToEndID *string
	LineAmount, LineFee            *money.Money
	LineStatus                     *string
	LineSettledAt                  *time.Time
	RecordKind                     *string
	RecordID                       *uuid.UUID
	RecordAmount                   *money.Money
	RecordStatus                   *string
	RecordSettledAt                *time.Time
	Delta, Adjusted                money.Money
	AdjustmentID                   *int64
	ResolvedAt                     *time.Time
	ResolvedBy, Resolution         *string
}
