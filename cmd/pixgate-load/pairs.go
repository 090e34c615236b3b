package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"
)

// extraPairs is how many more times the bare lifecycle and the lifecycle at
// its peak run, one right after the other, after the run's own: on a shared
// machine the speed of the cores moves between two phases minutes apart
// (the load generator's own CPU for the same work has differed by 1.7×
// between runs), and one pair's ratio moves with it.
const extraPairs = 2

// pairRun is the bare lifecycle and PixGate's lifecycle at its peak,
// measured one right after the other.
type pairRun struct{ Bare, Life phase }

// rateRatio and cpuRatio are the pair's lifecycle against its bare one.
func (p pairRun) rateRatio() float64 { return p.Life.Result.rate() / max(p.Bare.Result.rate(), 1e-9) }
func (p pairRun) cpuRatio() float64 {
	return float64(cpuTotal(p.Life)) / float64(max(cpuTotal(p.Bare), time.Nanosecond))
}

// pairs runs the extra pairs.
func (r *run) pairs(ctx context.Context, rep *report) error {
	for i := range extraPairs {
		stepf("bare lifecycle and the lifecycle at its peak again, pair %d of %d", i+2, extraPairs+1)
		bare, err := runBare(ctx, r.t, r.t.postbacks, r.warmup, r.measure)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("life-peak-%d", i+2)
		life := r.lifecycleClosed(ctx, name, "the lifecycle at its peak, again", r.in.tokens)
		rep.Pairs = append(rep.Pairs, pairRun{Bare: bare, Life: life})
	}
	return nil
}

// peakPairs is every pair of the run, its own first; none without both.
func (r *report) peakPairs() []pairRun {
	bare, okB := r.Phases["bare"]
	life, okL := r.Phases["life-peak"]
	if !okB || !okL || bare.Result.Ops == 0 || life.Result.Ops == 0 {
		return nil
	}
	return append([]pairRun{{Bare: bare, Life: life}}, r.Pairs...)
}

// spread is the median of xs with its lowest and highest.
type spread struct{ Med, Lo, Hi float64 }

func spreadOf(xs []float64) spread {
	if len(xs) == 0 {
		return spread{}
	}
	s := slices.Sorted(slices.Values(xs))
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return spread{med, s[0], s[len(s)-1]}
}

// times is "0.31× (0.28–0.33× over 3 pairs, median)", or the one value.
func (s spread) times(n int) string {
	if n <= 1 {
		return fmt.Sprintf("%.2f×", s.Med)
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f× over %d pairs, median)", s.Med, s.Lo, s.Hi, n)
}

// over is the spread of f over the pairs.
func over(pairs []pairRun, f func(pairRun) float64) spread {
	xs := make([]float64, len(pairs))
	for i, p := range pairs {
		xs[i] = f(p)
	}
	return spreadOf(xs)
}

// pairSpreads are the median rate and CPU ratios of the pairs, and the
// median CPU of a bare lifecycle.
func (r *report) pairSpreads() (rate, cpu spread, bareCPU time.Duration, n int) {
	pairs := r.peakPairs()
	bare := over(pairs, func(p pairRun) float64 { return float64(cpuTotal(p.Bare)) })
	return over(pairs, pairRun.rateRatio), over(pairs, pairRun.cpuRatio), time.Duration(bare.Med), len(pairs)
}

// pairsTable shows every pair, and the medians the goals take.
func (r *report) pairsTable(w io.Writer) {
	pairs := r.peakPairs()
	if len(pairs) < 2 {
		return
	}
	fmt.Fprintln(w, "The bare lifecycle and the lifecycle at its peak, run again one right after the other (pair 1 is the table's):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Pair | bare, per s | lifecycle, per s | × bare | bare CPU per lifecycle | lifecycle CPU per lifecycle | CPU × bare | load generator's CPU per lifecycle |")
	fmt.Fprintln(w, "|--:|--:|--:|--:|--:|--:|--:|--:|")
	for i, p := range pairs {
		fmt.Fprintf(w, "| %d | %s | %s | %.2f | %s | %s | %.2f | %s |\n", i+1, rate(p.Bare.Result.rate()), rate(p.Life.Result.rate()),
			p.rateRatio(), ms(cpuTotal(p.Bare)), ms(cpuTotal(p.Life)), p.cpuRatio(), ms(cpuOf(p.Life, "load")))
	}
	rt, cpu, _, _ := r.pairSpreads()
	fmt.Fprintf(w, "| median | | | %.2f | | | %.2f | |\n\n", rt.Med, cpu.Med)
}

// cpuOf is component c's CPU per operation of p.
func cpuOf(p phase, c string) time.Duration {
	if p.Result.Ops == 0 {
		return 0
	}
	return p.Usage.CPU[c] / time.Duration(p.Result.Ops)
}
