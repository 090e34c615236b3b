package recurrence

import (
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage/money/due"
)

// d reads "YYYY-MM-DD" for tests.
func d(t *testing.T, s string) due.Date {
	t.Helper()
	v, err := due.ParseDate(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// The five periodicities of IN BCB 436, art. 2, and the end-of-month rule
// (Woovi: a monthly start on the 31st falls on a shorter month's last day).
func TestPeriodicityAfter(t *testing.T) {
	tests := []struct {
		p     Periodicity
		start string
		n     int
		want  string
	}{
		{Weekly, "2026-01-01", 0, "2026-01-01"},
		{Weekly, "2026-01-01", 1, "2026-01-08"},
		{Weekly, "2026-12-28", 1, "2027-01-04"},
		{Monthly, "2026-01-15", 1, "2026-02-15"},
		{Monthly, "2026-01-15", 12, "2027-01-15"},
		{Monthly, "2026-01-31", 1, "2026-02-28"},
		{Monthly, "2028-01-31", 1, "2028-02-29"}, // leap year
		{Monthly, "2026-01-31", 2, "2026-03-31"}, // from the start, not from 28 February
		{Monthly, "2026-01-31", 3, "2026-04-30"},
		{Monthly, "2026-01-30", 1, "2026-02-28"},
		{Monthly, "2026-01-29", 1, "2026-02-28"},
		{Monthly, "2026-11-30", 3, "2027-02-28"},
		{Quarterly, "2026-11-30", 1, "2027-02-28"},
		{Quarterly, "2026-01-31", 1, "2026-04-30"},
		{Quarterly, "2026-01-31", 4, "2027-01-31"},
		{Semiannual, "2026-08-31", 1, "2027-02-28"},
		{Semiannual, "2026-03-15", 3, "2027-09-15"},
		{Annual, "2028-02-29", 1, "2029-02-28"},
		{Annual, "2028-02-29", 4, "2032-02-29"},
	}
	for _, tc := range tests {
		if got := tc.p.After(d(t, tc.start), tc.n).String(); got != tc.want {
			t.Errorf("%s from %s, n=%d: %s, want %s", tc.p, tc.start, tc.n, got, tc.want)
		}
	}
}

func TestPeriodicityNames(t *testing.T) {
	// calendario.periodicidade's enum.
	for _, name := range []string{"SEMANAL", "MENSAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL"} {
		p, ok := PeriodicityFromBCB(name)
		if !ok || p.BCB() != name || !p.Valid() {
			t.Errorf("%s: %s, %v", name, p, ok)
		}
	}
	if Periodicity("BIMONTHLY").Valid() || Periodicity("DAILY").Valid() {
		t.Error("a periodicity the BCB does not have is valid")
	}
}

func TestCalendarDue(t *testing.T) {
	tests := []struct {
		name string
		c    Calendar
		n    int
		want string // "" for no cycle n
	}{
		{"open", Calendar{Periodicity: Monthly, Start: d(t, "2026-03-10")}, 100, "2034-07-10"},
		{"negative", Calendar{Periodicity: Monthly, Start: d(t, "2026-03-10")}, -1, ""},
		{"count: last", Calendar{Periodicity: Monthly, Start: d(t, "2026-03-10"), Count: 3}, 2, "2026-05-10"},
		{"count: past", Calendar{Periodicity: Monthly, Start: d(t, "2026-03-10"), Count: 3}, 3, ""},
		{"end on a due date", Calendar{Periodicity: Weekly, Start: d(t, "2026-03-02"), End: d(t, "2026-03-16")}, 2, "2026-03-16"},
		{"end past", Calendar{Periodicity: Weekly, Start: d(t, "2026-03-02"), End: d(t, "2026-03-16")}, 3, ""},
		{"end between due dates", Calendar{Periodicity: Monthly, Start: d(t, "2026-01-31"), End: d(t, "2026-03-30")}, 1, "2026-02-28"},
		{"end between: no more", Calendar{Periodicity: Monthly, Start: d(t, "2026-01-31"), End: d(t, "2026-03-30")}, 2, ""},
	}
	for _, tc := range tests {
		got, ok := tc.c.Due(tc.n)
		if (tc.want == "") == ok || (ok && got.String() != tc.want) {
			t.Errorf("%s: Due(%d) = %s, %v; want %q", tc.name, tc.n, got, ok, tc.want)
		}
	}
}

func TestCalendarCyclesAndLastDue(t *testing.T) {
	tests := []struct {
		name  string
		c     Calendar
		count int // 0: open
		last  string
	}{
		{"open", Calendar{Periodicity: Monthly, Start: d(t, "2026-03-10")}, 0, ""},
		{"count", Calendar{Periodicity: Annual, Start: d(t, "2026-03-10"), Count: 2}, 2, "2027-03-10"},
		{"end on a due date", Calendar{Periodicity: Monthly, Start: d(t, "2026-01-31"), End: d(t, "2026-04-30")}, 4, "2026-04-30"},
		{"end the day before a due date", Calendar{Periodicity: Monthly, Start: d(t, "2026-01-31"), End: d(t, "2026-04-29")}, 3, "2026-03-31"},
		{"end on the start", Calendar{Periodicity: Weekly, Start: d(t, "2026-03-02"), End: d(t, "2026-03-02")}, 1, "2026-03-02"},
		// The BCB's example rec: MENSAL from 2024-04-01 to 2025-04-01 (recBody1).
		{"BCB recBody1", Calendar{Periodicity: Monthly, Start: d(t, "2024-04-01"), End: d(t, "2025-04-01")}, 13, "2025-04-01"},
	}
	for _, tc := range tests {
		n, bounded := tc.c.Cycles()
		last, ok := tc.c.LastDue()
		if bounded != (tc.count > 0) || n != tc.count || ok != bounded || (ok && last.String() != tc.last) {
			t.Errorf("%s: Cycles() = %d, %v; LastDue() = %s, %v; want %d, %q", tc.name, n, bounded, last, ok, tc.count, tc.last)
		}
	}
}

// Cycle finds the cycle a date falls in: the BCB takes one live charge per
// cycle (CobROperacaoInvalida, "no mesmo ciclo").
func TestCalendarCycle(t *testing.T) {
	monthly := Calendar{Periodicity: Monthly, Start: d(t, "2026-01-31")}
	bounded := Calendar{Periodicity: Weekly, Start: d(t, "2026-03-02"), Count: 2}
	tests := []struct {
		name string
		c    Calendar
		day  string
		want int // -1: none
	}{
		{"before the start", monthly, "2026-01-30", -1},
		{"the start", monthly, "2026-01-31", 0},
		{"the day before cycle 1", monthly, "2026-02-27", 0},
		{"cycle 1's due date", monthly, "2026-02-28", 1},
		{"1 March is still cycle 1", monthly, "2026-03-01", 1},
		{"cycle 2", monthly, "2026-03-31", 2},
		{"cycle 3 (30 April)", monthly, "2026-04-30", 3},
		{"years on", monthly, "2036-01-31", 120},
		{"weekly last cycle's span", bounded, "2026-03-15", 1},
		{"after the last span", bounded, "2026-03-16", -1},
	}
	for _, tc := range tests {
		n, ok := tc.c.Cycle(d(t, tc.day))
		if (tc.want < 0) == ok || (ok && n != tc.want) {
			t.Errorf("%s: Cycle(%s) = %d, %v; want %d", tc.name, tc.day, n, ok, tc.want)
		}
	}
}

// Every day of three years falls in the cycle whose span holds it, for
// every periodicity and every start day of a month (the 28th to the 31st
// are where the end-of-month rule bites).
func TestCalendarCycleHoldsEveryDay(t *testing.T) {
	for _, p := range Periodicities {
		for _, start := range []string{"2026-01-01", "2026-01-28", "2026-01-29", "2026-01-30", "2026-01-31", "2027-12-31"} {
			c := Calendar{Periodicity: p, Start: d(t, start)}
			for i := 0; i < 3*366; i++ {
				day := c.Start.AddDays(i)
				n, ok := c.Cycle(day)
				from, _ := c.Due(n)
				to, _ := c.Due(n + 1)
				if !ok || day.Before(from) || !day.Before(to) {
					t.Fatalf("%s from %s: %s in cycle %d (%s to %s), %v", p, start, day, n, from, to, ok)
				}
			}
		}
	}
}

func TestCalendarValidate(t *testing.T) {
	today := d(t, "2026-03-10")
	tests := []struct {
		name  string
		c     Calendar
		field string // "" for valid
	}{
		{"open", Calendar{Periodicity: Monthly, Start: today}, ""},
		{"count", Calendar{Periodicity: Weekly, Start: today, Count: 12}, ""},
		{"end", Calendar{Periodicity: Annual, Start: today, End: d(t, "2030-03-10")}, ""},
		{"no periodicity", Calendar{Start: today}, "calendar.periodicity"},
		{"bimonthly", Calendar{Periodicity: "BIMONTHLY", Start: today}, "calendar.periodicity"},
		{"no start", Calendar{Periodicity: Monthly}, "calendar.start"},
		// "dataInicial é anterior à data de criação da recorrência".
		{"start yesterday", Calendar{Periodicity: Monthly, Start: d(t, "2026-03-09")}, "calendar.start"},
		{"end and count", Calendar{Periodicity: Monthly, Start: today, End: d(t, "2027-03-10"), Count: 12}, "calendar.count"},
		// "dataFinal é anterior ao campo dataInicial".
		{"end before start", Calendar{Periodicity: Monthly, Start: today, End: d(t, "2026-03-09")}, "calendar.end"},
		{"negative count", Calendar{Periodicity: Monthly, Start: today, Count: -1}, "calendar.count"},
		{"count too large", Calendar{Periodicity: Weekly, Start: today, Count: MaxCycles + 1}, "calendar.count"},
		{"count at the bound", Calendar{Periodicity: Weekly, Start: today, Count: MaxCycles}, ""},
		{"end too far", Calendar{Periodicity: Weekly, Start: today, End: today.AddDays(7 * MaxCycles)}, "calendar.end"},
		{"end at the bound", Calendar{Periodicity: Weekly, Start: today, End: today.AddDays(7*MaxCycles - 1)}, ""},
	}
	for _, tc := range tests {
		err := tc.c.Validate(today)
		var fe *FieldError
		if tc.field == "" && err != nil || tc.field != "" && (!errors.As(err, &fe) || fe.Field != tc.field) {
			t.Errorf("%s: %v; want field %q", tc.name, err, tc.field)
		}
	}
}
