package recurrence

import (
	"errors"
	"testing"
	"time"
)

// A consent request stays open at most 30 days (IN BCB 436, art. 3), less
// if the receiver says so (its § 1).
func TestConsentDeadline(t *testing.T) {
	created := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		requested time.Time
		want      time.Time
		err       bool
	}{
		{"default: 30 days", time.Time{}, created.AddDate(0, 0, 30), false},
		{"shorter", created.Add(48 * time.Hour), created.Add(48 * time.Hour), false},
		{"exactly 30 days", created.AddDate(0, 0, 30), created.AddDate(0, 0, 30), false},
		{"a second more", created.AddDate(0, 0, 30).Add(time.Second), time.Time{}, true},
		{"now", created, time.Time{}, true},
		{"past", created.Add(-time.Hour), time.Time{}, true},
	}
	for _, tc := range tests {
		got, err := ConsentDeadline(created, tc.requested)
		var fe *FieldError
		if tc.err != (err != nil) || (err != nil && (!errors.As(err, &fe) || fe.Field != "consent_expires_at")) || !got.Equal(tc.want) {
			t.Errorf("%s: %v, %v; want %v (error %v)", tc.name, got, err, tc.want, tc.err)
		}
	}
}
