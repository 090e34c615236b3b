package load

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/valyala/fasthttp"
)

// batchItems is how many withdrawals the batch phase sends in one batch:
// the most a batch takes.
const batchItems = 10_000

// batchBody is a batch of n withdrawals of R$ 1.00, external_ids ext-0 …
func batchBody(ext string, n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"external_id": %q, "items": [`, ext)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(withdrawalBody(fmt.Sprintf("%s-%d", ext, i), ""))
	}
	b.WriteString("]}")
	return b.Bytes()
}

// batchPayout sends one batch of batchItems withdrawals (one request:
// every item reserved and written in one transaction) and then waits
// until the worker has sent and settled every item: batch-reserve is the
// items reserved per second of the create request, batch-send the items
// made final per second from its answer to the last one. Both compare
// with single creates (the create phase). The stack must be idle: the
// send counts every withdrawal in flight.
func (r *run) batchPayout(ctx context.Context, rep *report) {
	r.external++
	ext := fmt.Sprintf("lote-carga-%d", r.external)
	body := batchBody(ext, batchItems)
	reserve := r.measured(ctx, "batch-reserve", fmt.Sprintf("`POST /api/v1/withdrawals/batches`, %d items reserved in one request, items/s", batchItems),
		func() result {
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			defer fasthttp.ReleaseRequest(req)
			defer fasthttp.ReleaseResponse(resp)
			r.setJSON(req, "POST", "/api/v1/withdrawals/batches", r.in.tokens[0], body)
			// A connection of its own: the pool's may be to an api the
			// phases before restarted (withoutAdmission), and a POST is
			// not retried on another.
			hc := newClient(hostOf(r.t.api), 1)
			defer hc.CloseIdleConnections()
			start := time.Now()
			err := hc.DoTimeout(req, resp, 2*time.Minute)
			res := result{Elapsed: time.Since(start)}
			switch {
			case err != nil:
				res.Errors, res.FirstErr = 1, err.Error()
			case resp.StatusCode() != 201:
				res.Errors, res.FirstErr = 1, fmt.Sprintf("%d %.200s", resp.StatusCode(), resp.Body())
			default:
				res.Ops = batchItems
			}
			return res
		})
	reserve.NoLatency = true
	rep.Phases["batch-reserve"] = reserve
	if reserve.Result.Errors > 0 {
		rep.Problems = append(rep.Problems, "batch create: "+reserve.Result.FirstErr)
		return
	}
	send := r.measured(ctx, "batch-send", fmt.Sprintf("the batch's %d items sent and settled by the worker, items/s", batchItems), func() result {
		start := time.Now()
		finished, _, err := r.drain(ctx, 10*time.Minute)
		res := result{Ops: finished, Elapsed: time.Since(start)}
		if err != nil {
			res.Errors, res.FirstErr = 1, err.Error()
		}
		return res
	})
	send.NoLatency = true
	rep.Phases["batch-send"] = send
	if send.Result.Errors > 0 {
		rep.Problems = append(rep.Problems, "batch send: "+send.Result.FirstErr)
		return
	}
	// The reconciler's next tick marks it COMPLETED.
	if err := waitFor(ctx, time.Minute, func() bool {
		var status string
		err := r.db.Pool().QueryRow(ctx, `SELECT status FROM withdrawal_batches WHERE external_id = $1`, ext).Scan(&status)
		return err == nil && status == "COMPLETED"
	}); err != nil {
		rep.Problems = append(rep.Problems, "the batch is not COMPLETED: "+err.Error())
	}
}

// batchNote compares the batch with single creates, when both ran.
func (r *report) batchNote() string {
	reserve, ok := r.Phases["batch-reserve"]
	single, ran := r.Phases["create"]
	if !ok || reserve.Result.Ops == 0 {
		return ""
	}
	note := fmt.Sprintf("A batch of %d withdrawals is reserved at %s items/s in one request (%.1f s)", batchItems,
		rate(reserve.Result.rate()), reserve.Result.Elapsed.Seconds())
	if ran && single.Result.Ops > 0 {
		note += fmt.Sprintf(", %.1f× single creates' %s/s over %d connections", reserve.Result.rate()/single.Result.rate(), rate(single.Result.rate()), r.Conns)
	}
	if send, ok := r.Phases["batch-send"]; ok && send.Result.Ops > 0 {
		note += fmt.Sprintf("; its items are then sent and settled at %s items/s, the worker's pace, as single withdrawals are", rate(send.Result.rate()))
	}
	return note + "."
}
