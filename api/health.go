package api

import (
	"context"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
)

// ReadyCheck is one dependency /readyz checks, under the name operators
// know it by ("redis"). Check returns nil when the dependency answers.
type ReadyCheck struct {
	Name  string
	Check func(ctx context.Context) error
}

// readyTimeout bounds every check of one /readyz call.
const readyTimeout = 2 * time.Second

// healthz says the process is alive and can get out of its trouble by
// itself; it touches no dependency, so a dependency's outage never gets a
// live process restarted. Deps.Live (the database pool's watch) is what it
// asks: a pool whose connections are all held and never released leaves
// every request failing until the process restarts, so healthz fails and
// the orchestrator restarts it.
func (s *Server) healthz(c *fiber.Ctx) error {
	if s.deps.Live != nil {
		if err := s.deps.Live(); err != nil {
			s.log.Error("liveness check failed: the process needs a restart", "request_id", requestIDOf(c), "error", err)
			return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "unavailable", "checks": fiber.Map{"postgres_pool": "starved"}})
		}
	}
	return c.JSON(fiber.Map{"status": "ok"})
}

// readyz says whether the process can serve: Postgres and every
// Deps.Ready check answer within two seconds. The answer names each
// dependency with "ok" or "unavailable" and nothing more: errors hold
// internal addresses, so they go to the log, not to whoever asks.
func (s *Server) readyz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), readyTimeout)
	defer cancel()
	checks := append([]ReadyCheck{{Name: "postgres", Check: s.deps.DB.Ping}}, s.deps.Ready...)
	results := make([]error, len(checks))
	var wg sync.WaitGroup
	for i, ch := range checks {
		wg.Go(func() { results[i] = ch.Check(ctx) })
	}
	wg.Wait()
	body, ok := fiber.Map{}, true
	for i, ch := range checks {
		if results[i] != nil {
			s.log.Warn("readiness check failed", "dependency", ch.Name, "request_id", requestIDOf(c), "error", results[i])
			body[ch.Name], ok = "unavailable", false
			continue
		}
		body[ch.Name] = "ok"
	}
	if !ok {
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "unavailable", "checks": body})
	}
	return c.JSON(fiber.Map{"status": "ok", "checks": body})
}

// isProbe says whether a route is a health probe, which orchestrators call
// every few seconds: their access-log lines are debug.
func isProbe(route string) bool { return route == "/healthz" || route == "/readyz" }
