package chaos

import (
	"fmt"
	"time"
)

// twoProviders is the scenario of a provider outage with a second provider
// healthy: every integrator is routed to the default provider, then b;
// the default goes down for 30 s.
const twoProviders = "two-providers"

// failover is what a scenario of two providers promises: at most
// maxFailed of the charges asked for during the fault see a failed
// attempt, and, when backWithin is set (a route that sends every charge to
// the default provider while it serves), once the default provider is
// back new charges go to it again within backWithin. A weighted route
// (backWithin 0) sends charges to both all along; only the first new
// charge at the default after the fault is told.
type failover struct {
	maxFailed  float64
	backWithin time.Duration
}

// failoverCheck judges scenario idx's failover promise from its verdicts;
// it adds what it found to notes and returns a problem per broken promise.
func failoverCheck(idx int, sr scenarioRun, vs []verdict, notes *[]string) []string {
	if sr.failover == nil {
		return nil
	}
	var (
		charges, failed   int
		chargesAt, sentAt = map[string]int{}, map[string]int{}
		took              []time.Duration
		withdrawals       int
		firstBack         time.Duration = -1
		lastAway          time.Duration = -1
		problems          []string
	)
	for _, v := range vs {
		if v.scenario != idx {
			continue
		}
		during := !v.requested.Before(sr.injected) && v.requested.Before(sr.recovered)
		switch {
		case during && v.kind == chargeKind:
			charges++
			if v.failures > 0 || v.answer != created {
				failed++
			}
			chargesAt[v.provider]++
			if v.took > 0 {
				took = append(took, v.took)
			}
		case during && v.kind == withdrawalKind:
			withdrawals++
			sentAt[v.provider]++
		case !v.requested.Before(sr.recovered) && v.kind == chargeKind && v.provider != "":
			after := v.requested.Sub(sr.recovered)
			if v.provider == "default" && (firstBack < 0 || after < firstBack) {
				firstBack = after
			}
			if v.provider != "default" && after > lastAway {
				lastAway = after
			}
		}
	}
	share := 0.0
	if charges > 0 {
		share = float64(failed) / float64(charges)
	}
	*notes = append(*notes,
		fmt.Sprintf("charges asked for during the fault: %d, %d of them answered other than 2xx at least once (%.2f %%, at most %.0f %%); created at %s; answered in %s",
			charges, failed, 100*share, 100*sr.failover.maxFailed, byProvider(chargesAt), figuresOf(took).String()),
		fmt.Sprintf("withdrawals asked for during the fault: %d, recorded at %s", withdrawals, byProvider(sentAt)))
	switch {
	case charges == 0:
		problems = append(problems, "no charge was asked for during the fault")
	case share > sr.failover.maxFailed:
		problems = append(problems, fmt.Sprintf("%d of %d charges asked for during the fault failed at least once (%.2f %%), beyond %.0f %%",
			failed, charges, 100*share, 100*sr.failover.maxFailed))
	}
	if firstBack < 0 {
		return append(problems, "no charge asked for after the default provider came back went to it")
	}
	if sr.failover.backWithin <= 0 {
		*notes = append(*notes, fmt.Sprintf("after the fault: the first new charge created at the default provider %s after it ended", seconds(firstBack)))
		return problems
	}
	back := "none at b after it"
	if lastAway >= 0 {
		back = fmt.Sprintf("the last created at b %s after", seconds(lastAway))
	}
	*notes = append(*notes, fmt.Sprintf("back to the default provider: the first new charge created there %s after it came back, %s",
		seconds(firstBack), back))
	if lastAway > sr.failover.backWithin {
		problems = append(problems, fmt.Sprintf("charges asked for %s after the default provider came back still went to b, beyond %s",
			seconds(lastAway), seconds(sr.failover.backWithin)))
	}
	return problems
}

// byProvider words counts by provider: "b 12, default 3" ("nowhere" for
// the records PixGate has none of).
func byProvider(n map[string]int) string {
	if len(n) == 0 {
		return "none"
	}
	var s string
	for _, p := range []string{"default", secondProvider, ""} {
		if n[p] == 0 {
			continue
		}
		name := p
		if p == "" {
			name = "nowhere"
		}
		if s != "" {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", name, n[p])
	}
	return s
}
