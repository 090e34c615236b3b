// Package benchreport turns the output of PixGate's benchmarks (go test
// -bench, any -count) into docs/benchmarks.md: per-benchmark medians with
// their spread, PixGate's numbers as ratios of the machine's raw limits
// measured in the same run, and what bounds them; cmd/benchreport runs it.
//
// It reads the machine's CPU from /proc/cpuinfo and asks Postgres and Redis
// (where the benchmarks ran, as storagetest chooses: PIXGATE_TEST_DATABASE_URL;
// PIXGATE_TEST_REDIS_ADDR, else the installed redis-server, which the tests
// start privately) for their versions. It fails when
// the input reports a failure or lacks a benchmark the report needs.
package benchreport

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
)

// Input is what the command was given: the report's environment as far
// as known, and where to learn the rest.
type Input struct {
	Env                 Env
	CPUInfo             string // where the CPU model is read
	PGURL, RedisAddr    string // where the benchmarks ran
	LoadPath            string // cmd/pixgate-load's section (optional)
	ReconPath, ReconCmd string // the reconciliation benchmark's output and command (optional)
}

// Run reads the benchmarks' output from stdin and writes the report to
// stdout.
func Run(in Input, stdin io.Reader, stdout io.Writer) error {
	env := in.Env
	if in.LoadPath != "" {
		b, err := os.ReadFile(in.LoadPath)
		if err != nil {
			return err
		}
		env.Load = string(b)
	}
	if in.ReconPath != "" {
		f, err := os.Open(in.ReconPath)
		if err == nil {
			env.Reconciliation, err = ParseReconciliation(f, in.ReconCmd)
			f.Close()
		}
		if err != nil {
			return fmt.Errorf("-reconcile: %w", err)
		}
	}
	env.CPUModel, env.Cores = readCPUInfo(in.CPUInfo)
	if env.Cores == 0 {
		env.Cores = runtime.NumCPU()
	}
	env.GoVersion = runtime.Version()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if env.Postgres == "" {
		env.Postgres = postgresVersion(ctx, in.PGURL)
	}
	if env.Redis == "" {
		env.Redis = redisVersion(ctx, in.RedisAddr)
	}
	res, err := Parse(stdin)
	if err != nil {
		return err
	}
	return Render(stdout, res, env)
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
