package storage

import "strings"

// The SQL of a reconciliation run, in the order it runs, on temporary
// tables of the run's transaction. Named arguments: @provider, @day,
// @start, @end (the day's span), @lo, @hi (the span widened by the
// boundary on both sides), @boundary, @now, @grace.

// reconRecordSets are PixGate's records of every kind as the matching
// reads them: kind, id, the provider's id, the end-to-end id, amount,
// status and when the money moved (a charge's payment, a transfer's
// completion; NULL before). Each is filtered by its where clause.
var reconRecordSets = []struct{ kind, from, settled, settledCond string }{
	{"charge", "charges", "paid_at", "paid_at IS NOT NULL"},
	{"withdrawal", "withdrawals", "finished_at", "status = 'COMPLETED'"},
	{"refund", "refunds", "finished_at", "status = 'COMPLETED'"},
	{"med_return", "med_returns", "finished_at", "status = 'COMPLETED'"},
}

// reconRecords is the union of every kind's records that meet where
// (written against the kind's table; $settled stands for its settlement
// column, $cond for the condition of its having settled), with the
// settlement time only where the record settled.
func reconRecords(where string) string {
	each := make([]string, 0, len(reconRecordSets))
	for _, s := range reconRecordSets {
		w := strings.NewReplacer("$settled", s.settled, "$cond", s.settledCond).Replace(where)
		each = append(each, `SELECT '`+s.kind+`'::text AS kind, id, coalesce(pix_id, '') AS pix_id,
			coalesce(end_to_end_id, '') AS e2e, amount, status,
			CASE WHEN `+s.settledCond+` THEN `+s.settled+` END AS settled_at
			FROM `+s.from+` WHERE (`+w+`)`)
	}
	return strings.Join(each, "\nUNION ALL ")
}

const reconTempTablesSQL = `
CREATE TEMP TABLE recon_lines (
	line_no bigint, kind text, dir smallint, provider_id text, ext_id text, rec_uuid uuid, e2e text,
	amount bigint, fee bigint, status text, settled_at timestamptz
) ON COMMIT DROP;
CREATE TEMP TABLE recon_new (
	item_key text, kind text, expected_kind text,
	line_kind text, line_provider_id text, line_external_id text, line_end_to_end_id text,
	line_amount bigint, line_fee bigint, line_status text, line_settled_at timestamptz,
	record_kind text, record_id uuid, record_amount bigint, record_status text, record_settled_at timestamptz,
	delta bigint
) ON COMMIT DROP`

// reconLinesColumns are recon_lines' columns, in the order of COPY.
var reconLinesColumns = []string{"line_no", "kind", "dir", "provider_id", "ext_id", "rec_uuid", "e2e", "amount", "fee", "status", "settled_at"}

// reconOursSQL: PixGate's records that settled within the day widened by
// its boundary (a line may be dated a little apart from its record).
func reconOursSQL() string {
	return `CREATE TEMP TABLE recon_ours ON COMMIT DROP AS ` +
		reconRecords(`$cond AND $settled >= @lo AND $settled < @hi AND `+reconScope) + `;
ANALYZE recon_lines; ANALYZE recon_ours`
}

// reconScope keeps the records of @provider: a provider's statement is
// matched with what PixGate did through that provider alone, so a record
// of another provider is never taken for one of its lines.
const reconScope = `provider = @provider`

// reconMatchSQL matches each line to a record of the widened day by the
// strongest id both carry: the end-to-end id, else the provider's id (of
// the same kind), else PixGate's id. Most lines match by the first; the
// others are matched apart, on the lines still unmatched alone, so the
// day's records are scanned once per id, never joined whole three times.
const reconMatchSQL = `
CREATE TEMP TABLE recon_match ON COMMIT DROP AS
SELECT l.*, o.kind AS r_kind, o.id AS r_id
FROM recon_lines l LEFT JOIN recon_ours o ON l.e2e <> '' AND o.e2e = l.e2e;
UPDATE recon_match m SET r_kind = o.kind, r_id = o.id FROM recon_ours o
WHERE m.r_id IS NULL AND m.provider_id <> '' AND o.pix_id = m.provider_id AND o.kind = m.kind;
UPDATE recon_match m SET r_kind = o.kind, r_id = o.id FROM recon_ours o
WHERE m.r_id IS NULL AND o.id = m.rec_uuid;
ANALYZE recon_match`

// reconFindSQL looks up, among all of PixGate's records, the lines the
// widened day did not match (records in flight, or settled on another
// day), by the same ids in the same order, and adds what it finds.
func reconFindSQL() string {
	var byE2E, byPix, byID []string
	for _, s := range reconRecordSets {
		byE2E = append(byE2E, `SELECT '`+s.kind+`'::text AS kind, id, 1 AS pri FROM `+s.from+` WHERE m.e2e <> '' AND end_to_end_id = m.e2e AND `+reconScope)
		byPix = append(byPix, `SELECT '`+s.kind+`', id, 2 FROM `+s.from+` WHERE m.kind = '`+s.kind+`' AND m.provider_id <> '' AND pix_id = m.provider_id AND `+reconScope)
		byID = append(byID, `SELECT '`+s.kind+`', id, 3 FROM `+s.from+` WHERE id = m.rec_uuid AND `+reconScope)
	}
	lookups := strings.Join(append(append(byE2E, byPix...), byID...), "\n\tUNION ALL ")
	return `
CREATE TEMP TABLE recon_found ON COMMIT DROP AS
SELECT m.line_no, f.kind, f.id
FROM recon_match m
CROSS JOIN LATERAL (` + lookups + `
	ORDER BY pri LIMIT 1) f
WHERE m.r_id IS NULL;
INSERT INTO recon_ours SELECT * FROM (` + reconRecords(`id IN (SELECT id FROM recon_found)`) + `) r
	WHERE NOT EXISTS (SELECT 1 FROM recon_ours o WHERE o.id = r.id);
UPDATE recon_match m SET r_kind = f.kind, r_id = f.id FROM recon_found f WHERE f.line_no = m.line_no`
}

// reconLineKey is a line's strongest id, the root of its item's key.
const reconLineKey = `coalesce(nullif(m.e2e, ''), nullif(m.provider_id, ''), nullif(m.ext_id, ''), 'line-' || m.line_no)`

// reconOccurrenceSQL numbers the lines that share a record (a duplicate's
// second line and on), and the unmatched lines that share an id: the few
// lines whose occurrence is not 1.
const reconOccurrenceSQL = `
CREATE TEMP TABLE recon_occ ON COMMIT DROP AS
SELECT line_no, row_number() OVER (PARTITION BY r_id ORDER BY line_no) AS occ
FROM recon_match WHERE r_id IN (SELECT r_id FROM recon_match WHERE r_id IS NOT NULL GROUP BY r_id HAVING count(*) > 1)
UNION ALL
SELECT line_no, row_number() OVER (PARTITION BY lk ORDER BY line_no)
FROM (SELECT m.line_no, ` + reconLineKey + ` AS lk FROM recon_match m WHERE m.r_id IS NULL) u`

// reconLineItemsSQL sets each line beside its record and keeps every one
// that is not a plain match within the day, under the key of its strongest
// id, its record and its occurrence (unique however the provider's ids
// collide). It would be missing_in_pixgate (no record),
// duplicate_at_provider (a second line of one record, or of one unknown
// id), status_mismatch (the record has not settled), amount_mismatch
// (another signed amount, or a fee PixGate does not book), else matched;
// and it is expected instead while the grace period lasts when time may
// still settle it (a record in flight, a line near the day's boundary, a
// MED return the provider made itself). delta is what the line does to the
// money at the provider less what its record does within the day.
const reconLineItemsSQL = `
INSERT INTO recon_new
SELECT 'line:' || lk || ':' || coalesce(r_id::text, '-') || ':' || occ,
	CASE WHEN expected THEN 'expected' ELSE would END,
	CASE WHEN expected THEN would END,
	kind, provider_id, ext_id, e2e, amount, fee, status, settled_at,
	r_kind, r_id, r_amount, r_status, r_settled_at,
	l_effect - CASE WHEN r_in_day AND occ = 1 AND r_id IS NOT NULL THEN r_effect ELSE 0 END
FROM (SELECT x.*, @now::timestamptz < @grace::timestamptz AND would IN ('missing_in_pixgate', 'status_mismatch') AND (
		settled_at < @start::timestamptz + @boundary::interval OR settled_at >= @end::timestamptz - @boundary::interval
		OR r_status IN ('PENDING', 'PROCESSING') OR kind = 'med_return') AS expected
	FROM (SELECT c.*,
		CASE
			WHEN r_id IS NULL AND occ > 1 THEN 'duplicate_at_provider'
			WHEN r_id IS NULL THEN 'missing_in_pixgate'
			WHEN occ > 1 THEN 'duplicate_at_provider'
			WHEN r_settled_at IS NULL THEN 'status_mismatch'
			WHEN l_effect <> r_effect THEN 'amount_mismatch'
			ELSE 'matched'
		END AS would
		FROM (SELECT m.*, o.amount AS r_amount, o.status AS r_status, o.settled_at AS r_settled_at,
			coalesce(o.settled_at >= @start::timestamptz AND o.settled_at < @end::timestamptz, false) AS r_in_day,
			coalesce(oc.occ, 1) AS occ, ` + reconLineKey + ` AS lk,
			m.dir * m.amount - m.fee AS l_effect,
			CASE WHEN o.settled_at IS NULL THEN 0 WHEN m.r_kind = 'charge' THEN o.amount ELSE -o.amount END AS r_effect
			FROM recon_match m LEFT JOIN recon_ours o ON o.id = m.r_id LEFT JOIN recon_occ oc ON oc.line_no = m.line_no) c
	) x
) y
WHERE would <> 'matched' OR NOT r_in_day`

// reconRecordItemsSQL keeps PixGate's records of the day no line named:
// missing at the provider (expected near the boundary within the grace
// period), or matched by a line of another day's statement (an item of
// that day's run), which is kept as a match.
const reconRecordItemsSQL = `
INSERT INTO recon_new
SELECT 'record:' || o.kind || ':' || o.id,
	CASE WHEN x.id IS NOT NULL THEN 'matched' WHEN near THEN 'expected' ELSE 'missing_at_provider' END,
	CASE WHEN x.id IS NULL AND near THEN 'missing_at_provider' END,
	NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
	o.kind, o.id, o.amount, o.status, o.settled_at,
	-CASE o.kind WHEN 'charge' THEN o.amount ELSE -o.amount END
FROM (SELECT r.*, @now::timestamptz < @grace::timestamptz
		AND (r.settled_at < @start::timestamptz + @boundary::interval OR r.settled_at >= @end::timestamptz - @boundary::interval) AS near
	FROM recon_ours r WHERE r.settled_at >= @start AND r.settled_at < @end
		AND NOT EXISTS (SELECT 1 FROM recon_match m WHERE m.r_id = r.id)) o
LEFT JOIN (SELECT DISTINCT record_id AS id FROM reconciliation_items WHERE provider = @provider AND day <> @day::date
	AND kind = 'matched' AND item_key LIKE 'line:%' AND record_id IS NOT NULL) x ON x.id = o.id`

// reconCountsSQL counts the run: lines, PixGate's records of the day, the
// lines matched (all but those an item keeps for another reason than a
// match across the boundary), and what each side moved.
const reconCountsSQL = `
SELECT (SELECT count(*) FROM recon_match),
	(SELECT count(*) FROM recon_ours WHERE settled_at >= @start AND settled_at < @end),
	(SELECT count(*) FROM recon_match) - (SELECT count(*) FROM recon_new
		WHERE item_key LIKE 'line:%' AND coalesce(expected_kind, kind) <> 'matched'),
	(SELECT coalesce(sum(dir * amount - fee), 0) FROM recon_match),
	(SELECT coalesce(sum(CASE kind WHEN 'charge' THEN amount ELSE -amount END), 0) FROM recon_ours
		WHERE settled_at >= @start AND settled_at < @end)`
