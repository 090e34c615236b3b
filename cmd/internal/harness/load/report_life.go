package load

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// lifecyclePhases are the lifecycle's rows, in the report's order.
var lifecyclePhases = []string{"arch", "bare", "life-peak", "life-hot", "arch-30arch", "life-30arch", "arch-30peak", "life-30peak"}

// sameRate is, for each open-loop row of PixGate's lifecycle, the arch
// lifecycle's row at the same rate, run right before it: its yardstick.
var sameRate = map[string]string{"life-30arch": "arch-30arch", "life-30peak": "arch-30peak"}

// yardstickOf is the arch lifecycle's phase p is judged against: the
// one at the same rate for an open-loop row, when measured, else the
// run's own at its peak.
func (r *report) yardstickOf(p phase) phase {
	if y, ok := r.Phases[sameRate[p.Name]]; ok && y.Result.Ops > 0 {
		return y
	}
	return r.Phases["arch"]
}

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

// statementsPerOp is "—" when the phase's statements were not counted.
func statementsPerOp(p phase) string {
	if p.Statements <= 0 || p.Lifecycles == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f", float64(p.Statements)/float64(p.Lifecycles))
}

// lifecycleTable states every lifecycle figure against the arch and bare
// lifecycles', measured in the same run, and the idle stack's cost.
func (r *report) lifecycleTable(w io.Writer) {
	found := false
	for _, name := range lifecyclePhases {
		_, ok := r.Phases[name]
		found = found || ok
	}
	if !found {
		return
	}
	bare := r.Phases["bare"]
	// against is v divided by the yardstick's y, "—" when y was not measured.
	against := func(y phase, v, of float64) string {
		if y.Result.Ops == 0 || of <= 0 {
			return "—"
		}
		return fmt.Sprintf("%.2f", v/of)
	}
	fmt.Fprintln(w, "| Lifecycle | per s | × arch | × bare | p50 | p99 | CPU per lifecycle | CPU × arch | CPU × bare | commits per lifecycle | "+
		"statements per lifecycle | CPU per lifecycle by process, ms | What bounds it |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|")
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
		cpu := float64(cpuTotal(p))
		y := r.yardstickOf(p)
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s |\n", desc, rate(p.Result.rate()),
			against(y, p.Result.rate(), y.Result.rate()), against(bare, p.Result.rate(), bare.Result.rate()),
			lat(0.5), lat(0.99), ms(cpuTotal(p)), against(y, cpu, float64(cpuTotal(y))), against(bare, cpu, float64(cpuTotal(bare))),
			commitsPerOp(p), statementsPerOp(p), cpuPerOp(p), bound(p))
	}
	fmt.Fprintln(w)
	r.pairsTable(w)
	if idle, ok := r.Phases["idle"]; ok {
		fmt.Fprintf(w, "Idle, no traffic for %s: api %.1f%% and worker %.1f%% of one core (sandbox %.1f%%, Redis %.1f%%, Postgres %.1f%%); %.1f commits a second.\n\n",
			idle.Usage.Elapsed.Round(time.Second), 100*coreShare(idle, "api"), 100*coreShare(idle, "worker"), 100*coreShare(idle, "sandbox"),
			100*coreShare(idle, "redis"), 100*coreShare(idle, "postgres"), float64(idle.Usage.Commits)/idle.Usage.Elapsed.Seconds())
	}
}

// lifecycleGoals states the lifecycle's goals with the run's figures,
// against the arch lifecycle: the median over the pairs, each measured
// one right after the other (pairs.go).
func (r *report) lifecycleGoals(row func(goal string, ok bool, figure string, measured bool), ran func(...string) bool) {
	ph := func(n string) phase { return r.Phases[n] }
	peak, hot := ph("life-peak"), ph("life-hot")
	ratio := func(a, b float64) float64 { return a / max(b, 1e-9) }
	x := func(v float64) string { return fmt.Sprintf("%.2f×", v) }
	rateRatio, cpuRatio, archCPU, pairs := r.pairSpreads(archOf)
	row("lifecycle with postbacks at its peak ≥ 0.7× the arch lifecycle", pairs > 0 && rateRatio.Med >= 0.7,
		rateRatio.times(pairs), ran("arch", "life-peak"))
	cpuFigure := cpuRatio.times(pairs)
	if pairs <= 1 {
		cpuFigure += fmt.Sprintf(" (%s against %s)", ms(cpuTotal(peak)), ms(archCPU))
	}
	row("CPU per lifecycle ≤ 1.3× the arch lifecycle's, at peak", pairs > 0 && cpuRatio.Med <= 1.3, cpuFigure, ran("arch", "life-peak"))
	at30peak, at30 := ph("life-30peak"), ph("life-30arch")
	// cpuAt30 is an open-loop row's CPU against the arch lifecycle's at the
	// same rate, and against its peak's.
	atPeak := "the arch lifecycle at its peak"
	if pairs > 1 {
		atPeak = "the arch lifecycles' median at their peak"
	}
	cpuAt30 := func(p phase) (float64, string) {
		peakRatio := float64(cpuTotal(p)) / float64(max(archCPU, 1))
		y := r.Phases[sameRate[p.Name]]
		if y.Result.Ops == 0 {
			return peakRatio, fmt.Sprintf("%.2f× (%s against %s, %s)", peakRatio, ms(cpuTotal(p)), ms(archCPU), atPeak)
		}
		v := float64(cpuTotal(p)) / float64(max(cpuTotal(y), 1))
		return v, fmt.Sprintf("%.2f× (%s against %s, the arch lifecycle at the same rate; %.2f× the %s of %s)",
			v, ms(cpuTotal(p)), ms(cpuTotal(y)), peakRatio, ms(archCPU), atPeak)
	}
	cpu, figure := cpuAt30(at30peak)
	row("CPU per lifecycle ≤ 1.6× the arch lifecycle's, at 30% of its peak", at30peak.Result.Ops > 0 && cpu <= 1.6, figure, ran("arch", "life-30peak"))
	cpu, figure = cpuAt30(at30)
	row("CPU per lifecycle ≤ 1.6× the arch lifecycle's, at 30% of the arch lifecycle's peak", at30.Result.Ops > 0 && cpu <= 1.6, figure, ran("arch", "life-30arch"))
	row("commits per lifecycle ≤ 4, at peak", peak.Result.Ops > 0 && commitsPerOp(peak) <= 4, fmt.Sprintf("%.1f", commitsPerOp(peak)), ran("life-peak"))
	commits := fmt.Sprintf("%.1f", commitsPerOp(at30peak))
	if y := ph("arch-30peak"); y.Result.Ops > 0 {
		commits += fmt.Sprintf(" (the arch lifecycle at the same rate: %.1f)", commitsPerOp(y))
	}
	row("commits per lifecycle ≤ 6, at 30% of its peak", at30peak.Result.Ops > 0 && commitsPerOp(at30peak) <= 6, commits, ran("life-30peak"))
	p99 := at30.Result.percentile(0.99)
	row("at 30% of the arch lifecycle's rate, create → postback delivered p99 ≤ 1 s", at30.Result.Ops > 0 && at30.Result.Errors == 0 && p99 <= time.Second,
		fmt.Sprintf("%s at %s/s", ms(p99), rate(at30.Offered)), ran("life-30arch"))
	idle := ph("idle")
	share := coreShare(idle, "api", "worker")
	row("idle stack (api + worker, no traffic) ≤ 2% of one core", share <= 0.02, fmt.Sprintf("%.1f%%", 100*share), ran("idle"))
	hotCreate, create := ph("create-stopped-hot"), ph("create-stopped")
	row("one integrator: withdrawal create ≥ 0.5× the rate over 64", ratio(hotCreate.Result.rate(), create.Result.rate()) >= 0.5,
		x(ratio(hotCreate.Result.rate(), create.Result.rate())), ran("create-stopped", "create-stopped-hot"))
	row("one integrator: lifecycle ≥ 0.5× the rate over 64", ratio(hot.Result.rate(), peak.Result.rate()) >= 0.5,
		x(ratio(hot.Result.rate(), peak.Result.rate())), ran("life-peak", "life-hot"))
}
