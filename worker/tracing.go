package worker

import (
	"context"
	"errors"

	"github.com/hibiken/asynq"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

const tracerName = "github.com/pixgate/pixgate/worker"

// traceTask runs each task in a span "task <type>", the child of the span
// that asked for it when its payload carries one (tasks.Traced: the
// request that wrote its outbox row, the webhook that stored its
// notification, the settlement that wrote its postback), else the root of
// a trace of its own (a reconciler's re-drive, an old payload). Without a
// tracer provider installed it is one branch.
func traceTask(next asynq.Handler) asynq.Handler {
	return asynq.HandlerFunc(func(ctx context.Context, t *asynq.Task) error {
		if !tasks.Tracing() {
			return next.ProcessTask(ctx, t)
		}
		id, _ := asynq.GetTaskID(ctx)
		retry, _ := asynq.GetRetryCount(ctx)
		ctx, span := otel.Tracer(tracerName).Start(tasks.TraceContext(ctx, t.Payload()), "task "+t.Type(),
			trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(
				attribute.String("pixgate.task.type", t.Type()), attribute.String("pixgate.task.id", id),
				attribute.Int("pixgate.task.retry", retry)))
		defer span.End()
		err := next.ProcessTask(ctx, t)
		if err != nil && isFailure(err) {
			span.SetStatus(codes.Error, err.Error())
		}
		return err
	})
}

// settle runs one settlement, the writes in tx that finish a record and
// its postback, in a span "settle <what>", whose context the postback's
// task carries (writePostback). Without a tracer provider it only runs
// change.
func settle[T any](ctx context.Context, what string, change func(ctx context.Context) (T, bool, error)) (T, bool, error) {
	if !tasks.Tracing() {
		return change(ctx)
	}
	ctx, span := otel.Tracer(tracerName).Start(ctx, "settle "+what)
	defer span.End()
	res, changed, err := change(ctx)
	span.SetAttributes(attribute.Bool("pixgate.changed", changed))
	if err != nil && !errors.Is(err, storage.ErrStateChanged) {
		span.SetStatus(codes.Error, err.Error())
	}
	return res, changed, err
}
