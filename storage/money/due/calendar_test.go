package due

import (
	"slices"
	"testing"
)

func mustDate(t *testing.T, s string) Date {
	t.Helper()
	d, err := ParseDate(s)
	if err != nil {
		t.Fatalf("ParseDate(%q): %v", s, err)
	}
	return d
}

// holidaysOf lists the national holidays of year y, in order.
func holidaysOf(y int) []string {
	var out []string
	for d := (Date{y, 1, 1}); d.Year == y; d = d.AddDays(1) {
		if isHoliday(d) {
			out = append(out, d.String())
		}
	}
	return out
}

func TestHolidaysOfKnownYears(t *testing.T) {
	// Easter: 2023-04-09, 2024-03-31, 2025-04-20, 2026-04-05.
	for y, want := range map[int][]string{
		2023: {"2023-01-01", "2023-02-20", "2023-02-21", "2023-04-07", "2023-04-21", "2023-05-01",
			"2023-06-08", "2023-09-07", "2023-10-12", "2023-11-02", "2023-11-15", "2023-12-25"},
		2024: {"2024-01-01", "2024-02-12", "2024-02-13", "2024-03-29", "2024-04-21", "2024-05-01",
			"2024-05-30", "2024-09-07", "2024-10-12", "2024-11-02", "2024-11-15", "2024-11-20", "2024-12-25"},
		2025: {"2025-01-01", "2025-03-03", "2025-03-04", "2025-04-18", "2025-04-21", "2025-05-01",
			"2025-06-19", "2025-09-07", "2025-10-12", "2025-11-02", "2025-11-15", "2025-11-20", "2025-12-25"},
		2026: {"2026-01-01", "2026-02-16", "2026-02-17", "2026-04-03", "2026-04-21", "2026-05-01",
			"2026-06-04", "2026-09-07", "2026-10-12", "2026-11-02", "2026-11-15", "2026-11-20", "2026-12-25"},
	} {
		if got := holidaysOf(y); !slices.Equal(got, want) {
			t.Errorf("%d:\n got %v\nwant %v", y, got, want)
		}
	}
}

func TestEaster(t *testing.T) {
	for _, s := range []string{"2000-04-23", "2008-03-23", "2011-04-24", "2019-04-21", "2038-04-25"} {
		d := mustDate(t, s)
		if got := Easter(d.Year); got != d {
			t.Errorf("Easter(%d) = %s, want %s", d.Year, got, d)
		}
	}
}

func TestBusinessDays(t *testing.T) {
	for _, c := range []struct {
		day      string
		business bool
		next     string
	}{
		{"2025-03-14", true, "2025-03-14"},  // Friday
		{"2025-03-15", false, "2025-03-17"}, // Saturday
		{"2025-03-03", false, "2025-03-05"}, // Carnival Monday, then Tuesday
		{"2025-04-18", false, "2025-04-22"}, // Good Friday, a weekend, Tiradentes
		{"2025-11-20", false, "2025-11-21"}, // Black Consciousness Day
		{"2023-11-20", true, "2023-11-20"},  // not yet national
		{"2025-12-25", false, "2025-12-26"},
	} {
		d := mustDate(t, c.day)
		if got := isBusinessDay(d); got != c.business {
			t.Errorf("isBusinessDay(%s) = %v", c.day, got)
		}
		if got := NextBusinessDay(d).String(); got != c.next {
			t.Errorf("NextBusinessDay(%s) = %s, want %s", c.day, got, c.next)
		}
	}
}

func TestBusinessDaysBetween(t *testing.T) {
	for _, c := range []struct {
		from, to string
		want     int
	}{
		{"2025-03-14", "2025-03-14", 0},
		{"2025-03-14", "2025-03-17", 1},   // Saturday and Sunday skipped
		{"2025-03-17", "2025-03-14", 0},   // backwards
		{"2025-02-28", "2025-03-07", 3},   // Carnival: 5, 6, 7
		{"2025-04-17", "2025-04-22", 1},   // Good Friday to Tiradentes
		{"2025-03-01", "2025-03-14", 8},   // from a Saturday, across Carnival
		{"2024-12-31", "2025-12-31", 252}, // all of 2025
	} {
		got := businessDaysBetween(mustDate(t, c.from), mustDate(t, c.to))
		if got != c.want {
			t.Errorf("businessDaysBetween(%s, %s) = %d, want %d", c.from, c.to, got, c.want)
		}
	}
}
