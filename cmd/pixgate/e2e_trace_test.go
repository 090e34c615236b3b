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
	"go.opentelemetry.io/otel/trace"
)

// One withdrawal's way from request to postback, recorded in memory from
// pixgate dev running in this process, as ONE trace: the request, the
// transaction with its outbox row (whose context the withdrawal keeps),
// the send task and its provider call; then the settlement, started under
// the outbox span though the provider's notification (which carries no
// trace context of PixGate's, as no provider's does) led to it, the
// postback task and its attempt. The notification's own trace (its
// request, the event task and its provider read) is reachable by the
// settlement's link. A charge's paid path the same way: its settlement
// and postback in the trace of the request that created it; and a refund
// of it as a withdrawal.
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
	spans := s.spansUntil(rec, "settle withdrawal completed")

	request := root(spans, "POST /api/v1/withdrawals")
	outbox := find(spans, "outbox withdrawal:send", request)
	send := find(spans, "task withdrawal:send", outbox)
	call := find(spans, "provider send pix", send)
	settle := find(spans, "settle withdrawal completed", outbox)
	deliver := find(spans, "task postback:deliver", settle)
	attempt := find(spans, "postback attempt", deliver)

	webhook := root(spans, "POST /webhooks/provider/:token")
	event := find(spans, "task provider:event", webhook)
	read := find(spans, "provider read transaction", event)
	for _, sp := range []sdktrace.ReadOnlySpan{request, outbox, send, call, settle, deliver, attempt, webhook, event, read} {
		if sp == nil {
			t.Fatalf("spans of the withdrawal %s: %s", id, names(spans))
		}
	}
	oneTrace(t, "the withdrawal", request, outbox, send, call, settle, deliver, attempt)
	linked(t, settle, event)
	if webhook.SpanContext().TraceID() == request.SpanContext().TraceID() {
		t.Fatalf("the notification's request joined the withdrawal's trace: it is reached by link")
	}

	// A charge: created in its request (the provider's create there too),
	// paid through the sandbox, settled and posted back in that trace.
	chargeID, pixID := s.createCharge(25.00, nil)
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil); c != http.StatusOK {
		t.Fatalf("pay: %d %v", c, v)
	}
	spans = s.spansUntil(rec, "settle charge paid")
	create := rootWith(spans, "POST /api/v1/charges", "provider create charge")
	issue := find(spans, "provider create charge", create)
	paid := find(spans, "settle charge paid", create)
	chargeDeliver := find(spans, "task postback:deliver", paid)
	chargeAttempt := find(spans, "postback attempt", chargeDeliver)
	for _, sp := range []sdktrace.ReadOnlySpan{create, issue, paid, chargeDeliver, chargeAttempt} {
		if sp == nil {
			t.Fatalf("spans of the charge %s: %s", chargeID, names(spans))
		}
	}
	oneTrace(t, "the charge", create, issue, paid, chargeDeliver, chargeAttempt)
	if len(paid.Links()) != 1 || find(spans, "task provider:event", root(spansOf(spans, paid.Links()[0].SpanContext.TraceID()), "POST /webhooks/provider/:token")) == nil {
		t.Fatalf("the charge's settlement links no notification: %v", paid.Links())
	}

	// A refund of it, as a withdrawal: its outbox span's trace to its
	// postback.
	if code, v := s.call(http.MethodPost, "/api/v1/charges/"+chargeID+"/refunds", map[string]any{"amount": 5.00}); code != http.StatusCreated {
		t.Fatalf("refund: %d %v", code, v)
	}
	spans = s.spansUntil(rec, "settle refund completed")
	var refund sdktrace.ReadOnlySpan
	for _, sp := range spans {
		if sp.Name() == "outbox refund:send" {
			refund = sp
		}
	}
	refundSend := find(spans, "task refund:send", refund)
	refundSettle := find(spans, "settle refund completed", refund)
	refundAttempt := find(spans, "postback attempt", find(spans, "task postback:deliver", refundSettle))
	if refundSend == nil || refundSettle == nil || refundAttempt == nil {
		t.Fatalf("spans of the refund: %s", names(spans))
	}
	oneTrace(t, "the refund", refund, refundSend, refundSettle, refundAttempt)
}

// spansUntil waits until the span named settled and then the postback
// attempt under it have ended, and returns every span ended so far.
func (s *devStack) spansUntil(rec *tracetest.SpanRecorder, settled string) []sdktrace.ReadOnlySpan {
	var spans []sdktrace.ReadOnlySpan
	s.eventually("the postback attempt after "+settled, 5*time.Second, func() bool {
		spans = rec.Ended()
		for _, sp := range spans {
			if sp.Name() == settled && find(spans, "postback attempt", find(spans, "task postback:deliver", sp)) != nil {
				return true
			}
		}
		return false
	})
	return spans
}

// oneTrace fails unless every span is in the first one's trace.
func oneTrace(t *testing.T, what string, spans ...sdktrace.ReadOnlySpan) {
	t.Helper()
	for _, sp := range spans[1:] {
		if sp.SpanContext().TraceID() != spans[0].SpanContext().TraceID() {
			t.Fatalf("%s: %q is in trace %s, not %s", what, sp.Name(), sp.SpanContext().TraceID(), spans[0].SpanContext().TraceID())
		}
	}
}

// linked fails unless sp's one link is to the span to.
func linked(t *testing.T, sp, to sdktrace.ReadOnlySpan) {
	t.Helper()
	if l := sp.Links(); len(l) != 1 || !l[0].SpanContext.Equal(to.SpanContext()) {
		t.Fatalf("%q links %v, not %q (%s)", sp.Name(), l, to.Name(), to.SpanContext().SpanID())
	}
}

// spansOf are the spans of one trace.
func spansOf(spans []sdktrace.ReadOnlySpan, id trace.TraceID) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, sp := range spans {
		if sp.SpanContext().TraceID() == id {
			out = append(out, sp)
		}
	}
	return out
}

// rootWith is the trace root named name with a child named child, or nil.
func rootWith(spans []sdktrace.ReadOnlySpan, name, child string) sdktrace.ReadOnlySpan {
	for _, sp := range spans {
		if sp.Name() == name && !sp.Parent().IsValid() && find(spans, child, sp) != nil {
			return sp
		}
	}
	return nil
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

func names(spans []sdktrace.ReadOnlySpan) string {
	var b strings.Builder
	for _, sp := range spans {
		b.WriteString(sp.Name() + " (" + sp.SpanContext().SpanID().String() + " < " + sp.Parent().SpanID().String() + "); ")
	}
	return b.String()
}
