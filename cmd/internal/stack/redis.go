package stack

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Redis server of its own on a free loopback port, without
// persistence: a restart loses everything, as losing a Redis node does.
type Redis struct {
	Addr string
	dir  string
	proc *Proc
}

// StartRedis starts the server; logs go to logDir/redis.log.
func StartRedis(ctx context.Context, logDir string) (*Redis, error) {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("redis-server is not on PATH: install Redis (Debian: apt-get install redis-server)")
	}
	dir, err := os.MkdirTemp("", "pixgate-redis-")
	if err != nil {
		return nil, err
	}
	r := &Redis{dir: dir}
	if r.Addr, err = FreeAddr(); err != nil {
		r.Close()
		return nil, err
	}
	_, port, _ := net.SplitHostPort(r.Addr)
	r.proc = &Proc{
		Name: "redis", Path: path, Dir: dir, LogDir: logDir,
		Args:  []string{"--port", port, "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--loglevel", "warning"},
		Ready: func() bool { return r.Ping(ctx) == nil },
	}
	if err := r.proc.Start(ctx); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// URL is the redis:// URL of database db.
func (r *Redis) URL(db string) string { return "redis://" + r.Addr + "/" + db }

// Ping checks the server answers.
func (r *Redis) Ping(ctx context.Context) error {
	return r.do(ctx, func(ctx context.Context, c *redis.Client) error { return c.Ping(ctx).Err() })
}

// FlushAll empties every database of the server.
func (r *Redis) FlushAll(ctx context.Context) error {
	return r.do(ctx, func(ctx context.Context, c *redis.Client) error { return c.FlushAll(ctx).Err() })
}

func (r *Redis) do(ctx context.Context, f func(context.Context, *redis.Client) error) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: r.Addr, MaxRetries: -1})
	defer c.Close()
	return f(ctx, c)
}

// Stop ends the server (SIGTERM).
func (r *Redis) Stop() { r.proc.Stop(syscall.SIGTERM, 30*time.Second) }

// Start starts the stopped server again on the same port, empty.
func (r *Redis) Start(ctx context.Context) error { return r.proc.Start(ctx) }

// Close stops the server and removes its directory.
func (r *Redis) Close() {
	if r.proc != nil {
		r.Stop()
	}
	_ = os.RemoveAll(r.dir)
}

// Pid is the server's process id, 0 when it is not running.
func (r *Redis) Pid() int { return r.proc.Pid() }
