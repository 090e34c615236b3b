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
// task carries (writePostback). parent is the traceparent the record kept
// of the span that wrote it ("" for none): the settlement then joins the
// record's trace (see joined), so that one payment is one trace from its
// request to its postback. Without a tracer provider it only runs change.
func settle[T any](ctx context.Context, what, parent string, change func(ctx context.Context) (T, bool, error)) (T, bool, error) {
	if !tasks.Tracing() {
		return change(ctx)
	}
	ctx, opts := joined(ctx, parent)
	ctx, span := otel.Tracer(tracerName).Start(ctx, "settle "+what, opts...)
	defer span.End()
	res, changed, err := change(ctx)
	span.SetAttributes(attribute.Bool("pixgate.changed", changed))
	if err != nil && !errors.Is(err, storage.ErrStateChanged) {
		span.SetStatus(codes.Error, err.Error())
	}
	return res, changed, err
}

// joined returns ctx re-parented under parent, a record's stored
// traceparent, with a link to ctx's own span, when parent names a span of
// another trace: a provider's notification carries no trace context of
// PixGate's, so the task that applies it (the webhook request's trace, or
// a reconciler's) is not the payment's; the link keeps it reachable from
// the payment's trace. Within the same trace (the send task failing its
// transfer), or with no parent, ctx is left as it is.
func joined(ctx context.Context, parent string) (context.Context, []trace.SpanStartOption) {
	if parent == "" {
		return ctx, nil
	}
	stored := trace.SpanContextFromContext(tasks.Parented(context.Background(), parent))
	here := trace.SpanContextFromContext(ctx)
	if !stored.IsValid() || stored.TraceID() == here.TraceID() {
		return ctx, nil
	}
	var opts []trace.SpanStartOption
	if here.IsValid() {
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: here,
			Attributes: []attribute.KeyValue{attribute.String("pixgate.link", "applied by")}}))
	}
	return trace.ContextWithRemoteSpanContext(ctx, stored), opts
}

// tracedReturn is s with the refund that returns a payment PixGate may
// not keep (s.Return, nil for none) in the trace of the settlement that
// makes it (ctx's): its send task and, through the traceparent it keeps,
// its own settlement join it. A copy: a retried transaction traces anew.
func tracedReturn(ctx context.Context, s storage.Settlement) storage.Settlement {
	if s.Return == nil || !tasks.Tracing() {
		return s
	}
	r := *s.Return
	r.TraceParent = tasks.TraceParent(ctx)
	r.Outbox = make([]storage.OutboxMessage, len(s.Return.Outbox))
	for i, m := range s.Return.Outbox {
		r.Outbox[i] = storage.OutboxMessage(tasks.Traced(ctx, tasks.Message(m)))
	}
	s.Return = &r
	return s
}
