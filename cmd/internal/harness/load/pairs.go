package load

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"
)

// extraPairs is how many more times the yardsticks (the arch lifecycle,
// and the bare one) and the lifecycle at its peak run, one right after
// the other, after the run's own: on a shared machine the speed of the
// cores moves between two phases minutes apart (the load generator's own
// CPU for the same work has differed by 1.7× between runs), and one
// pair's ratio moves with it.
const extraPairs = 2

// pairRun is the yardsticks and PixGate's lifecycle at its peak, measured
// one right after the other (the arch lifecycle last before PixGate's).
// A yardstick the run left out has no operations.
type pairRun struct{ Arch, Bare, Life phase }

// yardstick picks one of a pair's yardsticks.
type yardstick func(pairRun) phase

func archOf(p pairRun) phase { return p.Arch }
func bareOf(p pairRun) phase { return p.Bare }

// rateRatio and cpuRatio are the pair's lifecycle against its yardstick y.
func (p pairRun) rateRatio(y yardstick) float64 {
	return p.Life.Result.rate() / max(y(p).Result.rate(), 1e-9)
}
func (p pairRun) cpuRatio(y yardstick) float64 {
	return float64(cpuTotal(p.Life)) / float64(max(cpuTotal(y(p)), time.Nanosecond))
}

// pairs runs the extra pairs, with the yardsticks the run includes.
func (r *run) pairs(ctx context.Context, rep *report, bare, arch bool) error {
	for i := range extraPairs {
		stepf("the yardsticks and the lifecycle at its peak again, pair %d of %d", i+2, extraPairs+1)
		var p pairRun
		var err error
		if bare {
			if p.Bare, err = runBare(ctx, r.t, r.t.postbacks, r.warmup, r.measure); err != nil {
				return err
			}
		}
		if arch {
			if p.Arch, err = runArch(ctx, r.t, r.t.postbacks, r.warmup, r.measure); err != nil {
				return err
			}
		}
		p.Life = r.lifecycleClosed(ctx, fmt.Sprintf("life-peak-%d", i+2), "the lifecycle at its peak, again", r.in.tokens)
		rep.Pairs = append(rep.Pairs, p)
	}
	return nil
}

// peakPairs is every pair of the run, its own first; none without the
// lifecycle at its peak.
func (r *report) peakPairs() []pairRun {
	life, ok := r.Phases["life-peak"]
	if !ok || life.Result.Ops == 0 {
		return nil
	}
	return append([]pairRun{{Arch: r.Phases["arch"], Bare: r.Phases["bare"], Life: life}}, r.Pairs...)
}

// with is the pairs in which yardstick y was measured.
func with(pairs []pairRun, y yardstick) []pairRun {
	var out []pairRun
	for _, p := range pairs {
		if y(p).Result.Ops > 0 {
			out = append(out, p)
		}
	}
	return out
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

// pairSpreads are the pairs' median rate and CPU ratios against
// yardstick y, and the yardstick's median CPU per lifecycle.
func (r *report) pairSpreads(y yardstick) (rate, cpu spread, yCPU time.Duration, n int) {
	pairs := with(r.peakPairs(), y)
	c := over(pairs, func(p pairRun) float64 { return float64(cpuTotal(y(p))) })
	return over(pairs, func(p pairRun) float64 { return p.rateRatio(y) }), over(pairs, func(p pairRun) float64 { return p.cpuRatio(y) }),
		time.Duration(c.Med), len(pairs)
}

// pairsTable shows every pair, and the medians the goals take.
func (r *report) pairsTable(w io.Writer) {
	pairs := r.peakPairs()
	if len(pairs) < 2 {
		return
	}
	fmt.Fprintln(w, "The yardsticks and the lifecycle at its peak, run again one right after the other (pair 1 is the table's):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| Pair | arch, per s | bare, per s | lifecycle, per s | × arch | × bare | arch CPU per lifecycle | bare CPU per lifecycle | "+
		"lifecycle CPU per lifecycle | CPU × arch | CPU × bare | load generator's CPU per lifecycle |")
	fmt.Fprintln(w, "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	against := func(p pairRun, y yardstick, f func(pairRun, yardstick) float64) string {
		if y(p).Result.Ops == 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", f(p, y))
	}
	measured := func(ph phase, s string) string {
		if ph.Result.Ops == 0 {
			return "—"
		}
		return s
	}
	for i, p := range pairs {
		fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", i+1,
			measured(p.Arch, rate(p.Arch.Result.rate())), measured(p.Bare, rate(p.Bare.Result.rate())), rate(p.Life.Result.rate()),
			against(p, archOf, pairRun.rateRatio), against(p, bareOf, pairRun.rateRatio),
			measured(p.Arch, ms(cpuTotal(p.Arch))), measured(p.Bare, ms(cpuTotal(p.Bare))), ms(cpuTotal(p.Life)),
			against(p, archOf, pairRun.cpuRatio), against(p, bareOf, pairRun.cpuRatio), ms(cpuOf(p.Life, "load")))
	}
	med := func(y yardstick) (string, string) {
		rt, cpu, _, n := r.pairSpreads(y)
		if n == 0 {
			return "", ""
		}
		return fmt.Sprintf("%.2f", rt.Med), fmt.Sprintf("%.2f", cpu.Med)
	}
	ar, ac := med(archOf)
	br, bc := med(bareOf)
	fmt.Fprintf(w, "| median | | | | %s | %s | | | | %s | %s | |\n\n", ar, br, ac, bc)
}

// cpuOf is component c's CPU per operation of p.
func cpuOf(p phase, c string) time.Duration {
	if p.Result.Ops == 0 {
		return 0
	}
	return p.Usage.CPU[c] / time.Duration(p.Result.Ops)
}
