package chaos

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pixgate/pixgate/cmd/internal/stack"
)

// The randomized run: `pixgate-chaos -soak` starts the same deployment as
// the scenarios with a third provider, draws a plan from -seed
// (soakplan.go), runs its operations at -rate while its faults and route
// changes come and go, drains, and hands everything to the checker
// (soakcheck.go). `make soak` runs it at 100,000 operations.

// soakSettings are what the randomized run changes besides runSettings:
// the default sandbox serves PixGate's extensions of the family contract,
// so its infractions are listed and one whose notification was dropped
// is still found; infractions are polled every 15 s instead of every
// minute, so that the drain need not wait for them.
var soakSettings = []string{
	"PIXGATE_PROVIDER_EXTENSIONS=true",
	"PIXGATE_INFRACTION_POLL=15s",
}

// soakDrain is how long the randomized run's drain may take by default:
// its last unpaid charges expire up to two minutes after the load, and
// PixGate confirms an expiry a minute after it.
const soakDrain = 10 * time.Minute

// leanIntegrator is the index of the integrator that keeps nothing: it
// starts with an empty wallet and every withdrawal of its is a sweep of
// all it has, so MED infractions on its charges find the money gone.
const leanIntegrator = 4

// soakIntegratorSpecs are the randomized run's integrators: the
// scenarios' four and the lean one.
var soakIntegratorSpecs = append(append([]integrator(nil), integratorSpecs...),
	integrator{name: "Loja Enxuta", email: "enxuta@chaos.example", cashIn: "percent:1", cashOut: "fixed:0.50", hold: "0"})

// soakNonFinalSQL counts what is still moving in the randomized run:
// nonFinalSQL's, MED returns in flight, infractions open and money
// blocked.
const soakNonFinalSQL = nonFinalSQL + `
     + (SELECT count(*) FROM med_returns WHERE status = 'PROCESSING')
     + (SELECT count(*) FROM infractions WHERE status = 'OPEN')
     + (SELECT count(*) FROM ledger_accounts WHERE kind = 'blocked' AND balance <> 0)`

// randomSeed draws a seed: nine digits, short enough to type again.
func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.BigEndian.Uint64(b[:]) % 1_000_000_000
}

// soakCommand is the command that runs o's plan again.
func soakCommand(o Options) string {
	return fmt.Sprintf("go run ./cmd/pixgate-chaos -soak -seed %d -ops %d -rate %g -bin %s", o.Seed, o.Ops, o.Rate, o.Bin)
}

// soakTimes are when the randomized run's phases began.
type soakTimes struct {
	begin, load, loadEnd, tailEnd, drainEnd time.Time
}

func runSoak(ctx context.Context, o Options) (bool, error) {
	if err := prepare(o); err != nil {
		return false, err
	}
	if o.Ops <= 0 || o.Rate <= 0 {
		return false, errors.New("-ops and -rate must be positive")
	}
	p := newPlan(o.Seed, planShape{ops: o.Ops, rate: o.Rate, integrators: len(soakIntegratorSpecs), lean: leanIntegrator})
	stepf("randomized run, seed %d: %d operations at %g/s (%s of load), %d faults, %d route changes", o.Seed, len(p.Ops), o.Rate,
		seconds(p.Duration), len(p.Faults), len(p.Routes)-len(soakIntegratorSpecs))
	stepf("the same plan again: %s", soakCommand(o))
	times := soakTimes{begin: time.Now()}
	c, err := startCluster(ctx, o)
	defer c.close()
	if err != nil {
		return false, err
	}
	sbs := []*sandboxClient{newSandboxClient(soakProviders[0].name, c.sandboxURL), newSandboxClient(soakProviders[1].name, c.secondURL),
		newSandboxClient(soakProviders[2].name, c.thirdURL)}
	for _, sb := range sbs {
		if err := sb.setFaults(ctx, nil); err != nil {
			return false, err
		}
	}
	ins, err := setupIntegrators(ctx, c, soakIntegratorSpecs)
	if err != nil {
		return false, err
	}
	sf := &soakFaults{c: c, sbs: sbs, ins: ins}
	for _, r := range p.Routes {
		if r.At == 0 {
			if err := sf.setRoute(ctx, r); err != nil {
				return false, err
			}
		}
	}
	floatsAtStart, err := c.bookHeldBalances(ctx)
	if err != nil {
		return false, err
	}
	st := newStats(1)
	l := &soakLoad{p: p, ins: ins, sbs: sbs, tally: newTally(), prefix: fmt.Sprintf("s%d", o.Seed),
		recs: make([]*soakRec, len(p.Ops)), sem: make(chan struct{}, 400)}
	if l.api, err = newAPIClient(c.apiURLs, ins, st, func() int { return 0 }); err != nil {
		return false, err
	}

	stepf("load: %d operations", len(p.Ops))
	times.load = time.Now()
	lanes, stopLanes := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); sf.faults(ctx, lanes, times.load, p.Faults) }()
	go func() { defer wg.Done(); sf.changeRoutes(ctx, lanes, times.load, p.Routes) }()
	go progress(lanes, l, times.load)
	l.run(ctx, ctx, times.load)
	times.loadEnd = time.Now()
	stopLanes()
	wg.Wait()
	stepf("load over; waiting for the operations' last steps (payments, infractions closed)")
	l.wait()
	times.tailEnd = time.Now()

	// Every process up, every sandbox healthy (a fault that could not be
	// recovered from is in the report).
	for _, p := range []*stack.Proc{c.apis[0], c.apis[1], c.workers[0], c.workers[1], c.sandbox, c.second, c.third} {
		if !p.Running() {
			if err := p.Start(ctx); err != nil {
				return false, err
			}
		}
	}
	for _, sb := range sbs {
		if err := sb.setFaults(ctx, nil); err != nil {
			return false, err
		}
	}
	stepf("resolving what the load never learnt; closing the infractions left open")
	if err := soakResolve(ctx, c, l); err != nil {
		return false, err
	}
	stepf("draining (at most %v)", o.Drain)
	took, left := drain(ctx, c, o.Drain, soakNonFinalSQL)
	times.drainEnd = time.Now()
	stepf("drained in %s, %d left moving", seconds(took), left)
	return soakReportRun(ctx, c, l, sf, o, soakReportInput{times: times, left: left, floatsAtStart: floatsAtStart, stats: st})
}

// progress says every minute how far the load is.
func progress(ctx context.Context, l *soakLoad, begin time.Time) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var (
			n    int
			late time.Duration
		)
		l.update(func() { n, late = l.started, l.late })
		stepf("  %d of %d operations started (%s; the latest %s after its time)", n, len(l.p.Ops), seconds(time.Since(begin)), seconds(late))
	}
}

// soakResolve settles what the load never learnt, as an integrator would
// the next morning: creates without a definitive answer are looked up (v1
// by external_id; refunds, which v1 lists by charge only, in the
// database), charges whose payer was to pay them and never got to are
// paid, and the infractions still open are closed with their planned
// result.
func soakResolve(ctx context.Context, c *cluster, l *soakLoad) error {
	for _, r := range l.recs {
		if r == nil {
			continue
		}
		if err := soakResolveOne(ctx, c, l, r); err != nil {
			return fmt.Errorf("%s %s: %w", r.kind, r.externalID, err)
		}
	}
	for _, inf := range l.infractions {
		if !inf.closed {
			l.closeInfraction(ctx, inf)
		}
	}
	return nil
}

// soakResolveOne runs after the load: nothing else touches r.
func soakResolveOne(ctx context.Context, c *cluster, l *soakLoad, r *soakRec) error {
	in := l.ins[r.integrator]
	if r.answer == unanswered {
		switch r.kind {
		case chargeKind, withdrawalKind:
			rep := l.call(ctx, func() reply { return l.api.read(ctx, r.integrator, r.kind, r.externalID) })
			switch {
			case rep.Status == http.StatusNotFound:
				r.answer = refused
			case rep.OK():
				r.answer, r.pixID, r.provider = created, rep.Str("pix_id"), rep.Str("provider")
			default:
				return fmt.Errorf("lookup: %d", rep.Status)
			}
		case refundKind:
			a, pixID, err := refundOf(ctx, c, in.id, r.externalID)
			if err != nil {
				return err
			}
			r.answer, r.pixID = a, pixID
		}
	}
	if r.kind != chargeKind || r.answer != created || !r.pay || r.paid {
		return nil
	}
	rep := l.call(ctx, func() reply { return l.api.read(ctx, r.integrator, chargeKind, r.externalID) })
	if !rep.OK() {
		return fmt.Errorf("read: %d", rep.Status)
	}
	r.pixID, r.provider = rep.Str("pix_id"), rep.Str("provider")
	if rep.Str("status") != "PENDING" || r.pixID == "" {
		return nil // never issued, or paid and known to PixGate already
	}
	sb, _ := l.sandboxOf(r.provider)
	if sb == nil {
		return fmt.Errorf("provider %q is none of the run's", r.provider)
	}
	st, err := sb.status(ctx, r.pixID)
	if err != nil {
		return err
	}
	switch st {
	case "PAID":
		r.paid = true // paid by a try that lost its answer
	case "PENDING":
		r.refused = ""
		l.pay(ctx, r)
	}
	return nil
}

// soakAsked is what the harness asked for, for the checker.
func soakAsked(l *soakLoad) map[askKey]askedRec {
	out := map[askKey]askedRec{}
	for _, r := range l.recs {
		if r != nil {
			out[askKey{r.kind, r.integrator, r.externalID}] = askedRec{amount: r.amount, created: r.answer == created}
		}
	}
	return out
}

// soakOutcomes counts, for the report, what became of the operations'
// records as the harness saw them.
func soakOutcomes(l *soakLoad) []string {
	n := map[string]int{}
	for _, r := range l.recs {
		if r == nil {
			continue
		}
		switch {
		case r.kind == chargeKind && r.answer == created && !r.pay:
			n["charges left unpaid to expire"]++
		case r.kind == chargeKind && r.refused != "":
			n["charges not paid: "+r.refused]++
		}
	}
	var out []string
	for what, k := range n {
		out = append(out, fmt.Sprintf("%s: %d", what, k))
	}
	return append(out, l.tally.lines()...)
}

// codesLine words failed requests by code, as the scenarios' table does.
func codesLine(codes map[string]int) string {
	r := row{codes: codes}
	return strings.TrimSpace(r.failedRequests())
}
