package load

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/valyala/fasthttp"

	"github.com/pixgate/pixgate/tasks"
)

// The overload phase offers withdrawal creates, each with a postback URL,
// open-loop at multiples of the lifecycle's peak and counts, second by
// second, the creates accepted and refused and the lifecycles completed
// (postback received), then drains and checks every accepted withdrawal
// final.

// overloadMults are the offered rates, as multiples of the peak.
var overloadMults = []float64{3, 10}

const (
	// overloadInflight caps the harness's outstanding creates: a create due
	// while every slot is taken is not sent, and counted.
	overloadInflight = 1024
	// overloadDrain bounds the wait, after the window, for every accepted
	// lifecycle's postback.
	overloadDrain = 90 * time.Second
)

// overloadRun is one offered rate of the overload phase.
type overloadRun struct {
	Mult, Offered, Peak float64 // offered creates per s, as × the peak and absolute; the peak per s
	PeakPerSec          []int   // the peak's own lifecycles completed in each second of its window
	PeakCPU             time.Duration
	PeakCommits         float64
	Window              time.Duration
	Due                 int // creates due in the window
	Accepted, Refused   int // 201; 429/503 with Retry-After
	Failed, NotSent     int // any other answer; due while the harness's slots were all taken
	FirstErr            string
	// Per second of the window: creates accepted, refused, lifecycles
	// completed (postbacks received, of lifecycles accepted in the window).
	AcceptedPerSec, RefusedPerSec, CompletedPerSec []int
	// LongestGap is the longest stretch, over the window and the drain,
	// with no completion while an accepted lifecycle was pending.
	LongestGap time.Duration
	Completed  int           // postbacks received by the drain's end
	Drained    time.Duration // from the window's end to the last postback (or the bound)
	Unfinished int           // accepted withdrawals still PROCESSING after the drain
	Usage      usage         // window and drain
	Commits    int64         // window and drain, exactly
	// QueueMax is the largest size seen of each asynq queue (pending and
	// retry), sampled each second.
	QueueMax map[string]int64
	Backlog  []string // per second: "critical/events/postbacks" pending
}

// overload runs the phase at each of overloadMults, each against the
// lifecycle's peak measured the same way (closed-loop) right before it:
// on a shared machine the cores' speed moves over minutes, and a peak
// measured minutes earlier would judge this window by another machine.
func (r *run) overload(ctx context.Context, rep *report, short bool) {
	window := 60 * time.Second
	if short {
		window = 15 * time.Second
	}
	for _, m := range overloadMults {
		if _, _, err := r.drain(ctx, 3*time.Minute); err != nil {
			rep.Problems = append(rep.Problems, "before overload: "+err.Error())
		}
		name := fmt.Sprintf("ovl-peak-%.0fx", m)
		stepf("overload: the lifecycle's peak right before %.0f×, closed-loop, %d in flight", m, bareClients)
		peak := r.lifecycleClosed(ctx, name, fmt.Sprintf("whole cash-out lifecycle with a postback, closed-loop, %d in flight (the peak right before %.0f×)", bareClients, m), r.in.tokens)
		if peak.Result.Ops == 0 {
			rep.Problems = append(rep.Problems, fmt.Sprintf("overload %.0f×: no lifecycle completed at the peak", m))
			continue
		}
		if _, _, err := r.drain(ctx, 3*time.Minute); err != nil {
			rep.Problems = append(rep.Problems, "before overload: "+err.Error())
		}
		stepf("overload: %.0f× the peak (%.0f/s) for %s, then a drain of up to %s", m, m*peak.Result.rate(), window, overloadDrain)
		o := r.overloadAt(ctx, peak, m, window)
		rep.Overload = append(rep.Overload, o)
		stepf("overload %.0f×: %d accepted, %d refused, %d completed, %d unfinished, longest stretch without completion %s",
			m, o.Accepted, o.Refused, o.Completed, o.Unfinished, ms(o.LongestGap))
	}
}

// overloadAt offers m × the peak's rate for window.
func (r *run) overloadAt(ctx context.Context, peak phase, m float64, window time.Duration) overloadRun {
	o := overloadRun{Mult: m, Peak: peak.Result.rate(), PeakPerSec: peak.Result.PerSecond, Offered: m * peak.Result.rate(), Window: window,
		PeakCPU: cpuNoLoad(peak.Usage, peak.Result.Ops), PeakCommits: commitsPerOp(peak), QueueMax: map[string]int64{}}
	r.external++
	prefix := fmt.Sprintf("ovl%.0f-%d-", m, r.external)
	secs := int(window / time.Second)
	o.AcceptedPerSec, o.RefusedPerSec, o.CompletedPerSec = make([]int, secs), make([]int, secs), make([]int, secs)
	hc := newClient(hostOf(r.t.api), overloadInflight)
	var (
		mu       sync.Mutex
		accepted = map[int]time.Time{} // create → when accepted
	)
	sctx, stopSampling := context.WithCancel(ctx)
	sampled := r.sampleQueues(sctx, &o)
	stopProfile := r.profileFor(ctx, fmt.Sprintf("overload-%.0fx", m), window)
	count := r.t.countCommits(ctx)
	pr := r.t.newProbe(ctx)
	start := time.Now()
	bucket := func(at time.Time) int { return int(at.Sub(start) / time.Second) }
	var notSent atomic.Int64
	slots := make(chan struct{}, overloadInflight)
	var wg sync.WaitGroup
	o.Due = int(o.Offered * window.Seconds())
	interval := time.Duration(float64(time.Second) / o.Offered)
	for i := range o.Due {
		if d := time.Until(start.Add(time.Duration(i) * interval)); d > 0 && !sleepCtx(ctx, d) {
			break
		}
		select {
		case slots <- struct{}{}:
		default:
			notSent.Add(1)
			continue
		}
		wg.Go(func() {
			defer func() { <-slots }()
			status, retryAfter, msg := r.createOnce(hc, r.in.tokens[i%len(r.in.tokens)], prefix+strconv.Itoa(i))
			at := time.Now()
			mu.Lock()
			defer mu.Unlock()
			b := bucket(at)
			switch {
			case status == 201:
				o.Accepted++
				accepted[i] = at
				if b < secs {
					o.AcceptedPerSec[b]++
				}
			case (status == 429 || status == 503) && retryAfter:
				o.Refused++
				if b < secs {
					o.RefusedPerSec[b]++
				}
			default:
				o.Failed++
				if o.FirstErr == "" {
					o.FirstErr = msg
				}
			}
		})
	}
	wg.Wait()
	o.NotSent = int(notSent.Load())
	stopProfile()
	windowEnd := time.Now()
	// The drain: every accepted lifecycle's postback, within the bound.
	arrived := func(i int) (time.Time, bool) { return r.recv.ArrivalExt(prefix + strconv.Itoa(i)) }
	_ = waitFor(ctx, overloadDrain, func() bool {
		for i := range accepted {
			if _, ok := arrived(i); !ok {
				return false
			}
		}
		return true
	})
	drainEnd := time.Now()
	o.Usage = pr.finish(ctx)
	stopSampling()
	<-sampled
	var acc, done []time.Time
	last := windowEnd
	for i, at := range accepted {
		acc = append(acc, at)
		if c, ok := arrived(i); ok {
			o.Completed++
			done = append(done, c)
			if b := bucket(c); b >= 0 && b < secs {
				o.CompletedPerSec[b]++
			}
			last = maxTime(last, c)
		}
	}
	if o.Completed < o.Accepted {
		last = drainEnd
	}
	o.Drained = last.Sub(windowEnd)
	o.LongestGap = longestStall(acc, done, start, drainEnd)
	o.Commits = count.since(ctx)
	if err := r.db.Pool().QueryRow(ctx, `SELECT count(*) FROM withdrawals WHERE external_id LIKE $1 AND status = 'PROCESSING'`,
		prefix+"%").Scan(&o.Unfinished); err != nil {
		o.Unfinished = -1
	}
	return o
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// createOnce sends one withdrawal create and returns its status, whether
// it carried Retry-After, and a description of any unexpected answer.
func (r *run) createOnce(hc *fasthttp.HostClient, token, ext string) (int, bool, string) {
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	r.setJSON(req, "POST", "/api/v1/withdrawals", token, withdrawalBody(ext, r.t.postbacks+"/postbacks"))
	if err := hc.Do(req, resp); err != nil {
		return 0, false, err.Error()
	}
	st := resp.StatusCode()
	return st, len(resp.Header.Peek("Retry-After")) > 0, fmt.Sprintf("%d %.200s", st, resp.Body())
}

// longestStall is the longest stretch in [from, to] with no completion
// while some accepted lifecycle had not completed.
func longestStall(accepted, completed []time.Time, from, to time.Time) time.Duration {
	type ev struct {
		at   time.Time
		diff int
	}
	evs := make([]ev, 0, len(accepted)+len(completed))
	for _, a := range accepted {
		evs = append(evs, ev{a, +1})
	}
	for _, c := range completed {
		evs = append(evs, ev{c, -1})
	}
	// At equal times a completion comes first: it ends a stretch.
	slices.SortFunc(evs, func(a, b ev) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return a.diff - b.diff
	})
	pending, since, longest := 0, from, time.Duration(0)
	for _, e := range evs {
		if pending > 0 && e.diff < 0 {
			longest = max(longest, e.at.Sub(since))
		}
		if e.diff < 0 || pending == 0 {
			since = e.at
		}
		pending += e.diff
	}
	if pending > 0 {
		longest = max(longest, to.Sub(since))
	}
	return longest
}

// cpuNoLoad is the stack's CPU per operation, the load generator's left
// out: at ten times the peak the harness's own sending is no cost of
// PixGate's.
func cpuNoLoad(u usage, ops int) time.Duration {
	if ops == 0 {
		return 0
	}
	var sum time.Duration
	for c, d := range u.CPU {
		if c != "load" {
			sum += d
		}
	}
	return sum / time.Duration(ops)
}

// sampleQueues reads the asynq queues' sizes each second until ctx ends;
// the returned channel is closed when it has stopped.
func (r *run) sampleQueues(ctx context.Context, o *overloadRun) <-chan struct{} {
	done := make(chan struct{})
	rdb := redis.NewClient(&redis.Options{Addr: r.t.redisAddr})
	go func() {
		defer close(done)
		defer rdb.Close()
		for sleepCtx(ctx, time.Second) {
			line := ""
			for _, q := range tasks.Queues {
				pending, _ := rdb.LLen(ctx, tasks.PendingKey(q)).Result()
				retry, _ := rdb.ZCard(ctx, tasks.RetryKey(q)).Result()
				o.QueueMax[q] = max(o.QueueMax[q], pending)
				o.QueueMax[q+" retry"] = max(o.QueueMax[q+" retry"], retry)
				if q != tasks.QueueDefault {
					line += fmt.Sprintf("%d/", pending)
				}
			}
			o.Backlog = append(o.Backlog, line[:max(len(line)-1, 0)])
		}
	}()
	return done
}

// profileFor takes CPU profiles of the api and the worker over d, when a
// profile directory is set.
func (r *run) profileFor(ctx context.Context, name string, d time.Duration) func() {
	warmup, measure := r.warmup, r.measure
	r.warmup, r.measure = 0, d
	stop := r.startProfiles(ctx, name)
	r.warmup, r.measure = warmup, measure
	return stop
}
