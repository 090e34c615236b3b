package due

import "time"

// Business days are Monday to Friday except Brazil's national holidays:
// the nine that fall on the same day every year (Black Consciousness Day,
// 20 November, only from 2024, when Lei 14.759/2023 made it national) and
// the four days around Easter on which banks do not open: Carnival Monday
// and Tuesday, Good Friday and Corpus Christi. State and municipal
// holidays are not kept: the BCB counts the payer's own, which PixGate
// does not know, so every payer gets the same national calendar.

// fixedHolidays are the national holidays that fall on the same day every
// year, as month and day.
var fixedHolidays = [...]struct {
	month time.Month
	day   int
	since int // the first year it was national
}{
	{time.January, 1, 0},
	{time.April, 21, 0},
	{time.May, 1, 0},
	{time.September, 7, 0},
	{time.October, 12, 0},
	{time.November, 2, 0},
	{time.November, 15, 0},
	{time.November, 20, 2024},
	{time.December, 25, 0},
}

// easterOffsets are the holidays that move with Easter, in days from
// Easter Sunday: Carnival Monday and Tuesday, Good Friday, Corpus Christi.
var easterOffsets = [...]int{-48, -47, -2, 60}

// Easter is Easter Sunday of the Gregorian year y (the anonymous
// Gregorian algorithm, also known as Meeus/Jones/Butcher).
func Easter(y int) Date {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return Date{y, time.Month(month), day}
}

// isHoliday reports whether d is a national holiday.
func isHoliday(d Date) bool {
	for _, h := range fixedHolidays {
		if d.Month == h.month && d.Day == h.day && d.Year >= h.since {
			return true
		}
	}
	e := Easter(d.Year)
	for _, off := range easterOffsets {
		if e.AddDays(off) == d {
			return true
		}
	}
	return false
}

// isBusinessDay reports whether d is a weekday that is not a national
// holiday.
func isBusinessDay(d Date) bool {
	switch d.midnight().Weekday() {
	case time.Saturday, time.Sunday:
		return false
	}
	return !isHoliday(d)
}

// NextBusinessDay is d when it is a business day (Monday to Friday, no
// national holiday), else the first business day after it: the day a due
// date, a last day or a discount's date counts as.
func NextBusinessDay(d Date) Date {
	for !isBusinessDay(d) {
		d = d.AddDays(1)
	}
	return d
}

// businessDaysBetween counts the business days after from, up to and
// including to: 0 when to is not after from.
func businessDaysBetween(from, to Date) int {
	n := 0
	for d := from.AddDays(1); !d.After(to); d = d.AddDays(1) {
		if isBusinessDay(d) {
			n++
		}
	}
	return n
}
