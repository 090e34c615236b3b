package load

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// postbackWait bounds how long a lifecycle waits for its postback.
const postbackWait = 30 * time.Second

// lifecycleClosed runs PixGate's cash-out lifecycle as the arch and bare
// lifecycles run: bareClients clients closed-loop, each creating a
// withdrawal with a postback URL (for the integrators of tokens, in turn)
// and waiting for its postback to arrive at the receiver before the next. Its latencies
// are create → postback received.
func (r *run) lifecycleClosed(ctx context.Context, name, desc string, tokens []string) phase {
	r.external++
	prefix := fmt.Sprintf("%s-%d-", name, r.external)
	var c collector
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var seq atomic.Int64
	var created sync.Map // external id → struct{}: every lifecycle the phase started
	count, stm := r.t.countCommits(ctx), r.t.countStatements(ctx)
	for g := range bareClients {
		wg.Go(func() {
			for i := 0; cctx.Err() == nil; i++ {
				token := tokens[(g+bareClients*(i%2))%len(tokens)]
				ext := prefix + strconv.FormatInt(seq.Add(1), 10)
				start := time.Now()
				ok, msg := r.createAndWait(cctx, token, ext, func() { created.Store(ext, struct{}{}) })
				if cctx.Err() == nil {
					c.record(time.Since(start), ok, msg)
				}
			}
		})
	}
	stopProfile := r.startProfiles(ctx, name)
	res, pr := c.window(ctx, r.t, r.warmup, r.measure)
	u := pr.finish(ctx)
	stopProfile()
	cancel()
	wg.Wait()
	// The lifecycles cut short by the end finish on their own: their
	// commits are the phase's too.
	n := 0
	deadline := time.NewTimer(postbackWait)
	defer deadline.Stop()
	created.Range(func(k, _ any) bool {
		n++
		select {
		case <-r.recv.WaitExt(k.(string)):
		case <-deadline.C:
		}
		return true
	})
	statements := stm.since(ctx)
	return phase{Name: name, Desc: desc, Result: res, Usage: u, Commits: count.since(ctx), Statements: statements, Lifecycles: n}
}

// createAndWait creates one withdrawal with a postback URL and waits for
// its postback.
func (r *run) createAndWait(ctx context.Context, token, ext string, created func()) (bool, string) {
	arrived := r.recv.WaitExt(ext)
	ok, msg := do(r.api, func(req *fasthttp.Request, _, _ int) {
		r.setJSON(req, "POST", "/api/v1/withdrawals", token, withdrawalBody(ext, r.t.postbacks+"/postbacks"))
	}, 0, 0, 201)
	if !ok {
		return false, msg
	}
	created()
	t := time.NewTimer(postbackWait)
	defer t.Stop()
	select {
	case <-arrived:
		return true, ""
	case <-t.C:
		return false, "no postback for " + ext + " within " + postbackWait.String()
	case <-ctx.Done():
		return false, ctx.Err().Error()
	}
}

// lifecycleOpen creates withdrawals with a postback URL at a fixed rate
// (for the integrators of tokens, in turn) and times each from when it was
// due to its postback's arrival. The phase's CPU and commits include
// finishing every lifecycle it started.
func (r *run) lifecycleOpen(ctx context.Context, name, desc string, rate float64, tokens []string) phase {
	r.external++
	prefix := fmt.Sprintf("%s-%d-", name, r.external)
	n := int(rate * r.measure.Seconds())
	due := make([]time.Time, n)
	stopProfile := r.startProfiles(ctx, name)
	defer stopProfile()
	count, stm := r.t.countCommits(ctx), r.t.countStatements(ctx)
	p := r.measured(ctx, name, desc, func() result {
		res := openLoop(ctx, r.api, rate, r.measure, 512, 201, func(req *fasthttp.Request, _, i int) {
			r.setJSON(req, "POST", "/api/v1/withdrawals", tokens[i%len(tokens)], withdrawalBody(prefix+strconv.Itoa(i), r.t.postbacks+"/postbacks"))
		}, func(i int, at time.Time) { due[i] = at })
		arrived := func(i int) (time.Time, bool) { return r.recv.ArrivalExt(prefix + strconv.Itoa(i)) }
		_ = waitFor(ctx, postbackWait, func() bool {
			for i := range n {
				if _, ok := arrived(i); !ok {
					return false
				}
			}
			return true
		})
		var lat result
		for i := range n {
			if at, ok := arrived(i); ok {
				lat.Latencies = append(lat.Latencies, at.Sub(due[i]))
			}
		}
		slices.Sort(lat.Latencies)
		lat.Ops, lat.Elapsed, lat.FirstErr = len(lat.Latencies), res.Elapsed, res.FirstErr
		lat.Errors = n - lat.Ops
		return lat
	})
	p.Offered = rate
	p.Statements = stm.since(ctx)
	p.Commits, p.Lifecycles = count.since(ctx), n
	if missing := n - p.Result.Ops; missing > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d of %d postbacks not received within %s", missing, n, postbackWait))
	}
	return p
}

// idle measures the stack with no traffic, once every queue is empty and
// every session has reported its earlier commits.
func (r *run) idle(ctx context.Context, window time.Duration) phase {
	_, _, _ = r.drain(ctx, time.Minute)
	sleepCtx(ctx, statsFlush)
	defer r.profileFor(ctx, "idle", window)() // waits for the profile
	pr := r.t.newProbe(ctx)
	sleepCtx(ctx, window)
	return phase{Name: "idle", Desc: "the stack idle (no traffic)", Usage: pr.finish(ctx), NoLatency: true}
}

// coreShare is the share of one core the named components of p used.
func coreShare(p phase, names ...string) float64 {
	if p.Usage.Elapsed == 0 {
		return 0
	}
	var sum time.Duration
	for _, n := range names {
		sum += p.Usage.CPU[n]
	}
	return float64(sum) / float64(p.Usage.Elapsed)
}
