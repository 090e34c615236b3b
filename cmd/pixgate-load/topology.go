package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
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
	redis                   *exec.Cmd
	env                     []string
	api, sandbox, postbacks string // base URLs
	apiAdmin, workerAdmin   string // host:port of the admin listeners
	procs                   map[string]*proc
}

// proc is one running pixgate process; exited closes when it ends.
type proc struct {
	cmd    *exec.Cmd
	exited chan struct{}
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func freeAddrs(n int) ([]string, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	addrs := make([]string, n)
	for i := range addrs {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		lns, addrs[i] = append(lns, ln), ln.Addr().String()
	}
	return addrs, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// startRedis runs a Redis server of its own on a free port, without
// persistence.
func (t *topology) startRedis(ctx context.Context) error {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return errors.New("redis-server is not on PATH: install Redis (Debian: apt-get install redis-server) so the load harness can run a server of its own")
	}
	addr, err := freeAddr()
	if err != nil {
		return err
	}
	_, port, _ := net.SplitHostPort(addr)
	t.redis = exec.Command(path, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--loglevel", "warning")
	t.redis.Stdout, t.redis.Stderr = t.logFile("redis"), t.logFile("redis")
	if err := t.redis.Start(); err != nil {
		return err
	}
	t.redisAddr = addr
	return waitFor(ctx, 10*time.Second, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	})
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
	addrs, err := freeAddrs(5)
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
	t.procs = map[string]*proc{}
	return nil
}

func (t *topology) logFile(name string) *os.File {
	f, err := os.OpenFile(filepath.Join(t.logDir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil
	}
	return f
}

// start runs `pixgate <command>` and waits until url answers 200.
func (t *topology) start(ctx context.Context, command, healthURL string) error {
	cmd := exec.Command(t.bin, command)
	cmd.Env = t.env
	log := t.logFile(command)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("pixgate %s: %w", command, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.procs[command] = &proc{cmd: cmd, exited: exited}
	err := waitFor(ctx, 30*time.Second, func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		resp, err := http.Get(healthURL)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	select {
	case <-exited:
		return fmt.Errorf("pixgate %s exited at start; see %s", command, filepath.Join(t.logDir, command+".log"))
	default:
	}
	if err != nil {
		return fmt.Errorf("pixgate %s did not become healthy: %w", command, err)
	}
	return nil
}

func (t *topology) startSandbox(ctx context.Context) error {
	return t.start(ctx, "sandbox", t.sandbox+"/sandbox/faults")
}
func (t *topology) startAPI(ctx context.Context) error { return t.start(ctx, "api", t.api+"/healthz") }
func (t *topology) startWorker(ctx context.Context) error {
	return t.start(ctx, "worker", "http://"+t.workerAdmin+"/healthz")
}

// stop ends a process with SIGTERM (graceful shutdown) and waits for it.
func (t *topology) stop(command string) {
	p := t.procs[command]
	if p == nil {
		return
	}
	delete(t.procs, command)
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

func (t *topology) pid(command string) int {
	if p := t.procs[command]; p != nil {
		return p.cmd.Process.Pid
	}
	return 0
}

// close stops everything the harness started and drops its database
// unless keep is set.
func (t *topology) close(keep bool) {
	for _, name := range []string{"worker", "api", "sandbox"} {
		t.stop(name)
	}
	if t.redis != nil && t.redis.Process != nil {
		_ = t.redis.Process.Signal(syscall.SIGTERM)
		_ = t.redis.Wait()
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
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %v", limit)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(25 * time.Millisecond):
		}
	}
	return nil
}
