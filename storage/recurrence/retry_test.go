package recurrence

import (
	"errors"
	"testing"

	"github.com/pixgate/pixgate/storage/money/due"
)

// PERMITE_3R_7D: up to 3 retries on different dates within 7 calendar
// days after the due date and before the next cycle (Asaas, "Processo de
// retentativas"; the API Pix's politicaRetentativa).
func TestRetryRange(t *testing.T) {
	tests := []struct {
		name        string
		p           RetryPolicy
		due, next   string
		first, last string // "" for none
	}{
		{"monthly", RetryThreeInSeven, "2026-03-10", "2026-04-10", "2026-03-11", "2026-03-17"},
		{"last cycle", RetryThreeInSeven, "2026-03-10", "", "2026-03-11", "2026-03-17"},
		{"weekly: before the next cycle", RetryThreeInSeven, "2026-03-10", "2026-03-17", "2026-03-11", "2026-03-16"},
		{"no retries", RetryNone, "2026-03-10", "2026-04-10", "", ""},
	}
	for _, tc := range tests {
		var next due.Date
		if tc.next != "" {
			next = d(t, tc.next)
		}
		first, last, ok := tc.p.RetryRange(d(t, tc.due), next)
		if ok != (tc.first != "") || (ok && (first.String() != tc.first || last.String() != tc.last)) {
			t.Errorf("%s: %s to %s, %v; want %q to %q", tc.name, first, last, ok, tc.first, tc.last)
		}
	}
}

func TestCheckRetry(t *testing.T) {
	dueDay, next := d(t, "2026-03-10"), d(t, "2026-04-10")
	tests := []struct {
		name      string
		p         RetryPolicy
		retries   int
		prev, day string
		today     string
		want      error
	}{
		{"first retry, D+1", RetryThreeInSeven, 0, "2026-03-10", "2026-03-11", "2026-03-10", nil},
		{"third retry, D+7", RetryThreeInSeven, 2, "2026-03-14", "2026-03-17", "2026-03-15", nil},
		{"a fourth", RetryThreeInSeven, 3, "2026-03-16", "2026-03-17", "2026-03-16", ErrRetriesSpent},
		{"policy NAO_PERMITE", RetryNone, 0, "2026-03-10", "2026-03-11", "2026-03-10", ErrRetryNotAllowed},
		{"D+8", RetryThreeInSeven, 0, "2026-03-10", "2026-03-18", "2026-03-10", ErrRetryOutside},
		{"on the due date", RetryThreeInSeven, 0, "2026-03-10", "2026-03-10", "2026-03-09", ErrRetryOutside},
		// "O parâmetro data não corresponde a uma data futura".
		{"today", RetryThreeInSeven, 0, "2026-03-10", "2026-03-12", "2026-03-12", ErrRetryNotFuture},
		{"same date as the previous attempt", RetryThreeInSeven, 1, "2026-03-13", "2026-03-13", "2026-03-11", ErrRetryNotFuture},
	}
	for _, tc := range tests {
		err := tc.p.CheckRetry(dueDay, next, tc.retries, d(t, tc.prev), d(t, tc.day), d(t, tc.today))
		if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("%s: %v; want %v", tc.name, err, tc.want)
		}
	}
}

// PixGate's plan: D+1, D+4, D+7, moved on when a day has passed, and kept
// before the next cycle.
func TestNextRetry(t *testing.T) {
	tests := []struct {
		name      string
		p         RetryPolicy
		due, next string
		retries   int
		prev      string
		today     string
		want      string // "" for none
	}{
		{"first, asked on the due date's evening", RetryThreeInSeven, "2026-03-10", "2026-04-10", 0, "2026-03-10", "2026-03-10", "2026-03-11"},
		{"second", RetryThreeInSeven, "2026-03-10", "2026-04-10", 1, "2026-03-11", "2026-03-11", "2026-03-14"},
		{"third", RetryThreeInSeven, "2026-03-10", "2026-04-10", 2, "2026-03-14", "2026-03-14", "2026-03-17"},
		{"none after three", RetryThreeInSeven, "2026-03-10", "2026-04-10", 3, "2026-03-17", "2026-03-17", ""},
		{"first, asked late", RetryThreeInSeven, "2026-03-10", "2026-04-10", 0, "2026-03-10", "2026-03-12", "2026-03-13"},
		{"second, after a late first", RetryThreeInSeven, "2026-03-10", "2026-04-10", 1, "2026-03-15", "2026-03-15", "2026-03-16"},
		{"third, after a late second", RetryThreeInSeven, "2026-03-10", "2026-04-10", 2, "2026-03-17", "2026-03-17", ""},
		{"weekly: the third before the next cycle", RetryThreeInSeven, "2026-03-10", "2026-03-17", 2, "2026-03-14", "2026-03-14", "2026-03-16"},
		{"no day left", RetryThreeInSeven, "2026-03-10", "2026-04-10", 0, "2026-03-10", "2026-03-17", ""},
		{"NAO_PERMITE", RetryNone, "2026-03-10", "2026-04-10", 0, "2026-03-10", "2026-03-10", ""},
	}
	for _, tc := range tests {
		var next due.Date
		if tc.next != "" {
			next = d(t, tc.next)
		}
		got, ok := tc.p.NextRetry(d(t, tc.due), next, tc.retries, d(t, tc.prev), d(t, tc.today))
		if ok != (tc.want != "") || (ok && got.String() != tc.want) {
			t.Errorf("%s: %s, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

func TestRetryPolicyNames(t *testing.T) {
	for name, p := range map[string]RetryPolicy{"NAO_PERMITE": RetryNone, "PERMITE_3R_7D": RetryThreeInSeven} {
		got, ok := RetryPolicyFromBCB(name)
		if !ok || got != p || p.BCB() != name || !p.Valid() {
			t.Errorf("%s: %s, %v", name, got, ok)
		}
	}
	if RetryThreeInSeven.Retries() != 3 || RetryNone.Retries() != 0 || RetryPolicy("X").Valid() {
		t.Error("retries per policy")
	}
}
