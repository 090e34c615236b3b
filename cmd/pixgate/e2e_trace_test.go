package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// One withdrawal's way from request to postback, recorded in memory from
// pixgate dev running in this process: the request, the transaction with
// its outbox row, the send task and its provider call in the request's
// trace; the provider's notification (which carries no trace context of
// PixGate's, as no provider's does) starts the second, with the event
// task, its provider read, the settlement, the postback task and its
// attempt; each span the child of the one named before it.
func TestE2EWithdrawalTrace(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	otel.SetTextMapPropagator(propagation.TraceContext{})
	s := newDevStack(t)
	s.credit("100.00")
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{
		"amount": 10.00, "creditParty": creditParty("beltrano@example.com"), "postbackUrl": s.receiver.URL + "/out"})
	if code != http.StatusCreated {
		t.Fatalf("create withdrawal: %d %v", code, v)
	}
	id := v["id"].(string)
	var spans []sdktrace.ReadOnlySpan
	s.eventually("the postback task's span ended", 5*time.Second, func() bool {
		spans = rec.Ended()
		return hasNamed(spans, "task postback:deliver")
	})

	request := root(spans, "POST /api/v1/withdrawals")
	outbox := find(spans, "outbox withdrawal:send", request)
	send := find(spans, "task withdrawal:send", outbox)
	call := find(spans, "provider send pix", send)

	webhook := root(spans, "POST /webhooks/provider/:token")
	event := find(spans, "task provider:event", webhook)
	read := find(spans, "provider read transaction", event)
	settle := find(spans, "settle withdrawal completed", event)
	deliver := find(spans, "task postback:deliver", settle)
	attempt := find(spans, "postback attempt", deliver)
	for _, sp := range []sdktrace.ReadOnlySpan{request, outbox, send, call, webhook, event, read, settle, deliver, attempt} {
		if sp == nil {
			t.Fatalf("spans of the withdrawal %s: %s", id, names(spans))
		}
	}
	if attempt.SpanContext().TraceID() != webhook.SpanContext().TraceID() {
		t.Fatalf("the postback attempt is not in the notification's trace")
	}
}

// find is the ended span named name whose parent is parent, or nil (and
// nil when parent is).
func find(spans []sdktrace.ReadOnlySpan, name string, parent sdktrace.ReadOnlySpan) sdktrace.ReadOnlySpan {
	if parent == nil {
		return nil
	}
	for _, sp := range spans {
		if sp.Name() == name && sp.Parent().SpanID() == parent.SpanContext().SpanID() &&
			sp.SpanContext().TraceID() == parent.SpanContext().TraceID() {
			return sp
		}
	}
	return nil
}

// root is the ended span named name that starts a trace, or nil.
func root(spans []sdktrace.ReadOnlySpan, name string) sdktrace.ReadOnlySpan {
	for _, sp := range spans {
		if sp.Name() == name && !sp.Parent().IsValid() {
			return sp
		}
	}
	return nil
}

func hasNamed(spans []sdktrace.ReadOnlySpan, name string) bool {
	for _, sp := range spans {
		if sp.Name() == name {
			return true
		}
	}
	return false
}

func names(spans []sdktrace.ReadOnlySpan) string {
	var b strings.Builder
	for _, sp := range spans {
		b.WriteString(sp.Name() + " (" + sp.SpanContext().SpanID().String() + " < " + sp.Parent().SpanID().String() + "); ")
	}
	return b.String()
}
