package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func phaseAt(rate float64, lat ...time.Duration) phase {
	return phase{Result: result{Ops: int(rate * 10), Elapsed: 10 * time.Second, Latencies: lat}}
}

// TestGoals: each goal is judged against the raw transaction of the same
// run, and a goal whose phase did not run is said to be unmeasured, never
// met.
func TestGoals(t *testing.T) {
	ms := time.Millisecond
	rep := &report{Conns: 64, Many: 100_000, Phases: map[string]phase{
		"raw-tx":         phaseAt(1000),
		"create":         phaseAt(650, 5*ms, 10*ms, 40*ms),
		"create-stopped": phaseAt(900),
		"create-many":    phaseAt(600),
	}}
	var b bytes.Buffer
	rep.goals(&b)
	out := b.String()
	for _, want := range []string{
		"| withdrawal create as deployed ≥ 0.6× raw tx | 0.65× | met |",
		"| withdrawal create, worker stopped ≥ 1.0× raw tx | 0.90× | **missed** |",
		"| withdrawal create p99 ≤ 50 ms at 64 connections | 40 ms | met |",
		"| charge create ≥ 0.6× raw tx | not measured in this run | **missed** |",
		"| payment → postback p99 ≤ 100 ms at 30% of the lifecycle's peak | not measured in this run | **missed** |",
		"within 10% of the rate with 64 | 0.92× | met |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("goals lack %q:\n%s", want, out)
		}
	}
}

func TestPercentileAndUnits(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	r := result{Latencies: lat}
	if r.percentile(0.5) != 50*time.Millisecond || r.percentile(0.99) != 99*time.Millisecond {
		t.Fatalf("p50 %v p99 %v", r.percentile(0.5), r.percentile(0.99))
	}
	for got, want := range map[string]string{ms(1500 * time.Microsecond): "1.5 ms", ms(25 * time.Millisecond): "25 ms",
		ms(2500 * time.Millisecond): "2.50 s", rate(12345.6): "12,346", rate(42.25): "42.2"} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// TestCostAgainstRaw: an operation's CPU, all processes together, is
// stated as a multiple of the raw transaction's.
func TestCostAgainstRaw(t *testing.T) {
	raw := phaseAt(1000)
	raw.Name, raw.Usage.CPU = "raw-tx", map[string]time.Duration{"postgres": 2 * time.Second, "load": time.Second} // 0.3 ms per op
	create := phaseAt(500, time.Millisecond)
	create.Name, create.Desc = "create", "create"
	create.Usage.CPU = map[string]time.Duration{"api": 3 * time.Second, "postgres": 6 * time.Second} // 1.8 ms per op
	rep := &report{Phases: map[string]phase{"raw-tx": raw, "create": create}}
	var b bytes.Buffer
	rep.render(&b)
	if !strings.Contains(b.String(), "| create | 500 | 1.0 ms | 1.0 ms | 1.0 ms | 0.50 | 6.0 | api 0.60 · postgres 1.20 |") {
		t.Fatalf("no cost of 6.0 in:\n%s", b.String())
	}
}

// TestLifecycleAgainstBare: the lifecycle's figures are ratios of the bare
// lifecycle's in the same run, whose CPU counts only its own processes.
func TestLifecycleAgainstBare(t *testing.T) {
	bare := phaseAt(1000)
	bare.Name, bare.Desc, bare.Only = "bare", "bare", []string{"postgres", "load"}
	bare.Usage.CPU = map[string]time.Duration{"postgres": 10 * time.Second, "load": 10 * time.Second, "worker": 50 * time.Second} // 2 ms per op
	bare.Usage.Commits = 30_000
	peak := phaseAt(600)
	peak.Name, peak.Desc = "life-peak", "peak"
	peak.Usage.CPU = map[string]time.Duration{"postgres": 18 * time.Second, "worker": 6 * time.Second} // 4 ms per op
	peak.Usage.Commits = 24_000
	low := phaseAt(180)
	low.Name, low.Desc = "life-30peak", "low"
	low.Usage.CPU = map[string]time.Duration{"postgres": 9 * time.Second} // 5 ms per op
	low.Usage.Commits = 9_000
	hot := phaseAt(240)
	idle := phase{Usage: usage{Elapsed: 10 * time.Second, CPU: map[string]time.Duration{"api": 100 * time.Millisecond, "worker": 50 * time.Millisecond}}}
	rep := &report{Phases: map[string]phase{"bare": bare, "life-peak": peak, "life-30peak": low, "life-hot": hot, "idle": idle,
		"create-stopped": phaseAt(2000), "create-stopped-hot": phaseAt(1300)}}
	var b bytes.Buffer
	rep.render(&b)
	out := b.String()
	for _, want := range []string{
		"| bare | 1,000 | 1.00 | — | — | 2.0 ms | 1.00 | 3.0 | postgres 1.00 · load 1.00 |",
		"| peak | 600 | 0.60 |",
		"| lifecycle with postbacks at its peak ≥ 0.5× the bare lifecycle | 0.60× | met |",
		"| CPU per lifecycle ≤ 2× the bare lifecycle's, at peak | 2.00× (4.0 ms against 2.0 ms) | met |",
		"| commits per lifecycle ≤ 4, at peak | 4.0 | met |",
		"| CPU per lifecycle ≤ 2× the bare lifecycle's, at 30% of peak | 2.50× (5.0 ms against 2.0 ms) | **missed** |",
		"| commits per lifecycle ≤ 4, at 30% of peak | 5.0 | **missed** |",
		"| idle stack (api + worker, no traffic) ≤ 2% of one core | 1.5% | met |",
		"| one integrator: lifecycle ≥ 0.5× the rate over 64 | 0.40× | **missed** |",
		"| one integrator: withdrawal create ≥ 0.5× the rate over 64 | 0.65× | met |",
		"Idle, no traffic for 10s: api 1.0% and worker 0.5% of one core",
		"| at 30% of the bare lifecycle's rate, create → postback delivered p99 ≤ 1 s | not measured in this run | **missed** |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestLifecycleAgainstBarePairs: with the pairs run again, the goals
// against the bare lifecycle take the median of the pairs' ratios, and the
// CPU at 30% of the peak the bare lifecycles' median CPU.
func TestLifecycleAgainstBarePairs(t *testing.T) {
	pair := func(bareRate, lifeRate float64, bareCPU, lifeCPU time.Duration) pairRun {
		bare, life := phaseAt(bareRate), phaseAt(lifeRate)
		bare.Only = []string{"postgres"}
		bare.Usage.CPU = map[string]time.Duration{"postgres": bareCPU * time.Duration(bareRate) * 10} // phaseAt: 10 s
		life.Usage.CPU = map[string]time.Duration{"worker": lifeCPU * time.Duration(lifeRate) * 10}
		return pairRun{Bare: bare, Life: life}
	}
	first := pair(1000, 200, 2*time.Millisecond, 8*time.Millisecond) // 0.20×, 4×
	low := phaseAt(60)
	low.Usage.CPU = map[string]time.Duration{"postgres": 9 * time.Second} // 15 ms per op
	rep := &report{Phases: map[string]phase{"bare": first.Bare, "life-peak": first.Life, "life-30peak": low},
		Pairs: []pairRun{pair(800, 240, 3*time.Millisecond, 9*time.Millisecond), // 0.30×, 3×
			pair(1200, 480, time.Millisecond, 5*time.Millisecond)}} // 0.40×, 5×
	var b bytes.Buffer
	rep.render(&b)
	out := b.String()
	for _, want := range []string{
		"| lifecycle with postbacks at its peak ≥ 0.5× the bare lifecycle | 0.30× (0.20–0.40× over 3 pairs, median) | **missed** |",
		"| CPU per lifecycle ≤ 2× the bare lifecycle's, at peak | 4.00× (3.00–5.00× over 3 pairs, median) | **missed** |",
		"| CPU per lifecycle ≤ 2× the bare lifecycle's, at 30% of peak | 7.50× (15 ms against 2.0 ms, the bare lifecycles' median) | **missed** |",
		"| 3 | 1,200 | 480 | 0.40 | 1.0 ms | 5.0 ms | 5.00 |",
		"| median | | | 0.30 | | | 4.00 | |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
