package storage

// How a run's items (recon_new) replace the day's, and the day's figures.
// An item is known across runs by its key: found again, it keeps its id
// and, when it is still of the same kind, its resolution; not found again,
// it goes, unless an operator resolved it or a resolution posted part of
// it, which are kept (no longer reported) for the record. Named arguments
// as in reconciliation_sql.go, and @run.

// reconExceptionList is the kinds an operator resolves, for SQL.
const reconExceptionList = `('missing_in_pixgate', 'missing_at_provider', 'amount_mismatch', 'status_mismatch', 'duplicate_at_provider')`

const reconDropItemsSQL = `
DELETE FROM reconciliation_items i WHERE i.provider = @provider AND i.day = @day::date
	AND i.status <> 'resolved' AND i.adjusted = 0
	AND NOT EXISTS (SELECT 1 FROM recon_new n WHERE n.item_key = i.item_key);
UPDATE reconciliation_items i SET status = 'info', updated_at = @now::timestamptz
WHERE i.provider = @provider AND i.day = @day::date AND i.status = 'open'
	AND NOT EXISTS (SELECT 1 FROM recon_new n WHERE n.item_key = i.item_key)`

const reconRefreshItemsSQL = `
UPDATE reconciliation_items i SET run_id = @run::bigint, kind = n.kind, expected_kind = n.expected_kind,
	status = CASE WHEN i.status = 'resolved' AND i.kind = n.kind THEN 'resolved'
		WHEN n.kind IN ` + reconExceptionList + ` THEN 'open' ELSE 'info' END,
	resolved_at = CASE WHEN i.status = 'resolved' AND i.kind = n.kind THEN i.resolved_at END,
	line_kind = n.line_kind, line_provider_id = n.line_provider_id, line_external_id = n.line_external_id,
	line_end_to_end_id = n.line_end_to_end_id, line_amount = n.line_amount, line_fee = n.line_fee,
	line_status = n.line_status, line_settled_at = n.line_settled_at,
	record_kind = n.record_kind, record_id = n.record_id, record_amount = n.record_amount,
	record_status = n.record_status, record_settled_at = n.record_settled_at,
	delta = n.delta, updated_at = @now::timestamptz
FROM recon_new n WHERE i.provider = @provider AND i.day = @day::date AND i.item_key = n.item_key`

const reconAddItemsSQL = `
INSERT INTO reconciliation_items (id, provider, day, item_key, run_id, kind, expected_kind, status,
	line_kind, line_provider_id, line_external_id, line_end_to_end_id, line_amount, line_fee, line_status, line_settled_at,
	record_kind, record_id, record_amount, record_status, record_settled_at, delta, created_at, updated_at)
SELECT gen_random_uuid(), @provider::text, @day::date, n.item_key, @run::bigint, n.kind, n.expected_kind,
	CASE WHEN n.kind IN ` + reconExceptionList + ` THEN 'open' ELSE 'info' END,
	n.line_kind, n.line_provider_id, n.line_external_id, n.line_end_to_end_id, n.line_amount, n.line_fee, n.line_status, n.line_settled_at,
	n.record_kind, n.record_id, n.record_amount, n.record_status, n.record_settled_at, n.delta, @now::timestamptz, @now::timestamptz
FROM recon_new n
WHERE NOT EXISTS (SELECT 1 FROM reconciliation_items i WHERE i.provider = @provider AND i.day = @day::date AND i.item_key = n.item_key)`

// reconFloatAccounts selects the float account of @provider (alias a):
// its shards.
const reconFloatAccounts = `a.integrator_id IS NULL AND a.kind = 'provider' AND a.provider = @provider`

// reconFloatOpsSQL is what operators' float adjustments on the provider's
// float (postings other than reconciliation's own) did to the money
// PixGate expects there: those that name a day meeting dayCond (on d.day,
// whenever they were posted), and those that name none posted from
// undatedFrom on. An adjustment that names a day is that day's movement at
// the provider; one that names none is no day's movement (the money the
// account held before PixGate's first transaction), only a correction of
// what PixGate expects from when it was posted.
func reconFloatOpsSQL(dayCond, undatedFrom string) string {
	dated := `(SELECT coalesce(sum(-e.amount), 0) FROM float_adjustment_days d
		JOIN ledger_entries e ON e.transaction_id = d.transaction_id JOIN ledger_accounts a ON a.id = e.account_id
		WHERE ` + dayCond + ` AND ` + reconFloatAccounts + `)`
	if undatedFrom == "" {
		return dated
	}
	return dated + ` + (SELECT coalesce(sum(-e.amount), 0) FROM ledger_transactions t
		JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
		WHERE t.kind LIKE 'float.%' AND t.kind <> 'float.reconcile' AND ` + reconFloatAccounts + `
		AND t.created_at >= ` + undatedFrom + `
		AND NOT EXISTS (SELECT 1 FROM float_adjustment_days d WHERE d.transaction_id = t.id))`
}

// reconFiguresSQL sets the run's balance figures. PixGate's side of the day
// (float_net) is what its records that settled in the day, the float
// adjustments that name the day and the adjustments resolutions posted for
// the day's items do to the money it expects at the provider; what a
// resolution or a dated float adjustment posted counts on its day,
// whenever it was posted, and a float adjustment that names no day counts
// on none (the statement's opening balance held that money already); the
// items explain only what this run found (an adjustment of an item it no
// longer finds is money no line explains any more). At the close
// (float_at_close), that money is the float account's balance now, less
// everything dated after the day's end (an undated float adjustment: posted
// after it).
func reconFiguresSQL() string {
	var after string
	for _, s := range reconRecordSets {
		sign := "-"
		if s.kind == "charge" {
			sign = ""
		}
		after += `
		UNION ALL SELECT ` + sign + `amount FROM ` + s.from + ` WHERE ` + s.settledCond + ` AND ` + s.settled + ` >= @end::timestamptz AND ` + reconScope
	}
	return `
UPDATE reconciliation_runs r SET
	float_net = f.float_net,
	explained = f.explained,
	float_at_close = CASE WHEN r.closing_balance IS NOT NULL THEN f.held_now - f.after_close END,
	day_difference = r.closing_balance - r.opening_balance - f.float_net,
	unexplained = r.closing_balance - r.opening_balance - f.float_net - f.explained,
	closing_difference = r.closing_balance - (f.held_now - f.after_close)
FROM (SELECT
	@records_net::bigint + ` + reconFloatOpsSQL("d.day = @day::date", "") + `
		+ (SELECT coalesce(sum(adjusted), 0) FROM reconciliation_items WHERE provider = @provider AND day = @day::date) AS float_net,
	(SELECT coalesce(sum(delta - adjusted), 0) FROM reconciliation_items
		WHERE provider = @provider AND day = @day::date AND run_id = @run::bigint) AS explained,
	(SELECT -coalesce(sum(a.balance), 0) FROM ledger_accounts a WHERE ` + reconFloatAccounts + `) AS held_now,
	(SELECT coalesce(sum(x), 0) FROM (SELECT 0::bigint AS x` + after + `) s)
		+ ` + reconFloatOpsSQL("d.day > @day::date", "@end::timestamptz") + `
		+ (SELECT coalesce(sum(adjusted), 0) FROM reconciliation_items WHERE provider = @provider AND day > @day::date) AS after_close
) f WHERE r.id = @run::bigint`
}

// reconDaySQL makes the run the day's result: reconciled when no exception
// is open and no balance difference is left unexplained; run again at the
// end of the grace period while items are expected.
const reconDaySQL = `
INSERT INTO reconciliation_days (provider, day, status, run_id, next_run_at, attempts, updated_at)
SELECT r.provider, r.day,
	CASE WHEN o.open = 0 AND coalesce(r.unexplained, 0) = 0 THEN 'reconciled' ELSE 'unreconciled' END,
	r.id, CASE WHEN r.expected > 0 AND r.grace_until > @now::timestamptz THEN r.grace_until END, 0, @now::timestamptz
FROM reconciliation_runs r,
	(SELECT count(*) AS open FROM reconciliation_items WHERE provider = @provider AND day = @day::date AND status = 'open') o
WHERE r.id = @run::bigint
ON CONFLICT (provider, day) DO UPDATE SET status = excluded.status, run_id = excluded.run_id,
	next_run_at = excluded.next_run_at, attempts = 0, claimed_until = NULL, updated_at = excluded.updated_at`
