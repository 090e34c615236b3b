package load

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pixgate/pixgate/cmd/internal/stack"
)

// topology is what the harness runs: its own Redis server, its own
// database, and the deployed processes of the freshly built binary (one
// sandbox, one api, one worker), each on free loopback ports.
type topology struct {
	bin, logDir             string
	adminURL                string // the Postgres server's admin database
	dbName                  string
	dbURL                   string
	redisAddr               string
	redis                   *stack.Redis
	env                     []string
	api, sandbox, postbacks string // base URLs
	apiAdmin, workerAdmin   string // host:port of the admin listeners
	procs                   map[string]*stack.Proc
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// startRedis runs a Redis server of its own on a free port, without
// persistence.
func (t *topology) startRedis(ctx context.Context) error {
	r, err := stack.StartRedis(ctx, t.logDir)
	if err != nil {
		return err
	}
	t.redis, t.redisAddr = r, r.Addr
	return nil
}

// createDatabase makes the run's own database (migrated by the first
// process that opens it).
func (t *topology) createDatabase(ctx context.Context) error {
	t.dbName = fmt.Sprintf("pixgate_load_%d_%s", time.Now().Unix(), randomHex(3))
	conn, err := pgx.Connect(ctx, t.adminURL)
	if err != nil {
		return fmt.Errorf("postgres at %s: %w", redact(t.adminURL), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{t.dbName}.Sanitize()); err != nil {
		return err
	}
	u, _ := url.Parse(t.adminURL)
	u.Path = "/" + t.dbName
	t.dbURL = u.String()
	return nil
}

func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// configure picks the processes' addresses and their environment.
func (t *topology) configure(pprof bool) error {
	addrs, err := stack.FreeAddrs(5)
	if err != nil {
		return err
	}
	apiAddr, sandboxAddr := addrs[0], addrs[1]
	t.apiAdmin, t.workerAdmin = addrs[2], addrs[3]
	t.api, t.sandbox = "http://"+apiAddr, "http://"+sandboxAddr
	t.postbacks = "http://" + addrs[4]
	t.env = append(os.Environ(),
		"PIXGATE_DATABASE_URL="+t.dbURL,
		"PIXGATE_REDIS_URL=redis://"+t.redisAddr+"/0",
		"PIXGATE_HTTP_ADDR="+apiAddr,
		"PIXGATE_PUBLIC_BASE_URL="+t.api,
		"PIXGATE_API_METRICS_ADDR="+t.apiAdmin,
		"PIXGATE_WORKER_ADDR="+t.workerAdmin,
		"PIXGATE_SANDBOX_ADDR="+sandboxAddr,
		"PIXGATE_PROVIDER_URL="+t.sandbox,
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN=load-"+randomHex(16), // pixgate wants at least 32 characters
		// The harness drives 64 integrators far above a production
		// budget; the limiter still runs (its Redis round trip is part of
		// every request's cost).
		"PIXGATE_V1_RATE_PER_MINUTE=100000000",
		// Postbacks go to the harness's receiver on loopback.
		"PIXGATE_POSTBACK_ALLOW_HTTP=true",
		"PIXGATE_POSTBACK_ALLOW_PRIVATE=true",
		// The sandbox settles at once and keeps its state in memory: the
		// lifecycle and the Postgres load measured are PixGate's.
		"PIXGATE_SANDBOX_SETTLE_DELAY=1ms",
		"PIXGATE_SANDBOX_STORE=memory",
		"PIXGATE_LOG_LEVEL=warn",
		fmt.Sprintf("PIXGATE_PPROF=%v", pprof),
	)
	t.procs = map[string]*stack.Proc{}
	return nil
}

// start runs `pixgate <command>` and waits until healthURL answers 200.
func (t *topology) start(ctx context.Context, command, healthURL string) error {
	p := &stack.Proc{Name: command, Path: t.bin, Args: []string{command}, Env: t.env, LogDir: t.logDir,
		Ready: stack.HTTPReady(healthURL)}
	t.procs[command] = p
	return p.Start(ctx)
}

func (t *topology) startSandbox(ctx context.Context) error {
	return t.start(ctx, "sandbox", t.sandbox+"/sandbox/faults")
}
func (t *topology) startAPI(ctx context.Context) error { return t.start(ctx, "api", t.api+"/healthz") }

// withoutAdmission runs f with the api restarted with its cash-out
// admission off, then restarts it as configured. The create phases
// measure what the create itself costs and how fast it goes: with
// admission on, creates beyond what the worker finishes are refused with
// 503, and the rate measured would be the worker's (the overload phase
// measures that).
func (t *topology) withoutAdmission(ctx context.Context, f func()) error {
	t.stop("api")
	env := t.env
	t.env = append(append([]string{}, env...), "PIXGATE_ADMISSION_BACKLOG=-1")
	err := t.startAPI(ctx)
	t.env = env
	if err != nil {
		return err
	}
	f()
	t.stop("api")
	return t.startAPI(ctx)
}
func (t *topology) startWorker(ctx context.Context) error {
	return t.start(ctx, "worker", "http://"+t.workerAdmin+"/healthz")
}

// stop ends a process with SIGTERM (graceful shutdown) and waits for it.
func (t *topology) stop(command string) {
	if p := t.procs[command]; p != nil {
		delete(t.procs, command)
		p.Terminate()
	}
}

func (t *topology) pid(command string) int {
	if p := t.procs[command]; p != nil {
		return p.Pid()
	}
	return 0
}

// close stops everything the harness started and drops its database
// unless keep is set.
func (t *topology) close(keep bool) {
	for _, name := range []string{"worker", "api", "sandbox"} {
		t.stop(name)
	}
	if t.redis != nil {
		t.redis.Close()
	}
	if t.dbName != "" && !keep {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, t.adminURL); err == nil {
			_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{t.dbName}.Sanitize()+" WITH (FORCE)")
			conn.Close(ctx)
		}
	}
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(ctx context.Context, limit time.Duration, cond func() bool) error {
	return stack.WaitFor(ctx, limit, cond)
}
