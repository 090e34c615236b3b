package storagetest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisAddr is the Redis server tests use; PIXGATE_TEST_REDIS_ADDR overrides it.
func RedisAddr() string {
	if a := os.Getenv("PIXGATE_TEST_REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

// redisLeaseTTL bounds how long a crashed test run keeps a database leased.
const redisLeaseTTL = 10 * time.Minute

// NewRedis leases one of Redis's numbered databases (1 to 15) for the test,
// flushes it, and returns options pointing at it. Leases are keys in
// database 0, so test packages running in parallel never share a database;
// asynq has no key prefix, so a database of its own is the only isolation.
func NewRedis(t testing.TB) *redis.Options {
	t.Helper()
	ctx := context.Background()
	lobby := redis.NewClient(&redis.Options{Addr: RedisAddr()})
	defer lobby.Close()
	token := randomHex(8)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		for n := 1; n <= 15; n++ {
			key := fmt.Sprintf("pixgate:test:redis-lease:%d", n)
			ok, err := lobby.SetNX(ctx, key, token, redisLeaseTTL).Result()
			if err != nil {
				t.Fatalf("storagetest: Redis at %s: %v", RedisAddr(), err)
			}
			if !ok {
				continue
			}
			opts := &redis.Options{Addr: RedisAddr(), DB: n}
			c := redis.NewClient(opts)
			err = c.FlushDB(ctx).Err()
			c.Close()
			if err != nil {
				t.Fatalf("storagetest: flush Redis db %d: %v", n, err)
			}
			t.Cleanup(func() { releaseLease(key, token) })
			return opts
		}
		if time.Now().After(deadline) {
			t.Fatal("storagetest: every Redis test database stayed leased for 2 minutes")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func releaseLease(key, token string) {
	c := redis.NewClient(&redis.Options{Addr: RedisAddr()})
	defer c.Close()
	_ = releaseScript.Run(context.Background(), c, []string{key}, token).Err()
}
