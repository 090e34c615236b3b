package storage

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// A pool is starved when every connection is held and none comes free:
// whatever holds them is not finishing (a path waiting for a second
// connection while it holds one, statements stuck behind a lock that is
// never released), and every call of the process waits out its acquire
// deadline and fails. The process cannot get out of that by itself; a
// restart can, and only the orchestrator's liveness probe gives one.
// WatchPool looks, PoolStarved tells /healthz.

// Defaults for WatchPool.
const (
	DefaultPoolWatchInterval = 5 * time.Second
	// DefaultStarvedAfter is how long every connection may stay held with
	// none handed out before the pool may count as starved: a busy pool
	// hands connections out every few milliseconds.
	DefaultStarvedAfter = 15 * time.Second
)

const (
	// poolProbeTimeout bounds the watch's own wait for a connection.
	poolProbeTimeout = time.Second
	// postgresProbeTimeout bounds the watch's connection of its own.
	postgresProbeTimeout = 2 * time.Second
)

// ErrPoolStarved is PoolStarved's answer while the pool is starved.
var ErrPoolStarved = errors.New("database pool starved: every connection held and none released")

// WatchPool checks every interval whether the pool is starved (see
// checkPool, with starvedAfter its window) and keeps the answer for
// PoolStarved, until ctx ends. changed, when set, is called when the
// answer changes.
func (db *DB) WatchPool(ctx context.Context, interval, starvedAfter time.Duration, changed func(starved bool)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		starved := db.checkPool(ctx, time.Now(), starvedAfter, db.postgresAnswers)
		if db.starved.Swap(starved) != starved && changed != nil {
			changed(starved)
		}
	}
}

// PoolStarved is ErrPoolStarved when WatchPool last found the pool
// starved, else nil (also when nothing watches).
func (db *DB) PoolStarved() error {
	if db.starved.Load() {
		return ErrPoolStarved
	}
	return nil
}

// checkPool says whether the pool is starved at now: every connection is
// held, none was handed out for window, the watch's own wait for one
// fails too, and yet Postgres answers a connection of the watch's own
// (answers). A database that is down is an outage, which readiness
// reports and a restart does not cure: never starvation.
func (db *DB) checkPool(ctx context.Context, now time.Time, window time.Duration, answers func(context.Context) bool) bool {
	st := db.pool.Stat()
	if st.AcquiredConns() < st.MaxConns() || now.Sub(time.Unix(0, db.acquire.lastAcquired.Load())) < window {
		return false
	}
	actx, cancel := context.WithTimeout(ctx, poolProbeTimeout)
	defer cancel()
	if c, err := db.pool.Acquire(actx); err == nil {
		c.Release()
		return false
	}
	return answers(ctx)
}

// postgresAnswers says whether Postgres accepts a connection outside the
// pool and answers on it.
func (db *DB) postgresAnswers(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, postgresProbeTimeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, db.pool.Config().ConnConfig.Copy())
	if err != nil {
		return false
	}
	defer conn.Close(context.WithoutCancel(ctx))
	return conn.Ping(ctx) == nil
}
