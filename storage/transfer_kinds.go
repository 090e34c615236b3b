package storage

import "fmt"

// TransferKind names a kind of transfer. It is the prefix of the kind's
// ledger references ("withdrawal:<id>:reserve") and the resource type of
// its postbacks and operator actions.
type TransferKind string

// Transfer kinds.
const (
	KindWithdrawal TransferKind = "withdrawal" // a PIX from the wallet to a recipient's key
	KindRefund     TransferKind = "refund"     // money of a paid charge back to its payer
	KindMedReturn  TransferKind = "med_return" // an agreed MED infraction's blocked money back to the payer
)

// TransferKinds lists every kind.
var TransferKinds = []TransferKind{KindWithdrawal, KindRefund, KindMedReturn}

// kindSpec is what storage knows of a kind beyond the model every kind
// shares: where its rows are, the columns only it has, and what finishing
// one does to other records (a refund's charge). Statements take the
// transfer's id as $1.
type kindSpec struct {
	table string
	// own is the kind's select list for scanTransfer's last eight
	// destinations: the credit party's name, key type, key and tax id,
	// the charge's id and pix_id, from_pending, due_at, and the batch's id.
	own string
	// lock takes, before the transfer's row is changed, the locks its
	// create takes first, so that creating and finishing never deadlock;
	// "" when there are none.
	lock string
	// completed runs after a completion; "" for nothing.
	completed string
	// failed runs after a failure and returns the part of the reservation
	// that goes back to the pending balance; "" when all of it goes to
	// available.
	failed string
	// shortfall returns the part of the reservation booked as the
	// integrator's debt when it was made (a MED return beyond what its
	// infraction blocked), and records what of it a failure gives back to
	// the debt ($2, what is still owed of it); "" when none ever is.
	shortfall, debtReleased string
}

var transferKinds = map[TransferKind]kindSpec{
	KindWithdrawal: {
		table: "withdrawals",
		own:   `credit_party_name, credit_party_key_type, credit_party_key, credit_party_tax_id, NULL::uuid, '', 0::bigint, due_at, batch_id`,
	},
	KindRefund: {
		table: "refunds",
		own: `'', '', '', '', charge_id,
	coalesce((SELECT c.pix_id FROM charges c WHERE c.id = refunds.charge_id), ''), from_pending, NULL::timestamptz, NULL::uuid`,
		// Every transaction that touches a refund takes its charge's lock and
		// then the wallet's (in the posting), as CreateRefund does.
		lock: `SELECT 1 FROM charges WHERE id = (SELECT charge_id FROM refunds WHERE id = $1) FOR UPDATE`,
		// The charge is REFUNDED once its whole amount is refunded and no
		// refund of it is in flight.
		completed: chargeRefundedSQL("refunds"),
		// The amount is refundable again; what the refund took from pending
		// goes back there (and to the charge's held net) while the charge is
		// unreleased, so a failed refund never cuts a settlement hold short.
		failed: `UPDATE charges c SET refunded_amount = c.refunded_amount - r.amount,
		held_amount = c.held_amount + CASE WHEN c.released_at IS NULL THEN r.from_pending ELSE 0 END, updated_at = now()
	FROM refunds r WHERE r.id = $1 AND c.id = r.charge_id
	RETURNING CASE WHEN c.released_at IS NULL THEN r.from_pending ELSE 0 END`,
	},
	KindMedReturn: {
		table: "med_returns",
		own: `'', '', '', '', charge_id,
	coalesce((SELECT c.pix_id FROM charges c WHERE c.id = med_returns.charge_id), ''), 0::bigint, NULL::timestamptz, NULL::uuid`,
		// As a refund: its charge's lock first, then the wallet's.
		lock:      `SELECT 1 FROM charges WHERE id = (SELECT charge_id FROM med_returns WHERE id = $1) FOR UPDATE`,
		completed: chargeRefundedSQL("med_returns"),
		// The provider did not return the money: all its infraction counted
		// (returned_amount, the shortfall too) is the charge's again (to
		// refund or to dispute), and the reservation goes to available, as
		// the provider no longer holds it either.
		failed: `UPDATE charges c SET refunded_amount = c.refunded_amount - i.returned_amount, updated_at = now()
	FROM med_returns m JOIN infractions i ON i.id = m.infraction_id WHERE m.id = $1 AND c.id = m.charge_id
	RETURNING 0::bigint`,
		shortfall:    `SELECT amount - covered FROM med_returns WHERE id = $1`,
		debtReleased: `UPDATE med_returns SET debt_released = $2 WHERE id = $1`,
	},
}

// chargeRefundedSQL, after a completion of the transfer $1 in table (a
// refund or a MED return), makes its charge REFUNDED once its whole amount
// has gone back to the payer and nothing else of it is in flight.
func chargeRefundedSQL(table string) string {
	return `UPDATE charges c SET status = 'REFUNDED', updated_at = now() FROM ` + table + ` r
	WHERE r.id = $1 AND c.id = r.charge_id AND c.status = 'PAID' AND c.refunded_amount = c.amount
	  AND NOT EXISTS (SELECT 1 FROM refunds p WHERE p.charge_id = c.id AND p.status = 'PROCESSING')
	  AND NOT EXISTS (SELECT 1 FROM med_returns p WHERE p.charge_id = c.id AND p.status = 'PROCESSING')`
}

// spec is the kind's row of transferKinds; an unknown kind is a
// programming error.
func (k TransferKind) spec() kindSpec {
	s, ok := transferKinds[k]
	if !ok {
		panic(fmt.Sprintf("storage: unknown transfer kind %q", string(k)))
	}
	return s
}
