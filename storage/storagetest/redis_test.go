package storagetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/redis/go-redis/v9"
)

// The suite used to lease and FLUSHDB databases 1 to 15 of whatever Redis
// answered on 127.0.0.1:6379. By default a test now gets a database of a
// redis-server started for its test process.
func TestNewRedisIsAPrivateServer(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("needs redis-server")
	}
	if os.Getenv("PIXGATE_TEST_REDIS_ADDR") != "" {
		t.Skip("PIXGATE_TEST_REDIS_ADDR names the server to use")
	}
	opts := NewRedis(t)
	if opts.Addr == "127.0.0.1:6379" {
		t.Fatalf("NewRedis handed out %s/%d, the shared server", opts.Addr, opts.DB)
	}
	again := NewRedis(t)
	if again.Addr != opts.Addr || again.DB == opts.DB {
		t.Fatalf("two tests' databases: %s/%d and %s/%d; want one private server, two databases", opts.Addr, opts.DB, again.Addr, again.DB)
	}
}

// On a shared server (PIXGATE_TEST_REDIS_ADDR) whose databases 0 to 14
// hold someone's data, a test takes the empty database 15, and at its end
// empties that one only: everyone else's data is intact.
func TestNewRedisOnASharedServerLeavesOthersDataIntact(t *testing.T) {
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("needs redis-server")
	}
	shared, err := startPrivateRedis() // stands in for a server other programs use
	if err != nil {
		t.Fatal(err)
	}
	defer shared.stop()
	ctx := context.Background()
	client := func(db int) *redis.Client {
		c := redis.NewClient(&redis.Options{Addr: shared.addr, DB: db})
		t.Cleanup(func() { c.Close() })
		return c
	}
	for db := range 15 {
		if err := client(db).Set(ctx, "theirs", fmt.Sprint(db), 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	srv := redisServer{addr: shared.addr, dbs: 16}
	var got *redis.Options
	t.Run("a test on the shared server", func(t *testing.T) {
		got = claimRedis(t, srv)
		if err := redis.NewClient(got).Set(ctx, "mine", "x", 0).Err(); err != nil {
			t.Fatal(err)
		}
	})
	if got.DB != 15 {
		t.Fatalf("the test took database %d, which held data; want the empty 15", got.DB)
	}
	for db := range 15 {
		if v, err := client(db).Get(ctx, "theirs").Result(); err != nil || v != fmt.Sprint(db) {
			t.Fatalf("database %d: %q, %v; want its data intact", db, v, err)
		}
		if n := client(db).DBSize(ctx).Val(); n != 1 {
			t.Fatalf("database %d holds %d keys, want its 1", db, n)
		}
	}
	if n := client(15).DBSize(ctx).Val(); n != 0 {
		t.Fatalf("database 15 holds %d keys after the test; want it emptied", n)
	}
}
