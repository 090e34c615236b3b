package chaos

import (
	"context"
	"fmt"
	"time"
)

// scenario is one fault: injected after the load ran for a while, kept
// for hold, then recovered from while the load goes on.
type scenario struct {
	name  string // for -scenarios
	fault string // as the table names it
	hold  time.Duration
	// needsLedger: the sandbox must keep its state across a restart; the
	// scenario is skipped when it has no ledger endpoint.
	needsLedger bool
	// creditBound: every charge paid while the fault lasts must be
	// credited within it.
	creditBound time.Duration
	// failover: the charges asked for while the fault lasts fail over to
	// provider b (failover.go).
	failover *failover
	// isolate: one integrator's endpoint hangs; the others' postbacks are
	// checked against their own before it (hang.go).
	isolate bool
	// setup runs as the scenario starts, before its load (nil: nothing).
	setup           func(context.Context, *cluster, *sandboxClient) error
	inject, recover func(context.Context, *cluster, *sandboxClient) error
}

const (
	before = 10 * time.Second // load before each fault
	after  = 25 * time.Second // load after it: the recovery
)

func sandboxFault(f map[string]any) func(context.Context, *cluster, *sandboxClient) error {
	return func(ctx context.Context, _ *cluster, sb *sandboxClient) error { return sb.setFaults(ctx, f) }
}

func healthySandbox(ctx context.Context, _ *cluster, sb *sandboxClient) error {
	return sb.setFaults(ctx, nil)
}

func nothing(context.Context, *cluster, *sandboxClient) error { return nil }

// SlowSends is the scenario of a provider whose sends crawl, held for
// -slow-for: its sends crowd the workers' sends lane, and the charges paid
// meanwhile, whose notifications and reads are healthy, must still be
// credited within its creditBound.
const SlowSends = "slow-sends"

// sendRoutes are the family contract's routes that send money.
var sendRoutes = []string{"/v2/pix/payment", "/v2/pix/refund"}

// slowSendsFault names the slow-sends scenario held for hold.
func slowSendsFault(hold time.Duration) string {
	return fmt.Sprintf("provider sends (payments, refunds) answering in 3 s and 30%% of them never, for %s; charges paid meanwhile credited within 10 s",
		seconds(hold))
}

// cpuHog is the scenario of a machine whose cores are oversubscribed: the
// CPU hog (hog.go) spins beside PixGate's processes for its hold, and the
// charges paid meanwhile must be credited within the run's promise.
const cpuHog = "cpu-hog"

// slowProvider is a scenario of two providers that both take charges
// (every integrator routed default:50,b:50, withdrawals default then b),
// the default doing the work and answering nothing to share of its calls
// for 30 s: the charges paid meanwhile, at either provider, must be
// credited within 2 s, and the charges asked for fail over to b (at most
// 1 % see a failed attempt).
func slowProvider(name string, share float64) scenario {
	return scenario{name: name,
		fault: fmt.Sprintf("two providers taking charges (every integrator routed default:50,b:50): the default doing the work and answering nothing to %.0f%% of calls for 30 s, b healthy; charges paid meanwhile credited within 2 s",
			100*share),
		hold: 30 * time.Second, creditBound: 2 * time.Second, failover: &failover{maxFailed: 0.01},
		setup: func(ctx context.Context, c *cluster, _ *sandboxClient) error {
			return c.routeEveryIntegrator(ctx, weightedRoute)
		},
		inject: sandboxFault(map[string]any{"timeout_rate": share}), recover: healthySandbox}
}

// scenarios are the faults, in the order they run.
var scenarios = []scenario{
	{name: "baseline", fault: "none (baseline)", inject: nothing, recover: nothing},
	{name: "worker-kill", fault: "a worker killed (SIGKILL), restarted 5 s later", hold: 5 * time.Second,
		inject:  func(_ context.Context, c *cluster, _ *sandboxClient) error { c.workers[0].Kill(); return nil },
		recover: func(ctx context.Context, c *cluster, _ *sandboxClient) error { return c.workers[0].Start(ctx) }},
	{name: "api-kill", fault: "an API killed (SIGKILL), restarted 10 s later", hold: 10 * time.Second,
		inject:  func(_ context.Context, c *cluster, _ *sandboxClient) error { c.apis[0].Kill(); return nil },
		recover: func(ctx context.Context, c *cluster, _ *sandboxClient) error { return c.apis[0].Start(ctx) }},
	{name: "redis-flush", fault: "Redis FLUSHALL (queues, tokens, limits lost)",
		inject:  func(ctx context.Context, c *cluster, _ *sandboxClient) error { return c.redis.FlushAll(ctx) },
		recover: nothing},
	{name: "redis-restart", fault: "Redis stopped, started empty 5 s later", hold: 5 * time.Second,
		inject:  func(_ context.Context, c *cluster, _ *sandboxClient) error { c.redis.Stop(); return nil },
		recover: func(ctx context.Context, c *cluster, _ *sandboxClient) error { return c.redis.Start(ctx) }},
	{name: "provider-outage", fault: "provider down 30 s (every call 503)", hold: 30 * time.Second,
		inject: sandboxFault(map[string]any{"outage": true}), recover: healthySandbox},
	{name: "provider-errors", fault: "provider failing 50% of calls (500, nothing done) for 20 s", hold: 20 * time.Second,
		inject: sandboxFault(map[string]any{"error_rate": 0.5}), recover: healthySandbox},
	{name: "provider-timeouts", fault: "provider doing the work and answering nothing, 30% of calls for 20 s", hold: 20 * time.Second,
		inject: sandboxFault(map[string]any{"timeout_rate": 0.3}), recover: healthySandbox},
	{name: "provider-slow", fault: "provider answering 1.5 s late for 20 s", hold: 20 * time.Second,
		inject: sandboxFault(map[string]any{"latency_ms": 1500}), recover: healthySandbox},
	{name: SlowSends, fault: slowSendsFault(time.Minute), hold: time.Minute, creditBound: 10 * time.Second,
		inject: sandboxFault(map[string]any{"latency_ms": 3000, "timeout_rate": 0.3, "routes": sendRoutes}), recover: healthySandbox},
	{name: "notifications", fault: "every notification sent 3 times, out of order, then a stale copy, for 20 s", hold: 20 * time.Second,
		inject: sandboxFault(map[string]any{"duplicate_notifications": 3, "out_of_order_notifications": true}), recover: healthySandbox},
	{name: "postgres-restart", fault: "Postgres stopped (fast shutdown), started 5 s later", hold: 5 * time.Second,
		inject:  func(_ context.Context, c *cluster, _ *sandboxClient) error { c.pg.Stop(); return nil },
		recover: func(ctx context.Context, c *cluster, _ *sandboxClient) error { return c.pg.Start(ctx) }},
	{name: "sandbox-kill", fault: "provider process killed (SIGKILL), restarted 5 s later", hold: 5 * time.Second, needsLedger: true,
		inject: func(_ context.Context, c *cluster, _ *sandboxClient) error { c.sandbox.Kill(); return nil },
		recover: func(ctx context.Context, c *cluster, sb *sandboxClient) error {
			if err := c.sandbox.Start(ctx); err != nil {
				return err
			}
			return healthySandbox(ctx, c, sb)
		}},
	hangScenario,
	{name: cpuHog, fault: "the cores oversubscribed: a CPU hog of 2 spinning threads per core for 60 s; charges paid meanwhile credited within 60 s",
		hold: time.Minute, creditBound: time.Minute, inject: hogOn, recover: hogOff},
	// From here on every integrator is routed over two providers, so these
	// run last. The routes each sets as it starts reach every process
	// within the routes' cache interval (2 s, storage.routeCacheTTL),
	// inside its 10 s of load before the fault.
	{name: twoProviders, fault: "two providers, every integrator routed default then b: the default down 30 s (every call 503), b healthy",
		hold: 30 * time.Second, failover: &failover{maxFailed: 0.01, backWithin: 10 * time.Second},
		setup: func(ctx context.Context, c *cluster, _ *sandboxClient) error {
			return c.routeEveryIntegrator(ctx, failoverRoute)
		},
		inject: sandboxFault(map[string]any{"outage": true}), recover: healthySandbox},
	slowProvider("slow-provider-50", 0.5),
	slowProvider("slow-provider-30", 0.3),
}

// scenarioRun is when a scenario ran and how its checks went.
type scenarioRun struct {
	scenario
	start, injected, recovered, end time.Time // end: the load of the scenario ends
	audit                           string    // "clean", "VIOLATIONS", "error: ..."
	skipped                         string    // why it did not run
	errs                            []string
	notes                           []string // what the harness tells of the scenario besides its checks
	passedOver                      int64    // notifications the balancer sent to the other API
}

// runScenario runs one scenario under the load: before, the fault for its
// hold, after; then the audit.
func runScenario(ctx context.Context, c *cluster, sb *sandboxClient, l *load, idx int, sr *scenarioRun) {
	l.scenario.Store(int32(idx))
	sr.start = time.Now()
	passed, hogCPU := c.proxy.passed.Load(), c.runHogCPU()
	defer func() { sr.passedOver = c.proxy.passed.Load() - passed }()
	stepf("scenario %s: %s", sr.name, sr.fault)
	if sr.setup != nil {
		if err := sr.setup(ctx, c, sb); err != nil {
			sr.errs = append(sr.errs, "setup: "+err.Error())
		}
	}
	sleep(ctx, before)
	sr.injected = time.Now()
	if err := sr.inject(ctx, c, sb); err != nil {
		sr.errs = append(sr.errs, "inject: "+err.Error())
	}
	sleep(ctx, sr.hold)
	if err := sr.recover(ctx, c, sb); err != nil {
		sr.errs = append(sr.errs, "recover: "+err.Error())
	}
	sr.recovered = time.Now()
	sleep(ctx, after)
	sr.end = time.Now()
	if n := c.hogNote(hogCPU, sr.end.Sub(sr.start)); n != "" {
		sr.notes = append(sr.notes, n)
	}
	sr.audit = audit(ctx, c)
	// The providers' books are judged with the load paused: money in
	// flight makes a provider's balance and its float differ for a moment,
	// and the audit waits for them to agree.
	resume := l.settle(ctx, 20*time.Second)
	if p := auditProviders(ctx, c); p != "clean" && sr.audit == "clean" {
		sr.audit = "providers: " + p
	}
	resume()
	stepf("  audit %s%s", sr.audit, errSuffix(sr.errs))
}

func errSuffix(errs []string) string {
	if len(errs) == 0 {
		return ""
	}
	return fmt.Sprintf("; errors: %v", errs)
}

// audit runs `pixgate audit`: "clean" when it exits 0.
func audit(ctx context.Context, c *cluster) string {
	out, err := c.pixgate(ctx, "audit")
	if err != nil {
		return fmt.Sprintf("VIOLATIONS: %v %s", err, out)
	}
	return "clean"
}
