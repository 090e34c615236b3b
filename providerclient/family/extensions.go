package family

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// The family's contract has no MED and no key lookup. PixGate's
// extensions of it (ours, served by PixGate's sandbox; docs/provider.md)
// carry both, and the connector uses them only when the provider is
// configured as serving them (providerclient.Config.Extensions): an
// INFRACTION transaction read by consult-transaction, notified to the
// disputed charge's postbackUrl and listed by contract.PathInfractions (so
// that one whose notification was lost is still found), a MED_RETURN read
// like a refund, and the key directory at contract.PathKeyLookup. The
// family takes no defense: PixGate keeps it.

const opLookupKey = "look up key"

// ReadInfraction reads an INFRACTION by its transactionId.
func (f *connector) ReadInfraction(ctx context.Context, ref providerclient.InfractionRef) (*providerclient.Infraction, error) {
	if !f.ext {
		return nil, unsupported(providerclient.OpReadInfraction)
	}
	t, err := f.c.ConsultTransaction(ctx, ref.ProviderID)
	if err != nil {
		return nil, err
	}
	if t.TransactionType != contract.TypeInfraction {
		return nil, &providerclient.Error{Op: providerclient.OpReadInfraction, Kind: providerclient.ErrNotFound,
			Message: "transaction " + ref.ProviderID + " is a " + t.TransactionType + ", not an infraction"}
	}
	return Infraction(*t), nil
}

// Infraction translates an INFRACTION transaction into PixGate's terms.
func Infraction(t contract.Transaction) *providerclient.Infraction {
	inf := &providerclient.Infraction{
		ProviderID: t.TransactionID, Charge: providerclient.Ref{Kind: providerclient.KindCharge, ProviderID: t.PixID},
		Amount: t.Amount, Status: providerclient.InfractionStatus(t.Status), Reason: t.Description,
		Analysis: t.AnalysisDetails, Defense: t.Defense, ReportedAt: contract.ParseDate(t.DateCreated),
		DueAt: contract.ParseDate(t.DueDate), ClosedAt: contract.ParseDate(t.DateApproval),
	}
	if t.ReturnTransactionID != "" {
		inf.Return = &providerclient.Transaction{Kind: providerclient.KindMedReturn, ProviderID: t.ReturnTransactionID,
			Status: providerclient.StatusProcessing}
	}
	return inf
}

// maxInfractionPages bounds one listing: at contract.InfractionsPerPage a
// page, far more infractions than a poll's window holds. A list longer
// than that is an error, not a silent truncation: the infractions past
// the bound would be the newest, and the next poll would miss them too.
const maxInfractionPages = 100

// ListInfractions reads every page of the infractions opened or changed
// since (PixGate's extension, contract.PathInfractions), each translated
// as ReadInfraction translates it. Without the extensions the family lists
// nothing.
func (f *connector) ListInfractions(ctx context.Context, since time.Time) ([]providerclient.Infraction, error) {
	op := providerclient.OpListInfractions
	if !f.ext {
		return nil, unsupported(op)
	}
	var out []providerclient.Infraction
	for page := 1; page <= maxInfractionPages; page++ {
		// Each item is read as consult-transaction's answer is (amounts as
		// numbers or strings, type and status uppercased).
		var ans struct {
			Pages       int               `json:"pages"`
			Infractions []json.RawMessage `json:"infractions"`
		}
		in := contract.InfractionsRequest{Since: contract.FormatDate(since), Page: page, PerPage: contract.InfractionsPerPage}
		if err := f.base.call(ctx, op, contract.PathInfractions, in, &ans); err != nil {
			return nil, err
		}
		for _, raw := range ans.Infractions {
			t, err := contract.DecodeTransaction(raw)
			if err != nil {
				return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome, StatusCode: http.StatusOK, Err: err}
			}
			if t.TransactionType == contract.TypeInfraction { // anything else is not one to apply
				out = append(out, *Infraction(t))
			}
		}
		if len(ans.Infractions) == 0 || page >= ans.Pages {
			return out, nil
		}
	}
	return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected,
		Message: "more than " + strconv.Itoa(maxInfractionPages) + " pages of infractions since " + contract.FormatDate(since)}
}

func (f *connector) DefendInfraction(context.Context, providerclient.InfractionRef, string) error {
	return unsupported(providerclient.OpDefendInfraction)
}

// LookupKey asks the key directory who a key belongs to.
func (f *connector) LookupKey(ctx context.Context, keyType, key string) (*providerclient.KeyHolder, error) {
	if !f.ext {
		return nil, unsupported(providerclient.OpLookupKey)
	}
	var e contract.KeyEntry
	if err := f.base.call(ctx, opLookupKey, contract.PathKeyLookup, contract.KeyLookup{Key: key, KeyType: keyType}, &e); err != nil {
		return nil, err
	}
	if e.Key == "" {
		e.Key, e.KeyType = key, keyType
	}
	return &providerclient.KeyHolder{Key: e.Key, KeyType: e.KeyType, Name: e.Name, Document: e.TaxID,
		Institution: e.Bank, ISPB: e.ISPB, FraudMarked: e.FraudMarked}, nil
}

func unsupported(op string) error {
	return &providerclient.Error{Op: op, Kind: providerclient.ErrUnsupported}
}
