package woovi

import "github.com/pixgate/pixgate/storage/money/due"

// PixGate's terms count a due date, a last day or a discount's date that
// is not a business day from the next business day (the BCB's rule,
// docs/due-charges.md); Woovi's documents count plain days from the day of
// creation, and do not say whether Woovi moves a date. So the connector
// sends the day PixGate counts, always a business day, which Woovi takes
// as it is whether it moves dates or not. The calendar is PixGate's,
// written down in docs/due-charges.md ("Business days"): Monday to Friday
// except Brazil's national holidays.

// ashWednesday is Easter − 46: a business day for PixGate, a holiday in
// the calendar of Woovi's discount simulator. A date that falls on it is
// refused: whether Woovi would move it is not known.
const ashWednesday = -46

// countedDay is the day PixGate counts for a date: d, or the first
// business day after it; ok is false when that day is Ash Wednesday.
func countedDay(d due.Date) (day due.Date, ok bool) {
	d = due.NextBusinessDay(d)
	return d, d != due.Easter(d.Year).AddDays(ashWednesday)
}
