package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// lifecyclePhases are the lifecycle's rows, in the report's order.
var lifecyclePhases = []string{"arch", "bare", "life-peak", "life-hot", "life-30arch", "life-30peak"}

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
	arch, bare := r.Phases["arch"], r.Phases["bare"]
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
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s | %s | %s |\n", desc, rate(p.Result.rate()),
			against(arch, p.Result.rate(), arch.Result.rate()), against(bare, p.Result.rate(), bare.Result.rate()),
			lat(0.5), lat(0.99), ms(cpuTotal(p)), against(arch, cpu, float64(cpuTotal(arch))), against(bare, cpu, float64(cpuTotal(bare))),
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
	at30peak := ph("life-30peak")
	cpu := float64(cpuTotal(at30peak)) / float64(max(archCPU, 1))
	againstArch := ms(archCPU)
	if pairs > 1 {
		againstArch += ", the arch lifecycles' median"
	}
	row("CPU per lifecycle ≤ 1.6× the arch lifecycle's, at 30% of its peak", at30peak.Result.Ops > 0 && cpu <= 1.6,
		fmt.Sprintf("%.2f× (%s against %s)", cpu, ms(cpuTotal(at30peak)), againstArch), ran("arch", "life-30peak"))
	row("commits per lifecycle ≤ 4, at peak", peak.Result.Ops > 0 && commitsPerOp(peak) <= 4, fmt.Sprintf("%.1f", commitsPerOp(peak)), ran("life-peak"))
	row("commits per lifecycle ≤ 6, at 30% of its peak", at30peak.Result.Ops > 0 && commitsPerOp(at30peak) <= 6,
		fmt.Sprintf("%.1f", commitsPerOp(at30peak)), ran("life-30peak"))
	at30 := ph("life-30arch")
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
