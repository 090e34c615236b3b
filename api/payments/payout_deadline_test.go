package payments

import (
	"testing"
	"time"
)

// A withdrawal is due when the request says, else its creation plus the
// integrator's payout deadline, else never.
func TestDueAt(t *testing.T) {
	now := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	given := now.Add(30 * time.Minute)
	if got := dueAt(&given, 2*time.Hour, now); got == nil || !got.Equal(given) {
		t.Errorf("given due_at: %v", got)
	}
	if got := dueAt(nil, 2*time.Hour, now); got == nil || !got.Equal(now.Add(2*time.Hour)) {
		t.Errorf("a 2h deadline: %v", got)
	}
	if got := dueAt(nil, 0, now); got != nil {
		t.Errorf("no deadline: %v", got)
	}
}
