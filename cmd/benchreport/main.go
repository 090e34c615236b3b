// Command benchreport turns the output of PixGate's benchmarks (go test
// -bench, any -count) into docs/benchmarks.md (package
// cmd/internal/harness/benchreport). `make bench` runs it:
//
//	go run ./cmd/benchreport [-command CMD]... < bin/bench.txt > docs/benchmarks.md
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/pixgate/pixgate/cmd/internal/harness/benchreport"
)

func main() {
	var (
		commands multiFlag
		in       benchreport.Input
	)
	flag.Var(&commands, "command", "a command that produced the input, quoted in the report (repeatable)")
	flag.StringVar(&in.Env.Date, "date", time.Now().UTC().Format("2006-01-02 15:04 UTC"), "when the benchmarks ran")
	flag.StringVar(&in.Env.Postgres, "pg-version", "", "Postgres server version (default: asked of -pg-url)")
	flag.StringVar(&in.Env.Redis, "redis-version", "", "Redis server version (default: asked of -redis-addr)")
	flag.StringVar(&in.CPUInfo, "cpuinfo", "/proc/cpuinfo", "where the CPU model is read")
	flag.StringVar(&in.PGURL, "pg-url", envOr("PIXGATE_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "Postgres the benchmarks used")
	flag.StringVar(&in.RedisAddr, "redis-addr", os.Getenv("PIXGATE_TEST_REDIS_ADDR"), "Redis the benchmarks used (default: the installed redis-server's version)")
	flag.StringVar(&in.LoadPath, "load", "", "the deployed stack's section written by cmd/pixgate-load (optional)")
	flag.StringVar(&in.Env.LoadCommand, "load-command", "", "the command that produced -load, quoted in the report")
	flag.StringVar(&in.ReconPath, "reconcile", "", "the output of the reconciliation benchmark, run alone (optional)")
	flag.StringVar(&in.ReconCmd, "reconcile-command", "", "the command that produced -reconcile, quoted in the report")
	flag.Parse()
	in.Env.Commands = commands
	if err := benchreport.Run(in, os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, "; ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
