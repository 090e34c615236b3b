package providerclient

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Every call that reaches a provider is a span of the trace of the work
// that made it (the metered layer, inside the breaker: each attempt sent is
// one), named "provider <operation>", with the provider's name, its
// connector and the call's outcome as ResultOf names it.

const tracerName = "github.com/pixgate/pixgate/providerclient"

// unset is the tracer provider the process starts with, which only
// delegates to one installed later.
var unset = otel.GetTracerProvider()

// tracing reports whether a tracer provider was installed (cmd/pixgate's
// setup, a test): until one is, no span is started, so that a process
// that does not trace pays nothing for it. Providers are pointers, so the
// comparison is of identities.
func tracing() bool { return otel.GetTracerProvider() != unset }

// callSpan is one provider call's span; the zero value (not tracing)
// records nothing.
type callSpan struct{ span trace.Span }

func (m *metered) startSpan(ctx context.Context, op string) callSpan {
	if !tracing() {
		return callSpan{}
	}
	_, span := otel.Tracer(tracerName).Start(ctx, "provider "+op, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(
			attribute.String("pixgate.provider", m.next.Name()),
			attribute.String("pixgate.connector", m.next.Kind()),
			attribute.String("pixgate.operation", op),
		))
	return callSpan{span}
}

func (s callSpan) end(result string, err error) {
	if s.span == nil {
		return
	}
	s.span.SetAttributes(attribute.String("pixgate.outcome", result))
	if err != nil {
		s.span.SetStatus(codes.Error, err.Error())
	}
	s.span.End()
}
