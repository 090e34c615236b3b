package payments

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/tasks"
)

const tracerName = "github.com/pixgate/pixgate/api/payments"

// withOutboxSpan runs write, the transaction that writes a change and the
// outbox row of its task, in a span "outbox <task type>" whose context the
// task carries (tasks.Traced): the task's span is its child. write also
// gets that span's traceparent to keep with the record it writes, so that
// the record's settlement, which the provider's notification starts, joins
// this trace. Without a tracer provider it only runs write, with "".
func withOutboxSpan[T any](ctx context.Context, m tasks.Message, write func(m storage.OutboxMessage, traceParent string) (T, bool, error)) (T, bool, error) {
	if !tasks.Tracing() {
		return write(storage.OutboxMessage(m), "")
	}
	ctx, span := otel.Tracer(tracerName).Start(ctx, "outbox "+m.Type, trace.WithAttributes(
		attribute.String("pixgate.task.type", m.Type), attribute.String("pixgate.task.id", m.ID)))
	defer span.End()
	res, created, err := write(storage.OutboxMessage(tasks.Traced(ctx, m)), tasks.TraceParent(ctx))
	if err != nil {
		span.SetStatus(codes.Error, err.Error())
	}
	span.SetAttributes(attribute.Bool("pixgate.created", created))
	return res, created, err
}
