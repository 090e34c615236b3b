package sandbox

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// Store keeps a sandbox's charges, payments, refunds and account across
// restarts, as a real provider does not forget. A Sandbox calls it one call
// at a time, under its lock, and answers a mutation only after Apply
// returned: whatever the sandbox answered is durable.
//
// Tokens, faults and counters are not stored: a restarted sandbox is a
// healthy one whose clients fetch new tokens.
type Store interface {
	// Load returns every record in creation order and the account.
	Load(ctx context.Context) (State, error)
	// Apply makes one mutation durable, all or nothing: rec, a record
	// created or changed (nil when only the account is written), and the
	// account as it is after the mutation.
	Apply(ctx context.Context, rec *Record, acct Account) error
}

// State is what a Store holds.
type State struct {
	// Found is false for a store never written: the sandbox starts from
	// its configured initial balance and writes it.
	Found   bool
	Account Account
	// Records in creation order.
	Records []Record
}

// Account is the sandbox account's money: Available can be spent, Pending is
// held by payments and refunds still PROCESSING.
type Account struct {
	Available, Pending money.Money
}

// Record is the stored form of one charge, payment, refund, MED infraction,
// MED return or recurrence. Only Status, Approved, Expires, EndToEndID,
// Failure, PaidBy, Analysis, Defense, ReturnID, Recurrence and Cycle change after
// creation.
// What refunds took from a charge is not stored: it is the sum of the
// charge's refunds that did not fail.
type Record struct {
	Kind        string // contract.TypeReceivePix, TypePayment, TypeRefund, TypeInfraction, TypeMedReturn, TypeRecurrence or TypeRecurrenceCycle
	ID          string
	ExternalID  string
	Amount      money.Money
	Status      string
	Description string
	PostbackURL string
	Created     time.Time
	Approved    time.Time // zero until paid or completed
	EndToEndID  string
	Failure     string

	Expires time.Time      // charges
	Debtor  contract.Party // charges: the payer named at creation
	PaidBy  contract.Party // charges: who paid
	QRCode  string         // charges
	// Due is a due-date charge's terms, DueOriginal its original amount
	// (Amount is what was paid, once paid).
	Due         *due.Terms
	DueOriginal money.Money

	CreditParty contract.Party // payments

	PixID string // refunds, infractions, MED returns: the charge

	Analysis, Defense, ReturnID string // infractions

	// Recurrence is a recurrence's terms and what the payer's side said
	// (Amount is its fixed amount or 0, Expires its consent's deadline,
	// Approved when the payer consented).
	Recurrence *RecurrenceData

	// Cycle is a recurrence cycle's data (Amount is its amount, Debtor
	// its recurrence's payer, Approved and PaidBy its payment's).
	Cycle *CycleData
}

// ErrStore: the store did not take a mutation, so the sandbox did not make
// it. The /v2 routes answer 503 and the control endpoints 503: nothing was
// done, the caller may try again.
var ErrStore = errors.New("the sandbox could not record the change")

// storeTimeout bounds one store call.
const storeTimeout = 5 * time.Second

// Open builds a Sandbox from cfg whose state lives in store: it loads the
// records and the account, and re-arms automatic settlement of the payments
// and refunds still PROCESSING, each due the settlement delay after its
// creation (at once when overdue). Charges keep their expiration. The
// caller closes store after the Sandbox.
func Open(ctx context.Context, cfg Config, store Store) (*Sandbox, error) {
	st, err := store.Load(ctx)
	if err != nil {
		return nil, fmt.Errorf("sandbox: load the stored state: %w", err)
	}
	s := New(cfg)
	if err := s.load(ctx, store, st); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Sandbox) load(ctx context.Context, store Store, st State) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.store = store
	if !st.Found {
		if err := store.Apply(ctx, nil, Account{Available: s.available}); err != nil {
			return fmt.Errorf("sandbox: write the initial balance: %w", err)
		}
	} else {
		s.available, s.pending = st.Account.Available, st.Account.Pending
	}
	for _, sr := range st.Records {
		r := fromStored(sr)
		s.insert(r)
		if charge := s.records[r.pixID]; returnsMoney(r.kind) && r.status != contract.StatusFailed && charge != nil {
			charge.refunded += r.amount
		}
	}
	now := time.Now()
	for _, r := range s.order {
		if (r.kind == contract.TypePayment || returnsMoney(r.kind)) && r.status == contract.StatusProcessing {
			s.armSettle(r.id, max(0, r.created.Add(s.cfg.SettleDelay).Sub(now)))
		}
	}
	return nil
}

// commit makes a mutation durable before it counts. fn applies the mutation
// of r in memory (inserting r when it is new); with a store, r and the
// account are then written in one call, and when the write fails the
// mutation is undone and ErrStore returned. Callers hold s.mu, and notify
// or schedule only after commit succeeded.
func (s *Sandbox) commit(r *record, fn func()) error {
	if s.store == nil {
		fn()
		return nil
	}
	if s.closed {
		return fmt.Errorf("%w: the sandbox is closed", ErrStore)
	}
	undo := s.undoer(r)
	fn()
	rec := r.stored()
	ctx, cancel := context.WithTimeout(s.ctx, storeTimeout)
	defer cancel()
	if err := s.store.Apply(ctx, &rec, Account{Available: s.available, Pending: s.pending}); err != nil {
		undo()
		s.log.Error("sandbox store refused a change; not made", "transaction_id", r.id, "error", err)
		return ErrStore
	}
	return nil
}

// undoer captures what a mutation of r may change: r itself, the account,
// the refundable total of r's charge, and whether r is known yet.
func (s *Sandbox) undoer(r *record) func() {
	saved, available, pending := *r, s.available, s.pending
	_, known := s.records[r.id]
	charge := s.records[r.pixID]
	var refunded money.Money
	if charge != nil {
		refunded = charge.refunded
	}
	return func() {
		*r = saved
		s.available, s.pending = available, pending
		if charge != nil {
			charge.refunded = refunded
		}
		if !known {
			s.remove(r)
		}
	}
}

func (r *record) stored() Record {
	sr := Record{
		Kind: r.kind, ID: r.id, ExternalID: r.externalID, Amount: r.amount, Status: r.status,
		Description: r.description, PostbackURL: r.postbackURL, Created: r.created, Approved: r.approved,
		EndToEndID: r.endToEndID, Failure: r.failure,
		Expires: r.expires, Debtor: r.debtor, PaidBy: r.paidBy, QRCode: r.qrcode,
		CreditParty: r.creditParty, PixID: r.pixID,
		Analysis: r.analysis, Defense: r.defense, ReturnID: r.returnID, Recurrence: r.rec, Cycle: r.cyc,
	}
	if r.due != nil {
		d := *r.due
		sr.Due, sr.DueOriginal = &d, d.Original
	}
	return sr
}

func fromStored(sr Record) *record {
	var terms *due.Terms
	if sr.Due != nil {
		d := *sr.Due
		d.Original = sr.DueOriginal
		terms = &d
	}
	return &record{due: terms,
		kind: sr.Kind, id: sr.ID, externalID: sr.ExternalID, amount: sr.Amount, status: sr.Status,
		description: sr.Description, postbackURL: sr.PostbackURL, created: sr.Created, approved: sr.Approved,
		endToEndID: sr.EndToEndID, failure: sr.Failure,
		expires: sr.Expires, debtor: sr.Debtor, paidBy: sr.PaidBy, qrcode: sr.QRCode,
		creditParty: sr.CreditParty, pixID: sr.PixID,
		analysis: sr.Analysis, defense: sr.Defense, returnID: sr.ReturnID, rec: sr.Recurrence, cyc: sr.Cycle,
	}
}
