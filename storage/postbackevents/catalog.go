// Package postbackevents is the catalog of the postbacks PixGate posts to
// integrators: each transactionType, the record it is about, and each
// status that sends one, with a line saying what it means.
//
// It is data only, with no import of its own, so it sits in the lowest
// layer (storage, whose postbacks rows carry these resource types and
// statuses): the API serves it (GET /api/v1/webhook-events) and
// worker/postback's tests check that every postback its builders can
// produce is listed here, so the two cannot drift apart.
package postbackevents

// Type is one transactionType and the statuses that send it.
type Type struct {
	TransactionType string   // the body's transactionType, e.g. "RECEIVEPIX"
	ResourceType    string   // the delivery log's resource_type, e.g. "charge"
	Description     string   // what a postback of this type tells
	Statuses        []Status // each status that sends one, in the order a record reaches them
}

// Status is one status a postback reports.
type Status struct {
	Name        string // the body's status and the delivery log's event, e.g. "PAID"
	Description string
}

// Catalog is every postback type, in the order of docs/postbacks.md. Read
// it, never change it.
var Catalog = []Type{
	{"RECEIVEPIX", "charge", "A charge (PIX received) reached a final status.", []Status{
		{"PAID", "The charge was paid; its net amount is credited."},
		{"EXPIRED", "The charge expired unpaid."},
	}},
	{"PAYMENT", "withdrawal", "A withdrawal (PIX sent) reached a final status.", []Status{
		{"COMPLETED", "The PIX was sent and settled."},
		{"FAILED", "The PIX was not sent; its amount and fee are back in the balance."},
	}},
	{"PAYMENT_DEADLINE", "payout_deadline", "A withdrawal still PROCESSING near or past its payout deadline (due_at), once each.", []Status{
		{"DEADLINE_NEAR", "Less than a fifth of the time to its due_at, or less than 15 minutes, is left."},
		{"LATE", "Its due_at passed and it is not final yet."},
	}},
	{"PAYMENT_BATCH", "withdrawal_batch", "A withdrawal batch, to the batch's postbackUrl, is finished (each item also has its own PAYMENT postback).", []Status{
		{"COMPLETED", "Every item reached COMPLETED or FAILED; the totals say how many of each."},
		{"REJECTED", "It was rejected, or its approval expired, before any item was sent; the whole reservation is back in the balance."},
	}},
	{"REFUND", "refund", "A refund of a paid charge, to the charge's postbackUrl, reached a final status.", []Status{
		{"COMPLETED", "The money went back to the payer."},
		{"FAILED", "The refund was not sent; its amount is back in the balance."},
	}},
	{"MED_RETURN", "med_return", "The return an agreed MED infraction ordered, to the charge's postbackUrl.", []Status{
		{"COMPLETED", "The disputed money went back to the payer."},
		{"FAILED", "The return was not sent."},
	}},
	{"INFRACTION", "infraction", "A MED infraction against a charge, to the charge's postbackUrl.", []Status{
		{"OPEN", "A dispute was opened; the disputed amount is blocked."},
		{"AGREED", "The dispute stands: the money goes back to the payer."},
		{"DISAGREED", "The dispute failed: the blocked money is released."},
		{"CANCELLED", "The dispute was withdrawn: the blocked money is released."},
	}},
	{"RECURRENCE", "recurrence", "A recurrence (Pix Automático authorisation) changed status.", []Status{
		{"APPROVED", "The payer consented; its cycles will be charged."},
		{"REJECTED", "The payer refused the consent."},
		{"EXPIRED", "The payer did not answer within the consent's validity."},
		{"CANCELLED", "Cancelled by the payer, their bank, the integrator or the provider."},
		{"COMPLETED", "Every cycle of its calendar reached a final status."},
	}},
	{"RECURRENCE_CYCLE", "recurrence_cycle", "One cycle of a recurrence, to the recurrence's postbackUrl.", []Status{
		{"CREATED", "The provider accepted the cycle's charge."},
		{"ACTIVE", "The payer's bank scheduled the debit."},
		{"PAID", "An attempt settled; the cycle is credited."},
		{"EXPIRED", "No attempt settled and none may follow."},
		{"REJECTED", "The payer's bank rejected it with a code that ends the cycle."},
		{"CANCELLED", "Cancelled by either side, or with its recurrence."},
		{"FAILED", "Its charge could not be accepted before the scheduling window closed."},
	}},
	{"RECURRENCE_ATTEMPT", "recurrence_attempt", "One debit attempt of a cycle, to the recurrence's postbackUrl.", []Status{
		{"REQUESTED", "The attempt was sent to the payer's bank."},
		{"SCHEDULED", "The payer's bank scheduled it."},
		{"PAID", "The attempt settled."},
		{"REJECTED", "The payer's bank refused it, with a code."},
		{"EXPIRED", "Its day passed unpaid."},
		{"CANCELLED", "Cancelled by either side."},
	}},
}
