package worker

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hibiken/asynq"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
	"github.com/pixgate/pixgate/worker/postback"
)

// deliverPostback makes one delivery attempt of a PENDING postback and
// records it. 2xx delivers; 410 stops for good; anything else (3xx, 4xx,
// 5xx, no answer, an address the SSRF guard refuses) is retried on the
// backoff schedule, by returning an error that carries the delay, until the
// postback is older than MaxAge: then it is FAILED. An operator can
// redeliver it afterwards; MaxAge is checked after an attempt, not before,
// so a redelivery is always tried at least once. Before the attempt, the
// gates of postback_gate.go may hold or delay it.
func (w *Worker) deliverPostback(ctx context.Context, t *asynq.Task) error {
	var p tasks.PostbackDeliver
	if err := tasks.Decode(t, &p); err != nil {
		return err
	}
	pb, secret, err := w.postbackToDeliver(ctx, p)
	if errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("postback %s does not exist: %w", p.PostbackID, asynq.SkipRetry)
	}
	if err != nil {
		return err
	}
	if pb.Status != storage.PostbackPending {
		return nil // delivered, stopped or given up meanwhile
	}
	release, err := w.gatePostback(ctx, pb)
	if errors.Is(err, errEndpointHeld) {
		return nil // it waits PENDING: the endpoint's resume queues it again
	}
	if err != nil {
		return err
	}
	defer release()
	cfg := w.cfg.Postbacks
	res := postback.Send(ctx, w.postbackHTTP, cfg, postback.Request{ID: pb.ID, URL: pb.URL, Body: pb.Body, Secret: secret})

	rec := storage.PostbackAttemptResult{StatusCode: res.StatusCode, Latency: res.Latency, OutboxDone: taskID(ctx)}
	if res.Err != nil {
		rec.Err = res.Err.Error()
	}
	var delay time.Duration
	switch now := time.Now(); {
	case res.Delivered():
		rec.Outcome = storage.OutcomeDelivered
	case res.Gone():
		rec.Outcome = storage.OutcomeStopped
	case res.Permanent:
		rec.Outcome = storage.OutcomeFailed
	case now.Sub(pb.CreatedAt) >= cfg.MaxAge:
		rec.Outcome = storage.OutcomeFailed
		rec.Err += fmt.Sprintf("; given up: older than %v", cfg.MaxAge)
	default:
		delay = postback.Delay(cfg, pb.Attempts+1)
		next := now.Add(delay)
		rec.Outcome, rec.NextAttemptAt = storage.OutcomeRetry, &next
	}
	// The attempt happened: record it even if the task's context has just
	// ended (shutdown, task timeout).
	recCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	after, err := w.postbacks.RecordPostbackAttempt(recCtx, pb.ID, rec)
	if err != nil {
		return fmt.Errorf("postback %s: %w", pb.ID, err)
	}
	w.metrics.postback(string(rec.Outcome))
	switch {
	case after.Status == storage.PostbackPending && rec.Outcome == storage.OutcomeRetry:
		return &postbackRetry{id: pb.ID.String(), attempt: after.Attempts, delay: delay, cause: res.Err}
	case after.Status == storage.PostbackFailed && rec.Outcome == storage.OutcomeFailed:
		w.log.Warn("postback given up", "postback_id", pb.ID, "integrator_id", pb.IntegratorID, "attempts", after.Attempts, "err", rec.Err)
	case after.Status == storage.PostbackStopped && rec.Outcome == storage.OutcomeStopped:
		w.log.Info("postback stopped by its receiver (410)", "postback_id", pb.ID, "integrator_id", pb.IntegratorID)
	}
	return nil
}

// postbackToDeliver is the postback a delivery attempt sends, with its
// integrator's signing secret. A new postback's first attempt takes the
// postback from its task and the secret from the store's memory, and so
// reads nothing; the attempt's record (RecordPostbackAttempt) still writes
// nothing over a postback no longer PENDING. Retries and redeliveries read
// the postback, since its attempts and status decide them.
func (w *Worker) postbackToDeliver(ctx context.Context, p tasks.PostbackDeliver) (storage.Postback, string, error) {
	c := p.First
	if n, _ := asynq.GetRetryCount(ctx); c == nil || n > 0 {
		return w.postbacks.PostbackForDelivery(ctx, p.PostbackID)
	}
	secret, err := w.postbacks.WebhookSecret(ctx, c.IntegratorID)
	switch {
	case errors.Is(err, storage.ErrNotFound):
		return w.postbacks.PostbackForDelivery(ctx, p.PostbackID) // its integrator is gone: the read says what is left
	case err != nil:
		return storage.Postback{}, "", err
	}
	created := time.Unix(p.PostbackID.Time().UnixTime()) // a UUIDv7's time
	return storage.Postback{ID: p.PostbackID, IntegratorID: c.IntegratorID, URL: c.URL, Body: []byte(c.Body),
		Status: storage.PostbackPending, CreatedAt: created}, secret, nil
}

// postbackRetry is a failed attempt to be retried after delay: asynq's
// RetryDelayFunc takes the delay from it (postbackRetryDelay), so the
// schedule is the one recorded in next_attempt_at.
type postbackRetry struct {
	id      string
	attempt int
	delay   time.Duration
	cause   error // never carries the URL or the body
}

func (e *postbackRetry) Error() string {
	return fmt.Sprintf("postback %s attempt %d: %v; next attempt in %v", e.id, e.attempt, e.cause, e.delay.Round(time.Millisecond))
}

func (e *postbackRetry) Unwrap() error { return e.cause }

// postbackRetryDelay returns the delay a failed delivery asked for.
func postbackRetryDelay(err error) (time.Duration, bool) {
	var r *postbackRetry
	if errors.As(err, &r) {
		return r.delay, true
	}
	return 0, false
}
