package postback

import (
	"context"
	"net/http"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/pixgate/pixgate/tasks"
)

const tracerName = "github.com/pixgate/pixgate/worker/postback"

// Send makes one signed attempt (send), in a span "postback attempt" of
// the delivery task's trace, with the postback's id, the receiver's status
// and the attempt's outcome. Without a tracer provider it only sends.
func Send(ctx context.Context, client *http.Client, cfg Config, req Request) Result {
	if !tasks.Tracing() {
		return send(ctx, client, cfg, req)
	}
	ctx, span := otel.Tracer(tracerName).Start(ctx, "postback attempt", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("pixgate.postback.id", req.ID.String())))
	defer span.End()
	res := send(ctx, client, cfg, req)
	outcome := "delivered"
	if !res.Delivered() {
		outcome = "failed"
	}
	if res.Err != nil {
		span.SetStatus(codes.Error, res.Err.Error())
	}
	span.SetAttributes(attribute.Int("http.response.status_code", res.StatusCode), attribute.String("pixgate.outcome", outcome),
		attribute.Bool("pixgate.postback.permanent", res.Permanent))
	return res
}
