package load

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

// request builds the i-th request of client g into req.
type request func(req *fasthttp.Request, g, i int)

// result is what one load phase measured.
type result struct {
	Ops       int           // answered as expected within the timed window
	Errors    int           // unexpected answers or transport errors
	FirstErr  string        // the first of them
	Elapsed   time.Duration // the timed window
	Latencies []time.Duration
	// PerSecond counts the operations answered as expected in each second
	// of the window (closed-loop phases).
	PerSecond []int
}

func (r result) rate() float64 { return float64(r.Ops) / r.Elapsed.Seconds() }

// percentile of the (sorted) latencies, by nearest rank: the smallest
// latency that at least p of them do not exceed.
func (r result) percentile(p float64) time.Duration {
	n := len(r.Latencies)
	if n == 0 {
		return 0
	}
	i := int(math.Ceil(p*float64(n))) - 1
	return r.Latencies[min(max(i, 0), n-1)]
}

type collector struct {
	mu        sync.Mutex
	res       result
	start     time.Time // the window's start
	recording atomic.Bool
}

func (c *collector) record(lat time.Duration, ok bool, err string) {
	if !c.recording.Load() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok {
		c.res.Ops++
		c.res.Latencies = append(c.res.Latencies, lat)
		// Only from begin, and within a day: a collector that never began
		// counts no seconds (since the zero time, it would be billions).
		if sec := int(time.Since(c.start) / time.Second); !c.start.IsZero() && sec >= 0 && sec < 86400 {
			for len(c.res.PerSecond) <= sec {
				c.res.PerSecond = append(c.res.PerSecond, 0)
			}
			c.res.PerSecond[sec]++
		}
		return
	}
	c.res.Errors++
	if c.res.FirstErr == "" {
		c.res.FirstErr = err
	}
}

// window waits out warmup, then records for measure with a probe of t's
// processes running from the window's start: the window's result, and the
// probe for the caller to finish when its phase's work is over.
func (c *collector) window(ctx context.Context, t *topology, warmup, measure time.Duration) (result, *probe) {
	sleepCtx(ctx, warmup)
	pr := t.newProbe(ctx)
	c.begin()
	start := time.Now()
	sleepCtx(ctx, measure)
	c.recording.Store(false)
	return c.done(time.Since(start)), pr
}

// begin starts recording, and counting each second from now.
func (c *collector) begin() {
	c.mu.Lock()
	c.start = time.Now()
	c.mu.Unlock()
	c.recording.Store(true)
}

func (c *collector) done(elapsed time.Duration) result {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.res
	r.Elapsed = elapsed
	slices.Sort(r.Latencies)
	// A last second cut short by the window's end is not a second.
	if n := int(elapsed / time.Second); len(r.PerSecond) > n {
		r.PerSecond = r.PerSecond[:n]
	}
	return r
}

func newClient(addr string, conns int) *fasthttp.HostClient {
	return &fasthttp.HostClient{Addr: addr, MaxConns: conns, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second,
		MaxIdleConnDuration: time.Minute, MaxConnWaitTimeout: 30 * time.Second}
}

// do sends one request and reports whether the answer had the wanted
// status, with a short description when not.
func do(hc *fasthttp.HostClient, build request, g, i, want int) (bool, string) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	build(req, g, i)
	if err := hc.Do(req, resp); err != nil {
		return false, err.Error()
	}
	if resp.StatusCode() != want {
		return false, fmt.Sprintf("%s %s: %d %.200s", req.Header.Method(), req.URI().Path(), resp.StatusCode(), resp.Body())
	}
	return true, ""
}

// closedLoop runs conns clients, each sending its next request when the
// last is answered: warmup untimed, then measure timed.
func closedLoop(ctx context.Context, hc *fasthttp.HostClient, conns int, warmup, measure time.Duration, want int, build request) result {
	var c collector
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	var seq atomic.Int64
	for g := range conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(seq.Add(1))
				start := time.Now()
				ok, err := do(hc, build, g, i, want)
				c.record(time.Since(start), ok, err)
			}
		})
	}
	sleepCtx(ctx, warmup)
	c.begin()
	start := time.Now()
	sleepCtx(ctx, measure)
	c.recording.Store(false)
	elapsed := time.Since(start)
	cancel()
	wg.Wait()
	return c.done(elapsed)
}

// openLoop sends rate requests a second for measure, each on schedule
// whatever the answers before it: a latency counts from when its request
// was due, so a stall shows in every request it delayed. At most inflight
// requests are outstanding; one that could not be sent in time still counts
// from its due time.
func openLoop(ctx context.Context, hc *fasthttp.HostClient, rate float64, measure time.Duration, inflight, want int,
	build request, sent func(i int, due time.Time)) result {
	var c collector
	c.begin()
	type job struct {
		i   int
		due time.Time
	}
	jobs := make(chan job, inflight)
	var wg sync.WaitGroup
	for g := range inflight {
		wg.Go(func() {
			for j := range jobs {
				if sent != nil {
					sent(j.i, j.due)
				}
				ok, err := do(hc, build, g, j.i, want)
				c.record(time.Since(j.due), ok, err)
			}
		})
	}
	start := time.Now()
	n := int(rate * measure.Seconds())
	interval := time.Duration(float64(time.Second) / rate)
	for i := range n {
		due := start.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 && !sleepCtx(ctx, d) {
			break
		}
		select {
		case jobs <- job{i: i, due: due}:
		case <-ctx.Done():
		}
	}
	close(jobs)
	wg.Wait()
	return c.done(time.Since(start))
}

// sleepCtx waits d and reports false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
