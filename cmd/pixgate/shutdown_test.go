package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pixgate/pixgate/providerclient/sandbox"
	"github.com/pixgate/pixgate/storage/storagetest"
)

// process is pixgate running as a separate process: this test binary with
// PIXGATE_TEST_MAIN=1, so a real SIGTERM reaches a real signal handler.
type process struct {
	cmd    *exec.Cmd
	out    syncBuf
	done   chan error
	closed func() // its connections are closed (storagetest.Use)
}

func startProcess(t *testing.T, env map[string]string, args ...string) *process {
	t.Helper()
	closed := storagetest.Use(t, processConns)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: exec.Command(self, args...), done: make(chan error, 1), closed: closed}
	p.cmd.Env = append(os.Environ(), "PIXGATE_TEST_MAIN=1")
	for k, v := range env {
		p.cmd.Env = append(p.cmd.Env, k+"="+v)
	}
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

// stop sends SIGTERM and waits for a clean exit.
func (p *process) stop(t *testing.T, within time.Duration) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p.done:
		if err != nil {
			t.Fatalf("pixgate %v after SIGTERM: %v\n%s", p.cmd.Args[1:], err, p.out.String())
		}
		p.closed()
	case <-time.After(within):
		t.Fatalf("pixgate %v did not stop within %v of SIGTERM\n%s", p.cmd.Args[1:], within, p.out.String())
	}
}

func waitHTTP(t *testing.T, url string, p *process) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never answered\n%s", url, p.out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// serviceEnv is the environment of api and worker processes on the test's
// database, Redis database and sandbox provider.
func serviceEnv(t *testing.T, p *pixgate, providerURL string) map[string]string {
	redisOpts := storagetest.NewRedis(t)
	ports := freePorts(t, 3)
	env := map[string]string{
		"PIXGATE_REDIS_URL":              fmt.Sprintf("redis://%s/%d", redisOpts.Addr, redisOpts.DB),
		"PIXGATE_HTTP_ADDR":              ports[0],
		"PIXGATE_API_METRICS_ADDR":       ports[1],
		"PIXGATE_WORKER_ADDR":            ports[2],
		"PIXGATE_PROVIDER_URL":           providerURL,
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN": "shutdown-test-webhook-token-0123456789",
		"PIXGATE_LOG_LEVEL":              "warn",
	}
	for k, v := range p.env {
		env[k] = v
	}
	env["PIXGATE_DATABASE_MAX_CONNS"] = strconv.Itoa(storagetest.ProcessPool) // the commands' is smaller
	return env
}

// SIGTERM to pixgate api under load loses no accepted request: every
// request answered 201 is in the database, nothing is answered 5xx, and the
// process exits 0 once in-flight requests are done.
func TestSIGTERMToAPILosesNoAcceptedRequest(t *testing.T) {
	storagetest.Parallel(t, cliConns+processConns)
	pg := newPixgate(t)
	var in struct {
		ID    int64
		Token string `json:"token"`
	}
	pg.json(&in, "integrator", "create", "--name", "Loja", "--email", "sigterm@loja.example")
	pg.json(&struct{}{}, "wallet", "credit", "--integrator", fmt.Sprint(in.ID), "--amount", "100000.00", "--reason", "load")
	env := serviceEnv(t, pg, "http://127.0.0.1:1")
	api := startProcess(t, env, "api")
	base := "http://" + env["PIXGATE_HTTP_ADDR"]
	waitHTTP(t, base+"/healthz", api)

	type outcome struct {
		externalID string
		status     int
		err        error
	}
	var (
		mu       sync.Mutex
		outcomes []outcome
		wg       sync.WaitGroup
		answered = make(chan struct{}, 10_000)
	)
	client := &http.Client{Timeout: 20 * time.Second}
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			deadline := time.Now().Add(40 * time.Second)
			for n := 0; time.Now().Before(deadline); n++ {
				ext := fmt.Sprintf("sigterm-%d-%d", g, n)
				body := fmt.Sprintf(`{"amount": 1.00, "external_id": %q, "creditParty": {"name": "B", "keyType": "EMAIL", "key": "b@example.com", "taxId": "52998224725"}}`, ext)
				req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/withdrawals", strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+in.Token)
				// Lets the client retry a request written to a kept-alive
				// connection the server closed while idle (safe: external_id
				// makes the withdrawal idempotent).
				req.Header.Set("Idempotency-Key", ext)
				resp, err := client.Do(req)
				o := outcome{externalID: ext, err: err}
				if err == nil {
					o.status = resp.StatusCode
					resp.Body.Close()
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
				if neverAccepted(err) {
					return // the listener is gone: the process is stopping
				}
				answered <- struct{}{}
			}
		}()
	}
	for range 200 { // under load
		<-answered
	}
	api.stop(t, 20*time.Second)
	wg.Wait()

	db := openSide(t, pg.env["PIXGATE_DATABASE_URL"])
	accepted, unanswered := 0, 0
	for _, o := range outcomes {
		var rows int
		if err := db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM withdrawals WHERE external_id = $1`, o.externalID).Scan(&rows); err != nil {
			t.Fatal(err)
		}
		switch {
		case o.err == nil && o.status != http.StatusCreated:
			t.Errorf("%s answered %d during shutdown", o.externalID, o.status)
		case o.err == nil && rows != 1:
			t.Errorf("%s was answered 201 but is not in the database", o.externalID)
		case o.err == nil:
			accepted++
		case rows != 0:
			t.Errorf("%s was carried out but its answer was dropped: %v", o.externalID, o.err)
		default:
			// Refused, or reset in the closing listener's backlog before
			// PixGate accepted the connection: nothing was done, and a retry
			// with the same external_id is safe.
			unanswered++
		}
	}
	t.Logf("%d requests accepted and stored, %d never accepted (refused or reset at the closing listener)", accepted, unanswered)
	if code, out, errs := pg.run("audit"); code != 0 {
		t.Fatalf("audit after shutdown: %s%s", out, errs)
	}
}

// SIGTERM to pixgate worker under load loses no task: the tasks it was
// running finish, the ones it had not started go back to the queue, and a
// second worker sends every withdrawal, each exactly once.
func TestSIGTERMToWorkerLosesNoTask(t *testing.T) {
	storagetest.Parallel(t, cliConns+2*processConns) // an api, then one worker after another
	sb := sandbox.New(sandbox.Config{SettleDelay: time.Hour})
	sb.SetFaults(sandbox.Faults{Latency: 100 * time.Millisecond, Routes: []string{"/v2/pix/payment"}, ManualSettle: true})
	provider := httptest.NewServer(sb.Handler())
	t.Cleanup(provider.Close)
	t.Cleanup(sb.Close)

	pg := newPixgate(t)
	var in struct {
		ID    int64
		Token string `json:"token"`
	}
	pg.json(&in, "integrator", "create", "--name", "Loja", "--email", "sigterm@loja.example")
	pg.json(&struct{}{}, "wallet", "credit", "--integrator", fmt.Sprint(in.ID), "--amount", "1000.00", "--reason", "load")
	env := serviceEnv(t, pg, provider.URL)
	env["PIXGATE_WORKER_SENDS_SLOTS"] = "4"
	api := startProcess(t, env, "api")
	waitHTTP(t, "http://"+env["PIXGATE_HTTP_ADDR"]+"/healthz", api)

	const n = 40
	for i := range n {
		body := fmt.Sprintf(`{"amount": 1.00, "external_id": "w-%d", "creditParty": {"name": "B", "keyType": "EMAIL", "key": "b@example.com", "taxId": "52998224725"}}`, i)
		if code, v := doJSON(t, http.MethodPost, "http://"+env["PIXGATE_HTTP_ADDR"]+"/api/v1/withdrawals", "Bearer "+in.Token, rawJSON(body)); code != http.StatusCreated {
			t.Fatalf("withdrawal %d: %d %v", i, code, v)
		}
	}

	first := startProcess(t, env, "worker")
	deadline := time.Now().Add(30 * time.Second)
	for sb.Stats().PaymentsCreated < 4 {
		if time.Now().After(deadline) {
			t.Fatalf("the first worker sent nothing\n%s", first.out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	first.stop(t, 30*time.Second)
	sentByFirst := sb.Stats().PaymentsCreated
	if sentByFirst >= n {
		t.Fatalf("the first worker sent all %d before SIGTERM: no load left to hand over", n)
	}

	env["PIXGATE_WORKER_ADDR"] = freePorts(t, 1)[0]
	second := startProcess(t, env, "worker")
	db := openSide(t, pg.env["PIXGATE_DATABASE_URL"])
	deadline = time.Now().Add(60 * time.Second)
	for {
		var sent int
		if err := db.Pool().QueryRow(context.Background(), `SELECT count(*) FROM withdrawals WHERE pix_id IS NOT NULL`).Scan(&sent); err != nil {
			t.Fatal(err)
		}
		if sent == n {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d withdrawals sent after the handover\n%s", sent, n, second.out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	second.stop(t, 30*time.Second)
	if got := sb.Stats().PaymentsCreated; got != n {
		t.Fatalf("the provider made %d payments for %d withdrawals", got, n)
	}
	t.Logf("the first worker sent %d before SIGTERM, the second the other %d", sentByFirst, n-sentByFirst)
	api.stop(t, 20*time.Second)
}

// neverAccepted says whether err is a connection that failed while being
// made: refused, or reset in the closing listener's backlog.
func neverAccepted(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// rawJSON is a request body sent as it is.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return bytes.TrimSpace([]byte(r)), nil }
