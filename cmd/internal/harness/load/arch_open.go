package load

import (
	"context"
	"slices"
	"sync"
	"time"
)

// runArchOpen measures the arch lifecycle open-loop: withdrawals begun at
// rate for measure (over its wallets, in turn), each timed from when it
// was due to its postback's arrival, as PixGate's lifecycle is at the
// same rate (lifecycleOpen). At a low rate nothing is shared (no commit,
// no wake-up, no round trip serves two lifecycles), so a lifecycle costs
// more than at the peak, in the yardstick as in PixGate: the open-loop
// rows are judged against the yardstick at the same rate. Its CPU and
// commits include finishing every lifecycle begun.
func runArchOpen(ctx context.Context, t *topology, recvURL, name string, rate float64, measure time.Duration) (phase, error) {
	a, stop, err := startArch(ctx, t, recvURL)
	if err != nil {
		return phase{}, err
	}
	defer stop()
	// A few lifecycles first, so that each consumer and connection has
	// run its statements once, as PixGate's have before its open-loop rows.
	var warm sync.WaitGroup
	for i := range archConns {
		warm.Go(func() {
			if err := a.lifecycle(ctx, int64(i%bareWallets)+1); err != nil {
				a.fail(err)
			}
		})
	}
	warm.Wait()
	n := int(rate * measure.Seconds())
	lat := make([]time.Duration, n)
	count := t.countCommits(ctx)
	stm0 := a.statements.Count()
	reserved0 := a.reserved.Load()
	pr := t.newProbe(ctx)
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		due := start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
		sleepCtx(ctx, time.Until(due))
		wg.Go(func() {
			if err := a.lifecycle(ctx, int64(i%bareWallets)+1); err != nil {
				a.fail(err)
				return
			}
			lat[i] = time.Since(due)
		})
	}
	elapsed := time.Since(start) // the window they were begun in, as for PixGate's
	wg.Wait()
	u := pr.finish(ctx)
	res := result{Elapsed: elapsed}
	for _, l := range lat {
		if l > 0 {
			res.Latencies = append(res.Latencies, l)
		}
	}
	slices.Sort(res.Latencies)
	res.Ops, res.Errors = len(res.Latencies), n-len(res.Latencies)
	p, err := a.finish(ctx, name, "arch lifecycle at the same rate, open-loop, begun → postback received", res, u, count, stm0, reserved0)
	p.Offered = rate
	return p, err
}
