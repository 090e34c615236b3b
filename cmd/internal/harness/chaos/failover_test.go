package chaos

import (
	"strings"
	"testing"
	"time"
)

func TestFailoverCheck(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	sr := scenarioRun{scenario: scenario{failover: &failover{maxFailed: 0.01, backWithin: 10 * time.Second}},
		injected: at, recovered: at.Add(30 * time.Second)}
	charge := func(offset time.Duration, provider string, failures int) verdict {
		return verdict{kind: chargeKind, requested: at.Add(offset), provider: provider, failures: failures, answer: created,
			took: 20 * time.Millisecond}
	}
	// A clean failover: 200 charges during the outage at b, one withdrawal
	// at each provider, the default back 2 s after, the last at b 1 s after.
	clean := func() []verdict {
		var vs []verdict
		vs = append(vs, charge(-time.Second, "default", 0)) // before the fault: not judged
		for i := range 200 {
			vs = append(vs, charge(time.Duration(i)*100*time.Millisecond, "b", 0))
		}
		vs = append(vs,
			verdict{kind: withdrawalKind, requested: at.Add(time.Second), provider: "default", answer: created},
			verdict{kind: withdrawalKind, requested: at.Add(2 * time.Second), provider: "b", answer: created},
			charge(31*time.Second, "b", 0), charge(32*time.Second, "default", 0), charge(33*time.Second, "default", 0))
		return vs
	}
	for _, tc := range []struct {
		name     string
		spoil    func(vs []verdict) []verdict
		problems []string
		note     string
	}{
		{"clean", func(vs []verdict) []verdict { return vs }, nil,
			"200, 0 of them answered other than 2xx at least once (0.00 %, at most 1 %); created at b 200"},
		{"two failures of 200 are within 1 %", func(vs []verdict) []verdict {
			vs[1].failures, vs[2].answer, vs[2].provider = 1, refused, ""
			return vs
		}, nil, "2 of them answered other than 2xx at least once (1.00 %, at most 1 %); created at b 199, nowhere 1"},
		{"three are beyond it", func(vs []verdict) []verdict {
			vs[1].failures, vs[2].failures, vs[3].failures = 1, 2, 4
			return vs
		}, []string{"3 of 200 charges asked for during the fault failed at least once (1.50 %), beyond 1 %"}, ""},
		{"how long the charges took", func(vs []verdict) []verdict {
			vs[1].took = 12 * time.Second
			return vs
		}, nil, "created at b 200; answered in p50 20 ms, p99 20 ms, max 12 s"},
		{"withdrawals by provider", func(vs []verdict) []verdict { return vs }, nil,
			"withdrawals asked for during the fault: 2, recorded at default 1, b 1"},
		{"back to the default, and when", func(vs []verdict) []verdict { return vs }, nil,
			"the first new charge created there 2.0 s after it came back, the last created at b 1.0 s after"},
		{"still at b too long after", func(vs []verdict) []verdict { return append(vs, charge(45*time.Second, "b", 0)) },
			[]string{"charges asked for 15 s after the default provider came back still went to b, beyond 10 s"}, ""},
		{"never back", func(vs []verdict) []verdict { return vs[:len(vs)-2] },
			[]string{"no charge asked for after the default provider came back went to it"}, ""},
		{"no charge during the outage", func(vs []verdict) []verdict { return append(vs[:1:1], vs[201:]...) },
			[]string{"no charge was asked for during the fault"}, ""},
	} {
		var notes []string
		problems := failoverCheck(0, sr, tc.spoil(clean()), &notes)
		if strings.Join(problems, "|") != strings.Join(tc.problems, "|") {
			t.Errorf("%s: problems %q, want %q", tc.name, problems, tc.problems)
		}
		if tc.note != "" && !strings.Contains(strings.Join(notes, "|"), tc.note) {
			t.Errorf("%s: notes %q, want one with %q", tc.name, notes, tc.note)
		}
	}
	// A weighted route sends charges to b after the fault too: only the
	// first back at the default is told.
	weighted := sr
	weighted.failover = &failover{maxFailed: 0.01}
	var notes []string
	vs := append(clean(), charge(45*time.Second, "b", 0))
	if p := failoverCheck(0, weighted, vs, &notes); p != nil {
		t.Errorf("weighted: problems %q", p)
	}
	if got := notes[len(notes)-1]; got != "after the fault: the first new charge created at the default provider 2.0 s after it ended" {
		t.Errorf("weighted: last note %q", got)
	}
	// Other scenarios, and other scenarios' records, are not judged.
	notes = nil
	if p := failoverCheck(0, scenarioRun{}, []verdict{charge(time.Second, "", 3)}, &notes); p != nil || notes != nil {
		t.Errorf("a scenario without failover: %v %v", p, notes)
	}
}
