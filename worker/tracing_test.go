package worker

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/pixgate/pixgate/tasks"
)

// joined puts a settlement under the record's stored trace, linked to the
// span that applied the notification, only when that trace is another
// one; otherwise (no stored parent, a malformed one, the same trace) the
// settlement stays where it runs.
func TestJoined(t *testing.T) {
	tracer := sdktrace.NewTracerProvider().Tracer("test")
	stored, request := tracer.Start(context.Background(), "outbox withdrawal:send")
	request.End()
	applying, event := tracer.Start(context.Background(), "task provider:event")
	event.End()
	sameTrace, send := tracer.Start(stored, "task withdrawal:send")
	send.End()
	tp := tasks.TraceParent(stored)
	if tp == "" {
		t.Fatal("no traceparent of a recording span")
	}
	for _, c := range []struct {
		name      string
		ctx       context.Context
		parent    string
		want      trace.SpanContext
		wantLinks int
	}{
		{"another trace: re-parented, linked", applying, tp, request.SpanContext(), 1},
		{"no stored parent", applying, "", event.SpanContext(), 0},
		{"a malformed one", applying, "00-zz-yy-01", event.SpanContext(), 0},
		{"the same trace", sameTrace, tp, send.SpanContext(), 0},
		{"nothing running: re-parented, nothing to link", context.Background(), tp, request.SpanContext(), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, opts := joined(c.ctx, c.parent)
			if got := trace.SpanContextFromContext(ctx); got.TraceID() != c.want.TraceID() || got.SpanID() != c.want.SpanID() {
				t.Errorf("parent %s/%s, want %s/%s", got.TraceID(), got.SpanID(), c.want.TraceID(), c.want.SpanID())
			}
			cfg := trace.NewSpanStartConfig(opts...)
			if len(cfg.Links()) != c.wantLinks {
				t.Fatalf("%d links, want %d", len(cfg.Links()), c.wantLinks)
			}
			if c.wantLinks == 1 && !cfg.Links()[0].SpanContext.Equal(event.SpanContext()) {
				t.Errorf("link to %s, want the applying span %s", cfg.Links()[0].SpanContext.SpanID(), event.SpanContext().SpanID())
			}
		})
	}
}
