package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
)

// shutdownGrace bounds how long in-flight requests may take to finish after
// SIGTERM.
const shutdownGrace = 15 * time.Second

// serveFiber binds addr at once (so a taken port fails the command before it
// reports being ready) and returns a function that serves until ctx ends,
// then shuts down gracefully.
func serveFiber(ctx context.Context, app *fiber.App, addr string) (func() error, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return func() error {
		errc := make(chan error, 1)
		go func() { errc <- app.Listener(ln) }()
		select {
		case err := <-errc:
			return err
		case <-ctx.Done():
			return app.ShutdownWithTimeout(shutdownGrace)
		}
	}, nil
}

// serveHTTP is serveFiber for net/http handlers; beforeShutdown (optional)
// runs first when ctx ends, to release requests the handler holds open.
func serveHTTP(ctx context.Context, h http.Handler, addr string, beforeShutdown func()) (func() error, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
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
	}, nil
}
