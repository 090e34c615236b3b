package load

import (
	"cmp"
	"context"
	"fmt"
	"os/exec"
	"time"

	"github.com/pixgate/pixgate/cmd/internal/harness/fixture"
	"github.com/pixgate/pixgate/cmd/internal/harness/receiver"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/money"
)

// measure runs every phase in order and checks the run at the end.
func measure(ctx context.Context, t *topology, o Options) (*report, error) {
	rep := &report{Start: time.Now(), Conns: o.Conns, Many: o.Many, Phases: map[string]phase{}}
	// The idle stack is watched for 30 s: its cost is a few wake-ups a
	// second at most, too few for a shorter window to count.
	warmup, window, idleWindow := 1*time.Second, 5*time.Second, 30*time.Second
	if o.Short {
		window, idleWindow = 2*time.Second, 4*time.Second
	}
	if o.Window > 0 {
		window = o.Window
	}
	stepf("own Redis, own database, %s sandbox, api and worker", o.Bin)
	if err := t.startRedis(ctx); err != nil {
		return nil, err
	}
	if err := t.createDatabase(ctx); err != nil {
		return nil, err
	}
	if err := t.configure(o.Profile != ""); err != nil {
		return nil, err
	}
	t.env = append(t.env, o.Env...)
	recv, err := receiver.Start(hostOf(t.postbacks), 0)
	if err != nil {
		return nil, err
	}
	defer recv.Close()
	recv.Ignore(barePostbackPath) // the bare and arch lifecycles wait for theirs on their own
	recv.Ignore(archPostbackPath)
	for _, start := range []func(context.Context) error{t.startSandbox, t.startAPI, t.startWorker} {
		if err := start(ctx); err != nil {
			return nil, err
		}
	}
	db, err := storage.Open(ctx, storage.Config{URL: t.dbURL, MaxConns: 4})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	// One driven integrator per connection, each wallet covering every
	// withdrawal of the run.
	fx, err := fixture.Direct(ctx, db, o.Conns, "Loja Carga", money.Percent(15000), money.Fixed(50), 100_000_000_00)
	if err != nil {
		return nil, err
	}
	in := integrators{tokens: make([]string, len(fx))}
	for i, f := range fx {
		in.tokens[i] = "Bearer " + f.Key()
	}
	r := &run{t: t, db: db, in: in, recv: recv, conns: o.Conns, warmup: warmup, measure: window, profile: o.Profile,
		api: newClient(hostOf(t.api), o.Conns+256), sandbox: newClient(hostOf(t.sandbox), 64)}

	if o.want("raw") {
		stepf("raw reservation, %d clients, PixGate idle", rawClients)
		raw, err := runRaw(ctx, t, warmup, window)
		if err != nil {
			return nil, err
		}
		for k, v := range raw {
			rep.Phases[k] = v
		}
	}
	if o.want("bare") {
		stepf("bare lifecycle, %d in flight over %d wallets, PixGate idle", bareClients, bareWallets)
		bp, err := runBare(ctx, t, t.postbacks, warmup, window)
		if err != nil {
			return nil, err
		}
		rep.Phases["bare"] = bp
	}

	if o.want("balance") {
		stepf("balance")
		rep.Phases["balance"] = r.balance(ctx)
	}

	if o.want("create") {
		stepf("withdrawal create as deployed, admission off")
		if err := t.withoutAdmission(ctx, func() {
			p := r.createWithdrawals(ctx, "create", "`POST /api/v1/withdrawals`, as deployed (worker running), admission off", r.in.tokens)
			r.noteInFlight(ctx, &p)
			rep.Phases["create"] = p
		}); err != nil {
			return nil, err
		}
		if _, _, err := r.drain(ctx, 3*time.Minute); err != nil {
			rep.Problems = append(rep.Problems, "after create: "+err.Error())
		}
	}
	peak := 0.0
	if o.want("stopped") {
		if err := r.stoppedAndDrain(ctx, rep); err != nil {
			return nil, err
		}
		peak = rep.Phases["drain"].Result.rate()
	}
	// The arch lifecycle runs right before PixGate's, as in each of the
	// pairs that follow (pairs.go).
	if o.want("arch") {
		stepf("arch lifecycle, %d in flight over %d wallets, PixGate idle", bareClients, bareWallets)
		ap, err := runArch(ctx, t, t.postbacks, warmup, window)
		if err != nil {
			return nil, err
		}
		rep.Phases["arch"] = ap
	}
	if o.want("lifecycle") {
		if err := r.lifecycles(ctx, rep, o.want("bare"), o.want("arch")); err != nil {
			return nil, err
		}
	}
	if o.want("overload") {
		r.overload(ctx, rep, o.Short)
	}
	if p, ok := rep.Phases["life-peak"]; ok && p.Result.Ops > 0 {
		peak = p.Result.rate()
	}
	if o.want("postback") {
		pbRate := max(0.3*peak, 5)
		stepf("sandbox payment → postback at %.0f/s", pbRate)
		pp, err := r.paymentPostback(ctx, pbRate)
		if err != nil {
			return nil, err
		}
		rep.Phases["payment-postback"] = pp
	}
	if o.want("batch") {
		stepf("a batch of %d withdrawals, reserved and sent", batchItems)
		r.batchPayout(ctx, rep)
	}
	if o.want("idle") {
		stepf("the stack idle, %v", idleWindow)
		rep.Phases["idle"] = r.idle(ctx, idleWindow)
	}
	// Charge create comes after the lifecycle, the payments and the idle
	// stack: the charges it leaves PENDING are consulted by the
	// reconciler on their schedule for minutes afterwards, work that
	// would otherwise be counted in those phases' CPU and commits.
	if o.want("charges") {
		stepf("charge create")
		rep.Phases["charge-create"] = r.createCharges(ctx)
	}
	if o.want("many") {
		if err := r.fewThenMany(ctx, rep, o); err != nil {
			return nil, err
		}
	}

	stepf("correctness")
	rep.Problems = append(rep.Problems, r.check(ctx)...)
	rep.End = time.Now()
	return rep, nil
}

// fewThenMany measures withdrawal create with the run's integrators, then
// with o.Many: the first right before the others are added, so that the two
// are minutes apart at the same point of the run's history (its tables as
// full, its backlog drained) and differ only in the integrators. Measured
// against the create at the start of the run instead, the ratio moved with
// the run's history and the machine: 0.75× to 1.19× over four runs.
func (r *run) fewThenMany(ctx context.Context, rep *report, o Options) error {
	create := func(name, desc string) {
		if _, _, err := r.drain(ctx, 3*time.Minute); err != nil {
			rep.Problems = append(rep.Problems, "before "+name+": "+err.Error())
		}
		if err := r.t.withoutAdmission(ctx, func() {
			p := r.createWithdrawals(ctx, name, desc, r.in.tokens)
			r.noteInFlight(ctx, &p)
			rep.Phases[name] = p
		}); err != nil {
			rep.Problems = append(rep.Problems, name+": "+err.Error())
		}
	}
	stepf("%d integrators, right before the others are added", o.Conns)
	create("create-few", fmt.Sprintf("`POST /api/v1/withdrawals`, as deployed, %d integrators, admission off, right before the %d", o.Conns, o.Many))
	stepf("%d integrators", o.Many)
	if err := fixture.Fill(ctx, r.db, o.Many-o.Conns); err != nil {
		return err
	}
	create("create-many", fmt.Sprintf("`POST /api/v1/withdrawals`, as deployed, %d integrators, admission off", o.Many))
	return nil
}

// stoppedAndDrain creates withdrawals with the worker stopped, then starts
// it and times the backlog's drain: the lifecycle's peak.
func (r *run) stoppedAndDrain(ctx context.Context, rep *report) error {
	t := r.t
	stepf("withdrawal create, worker stopped")
	t.stop("worker")
	rep.Phases["create-stopped"] = r.createWithdrawals(ctx, "create-stopped", "`POST /api/v1/withdrawals`, worker stopped", r.in.tokens)
	stepf("withdrawal create, worker stopped, one integrator")
	rep.Phases["create-stopped-hot"] = r.createWithdrawals(ctx, "create-stopped-hot",
		"`POST /api/v1/withdrawals`, worker stopped, every connection for one integrator", r.in.tokens[:1])
	if err := t.startWorker(ctx); err != nil {
		return err
	}
	stepf("the backlog drains: the lifecycle's peak")
	pr := t.newProbe(ctx)
	n, peak, err := r.drain(ctx, 3*time.Minute)
	if err != nil {
		rep.Problems = append(rep.Problems, "backlog: "+err.Error())
	}
	rep.Phases["drain"] = phase{Name: "drain", Desc: "the worker-stopped backlog sent and settled (lifecycle peak, no creates)",
		Result: result{Ops: n, Elapsed: time.Duration(float64(n) / max(peak, 1e-9) * float64(time.Second))}, Usage: pr.finish(ctx), NoLatency: true}
	return nil
}

// lifecycles measures the whole cash-out lifecycle with postbacks:
// closed-loop as the arch and bare lifecycles run (its peak), for 64
// integrators and for one; with the yardsticks, they and the peak again
// (pairs.go); then open-loop at 30% of the arch lifecycle's rate and at
// 30% of PixGate's peak, the pairs' medians.
func (r *run) lifecycles(ctx context.Context, rep *report, bare, arch bool) error {
	stepf("lifecycle closed-loop, %d in flight over %d integrators", bareClients, len(r.in.tokens))
	peak := r.lifecycleClosed(ctx, "life-peak", fmt.Sprintf("whole cash-out lifecycle with a postback, closed-loop, %d in flight over %d integrators (its peak)",
		bareClients, len(r.in.tokens)), r.in.tokens)
	rep.Phases["life-peak"] = peak
	stepf("lifecycle closed-loop, one integrator")
	rep.Phases["life-hot"] = r.lifecycleClosed(ctx, "life-hot", fmt.Sprintf("the same, %d in flight for one integrator", bareClients), r.in.tokens[:1])
	if bare || arch {
		if err := r.pairs(ctx, rep, bare, arch); err != nil {
			return err
		}
	}
	// The open-loop rates are 30% of the pairs' median rates; each runs
	// right after the arch lifecycle at the same rate, its yardstick.
	all := rep.peakPairs()
	if a := over(with(all, archOf), func(p pairRun) float64 { return p.Arch.Result.rate() }).Med; a > 0 {
		rate := 0.3 * a
		if err := r.archAt(ctx, rep, "arch-30arch", rate); err != nil {
			return err
		}
		stepf("lifecycle at %.0f/s (30%% of the arch lifecycle)", rate)
		rep.Phases["life-30arch"] = r.lifecycleOpen(ctx, "life-30arch", "the lifecycle at 30% of the arch lifecycle's rate, open-loop, create → postback received", rate, r.in.tokens)
	}
	if p := cmp.Or(over(all, func(p pairRun) float64 { return p.Life.Result.rate() }).Med, peak.Result.rate()); p > 0 {
		rate := 0.3 * p
		if arch {
			if err := r.archAt(ctx, rep, "arch-30peak", rate); err != nil {
				return err
			}
		}
		stepf("lifecycle at %.0f/s (30%% of its peak)", rate)
		rep.Phases["life-30peak"] = r.lifecycleOpen(ctx, "life-30peak", "the lifecycle at 30% of its peak, open-loop, create → postback received", rate, r.in.tokens)
	}
	return nil
}

// archAt runs the arch lifecycle open-loop at rate, as phase name.
func (r *run) archAt(ctx context.Context, rep *report, name string, rate float64) error {
	stepf("arch lifecycle at %.0f/s, open-loop, PixGate idle", rate)
	p, err := runArchOpen(ctx, r.t, r.t.postbacks, name, rate, r.measure)
	if err != nil {
		return err
	}
	rep.Phases[name] = p
	return nil
}

// check: every withdrawal final, every postback received, audit clean.
func (r *run) check(ctx context.Context) []string {
	var problems []string
	if _, _, err := r.drain(ctx, 3*time.Minute); err != nil {
		problems = append(problems, err.Error())
	}
	var rows, delivered int
	if err := r.db.Pool().QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE status = 'DELIVERED') FROM postbacks`).Scan(&rows, &delivered); err != nil {
		problems = append(problems, err.Error())
	}
	_ = waitFor(ctx, time.Minute, func() bool { got, _ := r.recv.Counts(); return got >= rows })
	got, deliveries := r.recv.Counts()
	if got != rows || delivered != rows {
		problems = append(problems, fmt.Sprintf("%d postbacks recorded, %d delivered, %d received", rows, delivered, got))
	}
	if deliveries != got {
		stepf("note: %d postback deliveries for %d resources (redeliveries)", deliveries, got)
	}
	audit := exec.CommandContext(ctx, r.t.bin, "audit")
	audit.Env = r.t.env
	if out, err := audit.CombinedOutput(); err != nil {
		problems = append(problems, fmt.Sprintf("pixgate audit: %v: %s", err, out))
	}
	stepf("checked: %d postbacks received, audit %s", got, map[bool]string{true: "clean", false: "NOT clean"}[len(problems) == 0])
	return problems
}
