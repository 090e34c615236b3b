package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/valyala/fasthttp"

	"github.com/pixgate/pixgate/storage"
)

// phase is one measured line of the report.
type phase struct {
	Name, Desc string
	Result     result
	Usage      usage
	NoLatency  bool     // the latencies are not per operation
	Lag        *result  // lifecycle: create → COMPLETED
	Offered    float64  // open-loop phases: the rate asked for
	Notes      []string // what else the phase saw
}

// run is one harness run: the topology, its integrators and clients.
type run struct {
	t        *topology
	db       *storage.DB
	in       integrators
	api      *fasthttp.HostClient
	sandbox  *fasthttp.HostClient
	recv     *receiver
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

// createWithdrawals drives POST /api/v1/withdrawals closed-loop.
func (r *run) createWithdrawals(ctx context.Context, name, desc string) phase {
	r.external++
	prefix := fmt.Sprintf("%s-%d-", name, r.external)
	stopProfile := r.startProfiles(ctx, name)
	p := r.measured(ctx, name, desc, func() result {
		return closedLoop(ctx, r.api, r.conns, r.warmup, r.measure, 201, func(req *fasthttp.Request, g, i int) {
			r.setJSON(req, "POST", "/api/v1/withdrawals", r.in.tokens[g%len(r.in.tokens)], withdrawalBody(prefix+fmt.Sprint(i), ""))
		})
	})
	stopProfile()
	return p
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

// lagOf reads, for the withdrawals whose external_id starts with prefix,
// how long each took from its creation to COMPLETED and to its postback
// being delivered (database clock on both ends).
func (r *run) lagOf(ctx context.Context, prefix string) (completed, postback result, err error) {
	rows, err := r.db.Pool().Query(ctx, `SELECT extract(epoch FROM w.updated_at - w.created_at)::float8,
			coalesce(extract(epoch FROM p.delivered_at - w.created_at)::float8, -1)
		FROM withdrawals w LEFT JOIN postbacks p ON p.resource_type = 'withdrawal' AND p.resource_id = w.id
		WHERE w.external_id LIKE $1 || '%' AND w.status = 'COMPLETED'`, prefix)
	if err != nil {
		return completed, postback, err
	}
	defer rows.Close()
	for rows.Next() {
		var c, p float64
		if err := rows.Scan(&c, &p); err != nil {
			return completed, postback, err
		}
		completed.Latencies = append(completed.Latencies, seconds(c))
		if p >= 0 {
			postback.Latencies = append(postback.Latencies, seconds(p))
		}
	}
	slices.Sort(completed.Latencies)
	slices.Sort(postback.Latencies)
	completed.Ops, postback.Ops = len(completed.Latencies), len(postback.Latencies)
	return completed, postback, rows.Err()
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// lifecycle drives withdrawals with a postback at a fixed rate and follows
// each to COMPLETED; it holds when all completed and the lag's p99 is
// within limit.
func (r *run) lifecycle(ctx context.Context, rate float64, limit time.Duration) (phase, bool) {
	r.external++
	prefix := fmt.Sprintf("life-%d-", r.external)
	p := r.measured(ctx, "lifecycle", "whole cash-out lifecycle at a fixed rate, create → `COMPLETED`", func() result {
		return openLoop(ctx, r.api, rate, r.measure, 512, 201, func(req *fasthttp.Request, g, i int) {
			r.setJSON(req, "POST", "/api/v1/withdrawals", r.in.tokens[i%len(r.in.tokens)], withdrawalBody(prefix+fmt.Sprint(i), r.t.postbacks+"/postbacks"))
		}, nil)
	})
	p.Name, p.Offered = fmt.Sprintf("lifecycle@%.0f", rate), rate
	// Wait (a bounded time) for the stragglers: a rate that falls behind
	// shows as a long lag, or as withdrawals not final.
	_, _, err := r.drain(ctx, 20*time.Second)
	if err != nil {
		p.Notes = append(p.Notes, err.Error())
	}
	lag, pbLag, lerr := r.lagOf(ctx, prefix)
	if lerr != nil {
		p.Notes = append(p.Notes, lerr.Error())
	}
	p.Lag = &lag
	if pbLag.Ops > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("create → postback delivered p50 %s, p99 %s", ms(pbLag.percentile(0.5)), ms(pbLag.percentile(0.99))))
	}
	ok := err == nil && lerr == nil && p.Result.Errors == 0 && lag.Ops == p.Result.Ops && lag.percentile(0.99) <= limit
	return p, ok
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
				if _, ok := r.recv.arrival(c.id); !ok {
					return false
				}
			}
			return true
		})
		var lat result
		for i, c := range charges {
			if at, ok := r.recv.arrival(c.id); ok {
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
