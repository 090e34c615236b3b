package api

import (
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"
)

// accessLog writes one line per request once its final status is known. It
// hands errors to the error renderer itself (as Fiber's own logger does), so
// the logged status is the one the client got and the error is rendered
// exactly once. It logs the route pattern, never headers, query or body:
// credentials and documents stay out of the logs.
func (s *Server) accessLog(c *fiber.Ctx) error {
	start := time.Now()
	if err := c.Next(); err != nil {
		if rerr := c.App().ErrorHandler(c, err); rerr != nil {
			s.log.Error("error renderer failed", "request_id", requestIDOf(c), "error", rerr)
			_ = c.SendStatus(fiber.StatusInternalServerError)
		}
	}
	s.logRequest(c, routeOf(c), c.Method(), start)
	return nil
}

// logRequest writes the access log line and the metrics of a request that
// has its final status.
func (s *Server) logRequest(c *fiber.Ctx, route, method string, start time.Time) {
	took, status := time.Since(start), c.Response().StatusCode()
	s.metrics.observe(route, method, status, took)
	attrs := []any{
		"method", method,
		"route", route,
		"status", status,
		"latency_ms", float64(took.Microseconds()) / 1000,
		"request_id", requestIDOf(c),
	}
	if key, ok := apiKeyOf(c); ok {
		attrs = append(attrs, "integrator_id", key.IntegratorID, "key", key.PublicID)
	}
	level := slog.LevelInfo
	if isProbe(route) {
		level = slog.LevelDebug
	}
	s.log.Log(c.UserContext(), level, "http request", attrs...)
}
