package tasks

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/trace"
)

func spanContext(t *testing.T) (context.Context, trace.SpanContext) {
	t.Helper()
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled})
	return trace.ContextWithSpanContext(context.Background(), sc), sc
}

func TestTracedCarriesTheTraceToTheTask(t *testing.T) {
	ctx, sc := spanContext(t)
	id := uuid.New()
	m := Traced(ctx, WithdrawalSendMessage(id, 0))
	var p WithdrawalSend
	if err := json.Unmarshal(m.Payload, &p); err != nil || p.WithdrawalID != id {
		t.Fatalf("the traced payload %s decodes to %+v, %v", m.Payload, p, err)
	}
	got := trace.SpanContextFromContext(TraceContext(context.Background(), m.Payload))
	if got.TraceID() != sc.TraceID() || got.SpanID() != sc.SpanID() || !got.IsRemote() || !got.IsSampled() {
		t.Fatalf("the task's parent is %+v, want the span %+v", got, sc)
	}
}

func TestTracedLeavesAPayloadAlone(t *testing.T) {
	ctx, _ := spanContext(t)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		in   string
		want string
	}{
		{"no span", context.Background(), `{"a":1}`, `{"a":1}`},
		{"not an object", ctx, `[1]`, `[1]`},
		{"empty", ctx, ``, ``},
		{"empty object", ctx, `{}`, `{"tc":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Traced(tc.ctx, Message{Payload: []byte(tc.in)}).Payload; string(got) != tc.want {
				t.Fatalf("payload %s, want %s", got, tc.want)
			}
		})
	}
}

// Payloads without a trace, or with one that cannot be read, run in no
// trace; nothing refuses them.
func TestTraceContextOfOldAndBadPayloads(t *testing.T) {
	for _, p := range []string{`{"withdrawal_id":"` + uuid.NewString() + `"}`, `{"tc":"nonsense"}`, `{"tc":12}`, `not json "tc"`, ``} {
		if sc := trace.SpanContextFromContext(TraceContext(context.Background(), []byte(p))); sc.IsValid() {
			t.Errorf("%s: a parent %v", p, sc)
		}
	}
}
