package chaos

import "strings"

// The randomized run writes its own section of docs/reliability.md,
// between two markers, which the scenarios' run keeps as it finds it when
// it rewrites the rest of the page; the randomized run replaces that
// section alone.
const (
	soakBegin = "<!-- soak:begin: written by make soak (pixgate-chaos -soak); make chaos keeps it -->"
	soakEnd   = "<!-- soak:end -->"
)

// soakSection is doc's randomized run's section, markers included, ""
// when it has none.
func soakSection(doc string) string {
	i := strings.Index(doc, soakBegin)
	if i < 0 {
		return ""
	}
	j := strings.Index(doc[i:], soakEnd)
	if j < 0 {
		return ""
	}
	return doc[i : i+j+len(soakEnd)]
}

// withSoakSection is doc with its randomized run's section replaced by
// section, or section appended after a blank line when doc has none; an
// empty section changes nothing.
func withSoakSection(doc, section string) string {
	if section == "" {
		return doc
	}
	if old := soakSection(doc); old != "" {
		return strings.Replace(doc, old, section, 1)
	}
	return strings.TrimRight(doc, "\n") + "\n\n" + section + "\n"
}

// soakIntro opens the randomized run's section.
const soakIntro = `## Randomized run

` + "`make soak`" + ` runs the same deployment with a third provider under a load and faults
drawn at random from one seed, 100,000 operations, then hands everything to a checker
that trusts neither the harness's model nor PixGate's ledger alone. It rewrites this
section only (the scenarios' run keeps it) and exits non-zero, naming each finding and
printing the command that runs the same plan again.

` + "```sh" + `
make soak                                                        # a new seed, 100,000 operations, this section
go run ./cmd/pixgate-chaos -soak -seed 42 -ops 5000              # a plan again, or a short one (report in bin/reliability.md)
` + "```" + `

- **Topology.** The scenarios' one, and provider ` + "`c`" + `: a ` + "`pixgate sandbox --contract woovi`" + `
  (Woovi's API, its state in the providers' Postgres cluster beside the others'),
  registered with ` + "`pixgate provider add --name c --kind woovi`" + ` (the AppID as client id)
  before the API and worker processes start. Its webhooks come through the balancer on
  c's own path. Five integrators: the scenarios' four and *Loja Enxuta* (cash-in
  percent 1, cash-out fixed 0.50), whose wallet starts empty and whose every withdrawal
  is a sweep of all it has (its v1 balance, less the fee), so that infractions on its
  charges find the money gone.
- **The plan.** One seed draws everything the harness does, before it starts: each
  operation's kind, integrator, API (v1 or v2), amount and time (operation i at i/rate
  seconds); charges (34 %): 70 % paid by their payer 0.2–3 s after they are issued,
  20 % 3–40 s after, 10 % never (an ` + "`expiration`" + ` of 60–120 s, left to expire); withdrawals
  (26 %): eight in ten to good keys, one to the key the sandboxes fail (` + "`fail_keys`" + `), one
  to a key not in their directory (refused at once); refunds (10 %) of a charge paid at
  least 5 s before, on v1 or v2, one in five of the whole amount, at most two per
  charge; MED infractions (1.5 %) on a charge paid at least 10 s before, two in five on
  the lean integrator's, at most one per charge, disputing all or part of it, closed
  by the sandbox 5 s–3 min later AGREED (5 in 10), DISAGREED (3) or CANCELLED (2), one in
  ten left open until the end; lookups (18.5 %) and balances (10 %). The payer pays at
  the sandbox of the provider PixGate answered (v2 charges: the v1 read of them says
  it); an infraction is opened at that provider's sandbox (` + "`POST /sandbox/charges/{id}/infraction`" + `),
  except at c, whose contract has no MED. The faults, one after another after 20 s of
  load, 5–30 s apart, each for 3–30 s on a provider or a process drawn at random:
  answers lost after the work was done (` + "`timeout_rate`" + ` 20–80 % on the face's create
  routes), calls answered 4–12 s late (beyond the 3 s read timeout; beyond the 10 s
  call timeout from 10 s), 30–90 % of calls failing 5xx with nothing done, the provider
  down, 50–100 % of reads failing (the face's read routes), notifications dropped,
  duplicated (2–4 copies) or reordered with a stale copy last, an API or a worker killed
  (SIGKILL) and started again at the end of its span, a sandbox killed and started
  again (its store survives). The routes: every integrator's charge and withdrawal
  routes drawn at the start, one integrator's changed every 20–60 s
  (` + "`pixgate route set`" + `), each one to three providers in a random order, efi or woovi first
  as often as the family.
- **Replaying.** The same seed, ` + "`-ops`" + ` and ` + "`-rate`" + ` draw the same plan: the same operations,
  faults and route changes at the same times. What the machine's timing makes of it
  cannot be replayed: which request a 30 % fault meets, whether a payment comes before
  or after a route change, which provider a failover lands on. A failing seed is worth
  running again; its findings may not come back the same.
- **Settings** besides the scenarios': ` + "`PIXGATE_PROVIDER_EXTENSIONS=true`" + ` (the default
  sandbox serves PixGate's extensions of the family contract, so its infractions are
  listed and one whose notification was dropped is still found) and
  ` + "`PIXGATE_INFRACTION_POLL=15s`" + `.
- **Drain.** The load's last steps end (payments due, infractions to close), faults are
  off, what the load never learnt is looked up, charges whose payer had not paid are
  paid, infractions still open are closed with their planned result, then the harness
  waits (at most 10 minutes) until no charge is ` + "`PENDING`" + `, no withdrawal, refund or MED
  return ` + "`PROCESSING`" + `, no infraction ` + "`OPEN`" + `, no postback undelivered and nothing pending,
  reserved or blocked.
- **The checker.** It reads every sandbox's ledger (` + "`GET /sandbox/transactions`" + `, every type,
  MED returns and infractions too) as what happened, and PixGate's records, postings and
  float accounts from its Postgres, and follows each sandbox transaction to PixGate's
  record by the ids the contracts carry (PixGate's own for charges, payments and
  refunds; the sandbox's for MED returns and infractions). Fees come from the
  integrators' rules, amounts from the sandboxes. It counts, each expected 0:
  *paid twice* (a withdrawal, refund or MED return completed more than once across the
  sandboxes); *lost* (a sandbox transaction of PixGate's that PixGate's records do not
  reflect in status, amount or provider, a charge paid at a sandbox and not credited, a
  record answered as created that PixGate does not have, postings that move less than
  the sandboxes imply); *created* (PixGate completing or crediting what no sandbox
  holds, postings that move more); *FAILED but paid*; *float ≠ balance* (for each
  provider, its balance, its ledger and PixGate's float account must all have moved by
  the same amount since the start); *wallet ≠ the sandboxes' ledgers* (each integrator's
  available + pending + reserved + blocked − debt must equal its credit plus the net of
  every charge paid, less every withdrawal and refund completed with its fee and every
  MED return completed; nothing pending, reserved or blocked; no more debt than its MED
  returns took); *not final*; *not as asked* (a record the harness never asked for, or
  with another amount or fee). Besides: ` + "`pixgate audit`" + ` clean, ` + "`pixgate audit --providers`" + `
  clean where the binary has it, every provider's day reconciled, every final status
  delivered as a postback.
`
