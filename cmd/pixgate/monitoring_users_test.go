package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// /monitoring had one shared password. pixgate monitoring-user makes an
// operator's line of PIXGATE_MONITORING_USERS_FILE, and a worker given the
// file lets each operator in with their own password, and no one else.
func TestMonitoringUsersFileLetsEachOperatorIn(t *testing.T) {
	p := newPixgate(t)
	code, line, errs := p.run("monitoring-user", "ana")
	name, hash, _ := strings.Cut(strings.TrimSpace(line), ":")
	password := strings.Fields(strings.TrimPrefix(errs, "password of ana: "))
	if code != 0 || name != "ana" || len(password) == 0 || bcrypt.CompareHashAndPassword([]byte(hash), []byte(password[0])) != nil {
		t.Fatalf("monitoring-user ana: exit %d, stdout %q, stderr %q", code, line, errs)
	}
	anaPassword := password[0]
	// --password-stdin: the password read, never printed.
	c := &cli{environ: map[string]string{}, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	root := c.rootCommand()
	root.SetArgs([]string{"monitoring-user", "bia", "--password-stdin"})
	root.SetIn(strings.NewReader("bia-password-long\n"))
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	biaLine := c.stdout.(*bytes.Buffer).String()
	if _, h, _ := strings.Cut(strings.TrimSpace(biaLine), ":"); bcrypt.CompareHashAndPassword([]byte(h), []byte("bia-password-long")) != nil ||
		strings.Contains(c.stderr.(*bytes.Buffer).String(), "bia-password-long") {
		t.Fatalf("--password-stdin: %q, stderr %q", biaLine, c.stderr.(*bytes.Buffer).String())
	}
	for _, bad := range [][]string{{"monitoring-user", "a:b"}, {"monitoring-user"}} {
		if code, _, _ := p.run(bad...); code == 0 {
			t.Errorf("pixgate %v exited 0", bad)
		}
	}

	file := filepath.Join(t.TempDir(), "monitoring-users")
	if err := os.WriteFile(file, []byte("# operators of /monitoring\n"+line+biaLine), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	workerAddr := ln.Addr().String()
	ln.Close()
	redisOpts := storagetest.NewRedis(t)
	env := map[string]string{
		"PIXGATE_REDIS_URL":              fmt.Sprintf("redis://%s/%d", redisOpts.Addr, redisOpts.DB),
		"PIXGATE_WORKER_ADDR":            workerAddr,
		"PIXGATE_PROVIDER_URL":           "http://127.0.0.1:1",
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN": "monitoring-test-webhook-token-0123456789",
		"PIXGATE_LOG_LEVEL":              "warn",
		"PIXGATE_MONITORING_USERS_FILE":  file,
	}
	for k, v := range p.env {
		env[k] = v
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, werrs syncBuf
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"worker"}, env, &out, &werrs) }()
	defer func() {
		cancel()
		<-done
	}()
	get := func(user, pass string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, "http://"+workerAddr+"/monitoring/", nil)
		if user != "" {
			req.SetBasicAuth(user, pass)
		}
		resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req) // bcrypt under -race on busy cores
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	deadline := time.Now().Add(30 * time.Second)
	for get("", "") != http.StatusUnauthorized {
		if time.Now().After(deadline) {
			t.Fatalf("the worker's /monitoring did not answer: %s", werrs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, tc := range []struct {
		user, pass string
		want       int
	}{
		{"ana", anaPassword, http.StatusOK},
		{"bia", "bia-password-long", http.StatusOK},
		{"ana", "bia-password-long", http.StatusUnauthorized},
		{"admin", anaPassword, http.StatusUnauthorized},
	} {
		if got := get(tc.user, tc.pass); got != tc.want {
			t.Errorf("/monitoring/ as %s: %d, want %d", tc.user, got, tc.want)
		}
	}
	if logs := werrs.String(); strings.Contains(logs, anaPassword) || strings.Contains(logs, "bia-password-long") {
		t.Errorf("the worker logged a password:\n%s", logs)
	}

	// A file that is not one stops the worker before it serves, naming the line.
	if err := os.WriteFile(file, []byte(line+"bia:not-a-hash\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bad := &cli{cfg: config{MonitoringUsers: file}}
	if _, err := bad.monitoringUsers(); err == nil || !strings.Contains(err.Error(), "PIXGATE_MONITORING_USERS_FILE "+file+": line 2") ||
		strings.Contains(err.Error(), "not-a-hash") {
		t.Errorf("a bad users file: %v", err)
	}
}
