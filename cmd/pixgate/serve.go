package main

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
)

// shutdownGrace bounds how long in-flight requests may take to finish after
// SIGTERM.
const shutdownGrace = 15 * time.Second

// serveFiber returns a function that serves app on ln (bound beforehand,
// so a taken port fails the command before it touches anything) until ctx
// ends, then shuts down gracefully.
func serveFiber(ctx context.Context, app *fiber.App, ln net.Listener) func() error {
	return func() error {
		errc := make(chan error, 1)
		go func() { errc <- app.Listener(ln) }()
		select {
		case err := <-errc:
			return err
		case <-ctx.Done():
			return app.ShutdownWithTimeout(shutdownGrace)
		}
	}
}

// serveHTTP is serveFiber for net/http handlers; beforeShutdown (optional)
// runs first when ctx ends, to release requests the handler holds open.
func serveHTTP(ctx context.Context, h http.Handler, ln net.Listener, beforeShutdown func()) func() error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	return func() error {
		errc := make(chan error, 1)
		go func() { errc <- srv.Serve(ln) }()
		select {
		case err := <-errc:
			return err
		case <-ctx.Done():
			if beforeShutdown != nil {
				beforeShutdown()
			}
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
			defer cancel()
			if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		}
	}
}
