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

	md "github.com/pixgate/pixgate/cmd/internal/harness/report"
	"github.com/pixgate/pixgate/cmd/internal/stack"
)

// Options are the command's flags.
type Options struct {
	Bin, AdminURL, Out, JSONOut, LogDir, Profile string
	Keep, Short                                  bool
	Phases                                       string // comma-separated; empty: all
	Env                                          []string
	Conns, Many                                  int
	Window                                       time.Duration
	phases                                       map[string]bool // from Phases; nil: all
}

// want reports whether the run includes phase.
func (o Options) want(phase string) bool { return o.phases == nil || o.phases[phase] }

// Run measures and writes the report.
func Run(ctx context.Context, o Options) error {
	o.phases = stack.Set(o.Phases)
	if _, err := os.Stat(o.Bin); err != nil {
		return fmt.Errorf("%s: build it first (make build): %w", o.Bin, err)
	}
	for _, dir := range []string{o.LogDir, o.Profile} {
		if dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
	}
	t := &topology{bin: o.Bin, logDir: o.LogDir, adminURL: o.AdminURL}
	defer t.close(o.Keep)
	rep, err := measure(ctx, t, o)
	if err != nil {
		return err
	}
	if b, err := json.MarshalIndent(rep, "", "  "); err == nil && o.JSONOut != "" {
		_ = os.WriteFile(o.JSONOut, b, 0o644)
	}
	f, err := os.Create(o.Out)
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

// stepf is a progress line of the run (md.Stepf).
var stepf = md.Stepf
