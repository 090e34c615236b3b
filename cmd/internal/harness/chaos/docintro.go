package chaos

// docIntro opens docs/reliability.md.
const docIntro = `# Reliability under faults

PixGate is run here as production runs it and broken on purpose, one fault at a
time, under a steady load. Afterwards nothing may be lost, created or paid twice,
every record must be final, every status change must have reached its integrator,
the ledger audit must be clean, each provider's float account must equal its
balance and each provider's day must reconcile. ` + "`make chaos`" + ` runs it (about 17
minutes on two cores) and rewrites this page; it exits non-zero when a check fails.
` + "`make soak`" + ` runs a randomized run beside it, with a third provider, and writes the
[last section](#randomized-run), which ` + "`make chaos`" + ` keeps as it finds it.

` + "```sh" + `
make chaos                                                       # every scenario, this page
go run ./cmd/pixgate-chaos -scenarios baseline,two-providers     # some, report in bin/reliability.md
go run ./cmd/pixgate-chaos -hog                                  # every scenario under the CPU hog
go run ./cmd/pixgate-chaos -h                                    # rate, bounds, logs (bin/chaos-logs)
` + "```" + `

## What runs

- **Topology.** Everything of its own, on free loopback ports, in temporary
  directories removed afterwards: a Postgres cluster for PixGate (` + "`initdb`" + ` from the
  local server binaries; run as the ` + "`postgres`" + ` user when the harness runs as root), a
  Redis server without persistence, two sandboxes keeping their state in a second
  Postgres cluster (a provider's records are not in PixGate's database, and
  restarting PixGate's Postgres must not take the providers down with it), two
  ` + "`pixgate api`" + ` and two ` + "`pixgate worker`" + ` processes of the binary just built.
- **Two providers of different contracts.** The default provider is a
  ` + "`pixgate sandbox`" + ` of the family contract, set by the environment as a
  single-provider deployment sets it. Provider ` + "`b`" + ` is a ` + "`pixgate sandbox --contract efi`" + `
  (the BCB API Pix as Efí serves it, over mutual TLS with certificates of its own),
  registered with ` + "`pixgate migrate`" + ` and ` + "`pixgate provider add --name b --kind efi`" + `
  (client certificate, CA, client secret in a file) before the API and worker
  processes start, since they build their providers at start. Until the
  ` + "`two-providers`" + ` scenario no route names it, so every scenario before it runs exactly
  as with one provider; every fault is set on the default sandbox.
- **Provider notifications** (each provider's on its own webhook path and token)
  reach the APIs as behind a real load balancer: ` + "`PIXGATE_PUBLIC_BASE_URL`" + ` is a
  small balancer in the harness that sends each notification to the two APIs in
  turn, passes over one that refuses the connection (a stopped process), and
  answers 502 without resending when an API took the request and lost it (nginx's
  ` + "`proxy_next_upstream error`" + `). A sandbox retries a notification
  the receiver does not accept for up to 1 h, the waits doubling from 200 ms up to 5 s.
- **Integrators.** Four, made with ` + "`pixgate integrator create`" + ` and credited
  R$ 1,000,000.00 each with ` + "`pixgate wallet credit`" + `: cash-in percent 1.5 / cash-out
  fixed 0.50; fixed 0.99 / percent 1.2; percent 2.75 / fixed 1.00 with a 10 s
  settlement hold; no fees.
- **Load.** 40 operations a second, started on time whatever the answers take,
  alternating between the two APIs and between v1 and v2: 34 % charges, each paid at
  the sandbox that holds it (` + "`POST /sandbox/charges/{id}/pay`" + `; the one v1's
  ` + "`provider`" + ` names, else the default's, then b's) 0.2–1 s after it was issued;
  30 % withdrawals, one in five to a PIX key the sandbox fails (` + "`fail_keys`" + `);
  12 % refunds (` + "`POST /v2/pix/refund`" + `; v1 has none) of charges paid at least 5 s
  before, one in ten of the whole amount; 16 % lookups (v1 ` + "`GET`" + ` by
  ` + "`external_id`" + `, v2 ` + "`consult-transaction`" + `); 8 % balances. The client is the Go
  SDK (` + "`api/sdk`" + `): it retries what may have failed (no answer, 429, 503, 504, a v2
  token refused, once with a new one) up to 4 attempts, each to the next API in turn,
  with the **same** ` + "`external_id`" + `; a request it never gets a definitive answer to
  is looked up at the end.
- **Postbacks.** Every charge and withdrawal names the harness's receiver as
  ` + "`postbackUrl`" + `. It verifies every signature as [postbacks.md](postbacks.md)
  tells integrators to and answers 500 to one delivery in five.
- **Faults.** Each scenario runs 10 s of load, the fault for its duration, then
  25 s of load after the recovery, and ends with ` + "`pixgate audit`" + ` under load, then, the load
  paused until what is in flight settles, ` + "`pixgate audit --providers`" + `.
  The slow-sends scenario holds its fault for ` + "`-slow-for`" + ` (1 minute; ` + "`-slow-for 3m`" + `
  for the longer proof) and checks one promise more: every charge paid while it
  lasts is credited within 10 s of its payment, its sends crawling in a lane of
  their own.
- **A hanging endpoint** (` + "`hanging-endpoint`" + `). For 30 s the receiver holds every
  delivery to the first integrator's endpoint unanswered, until PixGate gives it up at
  its timeout (10 s) or the fault ends (then 503: they are retried). Its promise
  besides the run's: the other integrators' postbacks arrive as promptly as in the
  10 s before it: the 99th percentile of their lag (final status written → first
  attempt of its postback) while the endpoint hangs is within the larger of 1.5× and
  0.5 s more than before it (a worker runs at most ` + "`PIXGATE_POSTBACK_PER_INTEGRATOR`" + `
  deliveries of one integrator at once). The notes give both, and the hanging
  integrator's own. The check tells the cap from its absence: run with
  ` + "`-env PIXGATE_POSTBACK_PER_INTEGRATOR=64`" + ` (as many as a worker's postbacks lane
  holds), the others' p99 was 5.1 s during the hang against 44 ms before it.
- **The CPU hog** (` + "`cpu-hog`" + `). The harness starts a child process of its own binary
  that spins two threads per core at normal priority beside PixGate's processes,
  Postgres, Redis and the sandboxes, so that the cores are oversubscribed, for 60 s;
  every charge paid meanwhile must still be credited within 60 s. The hog never
  outlives the harness: it is stopped when the scenario or the run ends, the kernel
  kills it with the harness (` + "`Pdeathsig`" + `), and it exits by itself once its parent is
  gone. With ` + "`-hog`" + ` the same hog runs under *every* selected scenario, from the first
  one's start to the last one's end (the drain and the checks after it run without
  it); each scenario's notes say how much CPU the hog took in it.
- **Two providers** (` + "`two-providers`" + `, the first to route to b). As it starts, every
  integrator is routed ` + "`pixgate route set --charges default,b --withdrawals default,b`" + `;
  each process reads the routes again every 2 s, well inside the 10 s of load before
  the fault. Then the default sandbox is down for 30 s (every call 503) while b is
  healthy. Its promises besides the run's: at most 1 % of the charges asked for
  during the outage see a failed attempt (the integrator sees one charge, created
  at b), each withdrawal is sent to exactly one provider, and once the default is
  back new charges go to it again within 10 s (the notes say when the first did).
- **A slow provider among two** (` + "`slow-provider-50`" + `, ` + "`slow-provider-30`" + `, after
  ` + "`two-providers`" + `). As each starts, every integrator is routed
  ` + "`pixgate route set --charges default:50,b:50 --withdrawals default,b`" + `, so that both
  providers take charges all along. Then, for 30 s, the default sandbox does the work
  of 50 % (or 30 %) of its calls and answers nothing: it holds the connection until
  PixGate gives up (at most 2 minutes), as a provider whose answers are lost does; b is
  healthy. Their promises besides the run's: every charge paid while it lasts, at either
  provider, is credited within 2 s of its payment, and at most 1 % of the charges asked
  for meanwhile see a failed attempt (those the default took fail over to b). The notes
  give the credit lags by provider (count, median, 99th percentile, longest), the share
  of charge creates that failed, where they were created and how long their answer took.
- **Drain.** The load stops, outcomes it never learnt are looked up, charges issued
  but never paid are paid, then the harness waits (at most 4 minutes) until no
  charge is ` + "`PENDING`" + `, no withdrawal or refund ` + "`PROCESSING`" + `, no postback
  undelivered and no money held or reserved. PixGate's reconciler does the rest.
- **Settings changed** for the run (everything else is the default):
  ` + "`PIXGATE_RECONCILE_STALE_AFTER=20s`" + ` (work a lost Redis took is re-driven after
  20 s instead of 2 minutes, inside each scenario), ` + "`PIXGATE_POSTBACK_INITIAL_INTERVAL=1s`" + `
  and ` + "`PIXGATE_POSTBACK_MAX_INTERVAL=10s`" + ` (the receiver's failures are retried within
  the run), ` + "`PIXGATE_V1_RATE_PER_MINUTE`" + ` and ` + "`PIXGATE_V2_RATE_PER_MINUTE`" + ` at
  100000 (four integrators carry the whole load), ` + "`PIXGATE_POSTBACK_ALLOW_HTTP`" + ` and
  ` + "`PIXGATE_POSTBACK_ALLOW_PRIVATE`" + ` (the receiver is on loopback). Postgres runs
  with ` + "`fsync=off`" + `: the harness restarts the server, never the machine.

## The checks

- **Money.** The load keeps a model of every wallet from its fee rules
  ([ledger.md](ledger.md)) and what happened at the provider: a charge it paid
  credits amount − cash-in fee; a withdrawal or refund the provider completed
  debits amount + cash-out fee; anything else moves nothing. Each record's postings
  on its integrator's accounts (the ledger references name the record) are
  compared with that: more is money *created*, less money *lost*. A provider
  transaction of one record paid more than once is money *duplicated*. After the
  drain each wallet must equal the model to the centavo, with nothing pending or
  reserved.
- **Providers against PixGate.** Every transaction in either sandbox's ledger that
  moved money (` + "`GET /sandbox/transactions`" + `; the efi contract carries PixGate's
  ids without hyphens) must be one PixGate record's, in the matching status, at the
  provider PixGate records; every PixGate record that moved money must have exactly
  one across both sandboxes (a withdrawal id at both is money duplicated).
- **Floats.** Before the load, what each sandbox held before the run (R$ 1,000,000.00
  each) is booked with ` + "`pixgate provider adjust`" + `, as an operator books the money an
  account held before PixGate ([operations.md](operations.md#providers-and-routes)); after
  the drain, ` + "`pixgate provider balance`" + `: each provider's float account (the money
  PixGate's ledger expects it to hold) must equal the sandbox's balance, to the centavo.
- **Records.** Every record final after the drain, and within the bound: from
  the payment (charges) or the creation (withdrawals, refunds) to the final status
  (when PixGate wrote it, with its postback).
- **Crediting.** Every charge paid is credited within the bound, 60 s, the crediting
  promise (the *Records* column), and each scenario's notes give how soon the charges
  paid in it were credited, by provider: how many, the median, the 99th percentile and
  the longest (one never credited counts until the scenario's end). A scenario with a
  tighter promise (` + "`slow-sends`" + ` 10 s, ` + "`slow-provider-50`" + ` and ` + "`slow-provider-30`" + ` 2 s)
  judges every charge paid while its fault lasts against it, and notes those lags too.
- **Postbacks.** Every status change of a record with a ` + "`postbackUrl`" + `
  (charges ` + "`PAID`" + `/` + "`EXPIRED`" + `, transfers ` + "`COMPLETED`" + `/` + "`FAILED`" + `) answered 2xx at
  least once, none under two ` + "`webhook-id`" + `s, every signature valid.
- **Audit.** ` + "`pixgate audit`" + ` exits 0 after every scenario and after the drain, and
  ` + "`pixgate audit --providers`" + ` after every scenario: each provider's balance equals its
  float, and no transfer its statements show settled is paid twice, paid elsewhere, FAILED
  at PixGate, or of another amount ([ledger.md](ledger.md#the-providers-books---providers)).
- **Reconciliation.** After the drain every day the run touched is reconciled, for
  each provider, with that sandbox's statement, as an operator would
  (` + "`pixgate reconcile run --provider P`" + `, then ` + "`report --json`" + `;
  [reconciliation.md](reconciliation.md)): each must reconcile, with no exception of
  any kind and no balance difference left unexplained. The efi contract's statement
  carries no balances ("unexplained not known"); the float check covers b's.

## Reading the table

- *Load*: operations started per second in the scenario.
- *Failed requests*: HTTP attempts of the load answered other than 2xx, or not at
  all (` + "`conn`" + `, ` + "`timeout`" + `), by code. A 422 is a refund of a charge PixGate has not
  seen paid yet, tried again later. These are what integrators see; the money
  columns say whether any of it mattered.
- *Money*: in centavos, over the records asked for during the scenario.
- *Records final after the bound*: how many took longer than the bound, the
  longest, and how many never became final; each late one is named under the table.
- *Recovery*: from the end of the fault (the process back, the provider healthy)
  until the last failed request started or the last record asked for before it
  became final, whichever is later.
`
