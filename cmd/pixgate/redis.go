package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/hibiken/asynq"
	"github.com/redis/go-redis/v9"
)

// redisTarget is PIXGATE_REDIS_URL read: one server, a Sentinel-managed
// master, or a Redis Cluster. Queues, access tokens and rate limits all use
// the one client it makes, so all three follow a failover alike.
//
//	redis://[:password@]host:port/db                                  one server (rediss:// for TLS)
//	redis-sentinel://[:password@]s1:26379,s2:26379/db?master=name      the master the sentinels name
//	redis-cluster://[:password@]n1:6379,n2:6379                       a cluster (no database number)
//
// The password is the data nodes'; sentinels with a password of their own
// take ?sentinel_password=. rediss-sentinel:// and rediss-cluster:// use TLS.
type redisTarget struct {
	kind             string // "server", "sentinel" or "cluster"
	single           *redis.Options
	addrs            []string // sentinels or cluster nodes
	master           string
	password         string
	sentinelPassword string
	db               int
	tls              *tls.Config
}

func parseRedisURL(raw string) (redisTarget, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return redisTarget{}, fmt.Errorf("PIXGATE_REDIS_URL: not a URL")
	}
	switch u.Scheme {
	case "redis", "rediss":
		opts, err := redis.ParseURL(raw)
		if err != nil {
			return redisTarget{}, fmt.Errorf("PIXGATE_REDIS_URL: %w", err)
		}
		return redisTarget{kind: "server", single: opts, db: opts.DB}, nil
	case "redis-sentinel", "rediss-sentinel", "redis-cluster", "rediss-cluster":
	default:
		return redisTarget{}, fmt.Errorf("PIXGATE_REDIS_URL: scheme %q is not redis, rediss, redis-sentinel or redis-cluster", u.Scheme)
	}
	t := redisTarget{kind: strings.TrimPrefix(strings.TrimPrefix(u.Scheme, "rediss-"), "redis-")}
	t.password, _ = u.User.Password()
	for _, a := range strings.Split(u.Host, ",") {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return redisTarget{}, fmt.Errorf("PIXGATE_REDIS_URL: %q is not host:port", a)
		}
		t.addrs = append(t.addrs, a)
	}
	if strings.HasPrefix(u.Scheme, "rediss") {
		host, _, _ := net.SplitHostPort(t.addrs[0])
		t.tls = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	q := u.Query()
	if db := strings.Trim(u.Path, "/"); db != "" {
		if t.kind == "cluster" {
			return redisTarget{}, fmt.Errorf("PIXGATE_REDIS_URL: a Redis Cluster has no database number")
		}
		if t.db, err = strconv.Atoi(db); err != nil {
			return redisTarget{}, fmt.Errorf("PIXGATE_REDIS_URL: database %q is not a number", db)
		}
	}
	if t.kind == "sentinel" {
		t.master, t.sentinelPassword = q.Get("master"), q.Get("sentinel_password")
		if t.master == "" {
			return redisTarget{}, fmt.Errorf("PIXGATE_REDIS_URL: a redis-sentinel URL names its master: ?master=name")
		}
	}
	return t, nil
}

// client is the process's one Redis client.
func (t redisTarget) client() redis.UniversalClient {
	switch t.kind {
	case "sentinel":
		return redis.NewFailoverClient(&redis.FailoverOptions{MasterName: t.master, SentinelAddrs: t.addrs,
			SentinelPassword: t.sentinelPassword, Password: t.password, DB: t.db, TLSConfig: t.tls})
	case "cluster":
		return redis.NewClusterClient(&redis.ClusterOptions{Addrs: t.addrs, Password: t.password, TLSConfig: t.tls})
	}
	return redis.NewClient(t.single)
}

// connOpt is the same target for asynqmon, which makes its own client.
func (t redisTarget) connOpt() asynq.RedisConnOpt {
	switch t.kind {
	case "sentinel":
		return asynq.RedisFailoverClientOpt{MasterName: t.master, SentinelAddrs: t.addrs,
			SentinelPassword: t.sentinelPassword, Password: t.password, DB: t.db, TLSConfig: t.tls}
	case "cluster":
		return asynq.RedisClusterClientOpt{Addrs: t.addrs, Password: t.password, TLSConfig: t.tls}
	}
	o := t.single
	return asynq.RedisClientOpt{Network: o.Network, Addr: o.Addr, Username: o.Username, Password: o.Password, DB: o.DB, TLSConfig: o.TLSConfig}
}

// where names the target for messages, without its password.
func (t redisTarget) where() string {
	switch t.kind {
	case "sentinel":
		return fmt.Sprintf("master %q of the sentinels at %s", t.master, strings.Join(t.addrs, ","))
	case "cluster":
		return "the cluster at " + strings.Join(t.addrs, ",")
	}
	return t.single.Addr
}

// openRedis connects to PIXGATE_REDIS_URL and checks that it answers.
func (c *cli) openRedis(ctx context.Context) (redis.UniversalClient, error) {
	t, err := parseRedisURL(c.cfg.RedisURL)
	if err != nil {
		return nil, err
	}
	rdb := t.client()
	if err := rdb.Ping(ctx).Err(); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("cannot reach Redis at %s (PIXGATE_REDIS_URL): %w; start Redis at that address (make services does, on a developer's machine) "+
			"or set PIXGATE_REDIS_URL to a server that answers (pixgate env shows the one in force)", t.where(), err)
	}
	return rdb, nil
}

// redisConnOpt is the queue connection for asynqmon, which builds its own.
func (c *cli) redisConnOpt() (asynq.RedisConnOpt, error) {
	t, err := parseRedisURL(c.cfg.RedisURL)
	if err != nil {
		return nil, err
	}
	return t.connOpt(), nil
}
