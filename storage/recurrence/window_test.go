package recurrence

import "testing"

// A recurrence approved late starts from the first cycle whose window is
// still open.
func TestFirstSchedulable(t *testing.T) {
	monthly := Calendar{Periodicity: Monthly, Start: d(t, "2026-03-10")}
	tests := []struct {
		name  string
		c     Calendar
		today string
		want  int // -1: none
	}{
		{"long before", monthly, "2026-02-01", 0},
		{"the window's last day", monthly, "2026-03-08", 0},
		{"a day late", monthly, "2026-03-09", 1},
		{"on the due date", monthly, "2026-03-10", 1},
		{"cycle 1's last day", monthly, "2026-04-08", 1},
		{"two cycles late", monthly, "2026-04-09", 2},
		{"bounded, none left", Calendar{Periodicity: Monthly, Start: d(t, "2026-03-10"), Count: 1}, "2026-03-09", -1},
		{"end of month", Calendar{Periodicity: Monthly, Start: d(t, "2026-01-31")}, "2026-02-26", 1},
		{"end of month, late", Calendar{Periodicity: Monthly, Start: d(t, "2026-01-31")}, "2026-02-27", 2},
	}
	for _, tc := range tests {
		n, ok := tc.c.FirstSchedulable(d(t, tc.today))
		if (tc.want < 0) == ok || (ok && n != tc.want) {
			t.Errorf("%s: FirstSchedulable(%s) = %d, %v; want %d", tc.name, tc.today, n, ok, tc.want)
		}
		if due, _ := tc.c.Due(n); ok && due.Sub(d(t, tc.today)) < LeadMinDays {
			t.Errorf("%s: cycle %d (%s) is due too soon to be sent", tc.name, n, due)
		}
	}
}
