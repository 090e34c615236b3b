package worker

import "strings"

// outcome is what applying the provider's confirmed state of a
// transaction did: its kind, and what it was about ("withdrawal
// completed", "no charge for transaction …"). Its text is recorded on the
// notification that led to it; its kind is counted.
type outcome struct {
	kind outcomeKind
	what string
}

// outcomeKind sorts outcomes.
type outcomeKind string

const (
	applied        outcomeKind = "applied"         // the record reached the confirmed state now
	alreadyApplied outcomeKind = "already applied" // it had reached it before
	noChange       outcomeKind = "no change"       // the confirmed state needs no change
	ignored        outcomeKind = "ignored"         // no record of PixGate's is concerned
	refused        outcomeKind = "refused"         // not applied: an operator must look
)

func (o outcome) String() string { return string(o.kind) + ": " + o.what }

// reached says whether the record is in the state the provider confirmed.
func (o outcome) reached() bool { return o.kind == applied || o.kind == alreadyApplied }

// label is the kind as a metric label: "already_applied".
func (k outcomeKind) label() string { return strings.ReplaceAll(string(k), " ", "_") }
