package chaos

// docSlow follows docIntro in docs/reliability.md: what keeps crediting
// when a provider is slow or loses answers, and what admission does under
// overload, with the measurements that led to each change.
const docSlow = `
## What keeps crediting when a provider is slow

A provider that loses the answers to half its calls used to hold crediting for
seconds: a consult whose answer was lost waited the whole read timeout (3 s), then
its event task's back-off (1 s, 2 s, 4 s), and half the retries were lost too; a
charge create waited its 10 s call timeout, then an absence read that hung as
often. In ` + "`slow-provider-50`" + ` (one run on the shared machine) the default's paid
charges were credited at p50 3.9 s, p99 27 s, and a quarter of the charges asked
for answered 504. What changed (` + "`providerclient/fleet`" + `, the worker's event task):

- **Hedged reads.** A read that has not answered after the hedge delay gets another
  attempt beside it: the delay is the 95th percentile of the provider's recent
  answered reads, at least 200 ms (` + "`PIXGATE_PROVIDER_HEDGE_AFTER`" + `) and at most a
  sixth of the read timeout; at most three attempts are in flight
  (` + "`PIXGATE_PROVIDER_HEDGE_ATTEMPTS`" + `) and the first answer wins. The first attempt
  is kept until the read timeout, so a provider that is merely slow still answers.
  Attempts cancelled because another answered count neither against the breaker nor
  the provider's health, and a read left unanswered counts once. Only reads are
  hedged, never a send or a create. Hedges sent are counted in
  ` + "`pixgate_provider_hedged_attempts_total{provider,lane}`" + `.
- **A create's deadline.** Each provider of a charge's route but the last gets
  ` + "`PIXGATE_PROVIDER_CREATE_DEADLINE`" + ` (3 s, at most half of the payer's time left);
  unanswered by then, the next provider takes the charge at once. The first may hold
  a charge under PixGate's id, but its QR code never reached PixGate, so no payer is
  shown it and it expires unpaid; should the route's other providers fail too, a
  retry with the same ` + "`external_id`" + ` repeats the create at the first.
- **Quick consults.** An event whose consult went unanswered is retried after
  200 ms for its first three retries (a read is safe to repeat, and it has already
  waited its timeout), then backs off as before; an open breaker is waited out.
- **Connections kept.** A provider's connections are kept for as many calls as go
  at once (64 idle per host; net/http's default kept 2, so a burst of consults
  reconnected, and under mutual TLS handshook, for all but two).
- Each provider has a breaker and a bulkhead per operation (creates, sends,
  reads, statements), and a slow provider holds at most half the events lane.

One run of the two scenarios at each step, on the shared machine, so direction
only. Before these changes (load average 17–20): charge creates that failed at
least once 24.5 % at 50 % and 15.3 % at 30 %, the default's charges credited p99
27 s at 50 %. With all of them (load about 5): 0 % and 0 %, the default's p99
1.2 s at 50 % and 442 ms at 30 %, b's under 100 ms. The code before the last two
changes also kept within 2 s at a similar light load (p99 1.7 s at 50 %), and at
load 12–18 a run of it credited some charges 11–14 s late while both providers'
read breakers flapped as the whole machine stalled: how the promise holds on a
heavily loaded machine is the table's to show.

## Under overload

Offered more withdrawals than its workers finish, PixGate used to accept them all:
the queues grew without bound, the postbacks of withdrawals already settled waited
behind new sends (up to 4,845 at once), and completions stopped for seconds at a
time. Now the api refuses new withdrawals and refunds, on both surfaces, with
` + "`503 overloaded`" + ` and ` + "`Retry-After`" + ` before anything is read or written, while
the tasks waiting for the workers would take them longer than
` + "`PIXGATE_ADMISSION_QUEUE_TIME`" + ` (2 s) at the rate they took tasks lately, or number
` + "`PIXGATE_ADMISSION_BACKLOG`" + ` (1,000) or more; a retry with the same
` + "`external_id`" + ` is safe. Charges and provider notifications are never refused for
it, and neither is anything while no worker is alive or the queues cannot be read
(what is accepted is in Postgres first). From half that bound on, creates are
admitted at the pace the workers take sends up, so they come in steadily, not by
the hundred and then none. Inside a worker, while settlements and
postbacks are behind, at most 8 sends run at once. [performance.md](performance.md#under-overload)
has the measurements.
`
