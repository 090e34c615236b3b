package load

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/pixgate/pixgate/cmd/internal/harness/receiver"
	"github.com/pixgate/pixgate/storage"
)

// phase is one measured line of the report.
type phase struct {
	Name, Desc string
	Result     result
	Usage      usage
	NoLatency  bool     // the latencies are not per operation
	Offered    float64  // open-loop phases: the rate asked for
	Notes      []string // what else the phase saw
	// Only names the components whose CPU is the phase's own (all when
	// empty): the bare lifecycle's is the harness's and Postgres', the arch
	// lifecycle's those, its provider's and Redis's.
	Only []string
	// Commits and Lifecycles, when Lifecycles > 0, count exactly every
	// commit of the phase and every lifecycle it ran, its warmup and its
	// tail included (Usage.Commits is the timed window's, which the
	// sessions' late reports blur).
	Commits    int64
	Lifecycles int
	// Statements, when known, counts the SQL statements the phase's
	// lifecycles sent (PixGate's api and worker, or the arch program).
	Statements int64
}

// integrators are the driven integrators' v1 authorizations ("Bearer
// pk_....sk_..."), one per connection.
type integrators struct{ tokens []string }

// run is one harness run: the topology, its integrators and clients.
type run struct {
	t        *topology
	db       *storage.DB
	in       integrators
	api      *fasthttp.HostClient
	sandbox  *fasthttp.HostClient
	recv     *receiver.Receiver
	conns    int
	warmup   time.Duration
	measure  time.Duration
	profile  string // directory for CPU profiles of the create phase; "" none
	external int    // numbers external ids across phases
}

func hostOf(base string) string { u, _ := url.Parse(base); return u.Host }

func (r *run) setJSON(req *fasthttp.Request, method, path, token string, body []byte) {
	req.Header.SetMethod(method)
	req.SetRequestURI(r.t.api + path)
	req.Header.Set("Authorization", token)
	if body != nil {
		req.Header.SetContentType("application/json")
		req.SetBody(body)
	}
}

// measured runs drive between a probe's start and finish.
func (r *run) measured(ctx context.Context, name, desc string, drive func() result) phase {
	pr := r.t.newProbe(ctx)
	res := drive()
	return phase{Name: name, Desc: desc, Result: res, Usage: pr.finish(ctx)}
}

func (r *run) balance(ctx context.Context) phase {
	return r.measured(ctx, "balance", "`GET /api/v1/balance`", func() result {
		return closedLoop(ctx, r.api, r.conns, r.warmup, r.measure, 200, func(req *fasthttp.Request, g, _ int) {
			r.setJSON(req, "GET", "/api/v1/balance", r.in.tokens[g%len(r.in.tokens)], nil)
		})
	})
}

func withdrawalBody(ext, postbackURL string) []byte {
	pb := ""
	if postbackURL != "" {
		pb = fmt.Sprintf(`, "postbackUrl": %q`, postbackURL)
	}
	return fmt.Appendf(nil, `{"amount": 1.00, "external_id": %q, "creditParty": {"name": "Beltrano", "keyType": "EMAIL", `+
		`"key": "beltrano@example.com", "taxId": "52998224725"}%s}`, ext, pb)
}

// createWithdrawals drives POST /api/v1/withdrawals closed-loop, over
// the integrators of tokens.
func (r *run) createWithdrawals(ctx context.Context, name, desc string, tokens []string) phase {
	r.external++
	prefix := fmt.Sprintf("%s-%d-", name, r.external)
	stopProfile := r.startProfiles(ctx, name)
	p := r.measured(ctx, name, desc, func() result {
		return closedLoop(ctx, r.api, r.conns, r.warmup, r.measure, 201, func(req *fasthttp.Request, g, i int) {
			r.setJSON(req, "POST", "/api/v1/withdrawals", tokens[g%len(tokens)], withdrawalBody(prefix+fmt.Sprint(i), ""))
		})
	})
	stopProfile()
	return p
}

// noteInFlight notes, as the window closes, how many withdrawals are
// still in flight: as deployed the worker sends and settles what the api
// creates on the same cores, so the create rate also tells how much of
// that work the worker left for later.
func (r *run) noteInFlight(ctx context.Context, p *phase) {
	n, err := r.processing(ctx)
	if err != nil || p.Result.Ops == 0 {
		return
	}
	p.Notes = append(p.Notes, fmt.Sprintf("%d withdrawals still in flight as the window closed, %.0f s of creates", n, float64(n)/p.Result.rate()))
}

func (r *run) createCharges(ctx context.Context) phase {
	r.external++
	prefix := fmt.Sprintf("charge-%d-", r.external)
	stopProfile := r.startProfiles(ctx, "charge-create")
	p := r.measured(ctx, "charge-create", "`POST /api/v1/charges` (the sandbox's charge call in the request)", func() result {
		return closedLoop(ctx, r.api, r.conns, r.warmup, r.measure, 201, func(req *fasthttp.Request, g, i int) {
			r.setJSON(req, "POST", "/api/v1/charges", r.in.tokens[g%len(r.in.tokens)], chargeBody(prefix+fmt.Sprint(i), ""))
		})
	})
	stopProfile()
	return p
}

func chargeBody(ext, postbackURL string) []byte {
	pb := ""
	if postbackURL != "" {
		pb = fmt.Sprintf(`, "postbackUrl": %q`, postbackURL)
	}
	return fmt.Appendf(nil, `{"amount": 10.00, "external_id": %q, "payer": {"name": "Fulano de Tal", "document": "52998224725"}%s}`, ext, pb)
}

// processing counts withdrawals not yet final.
func (r *run) processing(ctx context.Context) (int, error) {
	var n int
	err := r.db.Pool().QueryRow(ctx, `SELECT count(*) FROM withdrawals WHERE status = 'PROCESSING'`).Scan(&n)
	return n, err
}

// drain waits until every withdrawal is final and returns how many
// finished per second meanwhile (the lifecycle's throughput with nothing
// else running).
func (r *run) drain(ctx context.Context, limit time.Duration) (finished int, rate float64, err error) {
	start := time.Now()
	before, err := r.processing(ctx)
	if err != nil {
		return 0, 0, err
	}
	last := before
	err = waitFor(ctx, limit, func() bool {
		last, err = r.processing(ctx)
		return err == nil && last == 0
	})
	if err != nil {
		return before - last, 0, fmt.Errorf("%d withdrawals still PROCESSING: %w", last, err)
	}
	return before, float64(before) / time.Since(start).Seconds(), nil
}

// paymentPostback creates charges with a postback URL, pays them at the
// sandbox at a fixed rate and measures from each payment to its postback's
// arrival at the receiver.
func (r *run) paymentPostback(ctx context.Context, rate float64) (phase, error) {
	n := int(rate * r.measure.Seconds())
	type charge struct{ id, pixID string }
	charges := make([]charge, n)
	r.external++
	prefix := fmt.Sprintf("paid-%d-", r.external)
	for i := range n {
		req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
		r.setJSON(req, "POST", "/api/v1/charges", r.in.tokens[i%len(r.in.tokens)], chargeBody(prefix+fmt.Sprint(i), r.t.postbacks+"/postbacks"))
		err := r.api.Do(req, resp)
		if err == nil && resp.StatusCode() != 201 {
			err = fmt.Errorf("charge create: %d %s", resp.StatusCode(), resp.Body())
		}
		var v struct {
			ID    string `json:"id"`
			PixID string `json:"pix_id"`
		}
		if err == nil {
			err = json.Unmarshal(resp.Body(), &v)
		}
		fasthttp.ReleaseRequest(req)
		fasthttp.ReleaseResponse(resp)
		if err != nil {
			return phase{}, err
		}
		charges[i] = charge{v.ID, v.PixID}
	}
	due := make([]time.Time, n)
	p := r.measured(ctx, "payment-postback", "sandbox payment → postback received, fixed rate", func() result {
		res := openLoop(ctx, r.sandbox, rate, r.measure, 64, 200, func(req *fasthttp.Request, _, i int) {
			req.Header.SetMethod("POST")
			req.SetRequestURI(r.t.sandbox + "/sandbox/charges/" + charges[i].pixID + "/pay")
		}, func(i int, at time.Time) { due[i] = at })
		// Then wait for the postbacks, and time each from its payment.
		_ = waitFor(ctx, 30*time.Second, func() bool {
			for _, c := range charges {
				if _, ok := r.recv.Arrival(c.id); !ok {
					return false
				}
			}
			return true
		})
		var lat result
		for i, c := range charges {
			if at, ok := r.recv.Arrival(c.id); ok {
				lat.Latencies = append(lat.Latencies, at.Sub(due[i]))
			}
		}
		slices.Sort(lat.Latencies)
		lat.Ops, lat.Elapsed, lat.Errors, lat.FirstErr = len(lat.Latencies), res.Elapsed, res.Errors+n-len(lat.Latencies), res.FirstErr
		return lat
	})
	p.Offered = rate
	if p.Result.Ops < n {
		p.Notes = append(p.Notes, fmt.Sprintf("%d of %d postbacks not received within 30 s", n-p.Result.Ops, n))
	}
	return p, nil
}

// startProfiles takes CPU profiles of the api and the worker while a phase
// runs, when a profile directory is set.
func (r *run) startProfiles(ctx context.Context, name string) func() {
	if r.profile == "" {
		return func() {}
	}
	secs := int((r.warmup + r.measure).Seconds())
	done := make(chan struct{}, 2)
	for _, target := range []struct{ proc, addr string }{{"api", r.t.apiAdmin}, {"worker", r.t.workerAdmin}} {
		go func() {
			defer func() { done <- struct{}{} }()
			path := fmt.Sprintf("%s/%s-%s.pprof", strings.TrimRight(r.profile, "/"), name, target.proc)
			if err := fetchTo(ctx, fmt.Sprintf("http://%s/debug/pprof/profile?seconds=%d", target.addr, secs), path); err != nil {
				fmt.Printf("profile of %s: %v\n", target.proc, err)
			}
		}()
	}
	return func() { <-done; <-done }
}
