package worker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/hibiken/asynq"
)

// logTask logs every task once, at its end, with its id, type, outcome and
// duration; the error is logged here and nowhere else.
func (w *Worker) logTask(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		start := time.Now()
		id, _ := asynq.GetTaskID(ctx)
		retry, _ := asynq.GetRetryCount(ctx)
		err := next.ProcessTask(ctx, t)
		took := time.Since(start)
		w.metrics.task(t.Type(), err, took)
		attrs := []any{"task_id", id, "task_type", t.Type(), "retry", retry, "ms", took.Milliseconds()}
		if errors.Is(err, errShareFull) {
			w.log.DebugContext(ctx, "task deferred: its provider's share of the lane is in use", attrs...)
			return err
		}
		if err != nil {
			w.log.WarnContext(ctx, "task failed", append(attrs, "err", err)...)
			return err
		}
		w.log.DebugContext(ctx, "task done", attrs...)
		return nil
	})
}

// logTaskError records tasks that ran out of retries.
func (w *Worker) logTaskError(ctx context.Context, t *asynq.Task, err error) {
	retry, _ := asynq.GetRetryCount(ctx)
	maxRetry, _ := asynq.GetMaxRetry(ctx)
	if retry >= maxRetry {
		id, _ := asynq.GetTaskID(ctx)
		w.log.ErrorContext(ctx, "task exhausted its retries; the reconciler will re-drive it", "task_id", id, "task_type", t.Type(), "err", err)
	}
}

// asynqLogger routes asynq's own logs to slog.
type asynqLogger struct{ l *slog.Logger }

func (a asynqLogger) Debug(args ...any) { a.l.Debug(fmt.Sprint(args...)) }
func (a asynqLogger) Info(args ...any)  { a.l.Info(fmt.Sprint(args...)) }
func (a asynqLogger) Warn(args ...any)  { a.l.Warn(fmt.Sprint(args...)) }
func (a asynqLogger) Error(args ...any) { a.l.Error(fmt.Sprint(args...)) }
func (a asynqLogger) Fatal(args ...any) { a.l.Error(fmt.Sprint(args...)) }

func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return rand.N(d)
}

// taskID is the id of the task ctx runs, "" outside one: its handler
// deletes the task's outbox row in its own commit.
func taskID(ctx context.Context) string {
	id, _ := asynq.GetTaskID(ctx)
	return id
}
