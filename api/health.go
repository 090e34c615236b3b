package api

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"
)

// healthz says the process is alive; it touches no dependency.
func (s *Server) healthz(c *fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok"})
}

// readyz says whether the process can serve: Postgres (and whatever Ready
// checks) answers within two seconds.
func (s *Server) readyz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	checks := fiber.Map{}
	ok := true
	if err := s.deps.DB.Ping(ctx); err != nil {
		checks["postgres"], ok = "unreachable", false
	} else {
		checks["postgres"] = "ok"
	}
	if s.deps.Ready != nil {
		if err := s.deps.Ready(ctx); err != nil {
			checks["dependencies"], ok = err.Error(), false
		} else {
			checks["dependencies"] = "ok"
		}
	}
	status := fiber.StatusOK
	if !ok {
		status = fiber.StatusServiceUnavailable
	}
	return c.Status(status).JSON(fiber.Map{"status": map[bool]string{true: "ok", false: "unavailable"}[ok], "checks": checks})
}
