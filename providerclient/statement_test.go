package providerclient_test

import (
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient"
)

// A statement's day is a calendar day in the providers' clock
// (America/Sao_Paulo, UTC−3): 02:00 UTC is still the day before there.
func TestStatementDaysAreSaoPauloDays(t *testing.T) {
	at := time.Date(2026, 3, 2, 2, 0, 0, 0, time.UTC)
	d := providerclient.DayOf(at)
	if d.String() != "2026-03-01" {
		t.Fatalf("DayOf(%s) = %s, want 2026-03-01", at, d)
	}
	if start, end := d.Start().UTC(), d.End().UTC(); !start.Equal(time.Date(2026, 3, 1, 3, 0, 0, 0, time.UTC)) ||
		!end.Equal(time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)) {
		t.Fatalf("%s spans %s to %s, want 03:00 UTC to 03:00 UTC", d, start, end)
	}
	if got := providerclient.DayOf(d.End().Add(-time.Nanosecond)); got != d {
		t.Fatalf("the day's last instant is on %s", got)
	}
	if got := d.AddDays(-1).String(); got != "2026-02-28" {
		t.Fatalf("the day before %s is %s", d, got)
	}
	if p, err := providerclient.ParseDay("2026-03-01"); err != nil || p != d {
		t.Fatalf("ParseDay: %s, %v", p, err)
	}
	for _, bad := range []string{"", "2026-3-1", "2026-02-30", "01/03/2026"} {
		if _, err := providerclient.ParseDay(bad); err == nil {
			t.Errorf("ParseDay(%q) accepted", bad)
		}
	}
}
