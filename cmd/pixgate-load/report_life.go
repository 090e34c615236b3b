package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// lifecyclePhases are the lifecycle's rows, in the report's order.
var lifecyclePhases = []string{"bare", "life-peak", "life-hot", "life-30bare", "life-30peak"}

// commitsPerOp is the database's commits per operation of p (0: unknown).
func commitsPerOp(p phase) float64 {
	if p.Lifecycles > 0 {
		return float64(p.Commits) / float64(p.Lifecycles)
	}
	if p.Result.Ops == 0 {
		return 0
	}
	return float64(p.Usage.Commits) / float64(p.Result.Ops)
}

// lifecycleTable states every lifecycle figure against the bare
// lifecycle's, measured in the same run, and the idle stack's cost.
func (r *report) lifecycleTable(w io.Writer) {
	bare, ok := r.Phases["bare"]
	if !ok {
		return
	}
	bareRate, bareCPU := bare.Result.rate(), cpuTotal(bare)
	fmt.Fprintln(w, "| Lifecycle | per s | × bare | p50 | p99 | CPU per lifecycle | CPU × bare | commits per lifecycle | CPU per lifecycle by process, ms | What bounds it |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|---|---|")
	for _, name := range lifecyclePhases {
		p, ok := r.Phases[name]
		if !ok {
			continue
		}
		desc := p.Desc
		if p.Offered > 0 {
			desc += fmt.Sprintf(", %s/s offered", rate(p.Offered))
		}
		if p.Result.Errors > 0 {
			desc += fmt.Sprintf(" (%d errors, first: %.120s)", p.Result.Errors, p.Result.FirstErr)
		}
		if len(p.Notes) > 0 {
			desc += " (" + strings.Join(p.Notes, "; ") + ")"
		}
		lat := func(q float64) string {
			if len(p.Result.Latencies) == 0 {
				return "—"
			}
			return ms(p.Result.percentile(q))
		}
		fmt.Fprintf(w, "| %s | %s | %.2f | %s | %s | %s | %.2f | %.1f | %s | %s |\n", desc, rate(p.Result.rate()), p.Result.rate()/bareRate,
			lat(0.5), lat(0.99), ms(cpuTotal(p)), float64(cpuTotal(p))/float64(bareCPU),
			commitsPerOp(p), cpuPerOp(p), bound(p))
	}
	fmt.Fprintln(w)
	r.pairsTable(w)
	if idle, ok := r.Phases["idle"]; ok {
		fmt.Fprintf(w, "Idle, no traffic for %s: api %.1f%% and worker %.1f%% of one core (sandbox %.1f%%, Redis %.1f%%, Postgres %.1f%%); %.1f commits a second.\n\n",
			idle.Usage.Elapsed.Round(time.Second), 100*coreShare(idle, "api"), 100*coreShare(idle, "worker"), 100*coreShare(idle, "sandbox"),
			100*coreShare(idle, "redis"), 100*coreShare(idle, "postgres"), float64(idle.Usage.Commits)/idle.Usage.Elapsed.Seconds())
	}
}

// lifecycleGoals states the lifecycle's goals with the run's figures.
func (r *report) lifecycleGoals(row func(goal string, ok bool, figure string, measured bool), ran func(...string) bool) {
	ph := func(n string) phase { return r.Phases[n] }
	peak, hot := ph("life-peak"), ph("life-hot")
	ratio := func(a, b float64) float64 { return a / max(b, 1e-9) }
	x := func(v float64) string { return fmt.Sprintf("%.2f×", v) }
	// Against the bare lifecycle: the median over the pairs, each measured
	// one right after the other (pairs.go).
	rateRatio, cpuRatio, medianBareCPU, pairs := r.pairSpreads()
	row("lifecycle with postbacks at its peak ≥ 0.5× the bare lifecycle", rateRatio.Med >= 0.5,
		rateRatio.times(pairs), ran("bare", "life-peak"))
	at30 := ph("life-30bare")
	p99 := at30.Result.percentile(0.99)
	row("at 30% of the bare lifecycle's rate, create → postback delivered p99 ≤ 1 s", at30.Result.Ops > 0 && at30.Result.Errors == 0 && p99 <= time.Second,
		fmt.Sprintf("%s at %s/s", ms(p99), rate(at30.Offered)), ran("life-30bare"))
	cpuFigure := cpuRatio.times(pairs)
	if pairs <= 1 {
		cpuFigure += fmt.Sprintf(" (%s against %s)", ms(cpuTotal(peak)), ms(medianBareCPU))
	}
	row("CPU per lifecycle ≤ 2× the bare lifecycle's, at peak", peak.Result.Ops > 0 && cpuRatio.Med <= 2, cpuFigure, ran("bare", "life-peak"))
	row("commits per lifecycle ≤ 4, at peak", peak.Result.Ops > 0 && commitsPerOp(peak) <= 4, fmt.Sprintf("%.1f", commitsPerOp(peak)), ran("life-peak"))
	at30peak := ph("life-30peak")
	cpu := float64(cpuTotal(at30peak)) / float64(max(medianBareCPU, 1))
	against := ms(medianBareCPU)
	if pairs > 1 {
		against += ", the bare lifecycles' median"
	}
	row("CPU per lifecycle ≤ 2× the bare lifecycle's, at 30% of peak", at30peak.Result.Ops > 0 && cpu <= 2,
		fmt.Sprintf("%.2f× (%s against %s)", cpu, ms(cpuTotal(at30peak)), against), ran("bare", "life-30peak"))
	row("commits per lifecycle ≤ 4, at 30% of peak", at30peak.Result.Ops > 0 && commitsPerOp(at30peak) <= 4,
		fmt.Sprintf("%.1f", commitsPerOp(at30peak)), ran("life-30peak"))
	idle := ph("idle")
	share := coreShare(idle, "api", "worker")
	row("idle stack (api + worker, no traffic) ≤ 2% of one core", share <= 0.02, fmt.Sprintf("%.1f%%", 100*share), ran("idle"))
	hotCreate, create := ph("create-stopped-hot"), ph("create-stopped")
	row("one integrator: withdrawal create ≥ 0.5× the rate over 64", ratio(hotCreate.Result.rate(), create.Result.rate()) >= 0.5,
		x(ratio(hotCreate.Result.rate(), create.Result.rate())), ran("create-stopped", "create-stopped-hot"))
	row("one integrator: lifecycle ≥ 0.5× the rate over 64", ratio(hot.Result.rate(), peak.Result.rate()) >= 0.5,
		x(ratio(hot.Result.rate(), peak.Result.rate())), ran("life-peak", "life-hot"))
}
