package chaos

import (
	"strings"
	"testing"
)

func TestJudgeFloats(t *testing.T) {
	start := []floatReading{
		{provider: "default", reported: 100_000_000, float: 0, readable: true},
		{provider: "b", reported: 100_000_000, float: 0, readable: true},
	}
	for _, tc := range []struct {
		name     string
		end      []floatReading
		lines    []string
		problems []string
	}{
		{"each float equals its balance less what it held before",
			[]floatReading{
				{provider: "default", reported: 100_012_345, float: 12_345, readable: true},
				{provider: "b", reported: 99_999_000, float: -1_000, readable: true},
			},
			[]string{"provider default: balance R$ 1000123.45, float account R$ 123.45, equal once the R$ 1000000.00 it held before the run is set aside",
				"provider b: balance R$ 999990.00, float account R$ -10.00, equal once the R$ 1000000.00 it held before the run is set aside"},
			nil},
		{"a float that moved otherwise than its balance",
			[]floatReading{{provider: "b", reported: 100_000_050, float: 100, readable: true}},
			[]string{"provider b: balance R$ 1000000.50, float account R$ 1.00, R$ 1000000.00 held before the run: R$ -0.50 unexplained"},
			[]string{"float of provider b: balance R$ 1000000.50, float account R$ 1.00; the difference moved from R$ 1000000.00 to R$ 999999.50"}},
		{"a balance not read",
			[]floatReading{{provider: "b", float: 100, err: "connection refused"}},
			nil,
			[]string{"float of provider b: its balance could not be read after the drain: connection refused"}},
		{"a provider not read at the start",
			[]floatReading{{provider: "c", reported: 5, readable: true}},
			nil,
			[]string{"float of provider c: its balance was not read at the start"}},
	} {
		lines, problems := judgeFloats(start, tc.end)
		if strings.Join(lines, "|") != strings.Join(tc.lines, "|") || strings.Join(problems, "|") != strings.Join(tc.problems, "|") {
			t.Errorf("%s:\n lines %q\n want  %q\n problems %q\n want     %q", tc.name, lines, tc.lines, problems, tc.problems)
		}
	}
}
