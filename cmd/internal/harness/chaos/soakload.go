package chaos

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"sort"
	"sync"
	"time"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// soakRec is what the harness knows of one record a planned operation
// asked for. Fields are read and written under soakLoad.mu.
type soakRec struct {
	kind       kind
	op         int // the plan's index of the operation that asked for it
	integrator int
	externalID string
	amount     int64
	answer     answer
	// pixID: a charge's provider id (where its payer pays it), a
	// transfer's PixGate pix_id.
	pixID    string
	provider string // a charge's provider, as PixGate answered it ("" while unknown)
	pay      bool   // a charge's payer pays it
	paid     bool   // its sandbox confirmed the payment
	refused  string // why the load gave up paying it
}

// soakInfraction is an infraction the harness opened at a sandbox.
type soakInfraction struct {
	op       int
	provider int // index in soakProviders
	id       string
	result   string
	closed   bool
}

// soakLoad runs a plan's operations at their time, whatever the answers
// take, and keeps what it asked for and learnt.
type soakLoad struct {
	p      plan
	ins    []*integrator
	api    *apiClient
	sbs    []*sandboxClient // by provider index
	tally  *tally
	prefix string // of external ids

	mu          sync.Mutex
	recs        []*soakRec // by op index, nil for ops that ask for no record
	infractions []*soakInfraction
	started     int
	late        time.Duration // the latest an operation started after its time
	wg          sync.WaitGroup
	sem         chan struct{} // API calls in flight
}

// tally counts what the operations met, for the report.
type tally struct {
	mu sync.Mutex
	n  map[string]int
}

func newTally() *tally { return &tally{n: map[string]int{}} }

func (t *tally) add(what string) {
	t.mu.Lock()
	t.n[what]++
	t.mu.Unlock()
}

// lines are the counts, sorted by what they count.
func (t *tally) lines() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.n))
	for what, n := range t.n {
		out = append(out, fmt.Sprintf("%s: %d", what, n))
	}
	sort.Strings(out)
	return out
}

func (l *soakLoad) set(i int, r *soakRec) {
	l.mu.Lock()
	l.recs[i] = r
	l.mu.Unlock()
}

func (l *soakLoad) rec(i int) *soakRec {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i < 0 || i >= len(l.recs) {
		return nil
	}
	return l.recs[i]
}

func (l *soakLoad) update(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f()
}

// run starts each operation at its time until every one started or stop
// ends; the operations run under ctx, each to its end (wait for them).
func (l *soakLoad) run(ctx, stop context.Context, begin time.Time) {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for i := 0; i < len(l.p.Ops); {
		select {
		case <-stop.Done():
			return
		case <-t.C:
		}
		now := time.Since(begin)
		for ; i < len(l.p.Ops) && l.p.Ops[i].At <= now; i++ {
			l.wg.Add(1)
			go func(i int) {
				defer l.wg.Done()
				l.do(ctx, i)
			}(i)
			late := now - l.p.Ops[i].At
			l.update(func() { l.started, l.late = l.started+1, max(l.late, late) })
		}
	}
}

func (l *soakLoad) wait() { l.wg.Wait() }

func (l *soakLoad) do(ctx context.Context, i int) {
	op := l.p.Ops[i]
	switch op.Kind {
	case opCharge:
		l.charge(ctx, i, op)
	case opWithdrawal:
		l.withdrawal(ctx, i, op, op.Amount, op.Key, op.KeyN)
	case opSweep:
		l.sweep(ctx, i, op)
	case opRefund:
		l.refund(ctx, i, op)
	case opInfraction:
		l.infraction(ctx, i, op)
	case opLookup:
		l.lookup(ctx, i, op)
	case opBalance:
		l.balance(ctx, op)
	}
}

// call is one API call, at most cap(sem) in flight.
func (l *soakLoad) call(ctx context.Context, f func() reply) reply {
	select {
	case l.sem <- struct{}{}:
	case <-ctx.Done():
		return reply{}
	}
	defer func() { <-l.sem }()
	return f()
}

func (l *soakLoad) ext(letter string, i int) string {
	return fmt.Sprintf("%s-%s%d", l.prefix, letter, i)
}

// charge creates a charge and, as its plan says, has its payer pay it at
// the sandbox that holds it, or leaves it to expire.
func (l *soakLoad) charge(ctx context.Context, i int, op planOp) {
	in := l.ins[op.Integrator]
	r := &soakRec{kind: chargeKind, op: i, integrator: op.Integrator, externalID: l.ext("c", i), amount: op.Amount, pay: op.Pay}
	l.set(i, r)
	req := pixgate.ChargeRequest{Amount: pixgate.Amount(op.Amount), ExternalID: r.externalID, PostbackURL: in.postbackURL, Payer: payer()}
	if !op.Pay {
		req.Expiration = op.Expiration
	}
	idKey := "pix_id"
	if op.V2 {
		idKey = "transactionId"
	}
	rep := l.call(ctx, func() reply { return l.api.createCharge(ctx, op.Integrator, op.V2, req) })
	status := rep.Str("status")
	l.update(func() { r.answer, r.pixID, r.provider = answerOf(rep), rep.Str(idKey), rep.Str("provider") })
	l.tally.add("charges answered " + answerWord(rep))
	if !rep.OK() || status != "PENDING" {
		return
	}
	if op.V2 {
		// v2 does not say the provider: the integrator's v1 read does.
		l.learnCharge(ctx, r)
	}
	if !op.Pay {
		return
	}
	sleep(ctx, op.Delay)
	l.pay(ctx, r)
}

// learnCharge reads a charge by its external_id for its provider and
// provider id.
func (l *soakLoad) learnCharge(ctx context.Context, r *soakRec) {
	rep := l.call(ctx, func() reply { return l.api.read(ctx, r.integrator, chargeKind, r.externalID) })
	if rep.OK() {
		l.update(func() { r.pixID, r.provider = rep.Str("pix_id"), rep.Str("provider") })
	}
}

// sandboxOf is the sandbox of the provider PixGate holds a charge at; nil
// while it is not known.
func (l *soakLoad) sandboxOf(provider string) (*sandboxClient, int) {
	for i, p := range soakProviders {
		if p.name == provider {
			return l.sbs[i], i
		}
	}
	return nil, -1
}

// pay pays a charge at its sandbox, as its payer's bank would, trying
// again for about a minute while the sandbox does not answer (it may be
// restarting).
func (l *soakLoad) pay(ctx context.Context, r *soakRec) {
	var pixID, provider string
	l.update(func() { pixID, provider = r.pixID, r.provider })
	sb, _ := l.sandboxOf(provider)
	if sb == nil || pixID == "" {
		l.update(func() { r.refused = "provider not known" })
		return
	}
	for try := 0; try < 12 && ctx.Err() == nil; try++ {
		code, err := sb.pay(ctx, pixID)
		switch {
		case err == nil && code == http.StatusOK:
			l.update(func() { r.paid = true })
			l.tally.add("charges paid by their payer")
			return
		case err == nil && code == http.StatusConflict:
			// Not PENDING: an earlier try that lost its answer paid it.
			st, err := sb.status(ctx, pixID)
			if err == nil && st == "PAID" {
				l.update(func() { r.paid = true })
				l.tally.add("charges paid by their payer")
				return
			}
			l.update(func() { r.refused = "not payable: " + st })
			return
		case err == nil && code == http.StatusNotFound:
			l.update(func() { r.refused = "unknown to its sandbox" })
			return
		}
		sleep(ctx, time.Duration(try+1)*time.Second)
	}
}

// withdrawal sends a PIX from the wallet to a key of kind key.
func (l *soakLoad) withdrawal(ctx context.Context, i int, op planOp, amount int64, key keyKind, keyN int) {
	in := l.ins[op.Integrator]
	r := &soakRec{kind: withdrawalKind, op: i, integrator: op.Integrator, externalID: l.ext("w", i), amount: amount}
	l.set(i, r)
	address := fmt.Sprintf("destino%d@soak.example", keyN)
	switch key {
	case keyFailing:
		address = failKey
	case keyRefused:
		address = fmt.Sprintf("inexistente%d@soak.example", keyN)
	}
	idKey := "pix_id"
	if op.V2 {
		idKey = "transactionId"
	}
	rep := l.call(ctx, func() reply {
		return l.api.createWithdrawal(ctx, op.Integrator, op.V2, r.externalID, in.postbackURL, amount, address)
	})
	l.update(func() { r.answer, r.pixID = answerOf(rep), rep.Str(idKey) })
	l.tally.add("withdrawals answered " + answerWord(rep))
}

// sweep withdraws all the lean integrator has available, less the fee, as
// its balance reads now.
func (l *soakLoad) sweep(ctx context.Context, i int, op planOp) {
	rep := l.call(ctx, func() reply { return l.api.balance(ctx, op.Integrator, false) })
	f, ok := rep.Body["available_balance"].(float64)
	if !rep.OK() || !ok {
		l.tally.add("sweeps without a balance read")
		return
	}
	avail := int64(math.Round(f * 100))
	out := l.ins[op.Integrator].out
	amount := avail - out.on(avail)
	for amount > 0 && amount+out.on(amount) > avail {
		amount--
	}
	if amount < 100 {
		l.tally.add("sweeps with less than R$ 1.00 to withdraw")
		return
	}
	l.withdrawal(ctx, i, op, amount, keyGood, op.KeyN)
}

// paidCharge waits, at most within, for the charge of op target to be
// paid; nil when it was not.
func (l *soakLoad) paidCharge(ctx context.Context, target int, within time.Duration) *soakRec {
	deadline := time.Now().Add(within)
	for {
		c := l.rec(target)
		var paid, pending bool
		if c != nil {
			l.update(func() { paid, pending = c.paid, c.pay && c.refused == "" && c.answer != refused })
		}
		switch {
		case paid:
			return c
		case c == nil || !pending || time.Now().After(deadline) || ctx.Err() != nil:
			return nil
		}
		sleep(ctx, 500*time.Millisecond)
	}
}

// refund returns part or all of a paid charge, on v1 or v2.
func (l *soakLoad) refund(ctx context.Context, i int, op planOp) {
	c := l.paidCharge(ctx, op.Target, 30*time.Second)
	if c == nil {
		l.tally.add("refunds not asked for: their charge was not paid")
		return
	}
	var chargeExt, chargePix string
	l.update(func() { chargeExt, chargePix = c.externalID, c.pixID })
	r := &soakRec{kind: refundKind, op: i, integrator: op.Integrator, externalID: l.ext("r", i), amount: op.Amount}
	l.set(i, r)
	rep := l.call(ctx, func() reply {
		return l.api.refund(ctx, op.Integrator, op.V2, chargeExt, chargePix, r.externalID, op.Amount)
	})
	l.update(func() {
		r.answer = answerOf(rep)
		if r.pixID = rep.Str("transactionId"); r.pixID == "" {
			r.pixID = rep.Str("pix_id")
		}
	})
	l.tally.add("refunds answered " + answerWord(rep))
}
