package chaos

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/pixgate/pixgate/cmd/internal/stack"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/wooviapi"
)

// faceRoutes are, per contract, the sandbox's route patterns that create
// (charges, payments, refunds) and those that read: what the lost-answers
// and reads-failing faults name in their routes (docs/provider.md,
// "Faults"). The efi face serves a charge's create (PUT) and read (GET) on
// one pattern, so its reads failing fail its charges' creates too.
var faceRoutes = map[string]struct{ create, read []string }{
	"family": {
		create: []string{"/v2/pix/qrcode", "/v2/pix/payment", "/v2/pix/refund"},
		read:   []string{"/v2/consult-transaction", contract.PathInfractions},
	},
	"efi": {
		create: []string{bcbpix.PathCob, bcbpix.PathSend, bcbpix.PathDevolucao},
		read:   []string{bcbpix.PathCob, bcbpix.PathSent, bcbpix.PathPix, bcbpix.PathDevolucao, bcbpix.PathInfracoes},
	},
	"woovi": {
		create: []string{wooviapi.PathCharge, wooviapi.PathPayment, wooviapi.PathChargeRefund},
		read:   []string{wooviapi.PathChargeByID, wooviapi.PathPaymentByID, wooviapi.PathRefundByID, wooviapi.PathTransactions},
	},
}

// faultSet is the sandbox fault set of a provider fault (nil for the
// faults that are no fault set).
func faultSet(f planFault) map[string]any {
	face := faceRoutes[soakProviders[f.Target].contract]
	switch f.Kind {
	case faultLostAnswers:
		return map[string]any{"timeout_rate": f.Rate, "routes": face.create}
	case faultSlow:
		return map[string]any{"latency_ms": f.Latency.Milliseconds()}
	case faultErrors:
		return map[string]any{"error_rate": f.Rate}
	case faultOutage:
		return map[string]any{"outage": true}
	case faultReadsFailing:
		return map[string]any{"error_rate": f.Rate, "routes": face.read}
	case faultDropNotifications:
		return map[string]any{"drop_notifications": true}
	case faultDuplicateNotifications:
		return map[string]any{"duplicate_notifications": f.Copies}
	case faultReorderNotifications:
		return map[string]any{"duplicate_notifications": f.Copies, "out_of_order_notifications": true}
	}
	return nil
}

// faultRun is one fault as it ran.
type faultRun struct {
	planFault
	injected, recovered time.Time
	errs                []string
}

// soakFaults injects a plan's faults and changes its routes at their
// times.
type soakFaults struct {
	c    *cluster
	sbs  []*sandboxClient
	ins  []*integrator
	mu   sync.Mutex
	runs []faultRun
	// routes: changes made after the first routes, and those of all that
	// failed.
	routes, routeErrs int
	routeErrLog       []string
}

// sandboxProc is provider p's sandbox process.
func (s *soakFaults) sandboxProc(p int) *stack.Proc {
	return []*stack.Proc{s.c.sandbox, s.c.second, s.c.third}[p]
}

// faults runs the plan's faults one after another from begin until they
// are done or stop ends; a fault running when stop ends is recovered from
// at once.
func (s *soakFaults) faults(ctx, stop context.Context, begin time.Time, fs []planFault) {
	for _, f := range fs {
		if !waitUntil(stop, begin.Add(f.At)) {
			return
		}
		fr := faultRun{planFault: f, injected: time.Now()}
		stepf("fault: %s", f)
		if err := s.inject(ctx, f); err != nil {
			fr.errs = append(fr.errs, "inject: "+err.Error())
		}
		waitUntil(stop, fr.injected.Add(f.For))
		if err := s.recover(ctx, f); err != nil {
			fr.errs = append(fr.errs, "recover: "+err.Error())
		}
		fr.recovered = time.Now()
		for _, e := range fr.errs {
			stepf("  %s", e)
		}
		s.mu.Lock()
		s.runs = append(s.runs, fr)
		s.mu.Unlock()
	}
}

func (s *soakFaults) inject(ctx context.Context, f planFault) error {
	switch f.Kind {
	case faultKillAPI:
		s.c.apis[f.Target].Kill()
	case faultKillWorker:
		s.c.workers[f.Target].Kill()
	case faultRestartSandbox:
		s.sandboxProc(f.Target).Kill()
	default:
		return s.sbs[f.Target].setFaults(ctx, faultSet(f))
	}
	return nil
}

func (s *soakFaults) recover(ctx context.Context, f planFault) error {
	switch f.Kind {
	case faultKillAPI:
		return s.c.apis[f.Target].Start(ctx)
	case faultKillWorker:
		return s.c.workers[f.Target].Start(ctx)
	case faultRestartSandbox:
		if err := s.sandboxProc(f.Target).Start(ctx); err != nil {
			return err
		}
	}
	// A restarted sandbox forgets its faults: the healthy set again.
	return s.sbs[f.Target].setFaults(ctx, nil)
}

// setRoute runs pixgate route set for one integrator.
func (s *soakFaults) setRoute(ctx context.Context, r planRoute) error {
	_, err := s.c.pixgate(ctx, "route", "set", "--integrator", strconv.FormatInt(s.ins[r.Integrator].id, 10),
		"--charges", routeNames(r.Charges), "--withdrawals", routeNames(r.Withdrawals))
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.At > 0 {
		s.routes++
	}
	if err != nil {
		s.routeErrs++
		if len(s.routeErrLog) < 10 {
			s.routeErrLog = append(s.routeErrLog, err.Error())
		}
	}
	return err
}

// changeRoutes changes the routes at their times from begin until they
// are done or stop ends (the first changes, at 0, were made before the
// load).
func (s *soakFaults) changeRoutes(ctx, stop context.Context, begin time.Time, rs []planRoute) {
	for _, r := range rs {
		if r.At == 0 {
			continue
		}
		if !waitUntil(stop, begin.Add(r.At)) {
			return
		}
		if err := s.setRoute(ctx, r); err != nil {
			stepf("route change of %s: %v", s.ins[r.Integrator].name, err)
		}
	}
}

// waitUntil sleeps until t; false when ctx ended first.
func waitUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// faultTotals sums the faults as they ran, by kind: how many and for how
// long in all.
func faultTotals(runs []faultRun) (n [numFaultKinds]int, held [numFaultKinds]time.Duration, byProvider [numFaultKinds]map[string]int) {
	for _, r := range runs {
		n[r.Kind]++
		held[r.Kind] += r.recovered.Sub(r.injected)
		if byProvider[r.Kind] == nil {
			byProvider[r.Kind] = map[string]int{}
		}
		on := fmt.Sprint(r.Target + 1)
		if r.Kind.onProvider() {
			on = soakProviders[r.Target].name
		}
		byProvider[r.Kind][on]++
	}
	return n, held, byProvider
}
