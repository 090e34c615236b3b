package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"go.opentelemetry.io/otel/trace"
)

func TestTracingOnlyWhenACollectorIsNamed(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, false},
		{map[string]string{"OTEL_SERVICE_NAME": "pixgate-api"}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true"}, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_TRACES_EXPORTER": "none"}, false},
	} {
		if got := tracingOn(tc.env); got != tc.want {
			t.Errorf("%v: tracing %v, want %v", tc.env, got, tc.want)
		}
	}
}

// A line logged with a span's context names its trace and span; one
// without names none.
func TestLogLinesCarryTheTraceID(t *testing.T) {
	var buf bytes.Buffer
	log := newLogger(&buf, "info", "json").With("component", "api")
	tid, _ := trace.TraceIDFromHex("4bf92f3577b34da6a3ce929d0e0e4736")
	sid, _ := trace.SpanIDFromHex("00f067aa0ba902b7")
	ctx := trace.ContextWithSpanContext(context.Background(), trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid}))
	log.InfoContext(ctx, "in a span")
	log.Info("in none")
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	var in, out map[string]any
	if len(lines) != 2 || json.Unmarshal(lines[0], &in) != nil || json.Unmarshal(lines[1], &out) != nil {
		t.Fatalf("log: %s", buf.String())
	}
	if in["trace_id"] != tid.String() || in["span_id"] != sid.String() || in["component"] != "api" {
		t.Errorf("the line in a span: %v", in)
	}
	if _, ok := out["trace_id"]; ok {
		t.Errorf("the line in no span: %v", out)
	}
}
