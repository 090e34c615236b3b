package due

import (
	"fmt"
	"time"
)

// Date is a calendar day, without a time or a zone. In JSON it is
// "YYYY-MM-DD".
type Date struct {
	Year  int
	Month time.Month
	Day   int
}

// brasilia is Brasília time. Brazil has kept UTC−3 all year since 2019;
// the zone database is used when the system has it.
var brasilia = func() *time.Location {
	if loc, err := time.LoadLocation("America/Sao_Paulo"); err == nil {
		return loc
	}
	return time.FixedZone("BRT", -3*60*60)
}()

// Today is the day it is at t in Brasília.
func Today(t time.Time) Date { return DateOf(t.In(brasilia)) }

// DateOf is the day of t in t's own zone.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{y, m, d}
}

// ParseDate reads "YYYY-MM-DD".
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil || t.Format(time.DateOnly) != s {
		return Date{}, fmt.Errorf("must be a date, YYYY-MM-DD")
	}
	return DateOf(t), nil
}

// String is "YYYY-MM-DD".
func (d Date) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// IsZero reports whether d is the zero Date.
func (d Date) IsZero() bool { return d == Date{} }

// midnight is d's start in UTC, for arithmetic.
func (d Date) midnight() time.Time { return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC) }

// AddDays is the day n days after d (before, for negative n).
func (d Date) AddDays(n int) Date { return DateOf(d.midnight().AddDate(0, 0, n)) }

// Sub is the number of days from o to d.
func (d Date) Sub(o Date) int { return int(d.midnight().Sub(o.midnight()).Hours() / 24) }

// Before and After compare days.
func (d Date) Before(o Date) bool { return d.Sub(o) < 0 }

// After reports whether d is later than o.
func (d Date) After(o Date) bool { return d.Sub(o) > 0 }

// End is the last instant of d in Brasília: when a charge whose last day
// is d stops being payable.
func (d Date) End() time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, brasilia).AddDate(0, 0, 1).Add(-time.Nanosecond)
}

// MarshalJSON renders "YYYY-MM-DD".
func (d Date) MarshalJSON() ([]byte, error) { return []byte(`"` + d.String() + `"`), nil }

// UnmarshalJSON reads "YYYY-MM-DD".
func (d *Date) UnmarshalJSON(b []byte) error {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return fmt.Errorf("must be a date, YYYY-MM-DD")
	}
	v, err := ParseDate(string(b[1 : len(b)-1]))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
