package api

import (
	"errors"
	"net/http"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/pixgate/pixgate/tasks"
)

const tracerName = "github.com/pixgate/pixgate/api"

// traceRequest makes each request a server span, "METHOD route", the
// parent of everything its handler does (the handlers pass
// c.UserContext() on). A traceparent the caller sent is its parent: a
// client's, or a provider's that propagates W3C trace context in its
// notifications. Without a tracer provider installed it is one branch.
func traceRequest(c *fiber.Ctx) error {
	if !tasks.Tracing() {
		return c.Next()
	}
	ctx := otel.GetTextMapPropagator().Extract(c.UserContext(), headerCarrier{&c.Request().Header})
	ctx, span := otel.Tracer(tracerName).Start(ctx, c.Method(), trace.WithSpanKind(trace.SpanKindServer))
	defer span.End()
	c.SetUserContext(ctx)
	err := c.Next()
	route := c.Route().Path // the matched route's, known only now
	span.SetName(c.Method() + " " + route)
	status := statusOf(c, err)
	span.SetAttributes(attribute.String("http.request.method", c.Method()), attribute.String("http.route", route),
		attribute.Int("http.response.status_code", status))
	if status >= http.StatusInternalServerError {
		span.SetStatus(codes.Error, http.StatusText(status))
	}
	return err
}

// statusOf is the status the answer will have: an error is rendered after
// the middleware returns (renderError), with the status it carries.
func statusOf(c *fiber.Ctx, err error) int {
	var fe *fiber.Error
	var ae *apiError
	switch {
	case err == nil:
		return c.Response().StatusCode()
	case errors.As(err, &ae):
		return ae.Status
	case errors.As(err, &fe):
		return fe.Code
	}
	return http.StatusInternalServerError
}

// headerCarrier reads and writes W3C trace context in fasthttp's headers.
type headerCarrier struct{ h *fasthttp.RequestHeader }

func (c headerCarrier) Get(key string) string { return string(c.h.Peek(key)) }
func (c headerCarrier) Set(key, value string) { c.h.Set(key, value) }
func (c headerCarrier) Keys() []string {
	var keys []string
	c.h.VisitAll(func(k, _ []byte) { keys = append(keys, string(k)) })
	return keys
}
