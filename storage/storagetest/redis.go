package storagetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisServer is where the tests of this process take their Redis
// databases from.
type redisServer struct {
	addr string
	dbs  int // databases 1 to dbs-1 are handed out; 0 holds the leases
}

var redisServerOnce = sync.OnceValues(findRedisServer)

// findRedisServer is PIXGATE_TEST_REDIS_ADDR when set; else a private
// redis-server the janitor starts for this process; else, with no
// redis-server installed, the Redis on 127.0.0.1:6379, shared with whatever
// else uses it.
func findRedisServer() (redisServer, error) {
	if a := os.Getenv("PIXGATE_TEST_REDIS_ADDR"); a != "" {
		return sharedRedis(a)
	}
	addr, err := janitorCall("redis")
	if err == nil {
		return redisServer{addr: addr, dbs: privateDatabases}, nil
	}
	if err.Error() != errNoRedisServer.Error() {
		return redisServer{}, fmt.Errorf("a private redis-server for the tests: %w", err)
	}
	return sharedRedis("127.0.0.1:6379")
}

func sharedRedis(addr string) (redisServer, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	if err := c.Ping(ctx).Err(); err != nil {
		return redisServer{}, fmt.Errorf("the Redis at %s: %w", addr, err)
	}
	dbs := 16 // Redis's default, when CONFIG is renamed away
	if kv, err := c.ConfigGet(ctx, "databases").Result(); err == nil {
		if n, err := strconv.Atoi(kv["databases"]); err == nil && n > 1 {
			dbs = n
		}
	}
	return redisServer{addr: addr, dbs: dbs}, nil
}

// redisLeaseTTL bounds how long a test run that died keeps a database
// leased; a test holding one longer loses it and leaves its data.
const redisLeaseTTL = time.Hour

// NewRedis gives the test a Redis database of its own and returns options
// pointing at it: asynq has no key prefix, so a database of its own is the
// only isolation. The database is empty when the test gets it and emptied
// when the test ends.
//
// On the private server (the default) every database is the tests' own. On
// a shared server (PIXGATE_TEST_REDIS_ADDR, or 127.0.0.1:6379 when
// redis-server is not installed) a test takes only a database that is empty
// when it claims it, under a lease key in database 0
// (pixgate:test:redis-lease:N) that keeps other test processes off it, and
// at its end empties that database only while the lease is still its own:
// data the tests did not write is never flushed, as long as no other
// program writes into a database a test holds.
func NewRedis(t testing.TB) *redis.Options {
	t.Helper()
	srv, err := redisServerOnce()
	if err != nil {
		t.Fatalf("storagetest: %v", err)
	}
	return claimRedis(t, srv)
}

func claimRedis(t testing.TB, srv redisServer) *redis.Options {
	t.Helper()
	ctx := context.Background()
	lobby := redis.NewClient(&redis.Options{Addr: srv.addr})
	defer lobby.Close()
	token := randomHex(8)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		var inUse []string
		first := rand.IntN(srv.dbs - 1)
		for i := range srv.dbs - 1 {
			n := 1 + (first+i)%(srv.dbs-1)
			key := leaseKey(n)
			ok, err := lobby.SetNX(ctx, key, token, redisLeaseTTL).Result()
			if err != nil {
				t.Fatalf("storagetest: Redis at %s: %v", srv.addr, err)
			}
			if !ok {
				continue
			}
			size, err := dbSize(ctx, srv.addr, n)
			if err != nil || size > 0 {
				releaseLease(srv.addr, key, token)
				if err != nil {
					t.Fatalf("storagetest: Redis at %s, database %d: %v", srv.addr, n, err)
				}
				inUse = append(inUse, strconv.Itoa(n))
				continue
			}
			t.Cleanup(func() { releaseRedis(srv.addr, n, key, token) })
			return &redis.Options{Addr: srv.addr, DB: n}
		}
		if time.Now().After(deadline) {
			msg := fmt.Sprintf("storagetest: no free Redis database on %s for 2 minutes", srv.addr)
			if len(inUse) > 0 {
				msg += fmt.Sprintf("; databases %s hold data the tests did not write (or that a killed test run left): they are never flushed, see the README's Tests section", strings.Join(inUse, ", "))
			}
			t.Fatal(msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func leaseKey(n int) string { return fmt.Sprintf("pixgate:test:redis-lease:%d", n) }

func dbSize(ctx context.Context, addr string, n int) (int64, error) {
	c := redis.NewClient(&redis.Options{Addr: addr, DB: n})
	defer c.Close()
	return c.DBSize(ctx).Result()
}

// releaseRedis empties database n, then gives up its lease, if the lease
// is still token's.
func releaseRedis(addr string, n int, key, token string) {
	ctx := context.Background()
	lobby := redis.NewClient(&redis.Options{Addr: addr})
	defer lobby.Close()
	if owner, err := lobby.Get(ctx, key).Result(); err != nil || owner != token {
		return
	}
	c := redis.NewClient(&redis.Options{Addr: addr, DB: n})
	err := c.FlushDB(ctx).Err()
	c.Close()
	if err == nil {
		releaseLease(addr, key, token)
	}
}

var releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)

func releaseLease(addr, key, token string) {
	c := redis.NewClient(&redis.Options{Addr: addr})
	defer c.Close()
	_ = releaseScript.Run(context.Background(), c, []string{key}, token).Err()
}
