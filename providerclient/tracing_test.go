package providerclient

import (
	"context"
	"fmt"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// readStub answers Read with err; it is nothing else.
type readStub struct {
	Connector
	err error
}

func (readStub) Name() string { return "p1" }
func (readStub) Kind() string { return "family" }
func (s readStub) Read(context.Context, Ref) (*Transaction, error) {
	return &Transaction{}, s.err
}

// Each call the metered layer sends is a span, a child of the caller's,
// with the provider, its connector, the operation and the outcome; a
// failed one is an error span.
func TestProviderCallsAreSpans(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	for _, tc := range []struct {
		err     error
		outcome string
		status  codes.Code
	}{
		{nil, "ok", codes.Unset},
		{fmt.Errorf("502: %w", ErrUnavailable), "unavailable", codes.Error},
		{ErrNotFound, "not_found", codes.Error},
	} {
		t.Run(tc.outcome, func(t *testing.T) {
			ctx, parent := otel.Tracer("test").Start(context.Background(), "caller")
			_, _ = WithMetrics(readStub{err: tc.err}, nil).Read(ctx, Ref{})
			parent.End()
			spans := rec.Ended()
			s := spans[len(spans)-2]
			if s.Name() != "provider "+OpRead || s.Parent().SpanID() != parent.SpanContext().SpanID() || s.Status().Code != tc.status {
				t.Fatalf("span %q, parent %v, status %v", s.Name(), s.Parent().SpanID(), s.Status())
			}
			want := map[attribute.Key]string{"pixgate.provider": "p1", "pixgate.connector": "family",
				"pixgate.operation": OpRead, "pixgate.outcome": tc.outcome}
			for _, a := range s.Attributes() {
				if w, ok := want[a.Key]; ok && a.Value.AsString() == w {
					delete(want, a.Key)
				}
			}
			if len(want) > 0 {
				t.Fatalf("attributes %v lack %v", s.Attributes(), want)
			}
		})
	}
}
