package chaos

import (
	"math/rand/v2"
	"time"
)

// The plan's route changes: every integrator's routes drawn at the start,
// then one integrator's changed every 20 to 60 s.

// planRoute is one change of an integrator's routes, as provider indexes
// in order.
type planRoute struct {
	At                   time.Duration
	Integrator           int
	Charges, Withdrawals []int
}

// drawRoutes sets every integrator's routes at the start, then changes
// one integrator's routes every 20 to 60 s.
func drawRoutes(rng *rand.Rand, d time.Duration, integrators int) []planRoute {
	var out []planRoute
	for i := range integrators {
		out = append(out, planRoute{Integrator: i, Charges: drawRoute(rng), Withdrawals: drawRoute(rng)})
	}
	for at := between(rng, 20*time.Second, time.Minute); at < d; at += between(rng, 20*time.Second, time.Minute) {
		out = append(out, planRoute{At: at, Integrator: rng.IntN(integrators), Charges: drawRoute(rng), Withdrawals: drawRoute(rng)})
	}
	return out
}

// drawRoute is a route of one to three providers in a random order, two or
// three more often than one (so that there is something to fail over to).
func drawRoute(rng *rand.Rand) []int {
	n := []int{1, 2, 2, 3, 3, 3}[rng.IntN(6)]
	return rng.Perm(len(soakProviders))[:n]
}

// routeNames is a route as pixgate route set takes it.
func routeNames(route []int) string {
	s := ""
	for i, p := range route {
		if i > 0 {
			s += ","
		}
		s += soakProviders[p].name
	}
	return s
}
