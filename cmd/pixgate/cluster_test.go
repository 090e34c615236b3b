package main

import (
	"context"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// PixGate's queues and rate limits work on a Redis Cluster (asynq keeps
// each queue's keys in one hash slot): three local masters, a charge paid
// and a withdrawal completed through them.
func TestRedisCluster(t *testing.T) {
	storagetest.Parallel(t, devStackConns)
	if _, err := exec.LookPath("redis-cli"); err != nil {
		t.Skip("needs redis-server and redis-cli")
	}
	ports := freePorts(t, 3)
	dir := t.TempDir()
	for i, addr := range ports {
		port := addr[strings.LastIndex(addr, ":")+1:]
		startRedisServer(t, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
			"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(dir, fmt.Sprintf("nodes-%d.conf", i)),
			"--dir", dir, "--requirepass", "cluster-pw", "--masterauth", "cluster-pw")
	}
	for _, addr := range ports {
		waitRedis(t, &redis.Options{Addr: addr, Password: "cluster-pw"})
	}
	create := exec.Command("redis-cli", append(append([]string{"-a", "cluster-pw", "--no-auth-warning", "--cluster", "create"}, ports...),
		"--cluster-replicas", "0", "--cluster-yes")...)
	if out, err := create.CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: ports, Password: "cluster-pw"})
	defer cluster.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := cluster.ClusterInfo(context.Background()).Result()
		if err == nil && strings.Contains(info, "cluster_state:ok") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the cluster never came up: %s %v", info, err)
		}
		time.Sleep(50 * time.Millisecond)
	}

	s := newDevStack(t, "PIXGATE_REDIS_URL", "redis-cluster://:cluster-pw@"+strings.Join(ports, ","))
	s.credit("50.00")
	chargeID, pixID := s.createCharge(10.00, nil)
	s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay", nil)
	s.eventually("charge PAID through the cluster", 10*time.Second, func() bool { return s.status("charges", chargeID) == "PAID" })
	code, v := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 1.00, "creditParty": creditParty("b@example.com")})
	if code != http.StatusCreated {
		t.Fatalf("withdrawal: %d %v", code, v)
	}
	id := v["id"].(string)
	s.eventually("withdrawal COMPLETED through the cluster", 10*time.Second, func() bool { return s.status("withdrawals", id) == "COMPLETED" })
	s.rateLimited()
	s.auditClean()
}

func waitRedis(t *testing.T, opts *redis.Options) {
	t.Helper()
	c := redis.NewClient(opts)
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for c.Ping(context.Background()).Err() != nil {
		if time.Now().After(deadline) {
			t.Fatalf("redis at %s never answered", opts.Addr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
