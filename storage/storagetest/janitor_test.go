package storagetest

import (
	"bufio"
	"context"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

const childEnv = "PIXGATE_TEST_CHILD"

// A test process that dies before its cleanups ran (a timeout, a kill)
// used to leave its databases, and the template stayed after every run.
// The janitor drops them and stops the private Redis once the process is
// gone.
func TestADeadTestProcessLeavesNothingBehind(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		childMain(t)
		return
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	child := exec.Command(self, "-test.run=^TestADeadTestProcessLeavesNothingBehind$", "-test.count=1")
	child.Env = append(os.Environ(), childEnv+"=1")
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	made := map[string]string{}
	sc := bufio.NewScanner(out)
	for len(made) < 3 && sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			made[k] = v
		}
	}
	if len(made) < 3 {
		_ = child.Process.Kill()
		_ = child.Wait()
		t.Fatalf("the child test process reported %v", made)
	}
	// Killed as a timeout or an operator would kill it: no cleanup runs.
	_ = child.Process.Kill()
	_ = child.Wait()

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	deadline := time.Now().Add(time.Minute)
	for {
		var left int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_database WHERE datname IN ($1, $2)", made["db"], made["template"]).Scan(&left); err != nil {
			t.Fatal(err)
		}
		redisUp := false
		if c, err := net.DialTimeout("tcp", made["redis"], time.Second); err == nil {
			c.Close()
			redisUp = true
		}
		if left == 0 && !redisUp {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("a minute after the test process died: %d of its databases (%s, %s) remain, its Redis %s answers: %v",
				left, made["db"], made["template"], made["redis"], redisUp)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// childMain is the dying test process: it makes a database (and so the
// template) and takes a Redis database, says which, and waits to be killed.
func childMain(t *testing.T) {
	dbURL := NewDatabaseURL(t)
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	tpl, _ := templateOnce()
	opts := NewRedis(t)
	os.Stdout.WriteString("db=" + cfg.Database + "\ntemplate=" + tpl + "\nredis=" + opts.Addr + "\n")
	time.Sleep(time.Hour)
}
