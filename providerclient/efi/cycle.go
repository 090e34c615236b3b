package efi

import (
	"context"
	"errors"
	"net/http"
	"regexp"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// A recurrence's cycles (docs/recurrences.md; docs/provider.md,
// "Recurrence cycles (efi)"): each cycle's charge is the BCB's cobr, under
// a txid that is PixGate's cycle id without its hyphens (32 hex digits),
// so a send repeated after a lost answer names the same charge and a read
// needs no id of Efí's.

// problemCobRAbsent is the problem type by which the contract says it
// holds no cycle charge under a txid (BCB API Pix 2.9.0, "Tag CobR").
const problemCobRAbsent = "CobRNaoEncontrado"

// cycleTxidPattern is a cycle's txid: a uuid without its hyphens.
var cycleTxidPattern = regexp.MustCompile(`^[0-9a-f]{32}$`)

// maxInfoAdicional is the BCB's limit of a cobr's infoAdicional (CobRBase).
const maxInfoAdicional = 140

// SendCycle registers the cycle's charge (PUT /v2/cobr/{txid}) on the
// recurrence's idRec, after registering the cycle charges' webhook (PUT
// /v2/webhookcobr). A refusal is read back under the txid: a charge found
// there with the same recurrence, due date and amount is this one, sent by
// an earlier try whose answer was lost ("O campo cobr.txid encontra-se em
// uso"); one of other terms is a refusal.
func (c *connector) SendCycle(ctx context.Context, req providerclient.CycleRequest) (*providerclient.Cycle, error) {
	op := providerclient.OpSendCycle
	txid, in, err := c.cobrRequest(op, req)
	if err != nil {
		return nil, err
	}
	if err := c.registerHook(ctx, &c.cobrHookDoneAt, bcbpix.PathWebhookCobR); err != nil {
		return nil, err
	}
	res, err := c.call(ctx, op, http.MethodPut, bcbpix.CobRPath(txid), in)
	if err != nil {
		return nil, err
	}
	var cobr bcbpix.CobR
	if err := decode(op, res, &cobr); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) {
			return nil, err
		}
		existing, err := providerclient.AfterRefusal(ctx, err, func(ctx context.Context) (*bcbpix.CobR, error) {
			return c.getCobR(ctx, op, txid)
		})
		if err != nil {
			return nil, err
		}
		if existing.IDRec != in.IDRec || existing.Calendario.DataDeVencimento != in.Calendario.DataDeVencimento ||
			existing.Valor.Original != in.Valor.Original {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, StatusCode: res.Status,
				Message: "a cycle charge of other terms already has the txid " + txid}
		}
		cobr = *existing
	}
	return cycleOf(op, cobr)
}

// cobrRequest is req as PUT /v2/cobr/{txid} takes it, and the txid, or the
// reason it cannot be sent (then nothing is). The receiver's account
// (recebedor, required by CobRSolicitada) is the connector's configured
// Account; ajusteDiaUtil is the BCB's default, true: a due date on a
// non-business day settles on the next one.
func (c *connector) cobrRequest(op string, req providerclient.CycleRequest) (string, bcbpix.CobRRequest, error) {
	txid, err := cycleTxid(op, req.ID)
	if err != nil {
		return "", bcbpix.CobRRequest{}, err
	}
	acct := c.cfg.Account
	switch {
	case !idRecPattern.MatchString(req.Recurrence.ProviderID):
		return "", bcbpix.CobRRequest{}, rejected(op, "the recurrence's idRec (29 letters and digits) is not known")
	case req.DueDate.IsZero():
		return "", bcbpix.CobRRequest{}, rejected(op, "due_date is required")
	case req.Amount <= 0:
		return "", bcbpix.CobRRequest{}, rejected(op, "amount must be positive")
	case acct.Number == "":
		return "", bcbpix.CobRRequest{}, &providerclient.Error{Op: op, Kind: providerclient.ErrUnsupported,
			Message: "the account's number (Config.Account) is not configured: Efí's cycle charge names the receiver's account"}
	}
	tipo := acct.Type
	if tipo == "" {
		tipo = bcbpix.ContaCorrente
	}
	in := bcbpix.CobRRequest{IDRec: req.Recurrence.ProviderID, InfoAdicional: truncate(req.Description, maxInfoAdicional),
		Calendario:    bcbpix.CobRCalendario{DataDeVencimento: req.DueDate.String()},
		Valor:         bcbpix.CobRValor{Original: bcbpix.FormatAmount(req.Amount)},
		AjusteDiaUtil: true,
		Recebedor:     bcbpix.CobRRecebedor{Agencia: acct.Branch, Conta: acct.Number, TipoConta: tipo}}
	if req.Payer.Email != "" {
		in.Devedor = &bcbpix.CobRDevedor{Email: req.Payer.Email}
	}
	return txid, in, nil
}

// ReadCycle reads the cycle's charge (GET /v2/cobr/{txid}); one Efí does
// not hold is ErrNotFound.
func (c *connector) ReadCycle(ctx context.Context, ref providerclient.CycleRef) (*providerclient.Cycle, error) {
	op := providerclient.OpReadCycle
	txid, err := cycleRef(op, ref)
	if err != nil {
		return nil, err
	}
	cobr, err := c.getCobR(ctx, op, txid)
	if err != nil {
		return nil, err
	}
	return cycleOf(op, *cobr)
}

// RetryCycle asks that the charge's payment be tried again on day (POST
// /v2/cobr/{txid}/retentativa/{data}). The BCB refuses a retry while an
// attempt is open, on a day not in the future and under a recurrence that
// permits none (CobROperacaoInvalida): those are refusals PixGate's retry
// policy should have kept it from asking.
func (c *connector) RetryCycle(ctx context.Context, ref providerclient.CycleRef, day due.Date) error {
	op := providerclient.OpRetryCycle
	txid, err := cycleRef(op, ref)
	if err != nil {
		return err
	}
	if day.IsZero() {
		return rejected(op, "the retry's day is required")
	}
	res, err := c.call(ctx, op, http.MethodPost, bcbpix.CobRRetryPath(txid, day.String()), nil)
	if err != nil {
		return err
	}
	var cobr bcbpix.CobR
	return decode(op, res, &cobr)
}

// CancelCycle cancels the charge on the integrator's behalf (PATCH
// /v2/cobr/{txid} with status CANCELADA). The BCB refuses it from the
// first attempt's day on; a refusal is read back, and a charge found
// cancelled is no error.
func (c *connector) CancelCycle(ctx context.Context, ref providerclient.CycleRef) error {
	op := providerclient.OpCancelCycle
	txid, err := cycleRef(op, ref)
	if err != nil {
		return err
	}
	cancelled := recurrence.CycleCancelled.BCB()
	res, err := c.call(ctx, op, http.MethodPatch, bcbpix.CobRPath(txid), bcbpix.CobRRevisada{Status: cancelled})
	if err != nil {
		return err
	}
	var cobr bcbpix.CobR
	err = decode(op, res, &cobr)
	if !errors.Is(err, providerclient.ErrRejected) || errors.Is(err, providerclient.ErrNotFound) {
		return err
	}
	if now, rerr := c.getCobR(ctx, op, txid); rerr == nil && now.Status == cancelled {
		return nil
	}
	return err
}

// getCobR reads a cycle charge by its txid; a 404 of CobRNaoEncontrado
// proves Efí holds none.
func (c *connector) getCobR(ctx context.Context, op, txid string) (*bcbpix.CobR, error) {
	res, err := c.call(ctx, op, http.MethodGet, bcbpix.CobRPath(txid), nil)
	if err != nil {
		return nil, err
	}
	var cobr bcbpix.CobR
	if err := decode(op, res, &cobr); err != nil {
		return nil, absentAs(err, res, problemCobRAbsent)
	}
	return &cobr, nil
}

// cycleTxid is PixGate's cycle id as the charge's txid.
func cycleTxid(op, id string) (string, error) {
	return contractID(op, id, cycleTxidPattern)
}

// cycleRef is the txid a ref names: its ProviderID (the txid the connector
// sent) or else PixGate's id without its hyphens.
func cycleRef(op string, ref providerclient.CycleRef) (string, error) {
	if cycleTxidPattern.MatchString(ref.ProviderID) {
		return ref.ProviderID, nil
	}
	return cycleTxid(op, ref.ID)
}
