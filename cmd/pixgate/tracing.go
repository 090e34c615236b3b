package main

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// Traces are off unless the standard OpenTelemetry environment names a
// collector: OTEL_EXPORTER_OTLP_ENDPOINT or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (OTLP over HTTP). The exporter reads
// the rest of the standard variables itself (headers, timeout, TLS), the
// SDK the sampler (OTEL_TRACES_SAMPLER), and OTEL_SERVICE_NAME names the
// service (default pixgate). OTEL_SDK_DISABLED=true or
// OTEL_TRACES_EXPORTER=none turn them off again. Off, no tracer provider
// is installed, and the API and workers start no span at all.

// tracingOn says whether environ asks for traces.
func tracingOn(environ map[string]string) bool {
	if strings.EqualFold(environ["OTEL_SDK_DISABLED"], "true") || strings.EqualFold(environ["OTEL_TRACES_EXPORTER"], "none") {
		return false
	}
	return environ["OTEL_EXPORTER_OTLP_ENDPOINT"] != "" || environ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] != ""
}

// startTracing installs the process's tracer provider and W3C trace
// context propagation when environ asks for traces; the function it
// returns flushes the spans still batched, at exit.
func startTracing(ctx context.Context, environ map[string]string) (func(), error) {
	if !tracingOn(environ) {
		return func() {}, nil
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, err
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "pixgate"), attribute.String("service.version", buildVersion())),
		resource.WithFromEnv()) // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	return func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = tp.Shutdown(ctx) // spans a gone collector did not take are lost, nothing else
	}, nil
}

// traceHandler adds trace_id and span_id to the lines logged with a
// context that carries a span, so that a log line leads to its trace.
type traceHandler struct{ slog.Handler }

func (h traceHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return h.Handler.Handle(ctx, r)
}

func (h traceHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return traceHandler{h.Handler.WithAttrs(attrs)}
}

func (h traceHandler) WithGroup(name string) slog.Handler {
	return traceHandler{h.Handler.WithGroup(name)}
}
