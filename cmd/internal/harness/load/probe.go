package load

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// clockTicks is the kernel's USER_HZ, the unit of /proc CPU times.
const clockTicks = 100

// procCPU is a process's user+system CPU time so far; zero when it cannot
// be read (gone, or not on this machine).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name, which is in parentheses.
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		s = s[i+1:]
	}
	f := strings.Fields(s)
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// machineCPU is the busy and total CPU time of all cores (from /proc/stat).
func machineCPU() (busy, total time.Duration) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	var sum, idle int64
	for i, v := range f[1:] {
		n, _ := strconv.ParseInt(v, 10, 64)
		if i < 8 { // user nice system idle iowait irq softirq steal
			sum += n
		}
		if i == 3 || i == 4 {
			idle += n
		}
	}
	return time.Duration(sum-idle) * time.Second / clockTicks, time.Duration(sum) * time.Second / clockTicks
}

// components whose CPU a probe reports, in the report's order.
var components = []string{"api", "worker", "sandbox", archProviderName, "postgres", "redis", "load"}

// probe measures one phase: the CPU each component spent, how busy the
// whole machine was, and what the database's sessions were doing.
type probe struct {
	t     *topology
	conn  *pgx.Conn
	start map[string]time.Duration
	pgPID map[int]time.Duration
	busy0 time.Duration
	tot0  time.Duration
	xact0 int64
	began time.Time

	stop    context.CancelFunc
	wg      sync.WaitGroup
	samples int
	states  map[string]int // session state (or wait) → sessions seen over all samples
}

// usage is a probe's result.
type usage struct {
	CPU     map[string]time.Duration
	Busy    float64 // cores busy, whole machine
	Cores   float64 // cores the machine has
	Elapsed time.Duration
	// Commits is how many transactions the run's database committed.
	Commits int64
	// Sessions: the database's sessions by state, averaged over samples:
	// "active", "idle in transaction", "idle", and "wait:<type>" for active
	// sessions waiting on something.
	Sessions map[string]float64
}

func (t *topology) pgBackends(ctx context.Context, conn *pgx.Conn) map[int]time.Duration {
	rows, err := conn.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, t.dbName)
	if err != nil {
		return nil
	}
	pids, _ := pgx.CollectRows(rows, pgx.RowTo[int32])
	m := make(map[int]time.Duration, len(pids))
	for _, p := range pids {
		m[int(p)] = procCPU(int(p))
	}
	return m
}

// commits reads the database's committed transactions so far. A session
// reports its counts when it goes idle, at most once a second, and a
// session that then stays idle reports what it held back 10 s later
// (statsFlush): a phase's count is exact to that; committedSince counts
// exactly.
func (t *topology) commits(ctx context.Context, conn *pgx.Conn) int64 {
	var n int64
	_, _ = conn.Exec(ctx, `SELECT pg_stat_clear_snapshot()`)
	_ = conn.QueryRow(ctx, `SELECT xact_commit FROM pg_stat_database WHERE datname = $1`, t.dbName).Scan(&n)
	return n
}

func (t *topology) newProbe(ctx context.Context) *probe {
	p := &probe{t: t, start: map[string]time.Duration{}, states: map[string]int{}}
	// The probe's own queries go through the admin database, so that they
	// are not counted among the run's commits.
	conn, err := pgx.Connect(ctx, t.adminURL)
	if err == nil {
		p.conn = conn
		p.pgPID = t.pgBackends(ctx, conn)
		p.xact0 = t.commits(ctx, conn)
	}
	p.readCPU(p.start)
	p.busy0, p.tot0 = machineCPU()
	p.began = time.Now()
	sctx, stop := context.WithCancel(ctx)
	p.stop = stop
	if conn != nil {
		sampler, _ := pgx.Connect(ctx, t.adminURL)
		if sampler != nil {
			p.wg.Go(func() { p.sample(sctx, sampler) })
		}
	}
	return p
}

func (p *probe) readCPU(into map[string]time.Duration) {
	for _, name := range []string{"api", "worker", "sandbox", archProviderName} {
		into[name] = procCPU(p.t.pid(name))
	}
	if p.t.redis != nil {
		into["redis"] = procCPU(p.t.redis.Pid())
	}
	into["load"] = selfCPU()
}

// sample reads pg_stat_activity every 20 ms.
func (p *probe) sample(ctx context.Context, conn *pgx.Conn) {
	defer conn.Close(context.WithoutCancel(ctx))
	for sleepCtx(ctx, 20*time.Millisecond) {
		rows, err := conn.Query(ctx, `SELECT coalesce(state, ''), coalesce(wait_event_type, '') FROM pg_stat_activity
			WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`, p.t.dbName)
		if err != nil {
			return
		}
		p.samples++
		for rows.Next() {
			var state, wait string
			if rows.Scan(&state, &wait) != nil {
				continue
			}
			p.states[state]++
			if state == "active" && wait != "" && wait != "Client" {
				p.states["wait:"+wait]++
			}
		}
		rows.Close()
	}
}

func (p *probe) finish(ctx context.Context) usage {
	p.stop()
	p.wg.Wait()
	elapsed := time.Since(p.began)
	end := map[string]time.Duration{}
	p.readCPU(end)
	u := usage{CPU: map[string]time.Duration{}, Elapsed: elapsed, Sessions: map[string]float64{}}
	for name, v := range end {
		if v > 0 {
			u.CPU[name] = v - p.start[name]
		}
	}
	if p.conn != nil {
		var pg time.Duration
		for pid, cpu := range p.t.pgBackends(ctx, p.conn) {
			pg += cpu - p.pgPID[pid] // a backend born in the phase counts whole
		}
		u.CPU["postgres"] = pg
		u.Commits = p.t.commits(ctx, p.conn) - p.xact0
		p.conn.Close(ctx)
	}
	busy, total := machineCPU()
	if total > p.tot0 {
		u.Cores = float64(total-p.tot0) / float64(elapsed)
		u.Busy = float64(busy-p.busy0) / float64(elapsed)
	}
	for k, n := range p.states {
		if p.samples > 0 {
			u.Sessions[k] = float64(n) / float64(p.samples)
		}
	}
	return u
}

// statsFlush is how long after its last transaction a session's counts
// have surely reached pg_stat_database (PGSTAT_IDLE_INTERVAL, 10 s, and a
// margin).
const statsFlush = 11 * time.Second

// commitCount counts a phase's commits exactly: from before its first
// transaction to statsFlush after its last, when every session has
// reported them.
type commitCount struct {
	t     *topology
	start int64
}

func (t *topology) countCommits(ctx context.Context) commitCount {
	return commitCount{t: t, start: t.commitsNow(ctx)}
}

// since waits for the sessions' counts to arrive and returns the commits
// since the count began.
func (c commitCount) since(ctx context.Context) int64 {
	sleepCtx(ctx, statsFlush)
	return c.t.commitsNow(ctx) - c.start
}

// commitsNow reads the commits so far through a connection of its own to
// the admin database (not counted).
func (t *topology) commitsNow(ctx context.Context) int64 {
	conn, err := pgx.Connect(ctx, t.adminURL)
	if err != nil {
		return 0
	}
	defer conn.Close(ctx)
	return t.commits(ctx, conn)
}
