package recurrence

import (
	"errors"
	"testing"
)

// A cycle's charge is sent between 10 and 2 calendar days before its due
// date (the BCB's rule as Jovem Pan reported it, 2023-12-07; Woovi's
// pix-automatic-cobr-manual.md: "de 2 a 10 dias antes da data da
// cobrança").
func TestScheduleWindow(t *testing.T) {
	w := ScheduleWindow(d(t, "2026-03-01"))
	if w.Open != d(t, "2026-02-19") || w.Close != d(t, "2026-02-27") {
		t.Fatalf("window of 2026-03-01: %s to %s", w.Open, w.Close)
	}
	for day, in := range map[string]bool{
		"2026-02-18": false, "2026-02-19": true, "2026-02-23": true, "2026-02-27": true,
		"2026-02-28": false, "2026-03-01": false,
	} {
		if w.Contains(d(t, day)) != in {
			t.Errorf("Contains(%s) = %v", day, !in)
		}
	}
}

func TestSendDay(t *testing.T) {
	due := d(t, "2026-03-20")
	tests := []struct {
		today, want string
		err         error
	}{
		{"2026-03-01", "2026-03-10", nil}, // before the window: its first day
		{"2026-03-10", "2026-03-10", nil},
		{"2026-03-15", "2026-03-15", nil}, // inside: today
		{"2026-03-18", "2026-03-18", nil}, // the last day
		{"2026-03-19", "", ErrWindowClosed},
		{"2026-03-20", "", ErrWindowClosed},
	}
	for _, tc := range tests {
		got, err := SendDay(due, d(t, tc.today))
		if !errors.Is(err, tc.err) || (err == nil && got.String() != tc.want) {
			t.Errorf("SendDay on %s: %s, %v; want %s, %v", tc.today, got, err, tc.want, tc.err)
		}
	}
}

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
		if ok {
			due, _ := tc.c.Due(n)
			if _, err := SendDay(due, d(t, tc.today)); err != nil {
				t.Errorf("%s: cycle %d (%s) cannot be sent: %v", tc.name, n, due, err)
			}
		}
	}
}
