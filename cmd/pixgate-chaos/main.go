// Command pixgate-chaos runs PixGate as production would and breaks it on
// purpose, then checks what it did (package cmd/internal/harness/chaos).
// `make chaos` runs it:
//
//	go run ./cmd/pixgate-chaos -bin bin/pixgate -out docs/reliability.md
//	go run ./cmd/pixgate-chaos -scenarios worker-kill,redis-flush
//
// With -hog every selected scenario runs under the CPU hog, the cores
// oversubscribed, as the cpu-hog scenario runs for its hold:
//
//	go run ./cmd/pixgate-chaos -hog
//
// With -soak it runs instead a randomized run with a third provider,
// operations, faults and route changes drawn from -seed, checked against
// the sandboxes' ledgers; it writes its own section of -out and keeps the
// rest. `make soak` runs it:
//
//	go run ./cmd/pixgate-chaos -soak -ops 100000 -out docs/reliability.md
//	go run ./cmd/pixgate-chaos -soak -seed 42 -ops 5000
package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/pixgate/pixgate/cmd/internal/harness/chaos"
	"github.com/pixgate/pixgate/cmd/internal/stack"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == chaos.HogChildArg {
		os.Exit(chaos.HogChild(os.Args[2:]))
	}
	var o chaos.Options
	flag.StringVar(&o.Bin, "bin", "bin/pixgate", "the pixgate binary to run")
	flag.StringVar(&o.Out, "out", "bin/reliability.md", "where the report is written (make chaos: docs/reliability.md)")
	flag.StringVar(&o.LogDir, "logs", "bin/chaos-logs", "where the processes' logs go")
	flag.StringVar(&o.LogLevel, "log-level", "info", "PIXGATE_LOG_LEVEL of the processes")
	flag.Float64Var(&o.Rate, "rate", 40, "operations per second")
	flag.DurationVar(&o.Bound, "bound", 60*time.Second, "a record must be final this long after its payment (charges) or creation")
	flag.DurationVar(&o.Drain, "drain", 4*time.Minute, "how long the drain may take")
	flag.DurationVar(&o.SlowFor, "slow-for", time.Minute, "how long the "+chaos.SlowSends+" scenario's provider crawls")
	flag.BoolVar(&o.Hog, "hog", false, "run every scenario under the CPU hog: 2 spinning threads per core beside PixGate's processes")
	flag.Float64Var(&o.PostbackFailShare, "postback-failures", 0.2, "share of postback deliveries the receiver answers 500")
	flag.StringVar(&o.Scenarios, "scenarios", "", "comma-separated scenarios to run (default all): "+chaos.ScenarioNames())
	flag.BoolVar(&o.Soak, "soak", false, "the randomized run instead of the scenarios: operations, faults and routes drawn from -seed")
	flag.Uint64Var(&o.Seed, "seed", 0, "-soak: the seed of the plan (default: drawn at random, and printed)")
	flag.IntVar(&o.Ops, "ops", 100_000, "-soak: how many operations")
	stack.EnvFlag(&o.Env, "KEY=value added to the pixgate processes' environment (repeatable)")
	flag.Parse()
	o.Given = map[string]bool{}
	flag.Visit(func(f *flag.Flag) { o.Given[f.Name] = true })
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := chaos.Run(ctx, o)
	stop()
	os.Exit(code)
}
