// Command pixgate-load measures PixGate as deployed, against the raw limits
// of the same Postgres measured in the same run. It starts its own Redis
// server and its own database, runs one `pixgate sandbox`, one `pixgate
// api` and one `pixgate worker` of the given binary, and drives them over
// HTTP: balance, withdrawal create with the worker running and stopped
// (for 64 integrators and for one), the whole cash-out lifecycle against
// the arch lifecycle (the architecture's durable steps with no framework
// and no queue library, arch.go; its provider is this binary again, with
// -serve-arch-provider) and the bare lifecycle (3 commits, no queue,
// bare.go), closed-loop and at fixed rates, for 64 integrators and for
// one, sandbox payment → postback, the idle stack, charge create, and
// withdrawal create with 100,000 integrators. It
// ends by checking the run's correctness (audit clean, every withdrawal
// final, every postback received) and writes a Markdown section with each
// operation's rate, latency percentiles, ratio to the raw reservation and
// what bounded it. `make bench` runs it:
//
//	go run ./cmd/pixgate-load -bin bin/pixgate -out bin/load.md
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/pixgate/pixgate/cmd/internal/stack"
)

type options struct {
	bin, adminURL, out, jsonOut, logDir, profile string
	keep, short                                  bool
	phases                                       map[string]bool
	env                                          []string
	conns, many                                  int
	window                                       time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.bin, "bin", "bin/pixgate", "the pixgate binary to run")
	flag.StringVar(&o.adminURL, "pg", envOr("PIXGATE_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"),
		"Postgres server (admin database) where the run's own database is created")
	flag.StringVar(&o.out, "out", "bin/load.md", "where the Markdown section is written")
	flag.StringVar(&o.jsonOut, "json", "bin/load.json", "where every measurement is written as JSON")
	flag.StringVar(&o.logDir, "logs", "bin/load-logs", "where the processes' logs go")
	flag.StringVar(&o.profile, "profile", "", "directory for CPU profiles of the api and worker during withdrawal and charge create (enables PIXGATE_PPROF)")
	flag.BoolVar(&o.keep, "keep", false, "keep the run's database")
	flag.BoolVar(&o.short, "short", false, "shorter phases, for trying the harness")
	flag.DurationVar(&o.window, "window", 0, "each phase's measured window (default 5s, 2s with -short), e.g. longer for a profile")
	flag.IntVar(&o.conns, "conns", 64, "HTTP connections, and integrators driven")
	flag.IntVar(&o.many, "many", 100_000, "integrators in the many-integrators case")
	only := flag.String("phases", "", "comma-separated phases to run (raw,bare,arch,balance,create,stopped,charges,lifecycle,overload,postback,batch,idle,many); default all")
	archProvider := flag.String("serve-arch-provider", "", "internal: serve the arch lifecycle's provider on this address (the harness runs itself so)")
	archNotify := flag.String("arch-notify", "", "internal: with -serve-arch-provider, where its notifications go")
	stack.EnvFlag(&o.env, "KEY=value added to the pixgate processes' environment (repeatable), e.g. PIXGATE_DATABASE_MAX_CONNS=8")
	flag.Parse()
	o.phases = stack.Set(*only)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *archProvider != "" {
		archProviderMain(ctx, *archProvider, *archNotify)
		return
	}
	if err := run1(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "pixgate-load:", err)
		os.Exit(1)
	}
}

// want reports whether the run includes phase.
func (o options) want(phase string) bool { return o.phases == nil || o.phases[phase] }

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func run1(ctx context.Context, o options) error {
	if _, err := os.Stat(o.bin); err != nil {
		return fmt.Errorf("%s: build it first (make build): %w", o.bin, err)
	}
	for _, dir := range []string{o.logDir, o.profile} {
		if dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
	}
	t := &topology{bin: o.bin, logDir: o.logDir, adminURL: o.adminURL}
	defer t.close(o.keep)
	rep, err := measure(ctx, t, o)
	if err != nil {
		return err
	}
	if b, err := json.MarshalIndent(rep, "", "  "); err == nil && o.jsonOut != "" {
		_ = os.WriteFile(o.jsonOut, b, 0o644)
	}
	f, err := os.Create(o.out)
	if err != nil {
		return err
	}
	defer f.Close()
	rep.render(f)
	if len(rep.Problems) > 0 {
		return fmt.Errorf("the run is not correct: %v", rep.Problems)
	}
	return nil
}

func stepf(format string, args ...any) {
	fmt.Printf("%s  %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}
