// Package load measures PixGate as deployed, against the raw limits
// of the same Postgres measured in the same run. It starts its own Redis
// server and its own database, runs one `pixgate sandbox`, one `pixgate
// api` and one `pixgate worker` of the given binary, and drives them over
// HTTP: balance, withdrawal create with the worker running and stopped
// (for 64 integrators and for one), the whole cash-out lifecycle against
// the arch lifecycle (the architecture's durable steps with no framework
// and no queue library, arch.go; its provider is the command again, with
// -serve-arch-provider) and the bare lifecycle (3 commits, no queue,
// bare.go), closed-loop and at fixed rates, for 64 integrators and for
// one, sandbox payment → postback, the idle stack, charge create, and
// withdrawal create with 100,000 integrators. It
// ends by checking the run's correctness (audit clean, every withdrawal
// final, every postback received) and writes a Markdown section with each
// operation's rate, latency percentiles, ratio to the raw reservation and
// what bounded it. cmd/pixgate-load runs it (`make bench`).
package load

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
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

// Options are the command's flags.
type Options struct {
	Bin, AdminURL, Out, JSONOut, LogDir, Profile string
	Keep, Short                                  bool
	Phases                                       string // comma-separated; empty: all
	Env                                          []string
	Conns, Many                                  int
	Window                                       time.Duration
}

// Run measures and writes the report.
func Run(ctx context.Context, o Options) error {
	return run1(ctx, options{bin: o.Bin, adminURL: o.AdminURL, out: o.Out, jsonOut: o.JSONOut, logDir: o.LogDir,
		profile: o.Profile, keep: o.Keep, short: o.Short, phases: stack.Set(o.Phases), env: o.Env, conns: o.Conns,
		many: o.Many, window: o.Window})
}

// ServeArchProvider serves the arch lifecycle's provider on addr, its
// notifications going to notify, until ctx ends: the command runs itself
// so (-serve-arch-provider).
func ServeArchProvider(ctx context.Context, addr, notify string) { archProviderMain(ctx, addr, notify) }

// want reports whether the run includes phase.
func (o options) want(phase string) bool { return o.phases == nil || o.phases[phase] }

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
