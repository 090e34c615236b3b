// Package chaos runs PixGate as production would and breaks it on
// purpose. It starts its own Postgres cluster and Redis server on free
// ports, two sandbox providers of different contracts (the default, and b,
// which takes money only in the last scenarios, routed beside the
// default), two API and two worker processes of the given binary, drives
// a steady mix of charges (paid at the sandbox that holds them), withdrawals (some
// to a key the provider fails), refunds, lookups and balances through both
// APIs, and injects one fault after another. Then it drains and checks:
// every wallet equals the model the load kept, the providers' ledgers equal
// PixGate's, each provider's float account its balance, every record is
// final within the bound, every status change was delivered as a postback
// at least once and never under two ids, `pixgate audit` is clean and
// every provider's days reconcile. It writes the table to -out and exits 1
// when a check fails. cmd/pixgate-chaos runs it
// (`make chaos`).
//
// With -hog every selected scenario runs under the CPU hog (hog.go), the
// cores oversubscribed, as the cpu-hog scenario runs for its hold:
//
// With -soak it runs instead a randomized run with a third provider (c,
// woovi): operations, faults and route changes drawn from -seed
// (soakplan.go), then a drain and a checker that judges PixGate's records,
// postings and balances against the sandboxes' ledgers (soakcheck.go). It
// writes its own section of -out and keeps the rest. `make soak` runs it.
package chaos

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	md "github.com/pixgate/pixgate/cmd/internal/harness/report"
	"github.com/pixgate/pixgate/cmd/internal/stack"
)

// Options are the command's flags; Given names those set on the command
// line.
type Options struct {
	Bin, Out, LogDir, LogLevel string
	Soak                       bool
	Seed                       uint64
	Ops                        int
	Scenarios                  string          // comma-separated; empty: all
	Only                       map[string]bool // the scenarios to run, from Scenarios; nil: all
	Rate                       float64
	Bound, Drain, SlowFor      time.Duration
	Hog                        bool
	PostbackFailShare          float64
	Env                        []string
	Given                      map[string]bool
}

// Run runs the scenarios, or the randomized run with Soak, and returns
// the exit status: 0 when every check passed, 1 when one failed, 2 when
// the run could not be made.
func Run(ctx context.Context, o Options) int {
	if o.Soak && !o.Given["seed"] {
		o.Seed = randomSeed()
	}
	if o.Soak && !o.Given["drain"] {
		o.Drain = soakDrain
	}
	if o.Soak && (o.Scenarios != "" || o.Hog) {
		fmt.Fprintln(os.Stderr, "pixgate-chaos: -soak runs no scenarios; leave -scenarios and -hog out")
		return 2
	}
	o.Only = stack.Set(o.Scenarios)
	for name := range o.Only {
		if !strings.Contains(" "+ScenarioNames()+",", " "+name+",") {
			fmt.Fprintf(os.Stderr, "pixgate-chaos: no scenario %q; there are %s\n", name, ScenarioNames())
			return 2
		}
	}
	runner := run
	if o.Soak {
		runner = runSoak
	}
	ok, err := runner(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pixgate-chaos:", err)
		return 2
	}
	if !ok {
		fmt.Fprintf(os.Stderr, "pixgate-chaos: checks failed; see %s\n", o.Out)
		if o.Soak {
			fmt.Fprintf(os.Stderr, "pixgate-chaos: run the same plan again with: %s\n", soakCommand(o))
		}
		return 1
	}
	return 0
}

func ScenarioNames() string {
	names := make([]string, len(scenarios))
	for i, s := range scenarios {
		names[i] = s.name
	}
	return strings.Join(names, ", ")
}

// prepare checks the binary is there and empties the log directory of a
// previous run's logs (processes started again append).
func prepare(o Options) error {
	if _, err := os.Stat(o.Bin); err != nil {
		return fmt.Errorf("%s: build it first (make build): %w", o.Bin, err)
	}
	if err := os.MkdirAll(o.LogDir, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"postgres", "provider-postgres", "redis", "sandbox", "sandbox-b", "sandbox-c", "api-1", "api-2", "worker-1", "worker-2"} {
		_ = os.Remove(filepath.Join(o.LogDir, name+".log"))
	}
	return nil
}

func run(ctx context.Context, o Options) (bool, error) {
	if err := prepare(o); err != nil {
		return false, err
	}
	begin := time.Now()
	c, err := startCluster(ctx, o)
	defer c.close()
	if err != nil {
		return false, err
	}
	sbs := []*sandboxClient{newSandboxClient("default", c.sandboxURL), newSandboxClient(secondProvider, c.secondURL)}
	ledgerOK := true
	for _, sb := range sbs {
		if err := sb.setFaults(ctx, nil); err != nil {
			return false, err
		}
		_, ok, err := sb.ledger(ctx)
		if err != nil {
			return false, err
		}
		ledgerOK = ledgerOK && ok
	}
	sb := sbs[0] // the faults' target
	ins, err := setupIntegrators(ctx, c, integratorSpecs)
	if err != nil {
		return false, err
	}
	// What each provider held before PixGate's first transaction, booked.
	floatsAtStart, err := c.bookHeldBalances(ctx)
	if err != nil {
		return false, err
	}
	var runs []scenarioRun
	for _, s := range scenarios {
		if o.Only == nil || o.Only[s.name] {
			if s.name == SlowSends {
				s.hold, s.fault = o.SlowFor, slowSendsFault(o.SlowFor)
			}
			runs = append(runs, scenarioRun{scenario: s})
		}
	}
	st := newStats(len(runs))
	tag := make([]byte, 3)
	_, _ = rand.Read(tag)
	l := &load{m: newModel(ins), sbs: sbs, stats: st, rate: o.Rate, tag: hex.EncodeToString(tag), sem: make(chan struct{}, 400)}
	if l.api, err = newAPIClient(c.apiURLs, ins, st, l.current); err != nil {
		return false, err
	}
	stopLoad, cancelLoad := context.WithCancel(ctx)
	loadDone := make(chan struct{})
	go func() { l.run(ctx, stopLoad); close(loadDone) }()
	if o.Hog {
		stepf("the CPU hog: %d spinning threads beside PixGate's processes, under every scenario", hogSpinners())
		if err := c.startHog(true); err != nil {
			cancelLoad()
			<-loadDone
			return false, err
		}
	}
	for i := range runs {
		if runs[i].needsLedger && !ledgerOK {
			runs[i].skipped = "the sandbox keeps no state across a restart yet (no GET /sandbox/transactions)"
			stepf("scenario %s skipped: %s", runs[i].name, runs[i].skipped)
			continue
		}
		runScenario(ctx, c, sb, l, i, &runs[i])
		if ctx.Err() != nil {
			break
		}
	}
	hogged := c.stopHog(true)
	if hogged != "" {
		stepf("%s", hogged)
	}
	cancelLoad()
	<-loadDone
	l.scenario.Store(-1)
	stepf("load stopped; waiting for the operations in flight")
	l.wait()
	for _, sb := range sbs {
		if err := sb.setFaults(ctx, nil); err != nil {
			return false, err
		}
	}
	stepf("resolving the operations whose outcome the load never learnt")
	if err := resolve(ctx, c, l); err != nil {
		return false, err
	}
	stepf("draining (at most %v)", o.Drain)
	took, left := drain(ctx, c, o.Drain, nonFinalSQL)
	stepf("drained in %s, %d left moving", seconds(took), left)
	return report(ctx, c, l, o, runs, reportRun{begin: begin, drain: took, left: left, ledger: ledgerOK, floatsAtStart: floatsAtStart, hog: hogged})
}

// stepf is a progress line of the run (md.Stepf).
var stepf = md.Stepf
