package storage

import (
	"slices"
	"testing"
	"time"
)

// The nighttime window is 20:00 to 06:00 in São Paulo (UTC-3), whatever
// the clock's own zone.
func TestNighttimeWindow(t *testing.T) {
	for _, tc := range []struct {
		utc  string
		want bool
	}{
		{"2026-03-02T22:59:59Z", false}, // 19:59:59 in São Paulo
		{"2026-03-02T23:00:00Z", true},  // 20:00
		{"2026-03-03T03:00:00Z", true},  // midnight
		{"2026-03-03T08:59:59Z", true},  // 05:59:59
		{"2026-03-03T09:00:00Z", false}, // 06:00
		{"2026-03-03T15:00:00Z", false}, // noon
	} {
		at, _ := time.Parse(time.RFC3339, tc.utc)
		if got := Nighttime(at); got != tc.want {
			t.Errorf("Nighttime(%s) = %v, want %v", tc.utc, got, tc.want)
		}
		if got := Nighttime(at.In(time.FixedZone("x", 9*3600))); got != tc.want {
			t.Errorf("Nighttime(%s in another zone) = %v, want %v", tc.utc, got, tc.want)
		}
	}
}

// By day the limit is Max; at night the lower of Max and Night; zero is
// none.
func TestPixLimitAt(t *testing.T) {
	day, _ := time.Parse(time.RFC3339, "2026-03-03T15:00:00Z")
	night, _ := time.Parse(time.RFC3339, "2026-03-03T01:00:00Z")
	for _, tc := range []struct {
		l                PixLimit
		byDay, atNight   int64
		allows1500000Day bool
	}{
		{PixLimit{}, 0, 0, true},
		{PixLimit{Max: 1500000}, 1500000, 1500000, true},
		{PixLimit{Max: 1500000, Night: 100000}, 1500000, 100000, true},
		{PixLimit{Night: 100000}, 0, 100000, true},
		{PixLimit{Max: 100000, Night: 500000}, 100000, 100000, false},
	} {
		if got := tc.l.At(day); int64(got) != tc.byDay {
			t.Errorf("%+v by day = %d, want %d", tc.l, got, tc.byDay)
		}
		if got := tc.l.At(night); int64(got) != tc.atNight {
			t.Errorf("%+v at night = %d, want %d", tc.l, got, tc.atNight)
		}
		if got := tc.l.Allows(1500000, day); got != tc.allows1500000Day {
			t.Errorf("%+v allows R$ 15,000.00 by day = %v", tc.l, got)
		}
		if tc.l.At(night) > 0 && tc.l.Allows(tc.l.At(night)+1, night) {
			t.Errorf("%+v allows a centavo over its night limit", tc.l)
		}
	}
}

// A route keeps, in order, the providers whose limit lets an amount
// through; its highest limit is zero when one has none.
func TestRouteWithdrawalsAllowing(t *testing.T) {
	day, _ := time.Parse(time.RFC3339, "2026-03-03T15:00:00Z")
	night, _ := time.Parse(time.RFC3339, "2026-03-03T01:00:00Z")
	r := Route{Withdrawals: []string{"a", "b", "c"},
		Limits: map[string]PixLimit{"a": {Max: 1500000}, "b": {Max: 5000000, Night: 100000}}}
	if got := r.WithdrawalsAllowing(2000000, day); !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("R$ 20,000 by day: %v", got)
	}
	if got := r.WithdrawalsAllowing(200000, night); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("R$ 2,000 at night: %v", got)
	}
	if got := r.HighestLimit(day); got != 0 {
		t.Errorf("highest limit with c unlimited = %d, want 0", got)
	}
	r.Withdrawals = []string{"a", "b"}
	if got := r.HighestLimit(night); got != 1500000 {
		t.Errorf("highest limit at night = %d, want 1500000", got)
	}
}

// Lookups per payment; flagged above two, or any lookup without a
// payment.
func TestLookupRatio(t *testing.T) {
	for _, tc := range []struct {
		r       LookupRatio
		ratio   float64
		ok      bool
		flagged bool
	}{
		{LookupRatio{Lookups: 4, Payments: 2}, 2, true, false},
		{LookupRatio{Lookups: 5, Payments: 2}, 2.5, true, true},
		{LookupRatio{Lookups: 1}, 0, false, true},
		{LookupRatio{Payments: 3}, 0, true, false},
		{LookupRatio{}, 0, false, false},
	} {
		ratio, ok := tc.r.Ratio()
		if ratio != tc.ratio || ok != tc.ok || tc.r.Flagged() != tc.flagged {
			t.Errorf("%+v: ratio %v %v, flagged %v", tc.r, ratio, ok, tc.r.Flagged())
		}
	}
}
