package load

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
	wantLines(t, "goals", out,
		"| withdrawal create as deployed ≥ 0.6× raw tx | 0.65× | met |",
		"| withdrawal create, worker stopped ≥ 1.0× raw tx | 0.90× | **missed** |",
		"| withdrawal create p99 ≤ 50 ms at 64 connections | 40 ms | met |",
		"| charge create ≥ 0.6× raw tx | not measured in this run | **missed** |",
		"| payment → postback p99 ≤ 100 ms at 30% of the lifecycle's peak | not measured in this run | **missed** |",
		"within 10% of the rate with 64 | 0.92× | met |",
	)

	// With the creates taken right before the integrators were added,
	// the ratio is against those.
	rep.Phases["create-few"] = phaseAt(700)
	b.Reset()
	rep.goals(&b)
	out = b.String()
	wantLines(t, "goals", out,
		"| withdrawal create as deployed ≥ 0.6× raw tx | 0.65× | met |",
		"within 10% of the rate with 64 | 0.86× | **missed** |",
	)
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

// TestLifecycleAgainstArch: the lifecycle's figures are ratios of the arch
// and bare lifecycles' in the same run, whose CPU counts only their own
// processes; the goals are against the arch lifecycle.
func TestLifecycleAgainstArch(t *testing.T) {
	arch := phaseAt(500)
	arch.Name, arch.Desc, arch.Only = "arch", "arch", []string{"postgres", "redis", archProviderName, "load"}
	arch.Usage.CPU = map[string]time.Duration{"postgres": 10 * time.Second, "redis": 5 * time.Second, archProviderName: 5 * time.Second,
		"load": 10 * time.Second, "worker": 50 * time.Second} // 6 ms per op
	arch.Commits, arch.Statements, arch.Lifecycles = 30_600, 142_800, 5_100
	bare := phaseAt(1000)
	bare.Name, bare.Desc, bare.Only = "bare", "bare", []string{"postgres", "load"}
	bare.Usage.CPU = map[string]time.Duration{"postgres": 10 * time.Second, "load": 10 * time.Second, "worker": 50 * time.Second} // 2 ms per op
	bare.Usage.Commits = 30_000
	peak := phaseAt(400)
	peak.Name, peak.Desc = "life-peak", "peak"
	peak.Usage.CPU = map[string]time.Duration{"postgres": 18 * time.Second, "worker": 12 * time.Second} // 7.5 ms per op
	peak.Commits, peak.Statements, peak.Lifecycles = 16_400, 155_800, 4_100
	low := phaseAt(120)
	low.Name, low.Desc = "life-30peak", "low"
	low.Usage.CPU = map[string]time.Duration{"postgres": 12 * time.Second} // 10 ms per op
	low.Usage.Commits = 6_000
	at30 := phaseAt(150, 100*time.Millisecond, 1500*time.Millisecond)
	at30.Name, at30.Desc, at30.Offered = "life-30arch", "at 30% of arch", 150
	hot := phaseAt(240)
	idle := phase{Usage: usage{Elapsed: 10 * time.Second, CPU: map[string]time.Duration{"api": 100 * time.Millisecond, "worker": 50 * time.Millisecond}}}
	rep := &report{Phases: map[string]phase{"arch": arch, "bare": bare, "life-peak": peak, "life-30peak": low, "life-30arch": at30, "life-hot": hot,
		"idle": idle, "create-stopped": phaseAt(2000), "create-stopped-hot": phaseAt(1300)}}
	var b bytes.Buffer
	rep.render(&b)
	out := b.String()
	wantLines(t, "report", out,
		"| arch | 500 | 1.00 | 0.50 | — | — | 6.0 ms | 1.00 | 3.00 | 6.0 | 28.0 | arch-provider 1.00 · postgres 2.00 · redis 1.00 · load 2.00 |",
		"| bare | 1,000 | 2.00 | 1.00 | — | — | 2.0 ms | 0.33 | 1.00 | 3.0 | — | postgres 1.00 · load 1.00 |",
		"| peak | 400 | 0.80 | 0.40 | — | — | 7.5 ms | 1.25 | 3.75 | 4.0 | 38.0 |",
		"| lifecycle with postbacks at its peak ≥ 0.7× the arch lifecycle | 0.80× | met |",
		"| CPU per lifecycle ≤ 1.3× the arch lifecycle's, at peak | 1.25× (7.5 ms against 6.0 ms) | met |",
		"| CPU per lifecycle ≤ 1.6× the arch lifecycle's, at 30% of its peak | 1.67× (10 ms against 6.0 ms, the arch lifecycle at its peak) | **missed** |",
		"| commits per lifecycle ≤ 4, at peak | 4.0 | met |",
		"| commits per lifecycle ≤ 6, at 30% of its peak | 5.0 | met |",
		"| at 30% of the arch lifecycle's rate, create → postback delivered p99 ≤ 1 s | 1.50 s at 150/s | **missed** |",
		"| idle stack (api + worker, no traffic) ≤ 2% of one core | 1.5% | met |",
		"| one integrator: lifecycle ≥ 0.5× the rate over 64 | 0.60× | met |",
		"| one integrator: withdrawal create ≥ 0.5× the rate over 64 | 0.65× | met |",
		"Idle, no traffic for 10s: api 1.0% and worker 0.5% of one core",
	)
	// Without the arch lifecycle the goals against it are unmeasured, never
	// met, and its columns are empty.
	delete(rep.Phases, "arch")
	b.Reset()
	rep.render(&b)
	out = b.String()
	wantLines(t, "report without arch", out,
		"| peak | 400 | — | 0.40 | — | — | 7.5 ms | — | 3.75 |",
		"| lifecycle with postbacks at its peak ≥ 0.7× the arch lifecycle | not measured in this run | **missed** |",
		"| CPU per lifecycle ≤ 1.3× the arch lifecycle's, at peak | not measured in this run | **missed** |",
	)
}

// TestLifecycleAgainstArchPairs: with the pairs run again, the goals
// against the arch lifecycle take the median of the pairs' ratios, and the
// CPU at 30% of the peak the arch lifecycles' median CPU; a pair without
// the bare lifecycle leaves its columns empty.
func TestLifecycleAgainstArchPairs(t *testing.T) {
	at := func(r float64, cpu time.Duration, only ...string) phase {
		p := phaseAt(r)
		p.Only = only
		p.Usage.CPU = map[string]time.Duration{"postgres": cpu * time.Duration(r) * 10} // phaseAt: 10 s
		return p
	}
	ms := time.Millisecond
	first := pairRun{Arch: at(500, 6*ms, "postgres"), Bare: at(1000, 2*ms, "postgres"), Life: at(300, 9*ms)} // 0.60×, 1.5× arch
	second := pairRun{Arch: at(400, 8*ms, "postgres"), Bare: at(800, 3*ms, "postgres"), Life: at(320, 8*ms)} // 0.80×, 1.0× arch
	third := pairRun{Arch: at(600, 4*ms, "postgres"), Life: at(420, 5*ms)}                                   // 0.70×, 1.25× arch
	low := at(100, 12*ms)
	rep := &report{Phases: map[string]phase{"arch": first.Arch, "bare": first.Bare, "life-peak": first.Life, "life-30peak": low},
		Pairs: []pairRun{second, third}}
	var b bytes.Buffer
	rep.render(&b)
	out := b.String()
	wantLines(t, "report", out,
		"| lifecycle with postbacks at its peak ≥ 0.7× the arch lifecycle | 0.70× (0.60–0.80× over 3 pairs, median) | met |",
		"| CPU per lifecycle ≤ 1.3× the arch lifecycle's, at peak | 1.25× (1.00–1.50× over 3 pairs, median) | met |",
		"| CPU per lifecycle ≤ 1.6× the arch lifecycle's, at 30% of its peak | 2.00× (12 ms against 6.0 ms, the arch lifecycles' median at their peak) | **missed** |",
		"| 2 | 400 | 800 | 320 | 0.80 | 0.40 | 8.0 ms | 3.0 ms | 8.0 ms | 1.00 | 2.67 |",
		"| 3 | 600 | — | 420 | 0.70 | — | 4.0 ms | — | 5.0 ms | 1.25 | — |",
		"| median | | | | 0.70 | 0.35 | | | | 1.25 | 3.58 | |",
	)
}

// TestOpenLoopRowsAgainstArchAtTheSameRate: an open-loop row of the
// lifecycle is judged against the arch lifecycle run open-loop at the same
// rate, in its row and in its goal, the peak's ratio beside it.
func TestOpenLoopRowsAgainstArchAtTheSameRate(t *testing.T) {
	at := func(name string, r float64, cpu time.Duration, only ...string) phase {
		p := phaseAt(r)
		p.Name, p.Desc, p.Only = name, name, only
		p.Usage.CPU = map[string]time.Duration{"postgres": cpu * time.Duration(r) * 10} // phaseAt: 10 s
		return p
	}
	ms := time.Millisecond
	rep := &report{Phases: map[string]phase{
		"arch": at("arch", 500, 5*ms, "postgres"), "life-peak": at("life-peak", 300, 9*ms),
		"arch-30arch": at("arch-30arch", 150, 8*ms, "postgres"), "life-30arch": at("life-30arch", 150, 12*ms),
		"arch-30peak": at("arch-30peak", 90, 10*ms, "postgres"), "life-30peak": at("life-30peak", 90, 15*ms),
	}}
	for name, commits := range map[string]int64{"arch-30peak": 6_300, "life-30peak": 4_500} { // phaseAt: 10 s
		p := rep.Phases[name]
		p.Commits, p.Lifecycles = commits, 900
		rep.Phases[name] = p
	}
	var b bytes.Buffer
	rep.render(&b)
	out := b.String()
	wantLines(t, "report", out,
		"| arch-30arch | 150 | 0.30 | — | — | — | 8.0 ms | 1.60 |",
		"| life-30arch | 150 | 1.00 | — | — | — | 12 ms | 1.50 |",
		"| life-30peak | 90.0 | 1.00 | — | — | — | 15 ms | 1.50 |",
		"| CPU per lifecycle ≤ 1.6× the arch lifecycle's, at 30% of its peak | 1.50× (15 ms against 10 ms, the arch lifecycle at the same rate; 3.00× the 5.0 ms of the arch lifecycle at its peak) | met |",
		"| commits per lifecycle ≤ 6, at 30% of its peak | 5.0 (the arch lifecycle at the same rate: 7.0) | met |",
		"| CPU per lifecycle ≤ 1.6× the arch lifecycle's, at 30% of the arch lifecycle's peak | 1.50× (12 ms against 8.0 ms, the arch lifecycle at the same rate; 2.40× the 5.0 ms of the arch lifecycle at its peak) | met |",
	)
}

// wantLines fails t for each of want that out, what was rendered of name,
// lacks.
func wantLines(t *testing.T, name, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s: %q missing from\n%s", name, w, out)
		}
	}
}
