package storagetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// The janitor is a second copy of the test binary that outlives nothing but
// the test process: it reads its standard input, a pipe only the test
// process writes to, until the test process ends (however it ends: passed,
// failed, timed out, killed), then stops the private Redis server it runs
// for the tests and drops every database the tests created and did not drop
// themselves. A test process has one janitor, started at the first need.
const janitorEnv = "PIXGATE_TEST_JANITOR"

func init() {
	if os.Getenv(janitorEnv) == "1" {
		os.Exit(janitorMain())
	}
}

// janitorClient is the test process's side: requests are lines on the
// janitor's stdin, answers lines on its stdout ("ok ARG" or "err TEXT").
type janitorClient struct {
	mu  sync.Mutex
	in  *os.File // never closed: the test process ending closes it
	out *bufio.Reader
}

var janitorOnce = sync.OnceValues(startJanitor)

func startJanitor() (*janitorClient, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), janitorEnv+"=1")
	cmd.Stdin, cmd.Stdout = inR, outW
	// Its own process group: a Ctrl-C to go test does not reach it, it
	// cleans up once the test process is gone. Stderr is not go test's
	// pipe, which go test would wait on.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("storagetest: start the janitor: %w", err)
	}
	inR.Close()
	outW.Close()
	go func() { _ = cmd.Wait() }()
	return &janitorClient{in: inW, out: bufio.NewReader(outR)}, nil
}

// janitorCall sends one request and returns the answer's argument.
func janitorCall(req string) (string, error) {
	j, err := janitorOnce()
	if err != nil {
		return "", err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := fmt.Fprintln(j.in, req); err != nil {
		return "", fmt.Errorf("storagetest: janitor: %w", err)
	}
	line, err := j.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("storagetest: janitor: %w", err)
	}
	status, arg, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
	if status != "ok" {
		return "", errors.New(arg)
	}
	return arg, nil
}

// dropAtExit has the janitor drop database name when the test process
// ends, unless a test dropped it before.
func dropAtExit(name string) error {
	_, err := janitorCall("dropdb " + name)
	return err
}

func janitorMain() int {
	// Signals meant for the test run (a Ctrl-C, a closed terminal) must not
	// stop the janitor before it cleaned up: the end of stdin is its signal.
	signal.Ignore(syscall.SIGINT, syscall.SIGHUP, syscall.SIGTERM)
	var (
		dbs   []string
		redis *privateRedis
	)
	answer := func(arg string, err error) {
		if err != nil {
			fmt.Println("err", strings.ReplaceAll(err.Error(), "\n", " "))
			return
		}
		fmt.Println("ok", arg)
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		req, arg, _ := strings.Cut(sc.Text(), " ")
		switch req {
		case "redis":
			if redis == nil {
				var err error
				if redis, err = startPrivateRedis(); err != nil {
					answer("", err)
					continue
				}
			}
			answer(redis.addr, nil)
		case "dropdb":
			dbs = append(dbs, arg)
			answer("", nil)
		default:
			answer("", fmt.Errorf("unknown request %q", req))
		}
	}
	if redis != nil {
		redis.stop()
	}
	dropDatabases(dbs)
	return 0
}

// dropDatabases drops those of names that still exist.
func dropDatabases(names []string) {
	if len(names) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		return
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT datname FROM pg_database WHERE datname = ANY($1)", names)
	if err != nil {
		return
	}
	left, _ := pgx.CollectRows(rows, pgx.RowTo[string])
	for _, n := range left {
		_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{n}.Sanitize()+" WITH (FORCE)")
	}
}
