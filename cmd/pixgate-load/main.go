// Command pixgate-load measures PixGate as deployed, against the raw limits
// of the same Postgres measured in the same run (package
// cmd/internal/harness/load). `make bench` runs it:
//
//	go run ./cmd/pixgate-load -bin bin/pixgate -out bin/load.md
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/pixgate/pixgate/cmd/internal/harness/load"
	"github.com/pixgate/pixgate/cmd/internal/stack"
)

func main() {
	var o load.Options
	flag.StringVar(&o.Bin, "bin", "bin/pixgate", "the pixgate binary to run")
	flag.StringVar(&o.AdminURL, "pg", envOr("PIXGATE_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"),
		"Postgres server (admin database) where the run's own database is created")
	flag.StringVar(&o.Out, "out", "bin/load.md", "where the Markdown section is written")
	flag.StringVar(&o.JSONOut, "json", "bin/load.json", "where every measurement is written as JSON")
	flag.StringVar(&o.LogDir, "logs", "bin/load-logs", "where the processes' logs go")
	flag.StringVar(&o.Profile, "profile", "", "directory for CPU profiles of the api and worker during withdrawal and charge create (enables PIXGATE_PPROF)")
	flag.BoolVar(&o.Keep, "keep", false, "keep the run's database")
	flag.BoolVar(&o.Short, "short", false, "shorter phases, for trying the harness")
	flag.DurationVar(&o.Window, "window", 0, "each phase's measured window (default 5s, 2s with -short), e.g. longer for a profile")
	flag.IntVar(&o.Conns, "conns", 64, "HTTP connections, and integrators driven")
	flag.IntVar(&o.Many, "many", 100_000, "integrators in the many-integrators case")
	flag.StringVar(&o.Phases, "phases", "", "comma-separated phases to run (raw,bare,arch,balance,create,stopped,charges,lifecycle,overload,postback,batch,idle,many); default all")
	archProvider := flag.String("serve-arch-provider", "", "internal: serve the arch lifecycle's provider on this address (the harness runs itself so)")
	archNotify := flag.String("arch-notify", "", "internal: with -serve-arch-provider, where its notifications go")
	stack.EnvFlag(&o.Env, "KEY=value added to the pixgate processes' environment (repeatable), e.g. PIXGATE_DATABASE_MAX_CONNS=8")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *archProvider != "" {
		load.ServeArchProvider(ctx, *archProvider, *archNotify)
		return
	}
	if err := load.Run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "pixgate-load:", err)
		os.Exit(1)
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
