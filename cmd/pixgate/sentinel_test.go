package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// sentinelSet is a Redis master, its replica and three sentinels, each a
// local redis-server on a free port, watching master "pixgate".
type sentinelSet struct {
	master, replica *exec.Cmd
	masterAddr      string
	replicaAddr     string
	sentinels       []string
	password        string
}

func startRedisServer(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("redis-server", args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return cmd
}

func newSentinelSet(t *testing.T) *sentinelSet {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("needs redis-server")
	}
	ports := freePorts(t, 5)
	s := &sentinelSet{masterAddr: ports[0], replicaAddr: ports[1], sentinels: ports[2:], password: "sentinel-test-pw"}
	port := func(addr string) string { return addr[strings.LastIndex(addr, ":")+1:] }
	common := []string{"--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--requirepass", s.password, "--masterauth", s.password}
	s.master = startRedisServer(t, append([]string{"--port", port(s.masterAddr)}, common...)...)
	s.replica = startRedisServer(t, append([]string{"--port", port(s.replicaAddr), "--replicaof", "127.0.0.1", port(s.masterAddr)}, common...)...)
	// The replica in sync before the sentinels start: they learn of
	// replicas from the master's INFO, at once and then every 10 s, so one
	// that connects later is known only 10 s on.
	s.eventually(t, "replica in sync", func(ctx context.Context) bool {
		info, err := s.client(s.masterAddr).Info(ctx, "replication").Result()
		return err == nil && strings.Contains(info, "state=online")
	})
	dir := t.TempDir()
	for i, addr := range s.sentinels {
		conf := filepath.Join(dir, fmt.Sprintf("sentinel-%d.conf", i))
		text := fmt.Sprintf("port %s\nbind 127.0.0.1\ndir %s\nsentinel resolve-hostnames no\n"+
			"sentinel monitor pixgate 127.0.0.1 %s 2\nsentinel auth-pass pixgate %s\n"+
			"sentinel down-after-milliseconds pixgate 1000\nsentinel failover-timeout pixgate 2000\n",
			port(addr), dir, port(s.masterAddr), s.password)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		startRedisServer(t, conf, "--sentinel")
	}
	// Ready: every sentinel knows the replica and the others.
	for _, addr := range s.sentinels {
		s.eventually(t, "every sentinel knows the replica and the other sentinels", func(ctx context.Context) bool {
			c := redis.NewSentinelClient(&redis.Options{Addr: addr})
			defer c.Close()
			peers, err := c.Sentinels(ctx, "pixgate").Result()
			replicas, rerr := c.Replicas(ctx, "pixgate").Result()
			return err == nil && rerr == nil && len(peers) == len(s.sentinels)-1 && len(replicas) == 1
		}, s.state)
	}
	return s
}

func (s *sentinelSet) client(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, Password: s.password, MaxRetries: -1})
}

// url is PIXGATE_REDIS_URL for the set.
func (s *sentinelSet) url() string {
	return fmt.Sprintf("redis-sentinel://:%s@%s/0?master=pixgate", s.password, strings.Join(s.sentinels, ","))
}

// state is what each sentinel thinks, for a failure message.
func (s *sentinelSet) state() string {
	var b strings.Builder
	for _, addr := range s.sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: addr})
		m, err := c.Master(context.Background(), "pixgate").Result()
		fmt.Fprintf(&b, "sentinel %s: %v %v\n", addr, m, err)
		c.Close()
	}
	return b.String()
}

// currentMaster asks a sentinel where the master is.
func (s *sentinelSet) currentMaster(ctx context.Context) string {
	for _, addr := range s.sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: addr})
		hp, err := c.GetMasterAddrByName(ctx, "pixgate").Result()
		c.Close()
		if err == nil && len(hp) == 2 {
			return hp[0] + ":" + hp[1]
		}
	}
	return ""
}

func (s *sentinelSet) eventually(t *testing.T, what string, cond func(ctx context.Context) bool, explain ...func() string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		ok := cond(ctx)
		cancel()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			why := ""
			for _, e := range explain {
				why += e()
			}
			t.Fatalf("not within 60s: %s\n%s", what, why)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// PixGate reaches Redis through Sentinel for its queues and rate limits
// alike, and survives the master dying during a run: work asked for while
// no master answers is delayed, not lost, and everything completes on the
// promoted replica.
func TestRedisSentinelFailoverDuringARun(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	set := newSentinelSet(t)
	s := newDevStack(t, "PIXGATE_REDIS_URL", set.url(), "PIXGATE_RECONCILE_INTERVAL", "1s", "PIXGATE_RECONCILE_STALE_AFTER", "2s")
	s.credit("100.00")

	// Before: a charge paid and a withdrawal completed, the rate limiter
	// counting in Redis (its headers are only set when Redis answered).
	chargeID, pixID := s.createCharge(10.00, nil)
	s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil)
	s.eventually("charge PAID through Sentinel", 10*time.Second, func() bool { return s.status("charges", chargeID) == "PAID" })
	s.rateLimited()

	// The master dies; the sentinels promote the replica.
	_ = set.master.Process.Kill()
	during := make([]string, 0, 3)
	for i := range 3 {
		code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{
			"amount": 1.00, "external_id": fmt.Sprintf("during-%d", i), "creditParty": creditParty("b@example.com")})
		if code != http.StatusCreated {
			t.Fatalf("withdrawal during the failover: %d %v", code, v)
		}
		during = append(during, v["id"].(string))
	}
	set.eventually(t, "the replica promoted", func(ctx context.Context) bool { return set.currentMaster(ctx) == set.replicaAddr },
		set.state)

	// After: what was asked during the failover completes, and new work too.
	for _, id := range during {
		s.eventually("withdrawal asked during the failover COMPLETED", time.Minute, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	}
	chargeID, pixID = s.createCharge(20.00, nil)
	s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil)
	s.eventually("charge PAID on the new master", 10*time.Second, func() bool { return s.status("charges", chargeID) == "PAID" })
	s.rateLimited()
	keys, err := set.client(set.replicaAddr).Keys(context.Background(), "asynq:*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatalf("no queue keys on the promoted master: %v %v", keys, err)
	}
	s.auditClean()
}

// rateLimited checks that the v1 rate limiter counted a request in Redis.
func (s *devStack) rateLimited() {
	s.t.Helper()
	s.eventually("rate limiter answering through Redis", 20*time.Second, func() bool {
		req, _ := http.NewRequest(http.MethodGet, s.api+"/api/v1/balance", nil)
		req.Header.Set("Authorization", "Bearer "+s.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.Header.Get("RateLimit-Remaining") != ""
	})
}
