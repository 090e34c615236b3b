package providerclient

import (
	"fmt"
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// A statement is the provider's own account of one day: every transaction
// it settled that day, in PixGate's terms, page by page, and, where the
// contract reports them, the account's balances when the day opened and
// closed. PixGate reconciles its books with it day by day.

// OpStatement names the statement read in errors and metrics.
const OpStatement = "read statement"

// StatementZone is the clock statement days are counted in: the
// providers' own, America/Sao_Paulo. Brazil has kept UTC−3 all year since
// 2019; without the zone database the fixed offset stands in for it.
var StatementZone = loadStatementZone()

func loadStatementZone() *time.Location {
	if loc, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return loc
	}
	return time.FixedZone("-03", -3*60*60)
}

// Day is a calendar day in StatementZone.
type Day struct {
	Year  int
	Month time.Month
	Day   int
}

// ParseDay reads "YYYY-MM-DD".
func ParseDay(s string) (Day, error) {
	t, err := time.ParseInLocation(time.DateOnly, s, StatementZone)
	if err != nil {
		return Day{}, fmt.Errorf("a day is YYYY-MM-DD, not %q", s)
	}
	return DayOf(t), nil
}

// DayOf is the day t falls on in StatementZone.
func DayOf(t time.Time) Day {
	y, m, d := t.In(StatementZone).Date()
	return Day{y, m, d}
}

// Start is the day's first instant; End the next day's.
func (d Day) Start() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, StatementZone) }
func (d Day) End() time.Time   { return d.AddDays(1).Start() }

// AddDays is the day n days later (earlier when n < 0).
func (d Day) AddDays(n int) Day {
	return DayOf(time.Date(d.Year, d.Month, d.Day+n, 12, 0, 0, 0, StatementZone))
}

// String is "YYYY-MM-DD".
func (d Day) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day) }

// IsZero reports whether d was never set.
func (d Day) IsZero() bool { return d == Day{} }

// Direction says which way a statement line moved the account's money.
type Direction int

// Directions.
const (
	In  Direction = 1  // money received (a paid charge)
	Out Direction = -1 // money sent (a payout, a refund, a MED return)
)

// DirectionOf is the way a transaction of kind k moves money.
func DirectionOf(k Kind) Direction {
	if k == KindCharge {
		return In
	}
	return Out
}

// StatementRequest asks for one page of a day's statement. Cursor is ""
// for the first page and the previous page's Next after it.
type StatementRequest struct {
	Day    Day
	Cursor string
}

// StatementPage is one page of a day's statement.
type StatementPage struct {
	Lines []StatementLine
	// Next is the cursor of the next page; "" on the last one.
	Next string
	// Balances are the day's opening and closing balances, on the pages
	// of contracts that report them (nil otherwise); the last page's
	// stand.
	Balances *DayBalances
}

// DayBalances are the account's balance when the day opened and when it
// closed (or now, for the day still running).
type DayBalances struct {
	Opening, Closing money.Money
}

// StatementLine is one settled transaction of a statement.
type StatementLine struct {
	Kind      Kind
	Direction Direction
	// ProviderID is the provider's id of the transaction, ExternalID
	// PixGate's as the provider echoes it (its record id, in whatever form
	// the contract carries it), EndToEndID the PIX end-to-end id (a
	// return's id for refunds and MED returns); "" when the provider does
	// not say.
	ProviderID, ExternalID, EndToEndID string
	// Amount is what moved, Fee what the provider took for it.
	Amount, Fee money.Money
	// Status is the transaction's status the line reports: PAID for a
	// charge, COMPLETED for the others.
	Status    Status
	SettledAt time.Time
}
