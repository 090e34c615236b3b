package chaos

import (
	"context"
	"fmt"
	"time"
)

// hangingEndpoint is the scenario of one integrator whose postback
// endpoint hangs: every delivery to it is held unanswered for the fault's
// hold (PixGate gives each up at its timeout and retries it). The other
// integrators' postbacks must still arrive as soon as before: the p99 of
// their lag (final status written → first attempt of its postback) while
// the endpoint hangs within hangTolerance of their p99 in the load before
// it.
const hangingEndpoint = "hanging-endpoint"

// hungIntegrator is the integrator (index) whose endpoint hangs.
const hungIntegrator = 0

// hangTolerance is how much later than before the hang the others' p99
// may be: half as much again, or half a second, whichever is more (the
// machine is shared; the p99 of a few hundred postbacks moves by that
// much between two quiet stretches).
func hangTolerance(before time.Duration) time.Duration {
	return max(before*3/2, before+500*time.Millisecond)
}

var hangScenario = scenario{name: hangingEndpoint,
	fault: "one integrator's postback endpoint hanging (every delivery held unanswered) for 30 s; the other integrators' postbacks as prompt as before it (p99 within max(1.5×, +0.5 s))",
	hold:  30 * time.Second, isolate: true,
	inject: func(_ context.Context, c *cluster, _ *sandboxClient) error {
		c.recv.HangOn(hungIntegrator)
		return nil
	},
	recover: func(_ context.Context, c *cluster, _ *sandboxClient) error {
		c.recv.HangOff()
		return nil
	}}

// postbackIsolation checks an isolate scenario: the postbacks of the
// integrators whose endpoint did not hang, by when their status became
// final: before the fault and while it lasted.
func postbackIsolation(idx int, sr scenarioRun, vs []verdict, notes *[]string) []string {
	if !sr.isolate {
		return nil
	}
	var before, during, hung []time.Duration
	for _, v := range vs {
		if v.scenario != idx || v.postbackLag <= 0 {
			continue
		}
		switch {
		case v.integrator == hungIntegrator:
			if !v.finalAt.Before(sr.injected) && !v.finalAt.After(sr.recovered) {
				hung = append(hung, v.postbackLag)
			}
		case v.finalAt.Before(sr.injected):
			before = append(before, v.postbackLag)
		case !v.finalAt.After(sr.recovered):
			during = append(during, v.postbackLag)
		}
	}
	b, d := figuresOf(before), figuresOf(during)
	*notes = append(*notes, fmt.Sprintf("postbacks (final status → first attempt) of the other integrators: before the hang %d (%s), during it %d (%s); of the hanging endpoint's integrator, during it: %d (%s)",
		b.n, b, d.n, d, len(hung), figuresOf(hung)))
	switch {
	case b.n == 0 || d.n == 0:
		return []string{"too few postbacks of the other integrators to compare (before the hang, during it)"}
	case d.p99 > hangTolerance(b.p99):
		return []string{fmt.Sprintf("the other integrators' postbacks were slower while an endpoint hung: p99 %s, before %s (allowed %s)",
			lagText(d.p99), lagText(b.p99), lagText(hangTolerance(b.p99)))}
	}
	return nil
}
