package worker

import (
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/pixgate/pixgate/storage/recurrence"
)

// A cycle's settlement is a span "settle cycle <status>" of its own, like
// every other settlement, whatever applies it. Not parallel: it installs
// the global tracer provider, which the package's parallel tests never see
// (they wait until every sequential test has ended).
func TestCycleSettlementSpan(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })

	f := newCycleFixture(t, recurrence.RetryNone, false)
	f.notify(t, 1)
	f.cycle.Status, f.cycle.EndToEndID = recurrence.CyclePaid, "E1"
	f.cycle.Attempts[0].Status, f.cycle.Attempts[0].EndToEndID = recurrence.AttemptPaid, "E1"
	f.notify(t, 2)
	var names []string
	for _, sp := range rec.Ended() {
		names = append(names, sp.Name())
	}
	want := map[string]bool{"settle cycle ACTIVE": false, "settle cycle PAID": false}
	for _, n := range names {
		if _, ok := want[n]; ok {
			want[n] = true
		}
	}
	if !want["settle cycle ACTIVE"] || !want["settle cycle PAID"] {
		t.Fatalf("spans %v, want a settlement span per status", names)
	}
}
