package due

import (
	"encoding/json"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// testDay is the day the tests' Validate and Minimum are asked on.
var testDay Date

// atToday makes day the tests' today, for the test.
func atToday(t *testing.T, day string) {
	t.Helper()
	old := testDay
	testDay = mustDate(t, day)
	t.Cleanup(func() { testDay = old })
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
