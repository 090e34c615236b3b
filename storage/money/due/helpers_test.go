package due

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/money"
)

// atToday sets the clock Validate and Minimum read to noon of day in
// Brasília, for the test.
func atToday(t *testing.T, day string) {
	t.Helper()
	d := mustDate(t, day)
	at := time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, brasilia)
	old := now
	now = func() time.Time { return at }
	t.Cleanup(func() { now = old })
}

// requestTerms reads terms as a request carries them, sets the amount and
// normalizes them.
func requestTerms(t *testing.T, original string, body string) Terms {
	t.Helper()
	var terms Terms
	if err := json.Unmarshal([]byte(body), &terms); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	terms.Original = parseMoney(t, 0, original)
	terms.Normalize()
	return terms
}

func parseMoney(t *testing.T, line int, s string) money.Money {
	t.Helper()
	m, err := money.Parse(s)
	if err != nil {
		t.Fatalf("line %d: %q: %v", line, s, err)
	}
	return m
}
