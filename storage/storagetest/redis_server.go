package storagetest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// privateDatabases is how many numbered databases the private server has:
// one per test holding one at a time in a test process is far fewer.
const privateDatabases = 256

// privateRedis is a redis-server the janitor runs for one test process: a
// free loopback port, no persistence, a temporary directory.
type privateRedis struct {
	addr string
	dir  string
	cmd  *exec.Cmd
	done chan struct{}
}

// errNoRedisServer: redis-server is not installed here.
var errNoRedisServer = errors.New("redis-server is not on PATH")

// startPrivateRedis starts the server, trying another port when the one it
// picked was taken in between.
func startPrivateRedis() (*privateRedis, error) {
	path, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errNoRedisServer
	}
	var last error
	for range 5 {
		r, err := tryPrivateRedis(path)
		if err == nil {
			return r, nil
		}
		last = err
	}
	return nil, last
}

func tryPrivateRedis(path string) (*privateRedis, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pixgate-test-redis-")
	if err != nil {
		return nil, err
	}
	r := &privateRedis{addr: net.JoinHostPort("127.0.0.1", port), dir: dir, done: make(chan struct{})}
	logFile := filepath.Join(dir, "redis.log")
	r.cmd = exec.Command(path, "--port", port, "--bind", "127.0.0.1", "--dir", dir,
		"--save", "", "--appendonly", "no", "--databases", strconv.Itoa(privateDatabases),
		"--logfile", logFile, "--loglevel", "warning")
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := r.cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	go func() { _ = r.cmd.Wait(); close(r.done) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case <-r.done:
			b, _ := os.ReadFile(logFile)
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("redis-server on port %s exited at start: %s", port, strings.TrimSpace(string(b)))
		default:
		}
		if pingRedis(r.addr) == nil {
			return r, nil
		}
		if time.Now().After(deadline) {
			r.stop()
			return nil, fmt.Errorf("redis-server on port %s did not answer within 10s", port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop ends the server (SIGTERM, then SIGKILL after 10 s) and removes its
// directory.
func (r *privateRedis) stop() {
	_ = r.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.done
	}
	_ = os.RemoveAll(r.dir)
}

func pingRedis(addr string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	return c.Ping(ctx).Err()
}

// freePort is a loopback port nothing listened on a moment ago.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port, nil
}
