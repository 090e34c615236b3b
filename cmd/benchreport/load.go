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
	p.f("answered); the payment row is open-loop at a fixed rate, its latencies counted from the\n")
	p.f("payment at the sandbox to the postback's arrival at the harness's receiver.\n")
	p.f("The whole cash-out lifecycle (create, send, the provider's notification, settlement, the\n")
	p.f("postback delivered) has its own yardstick, the *bare lifecycle*: a small program of the\n")
	p.f("harness with no framework and no queue that does the same durable work with 3 commits and 3\n")
	p.f("HTTP requests a withdrawal (reservation; a minimal provider's call and its notification;\n")
	p.f("settlement with its postback row; the signed postback; its delivery), closed-loop with 32 in\n")
	p.f("flight over 64 wallets, with PixGate idle; its CPU is the harness's and its Postgres backends'.\n")
	p.f("PixGate's lifecycle runs the same way (32 in flight, each waiting for its postback) and\n")
	p.f("open-loop at fixed rates, its latencies create → postback received, with the sandbox settling\n")
	p.f("at once; *× bare* and *CPU × bare* divide by the bare lifecycle's figures of the same run.\n")
	p.f("The bare lifecycle and the lifecycle at its peak then run twice more, each pair one right\n")
	p.f("after the other (the cores' speed moves over minutes on a shared machine); the goals against\n")
	p.f("the bare lifecycle take the median of the three pairs' ratios, and the open-loop rates are\n")
	p.f("30%% of the pairs' median rates.\n")
	p.f("*CPU per op* is each process's CPU time (from /proc) divided by the operations: the api, the\n")
	p.f("worker, the sandbox, the Postgres backends serving the run's database, its Redis server and\n")
	p.f("the load generator itself; *CPU × raw tx* is their sum divided by the raw transaction's, a\n")
	p.f("cost that holds up when other work on the machine moves the rates. *What bounds it* compares the whole machine's busy cores with this\n")
	p.f("run's share (the rest is other work on the machine) and averages `pg_stat_activity` samples\n")
	p.f("of the run's sessions, every 20 ms.\n\n")
	p.f("%s\n", env.Load)
}
