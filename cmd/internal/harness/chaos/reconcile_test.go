package chaos

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestJudgeReconciliation(t *testing.T) {
	for _, tc := range []struct {
		name, report string
		problems     int
		want         string
	}{
		{"clean", `{"run": {"reconciled": true, "lines": 12, "records": 12, "counts": {"matched": 12}, "open_exceptions": 0, "unexplained": 0.00}}`,
			0, "12 matched, 0 expected, 0 exceptions, balance difference unexplained 0.00"},
		{"an exception", `{"run": {"reconciled": false, "lines": 12, "records": 12, "counts": {"matched": 11, "amount_mismatch": 1}, "open_exceptions": 1, "unexplained": 0.00}}`,
			2, "1 exceptions"},
		{"resolved, still counted", `{"run": {"reconciled": true, "lines": 2, "records": 1, "counts": {"matched": 1, "missing_in_pixgate": 1}, "open_exceptions": 0, "unexplained": 0.00}}`,
			1, "1 exceptions"},
		{"unexplained money", `{"run": {"reconciled": false, "lines": 3, "records": 3, "counts": {"matched": 3}, "open_exceptions": 0, "unexplained": 1.50}}`,
			1, "unexplained 1.50"},
		{"no balances", `{"run": {"reconciled": true, "lines": 3, "records": 3, "counts": {"matched": 3}, "open_exceptions": 0, "unexplained": null}}`,
			0, "unexplained not known"},
	} {
		var r reconReport
		if err := json.Unmarshal([]byte(tc.report), &r); err != nil {
			t.Fatal(err)
		}
		line, problems := judgeReconciliation("2026-03-01", r)
		if len(problems) != tc.problems || !strings.Contains(line, tc.want) {
			t.Errorf("%s: %q, %v; want %d problems and %q", tc.name, line, problems, tc.problems, tc.want)
		}
	}
}
