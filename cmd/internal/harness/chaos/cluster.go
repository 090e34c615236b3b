package chaos

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/pixgate/pixgate/cmd/internal/harness/receiver"
	"github.com/pixgate/pixgate/cmd/internal/stack"
)

// cluster is the deployment under test: its own Postgres cluster and Redis
// server, two sandbox providers of different contracts (three in the
// randomized run) with a Postgres cluster of their own (a provider's
// records are not in PixGate's database), two API and two worker
// processes of the given binary, the balancer in front of the APIs for
// the providers' notifications, and the integrators' postback receiver.
type cluster struct {
	bin, logDir string
	pg          *stack.Postgres
	providerPG  *stack.Postgres
	redis       *stack.Redis
	env         []string // every pixgate process's settings
	sandbox     *stack.Proc
	sandboxURL  string
	second      *stack.Proc // sandbox b (secondsandbox.go)
	secondURL   string      // its control endpoints
	secondDir   string      // its certificates and client secret
	third       *stack.Proc // sandbox c, the randomized run's (thirdsandbox.go)
	thirdURL    string      // its API and control endpoints
	thirdDir    string      // its webhook key and client secret
	publicURL   string      // the balancer, as the providers reach PixGate
	hookToken   string      // PIXGATE_PROVIDER_WEBHOOK_TOKEN
	integrators []int64     // PixGate's ids of the driven integrators
	apis        [2]*stack.Proc
	apiURLs     [2]string
	workers     [2]*stack.Proc
	proxy       *proxy
	recv        *receiver.Receiver
	recvURL     string
	db          *pgxpool.Pool // the harness's own connections, for the checks

	hogMu           sync.Mutex
	runHog          *hog   // -hog: under every scenario
	scenarioHog     *hog   // the cpu-hog scenario's, for its hold
	scenarioHogText string // what the scenario's did, until hogNote tells it
}

// runSettings are what the run changes from PixGate's defaults;
// docs/reliability.md says why (docintro.go).
var runSettings = []string{
	"PIXGATE_RECONCILE_STALE_AFTER=20s",
	"PIXGATE_POSTBACK_INITIAL_INTERVAL=1s",
	"PIXGATE_POSTBACK_MAX_INTERVAL=10s",
	"PIXGATE_V1_RATE_PER_MINUTE=100000",
	"PIXGATE_V2_RATE_PER_MINUTE=100000",
	"PIXGATE_POSTBACK_ALLOW_HTTP=true",
	"PIXGATE_POSTBACK_ALLOW_PRIVATE=true",
}

func startCluster(ctx context.Context, o Options) (*cluster, error) {
	c := &cluster{bin: o.Bin, logDir: o.LogDir}
	var err error
	stepf("own Postgres clusters (PixGate's, the provider's) and Redis server")
	if c.pg, err = stack.StartPostgres(ctx, o.LogDir, "postgres"); err != nil {
		return c, err
	}
	if c.providerPG, err = stack.StartPostgres(ctx, o.LogDir, "provider-postgres"); err != nil {
		return c, err
	}
	if c.redis, err = stack.StartRedis(ctx, o.LogDir); err != nil {
		return c, err
	}
	addrs, err := stack.FreeAddrs(12)
	if err != nil {
		return c, err
	}
	lnProxy, err := net.Listen("tcp", addrs[7])
	if err != nil {
		return c, err
	}
	lnRecv, err := net.Listen("tcp", addrs[8])
	if err != nil {
		lnProxy.Close()
		return c, err
	}
	c.apiURLs = [2]string{"http://" + addrs[0], "http://" + addrs[1]}
	c.sandboxURL = "http://" + addrs[6]
	c.proxy = newProxy(c.apiURLs[:])
	c.proxy.serve(lnProxy)
	c.recv = receiver.New(o.PostbackFailShare)
	c.recv.Serve(lnRecv)
	c.recvURL = "http://" + addrs[8]

	token := make([]byte, 20)
	_, _ = rand.Read(token)
	c.publicURL, c.hookToken = "http://"+addrs[7], "chaos-"+hex.EncodeToString(token)
	c.env = append(withoutPixGate(os.Environ()),
		"PIXGATE_DATABASE_URL="+c.pg.URL("pixgate"),
		"PIXGATE_REDIS_URL="+c.redis.URL("0"),
		"PIXGATE_PUBLIC_BASE_URL="+c.publicURL,
		"PIXGATE_PROVIDER_URL="+c.sandboxURL,
		"PIXGATE_SANDBOX_ADDR="+addrs[6],
		"PIXGATE_PROVIDER_WEBHOOK_TOKEN="+c.hookToken,
		"PIXGATE_LOG_LEVEL="+o.LogLevel,
	)
	c.env = append(c.env, runSettings...)
	if o.Soak {
		c.env = append(c.env, soakSettings...)
	}
	c.env = append(c.env, o.Env...)

	c.sandbox = c.proc("sandbox", []string{"sandbox"}, []string{"PIXGATE_SANDBOX_STORE=postgres",
		"PIXGATE_DATABASE_URL=" + c.providerPG.URL("provider")}, c.sandboxURL+"/sandbox/faults")
	for i := range c.apis {
		c.apis[i] = c.proc(fmt.Sprintf("api-%d", i+1), []string{"api"},
			[]string{"PIXGATE_HTTP_ADDR=" + addrs[i], "PIXGATE_API_METRICS_ADDR=" + addrs[2+i]}, c.apiURLs[i]+"/healthz")
		c.workers[i] = c.proc(fmt.Sprintf("worker-%d", i+1), []string{"worker"},
			[]string{"PIXGATE_WORKER_ADDR=" + addrs[4+i]}, "http://"+addrs[4+i]+"/healthz")
	}
	sandboxes := "sandboxes default (family) and b (efi)"
	if o.Soak {
		sandboxes = "sandboxes default (family), b (efi) and c (woovi)"
	}
	stepf("%s, 2 api and 2 worker processes of %s", sandboxes, o.Bin)
	if err := c.sandbox.Start(ctx); err != nil {
		return c, err
	}
	// Providers b and c are registered before the api and worker processes
	// start: they build their providers at start.
	if err := c.startSecond(ctx, addrs[9], addrs[10]); err != nil {
		return c, err
	}
	if o.Soak {
		if err := c.startThird(ctx, addrs[11]); err != nil {
			return c, err
		}
	}
	for _, p := range []*stack.Proc{c.apis[0], c.apis[1], c.workers[0], c.workers[1]} {
		if err := p.Start(ctx); err != nil {
			return c, err
		}
	}
	if c.db, err = pgxpool.New(ctx, c.pg.URL("pixgate")+"&pool_max_conns=4"); err != nil {
		return c, err
	}
	return c, nil
}

func (c *cluster) proc(name string, args, env []string, health string) *stack.Proc {
	return &stack.Proc{Name: name, Path: c.bin, Args: args, Env: append(append([]string(nil), c.env...), env...),
		LogDir: c.logDir, Ready: stack.HTTPReady(health)}
}

// withoutPixGate drops PIXGATE_* settings inherited from the caller's
// environment: the run's processes have exactly the run's settings.
func withoutPixGate(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PIXGATE_") {
			out = append(out, kv)
		}
	}
	return out
}

// pixgate runs an operator command of the binary with the run's settings.
func (c *cluster) pixgate(ctx context.Context, args ...string) ([]byte, error) {
	return c.pixgateWith(ctx, nil, args...)
}

// pixgateWith is pixgate with env added to the run's settings: an
// operator's command told what the run's processes are not (the default
// sandbox serves PixGate's extensions: PIXGATE_PROVIDER_EXTENSIONS).
func (c *cluster) pixgateWith(ctx context.Context, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, c.bin, args...)
	cmd.Env = append(append([]string(nil), c.env...), env...)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return out, fmt.Errorf("pixgate %s: %w: %s", args[0], err, strings.TrimSpace(string(ee.Stderr)))
	}
	return out, err
}

// close stops everything the run started, in order, and removes the
// cluster's directories.
func (c *cluster) close() {
	c.stopHog(false)
	c.stopHog(true)
	if c.db != nil {
		c.db.Close()
	}
	for _, p := range []*stack.Proc{c.workers[0], c.workers[1], c.apis[0], c.apis[1], c.sandbox, c.second, c.third} {
		if p != nil {
			p.Terminate()
		}
	}
	for _, dir := range []string{c.secondDir, c.thirdDir} {
		if dir != "" {
			_ = os.RemoveAll(dir)
		}
	}
	if c.proxy != nil {
		c.proxy.close()
	}
	if c.recv != nil {
		c.recv.Close()
	}
	if c.redis != nil {
		c.redis.Close()
	}
	for _, pg := range []*stack.Postgres{c.pg, c.providerPG} {
		if pg != nil {
			pg.Close()
		}
	}
}
