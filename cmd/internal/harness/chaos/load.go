package chaos

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	pixgate "github.com/pixgate/pixgate/api/sdk"
)

// load drives a steady open-loop mix of operations through both APIs at
// a fixed rate, whatever the answers take, and keeps the model of what
// each wallet must hold.
type load struct {
	m        *model
	api      *apiClient
	sbs      []*sandboxClient // the default provider's first
	stats    *stats
	rate     float64
	tag      string // makes external ids unique to the run
	scenario atomic.Int32
	// paused: no operation starts (those due meanwhile are skipped, not
	// made up for), so that what is in flight can settle.
	paused atomic.Bool
	seq    atomic.Int64
	wg     sync.WaitGroup
	sem    chan struct{}
}

// The mix, in parts of 100: charges (each paid at the sandbox), withdrawals
// (a fifth to the failing key), refunds of paid charges, lookups, balances.
var mix = []struct {
	weight int
	op     func(*load, context.Context, int)
}{
	{34, (*load).charge},
	{30, (*load).withdrawal},
	{12, (*load).refund},
	{16, (*load).lookup},
	{8, (*load).balance},
}

func (l *load) current() int { return int(l.scenario.Load()) }

// run starts operations at the rate until stop ends; the operations
// themselves run under ctx, so those in flight finish (wait for them). It
// starts what is due by the clock at each wake, so a late wake (a busy
// machine) delays operations without losing them.
func (l *load) run(ctx, stop context.Context) {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	begin, started := time.Now(), 0
	for {
		select {
		case <-stop.Done():
			return
		case <-t.C:
		}
		due := int(time.Since(begin).Seconds() * l.rate)
		if l.paused.Load() {
			started = due
		}
		for ; started < due; started++ {
			l.start(ctx)
		}
	}
}

// start runs one operation of the mix, unless too many are in flight.
func (l *load) start(ctx context.Context) {
	sc := l.current()
	select {
	case l.sem <- struct{}{}:
	default:
		l.stats.shed(sc)
		return
	}
	l.stats.op(sc)
	n := rand.IntN(100)
	for _, m := range mix {
		if n < m.weight {
			l.wg.Add(1)
			go func() {
				defer l.wg.Done()
				defer func() { <-l.sem }()
				m.op(l, ctx, sc)
			}()
			return
		}
		n -= m.weight
	}
}

func (l *load) wait() { l.wg.Wait() }

// settle pauses the load until resume and waits, at most within, until no
// operation of it is in flight.
func (l *load) settle(ctx context.Context, within time.Duration) (resume func()) {
	l.paused.Store(true)
	for deadline := time.Now().Add(within); len(l.sem) > 0 && time.Now().Before(deadline) && ctx.Err() == nil; {
		time.Sleep(50 * time.Millisecond)
	}
	return func() { l.paused.Store(false) }
}

func (l *load) next() int64 { return l.seq.Add(1) }

func amountJSON(c int64) json.Number { return json.Number(reais(c)) }

// charge creates a charge on v1 or v2 and, once issued, pays it at the
// sandbox a moment later, as a payer at the checkout does.
func (l *load) charge(ctx context.Context, sc int) {
	n := l.next()
	idx := rand.IntN(len(l.m.integrators))
	in := l.m.integrators[idx]
	r := &record{kind: chargeKind, integrator: idx, externalID: fmt.Sprintf("c-%s-%d", l.tag, n),
		amount: 500 + rand.Int64N(29_500), scenario: sc, started: time.Now(), surface: surface(n)}
	l.m.add(r)
	idKey := "pix_id"
	if r.surface == "v2" {
		idKey = "transactionId"
	}
	rep := l.api.createCharge(ctx, idx, r.surface == "v2", pixgate.ChargeRequest{Amount: pixgate.Amount(r.amount),
		ExternalID: r.externalID, PostbackURL: in.postbackURL, Payer: payer()})
	pixID, status := rep.Str(idKey), rep.Str("status")
	answeredAt := time.Now()
	l.m.update(func() {
		r.answer, r.createFailures, r.answeredAt = answerOf(rep), rep.Failures, answeredAt
		r.pixID, r.provider = pixID, rep.Str("provider")
	})
	if rep.OK() && status == "PENDING" && pixID != "" {
		sleep(ctx, time.Duration(200+rand.IntN(800))*time.Millisecond)
		l.pay(ctx, r)
	}
}

// withdrawal sends a PIX from the wallet on v1 or v2, one in five to the
// key the sandbox fails.
func (l *load) withdrawal(ctx context.Context, sc int) {
	n := l.next()
	idx := rand.IntN(len(l.m.integrators))
	in := l.m.integrators[idx]
	r := &record{kind: withdrawalKind, integrator: idx, externalID: fmt.Sprintf("w-%s-%d", l.tag, n),
		amount: 100 + rand.Int64N(7_900), scenario: sc, started: time.Now(), surface: surface(n), failKey: rand.IntN(5) == 0}
	key := fmt.Sprintf("destino%d@chaos.example", rand.IntN(50))
	if r.failKey {
		key = failKey
	}
	l.m.add(r)
	idKey := "pix_id"
	if r.surface == "v2" {
		idKey = "transactionId"
	}
	rep := l.api.createWithdrawal(ctx, idx, r.surface == "v2", r.externalID, in.postbackURL, r.amount, key)
	l.m.update(func() { r.answer, r.createFailures, r.pixID = answerOf(rep), rep.Failures, rep.Str(idKey) })
}

// refund returns part (one in ten: all) of a charge paid at least five
// seconds ago, through v2 (v1 has no refunds).
func (l *load) refund(ctx context.Context, sc int) {
	ch := l.m.pickRefundable(time.Now(), 5*time.Second, rand.IntN)
	if ch == nil {
		l.lookup(ctx, sc)
		return
	}
	amount := ch.amount
	if rand.IntN(10) != 0 {
		amount = 1 + rand.Int64N(max(ch.amount/2, 1))
	}
	r := &record{kind: refundKind, integrator: ch.integrator, externalID: fmt.Sprintf("r-%s-%d", l.tag, l.next()),
		amount: amount, scenario: sc, started: time.Now(), surface: "v2", charge: ch}
	l.m.add(r)
	rep := l.api.refund(ctx, ch.integrator, true, "", ch.pixID, r.externalID, amount)
	l.m.update(func() {
		r.answer, r.pixID = answerOf(rep), rep.Str("transactionId")
		if r.answer == refused {
			// PixGate has not seen the payment yet: try again later.
			ch.refundable = true
		}
	})
	if r.answer == refused {
		l.stats.note(sc, fmt.Sprintf("refund refused %d (charge not PAID at PixGate yet)", rep.Status))
	}
}

// lookup reads back one of the latest records PixGate confirmed, by
// external_id on v1 or pix_id on v2; a 404 would be a lost record.
func (l *load) lookup(ctx context.Context, sc int) {
	r := l.m.recentCreated(rand.IntN)
	if r == nil || r.kind == refundKind && r.pixID == "" {
		l.balance(ctx, sc)
		return
	}
	var rep reply
	if r.kind != refundKind && l.next()%2 == 0 {
		rep = l.api.read(ctx, r.integrator, r.kind, r.externalID)
	} else {
		rep = l.api.consult(ctx, r.integrator, r.pixID)
	}
	if rep.Status == http.StatusNotFound {
		l.stats.note(sc, fmt.Sprintf("LOOKUP 404: %s %s answered as created", r.kind, r.externalID))
	}
}

func (l *load) balance(ctx context.Context, sc int) {
	l.api.balance(ctx, rand.IntN(len(l.m.integrators)), l.next()%2 != 0)
}

func surface(n int64) string {
	if n%2 == 0 {
		return "v1"
	}
	return "v2"
}

func answerOf(r reply) answer {
	switch {
	case r.OK():
		return created
	case r.Definitive():
		return refused
	}
	return unanswered
}
