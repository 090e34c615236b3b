// Command benchreport turns the output of PixGate's benchmarks (go test
// -bench, any -count) into docs/benchmarks.md: per-benchmark medians with
// their spread, PixGate's numbers as ratios of the machine's raw limits
// measured in the same run, and what bounds them. `make bench` runs it:
//
//	go run ./cmd/benchreport [-command CMD]... < bin/bench.txt > docs/benchmarks.md
//
// It reads the machine's CPU from /proc/cpuinfo and asks Postgres and Redis
// (where the benchmarks ran, as storagetest chooses: PIXGATE_TEST_DATABASE_URL;
// PIXGATE_TEST_REDIS_ADDR, else the installed redis-server, which the tests
// start privately) for their versions. It fails when
// the input reports a failure or lacks a benchmark the report needs.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
)

func main() {
	var (
		commands             multiFlag
		env                  Env
		cpuinfo, pgURL, addr string
		loadPath             string
		reconPath, reconCmd  string
	)
	flag.Var(&commands, "command", "a command that produced the input, quoted in the report (repeatable)")
	flag.StringVar(&env.Date, "date", time.Now().UTC().Format("2006-01-02 15:04 UTC"), "when the benchmarks ran")
	flag.StringVar(&env.Postgres, "pg-version", "", "Postgres server version (default: asked of -pg-url)")
	flag.StringVar(&env.Redis, "redis-version", "", "Redis server version (default: asked of -redis-addr)")
	flag.StringVar(&cpuinfo, "cpuinfo", "/proc/cpuinfo", "where the CPU model is read")
	flag.StringVar(&pgURL, "pg-url", envOr("PIXGATE_TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"), "Postgres the benchmarks used")
	flag.StringVar(&addr, "redis-addr", os.Getenv("PIXGATE_TEST_REDIS_ADDR"), "Redis the benchmarks used (default: the installed redis-server's version)")
	flag.StringVar(&loadPath, "load", "", "the deployed stack's section written by cmd/pixgate-load (optional)")
	flag.StringVar(&env.LoadCommand, "load-command", "", "the command that produced -load, quoted in the report")
	flag.StringVar(&reconPath, "reconcile", "", "the output of the reconciliation benchmark, run alone (optional)")
	flag.StringVar(&reconCmd, "reconcile-command", "", "the command that produced -reconcile, quoted in the report")
	flag.Parse()
	if loadPath != "" {
		b, err := os.ReadFile(loadPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchreport:", err)
			os.Exit(1)
		}
		env.Load = string(b)
	}

	if reconPath != "" {
		f, err := os.Open(reconPath)
		if err == nil {
			env.Reconciliation, err = ParseReconciliation(f, reconCmd)
			f.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchreport: -reconcile:", err)
			os.Exit(1)
		}
	}
	env.Commands = commands
	env.CPUModel, env.Cores = readCPUInfo(cpuinfo)
	if env.Cores == 0 {
		env.Cores = runtime.NumCPU()
	}
	env.GoVersion = runtime.Version()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if env.Postgres == "" {
		env.Postgres = postgresVersion(ctx, pgURL)
	}
	if env.Redis == "" {
		env.Redis = redisVersion(ctx, addr)
	}

	res, err := Parse(os.Stdin)
	if err == nil {
		err = Render(os.Stdout, res, env)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, "; ") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// Env is what the report says about where and how the numbers were taken.
type Env struct {
	Commands  []string
	Date      string
	CPUModel  string
	Cores     int
	GoVersion string
	Postgres  string // version, and the settings that decide a commit's cost
	Redis     string
	// Load is the Markdown that cmd/pixgate-load wrote (empty: none), and
	// LoadCommand the command that wrote it.
	Load, LoadCommand string
	// Reconciliation is the reconciliation benchmark's (nil: none).
	Reconciliation *Reconciliation
}

// readCPUInfo returns the first model name and the number of processors.
func readCPUInfo(path string) (model string, cores int) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		switch k = strings.TrimSpace(k); {
		case !ok:
		case k == "processor":
			cores++
		case k == "model name" && model == "":
			model = strings.TrimSpace(v)
		}
	}
	return model, cores
}

func postgresVersion(ctx context.Context, url string) string {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return "unknown"
	}
	defer conn.Close(ctx)
	var version, syncCommit string
	if err := conn.QueryRow(ctx, `SELECT current_setting('server_version'), current_setting('synchronous_commit')`).
		Scan(&version, &syncCommit); err != nil {
		return "unknown"
	}
	return version + ", synchronous_commit=" + syncCommit
}

func redisVersion(ctx context.Context, addr string) string {
	if addr == "" {
		// "Redis server v=7.0.15 sha=... bits=64 build=..."
		out, err := exec.CommandContext(ctx, "redis-server", "--version").Output()
		for _, f := range strings.Fields(string(out)) {
			if v, ok := strings.CutPrefix(f, "v="); ok && err == nil {
				return v
			}
		}
		addr = "127.0.0.1:6379" // storagetest's fallback without redis-server
	}
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	info, err := c.Info(ctx, "server").Result()
	if err != nil {
		return "unknown"
	}
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "redis_version:"); ok {
			return v
		}
	}
	return "unknown"
}
