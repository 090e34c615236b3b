// Package api is PixGate's HTTP surface: the v1 resource API under /api/v1,
// the provider-contract API under /v2, the provider's webhook, and health.
package api

import (
	"context"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/storage"
)

// Config holds the API's settings.
type Config struct {
	// BodyLimit caps request bodies in bytes.
	BodyLimit int
}

// Deps are the API's collaborators.
type Deps struct {
	DB     *storage.DB
	Logger *slog.Logger
	// Ready reports whether the process's other dependencies answer; nil
	// means only the database is checked.
	Ready func(ctx context.Context) error
}

// Server is the Fiber application with its collaborators.
type Server struct {
	cfg  Config
	deps Deps
	app  *fiber.App
}

// New builds the Fiber application.
func New(cfg Config, deps Deps) *Server {
	if cfg.BodyLimit == 0 {
		cfg.BodyLimit = 64 << 10
	}
	s := &Server{cfg: cfg, deps: deps}
	s.app = fiber.New(fiber.Config{
		AppName:               "pixgate",
		BodyLimit:             cfg.BodyLimit,
		DisableStartupMessage: true,
		ReadTimeout:           15 * time.Second,
		WriteTimeout:          30 * time.Second,
		IdleTimeout:           90 * time.Second,
	})
	s.app.Use(requestID)
	s.app.Get("/healthz", s.healthz)
	s.app.Get("/readyz", s.readyz)
	return s
}

// App exposes the Fiber application (for Listen and app.Test in tests).
func (s *Server) App() *fiber.App { return s.app }
