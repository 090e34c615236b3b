package main

// loadSection is the deployed stack under load: the table cmd/pixgate-load
// wrote, with how it was produced and how to read it.
func loadSection(p *printer, env Env) {
	p.f("## The deployed stack under load\n\n")
	p.f("One `pixgate sandbox`, one `pixgate api` and one `pixgate worker` of the freshly built binary,\n")
	p.f("on a database and a Redis server of their own, driven over HTTP by `cmd/pixgate-load`")
	if env.LoadCommand != "" {
		p.f(" (`%s`)", env.LoadCommand)
	}
	p.f(".\n")
	p.f("The yardstick is the raw reservation transaction on the same Postgres in the same run, with\n")
	p.f("PixGate idle: *× raw tx* is an operation's rate divided by the raw transaction's rate.\n")
	p.f("Throughput rows are closed-loop (each connection sends its next request when the last is\n")
	p.f("answered); the lifecycle and payment rows are open-loop at a fixed rate, their latencies\n")
	p.f("counted from when each request was due. The lifecycle's latencies are create → `COMPLETED`\n")
	p.f("(both timestamps from the database), with the sandbox settling at once; the payment row's are\n")
	p.f("from the payment at the sandbox to the postback's arrival at the harness's receiver.\n")
	p.f("*CPU per op* is each process's CPU time (from /proc) divided by the operations: the api, the\n")
	p.f("worker, the sandbox, the Postgres backends serving the run's database, its Redis server and\n")
	p.f("the load generator itself; *CPU × raw tx* is their sum divided by the raw transaction's, a\n")
	p.f("cost that holds up when other work on the machine moves the rates. *What bounds it* compares the whole machine's busy cores with this\n")
	p.f("run's share (the rest is other work on the machine) and averages `pg_stat_activity` samples\n")
	p.f("of the run's sessions, every 20 ms.\n\n")
	p.f("%s\n", env.Load)
}
