package tasks

import (
	"bytes"
	"context"
	"encoding/json"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// A task carries the trace it belongs to in its payload, as the W3C
// traceparent of the span that asked for it, in the field "tc": the task
// runs in another process, maybe long after, and the outbox row and the
// queue keep nothing but the payload. The field is optional: payloads
// written before it, or without a trace, decode as they always did, and
// handlers, which decode into their own structs, never see it.

// unset is the tracer provider the process starts with, which only
// delegates to one installed later.
var unset = otel.GetTracerProvider()

// Tracing reports whether a tracer provider was installed (cmd/pixgate's
// setup, a test). The API and the workers start no span until one is, so
// that a process that does not trace pays nothing for it (not even the
// context a no-op span is put in). Providers are pointers: the comparison
// is of identities.
func Tracing() bool { return otel.GetTracerProvider() != unset }

// traceKey is the payload field of the trace context.
const traceKey = "tc"

// Traced returns m with the trace context of ctx's span in its payload,
// or m itself when ctx carries no span (tracing off costs nothing). The
// payload must be a JSON object, as every payload here is; another is
// left alone.
func Traced(ctx context.Context, m Message) Message {
	tp := TraceParent(ctx)
	p := bytes.TrimSpace(m.Payload)
	if tp == "" || len(p) < 2 || p[0] != '{' || p[len(p)-1] != '}' {
		return m
	}
	out := make([]byte, 0, len(p)+len(tp)+8)
	out = append(out, p[:len(p)-1]...)
	if len(bytes.TrimSpace(p[1:len(p)-1])) > 0 {
		out = append(out, ',')
	}
	// A traceparent is lowercase hex and dashes: nothing to escape.
	out = append(append(append(out, `"`+traceKey+`":"`...), tp...), `"}`...)
	m.Payload = out
	return m
}

// TraceContext returns ctx with the remote span named by payload's trace
// context as its parent, or ctx itself when the payload names none (or
// names it badly: a trace is never a reason to refuse a task).
func TraceContext(ctx context.Context, payload []byte) context.Context {
	if !bytes.Contains(payload, []byte(`"`+traceKey+`"`)) {
		return ctx
	}
	var p struct {
		TC string `json:"tc"`
	}
	if json.Unmarshal(payload, &p) != nil || p.TC == "" {
		return ctx
	}
	return Parented(ctx, p.TC)
}

// TraceParent is the W3C traceparent of ctx's span, "" when ctx carries
// none: what a record keeps of the span that wrote it (a withdrawal's
// trace_parent), as a payload keeps it in "tc".
func TraceParent(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	carrier := propagation.MapCarrier{}
	propagation.TraceContext{}.Inject(ctx, carrier)
	return carrier["traceparent"]
}

// Parented returns ctx with the remote span tp names (a W3C traceparent)
// as its parent; a malformed tp leaves ctx as it is.
func Parented(ctx context.Context, tp string) context.Context {
	return propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": tp})
}
