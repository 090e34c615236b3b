package woovi

import (
	"time"

	"github.com/pixgate/pixgate/storage/money/due"
)

// PixGate's terms count a due date, a last day or a discount's date that
// is not a business day from the next business day (the BCB's rule,
// docs/due-charges.md); Woovi's documents count plain days from the day of
// creation, and do not say whether Woovi moves a date. So the connector
// sends the day PixGate counts, always a business day, which Woovi takes
// as it is whether it moves dates or not. The calendar is PixGate's,
// written down in docs/due-charges.md ("Business days"): Monday to Friday
// except Brazil's national holidays.

// fixedHolidays are the national holidays that fall on the same day every
// year; since is the first year one was national (Black Consciousness
// Day, Lei 14.759/2023).
var fixedHolidays = [...]struct {
	month time.Month
	day   int
	since int
}{
	{time.January, 1, 0}, {time.April, 21, 0}, {time.May, 1, 0}, {time.September, 7, 0}, {time.October, 12, 0},
	{time.November, 2, 0}, {time.November, 15, 0}, {time.November, 20, 2024}, {time.December, 25, 0},
}

// easterHolidays are the holidays that move with Easter, in days from
// Easter Sunday: Carnival Monday and Tuesday, Good Friday, Corpus Christi.
var easterHolidays = [...]int{-48, -47, -2, 60}

// ashWednesday is Easter − 46: a business day for PixGate, a holiday in
// the calendar of Woovi's discount simulator. A date that falls on it is
// refused: whether Woovi would move it is not known.
const ashWednesday = -46

// easter is Easter Sunday of the Gregorian year y (the anonymous Gregorian
// algorithm of Meeus, Jones and Butcher).
func easter(y int) due.Date {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	return due.Date{Year: y, Month: time.Month((h + l - 7*m + 114) / 31), Day: (h+l-7*m+114)%31 + 1}
}

// businessDay reports whether d is a weekday and no national holiday.
func businessDay(d due.Date) bool {
	if wd := time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC).Weekday(); wd == time.Saturday || wd == time.Sunday {
		return false
	}
	for _, h := range fixedHolidays {
		if d.Month == h.month && d.Day == h.day && d.Year >= h.since {
			return false
		}
	}
	e := easter(d.Year)
	for _, off := range easterHolidays {
		if e.AddDays(off) == d {
			return false
		}
	}
	return true
}

// countedDay is the day PixGate counts for a date: d, or the first
// business day after it; ok is false when that day is Ash Wednesday.
func countedDay(d due.Date) (day due.Date, ok bool) {
	for !businessDay(d) {
		d = d.AddDays(1)
	}
	return d, d != easter(d.Year).AddDays(ashWednesday)
}
