package fleet

import (
	"context"

	"github.com/pixgate/pixgate/providerclient"
)

// Choice is one provider of a route, with its weight in the volume split
// (0: no share of first choices while a weighted provider is in service).
type Choice struct {
	Provider string
	Weight   int
}

// Route is an ordered list of providers for one kind of operation.
type Route []Choice

// plan orders the providers of r for one call of lane:
//
//  1. the providers in service (lane's breaker not open, not eliminated): the
//     first chosen by weight among those with a weight (the first listed
//     when none has one), then the others in the route's order;
//  2. then, as a last resort, the eliminated ones, in the route's order;
//  3. then those whose lane's breaker is open, which answer at once without
//     calling the provider.
//
// Names the fleet does not know are left out. An eliminated provider whose
// probe is due is probed, on the side, with ctx's values but not its end.
func (f *Fleet) plan(ctx context.Context, r Route, lane providerclient.Lane) []*member {
	var ready []*member
	var weights []int
	var eliminated, open []*member
	for _, c := range r {
		m := f.members[c.Provider]
		if m == nil {
			continue
		}
		out, probe := m.isEliminated()
		if probe {
			go m.probe(context.WithoutCancel(ctx))
		}
		switch {
		case m.open(lane):
			open = append(open, m)
		case out:
			eliminated = append(eliminated, m)
		default:
			ready = append(ready, m)
			weights = append(weights, max(c.Weight, 0))
		}
	}
	if first := f.pickWeighted(weights); first > 0 {
		// The pick goes first; the others keep the route's order.
		ordered := append([]*member{ready[first]}, ready[:first]...)
		ready = append(ordered, ready[first+1:]...)
	}
	return append(append(ready, eliminated...), open...)
}

// pickWeighted is the index of the weighted pick among weights (the first
// index when none is positive).
func (f *Fleet) pickWeighted(weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	if total == 0 {
		return 0
	}
	n := f.opts.Pick(total)
	for i, w := range weights {
		if n < w {
			return i
		}
		n -= w
	}
	return 0
}

// Choose is the provider a new operation of lane on route goes to first:
// the first of the plan (in service before eliminated, eliminated before
// open breakers of that lane), or "" when the fleet knows none of the
// route's providers.
func (f *Fleet) Choose(ctx context.Context, r Route, lane providerclient.Lane) string {
	if plan := f.plan(ctx, r, lane); len(plan) > 0 {
		return plan[0].name
	}
	return ""
}
