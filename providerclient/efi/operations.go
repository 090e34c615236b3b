package efi

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

// defaultExpiration is a charge's validity when PixGate asks for none (the
// BCB's own default for calendario.expiracao).
const defaultExpiration = 86400

var (
	txidPattern = regexp.MustCompile(`^[a-zA-Z0-9]{26,35}$`)
	idPattern   = regexp.MustCompile(`^[a-zA-Z0-9]{1,35}$`)
	e2ePattern  = regexp.MustCompile(`^[a-zA-Z0-9]{32}$`)
)

// contractID is PixGate's id as the contract's: without hyphens.
func contractID(op, id string, pattern *regexp.Regexp) (string, error) {
	out := strings.ReplaceAll(id, "-", "")
	if !pattern.MatchString(out) {
		return "", &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Message: "id does not fit the contract's pattern " + pattern.String()}
	}
	return out, nil
}

func webhookPath(key string) string { return "/v2/webhook/" + url.PathEscape(key) }

// ensureWebhook registers cfg.WebhookURL on the account's key (PUT
// /v2/webhook/{chave}) once, and again every hookRefresh: charges are
// notified to it, and Efí sends a PIX only from a key with a webhook. The
// BCB's callback POSTs to {webhookUrl}/pix.
func (c *connector) ensureWebhook(ctx context.Context) error {
	return c.registerHook(ctx, &c.hookDoneAt, webhookPath(c.cfg.PixKey))
}

// registerHook PUTs cfg.WebhookURL at path (a webhook registration route)
// unless *doneAt, when it last succeeded, is within hookRefresh.
func (c *connector) registerHook(ctx context.Context, doneAt *time.Time, path string) error {
	if c.cfg.WebhookURL == "" {
		return nil
	}
	c.hookMu.Lock()
	defer c.hookMu.Unlock()
	if !doneAt.IsZero() && time.Since(*doneAt) < hookRefresh {
		return nil
	}
	res, err := c.call(ctx, providerclient.OpWebhook, http.MethodPut, path, bcbpix.WebhookRequest{WebhookURL: c.cfg.WebhookURL})
	if err != nil {
		return err
	}
	if !res.OK() {
		e := res.Failure(providerclient.OpWebhook, message(res))
		e.Message = "webhook registration: " + e.Message
		return e
	}
	*doneAt = time.Now()
	return nil
}

func (c *connector) CreateCharge(ctx context.Context, req providerclient.ChargeRequest) (*providerclient.Charge, error) {
	op := providerclient.OpCharge
	txid, err := contractID(op, req.ID, txidPattern)
	if err != nil {
		return nil, err
	}
	if req.Due != nil {
		return c.createCobV(ctx, req, txid)
	}
	if err := c.ensureWebhook(ctx); err != nil {
		return nil, err
	}
	cob, err := c.putCob(ctx, op, txid, c.cobRequest(req))
	if err != nil {
		return nil, err
	}
	if cob.PixCopiaECola == "" {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
			Message: "answer without pixCopiaECola"}
	}
	t := cobTransaction(*cob)
	return &providerclient.Charge{ProviderID: cob.Txid, BRCode: cob.PixCopiaECola, Status: t.Status,
		Expiration: time.Duration(cob.Calendario.Expiracao) * time.Second,
		ExpiresAt:  bcbpix.ParseTime(cob.Calendario.Criacao).Add(time.Duration(cob.Calendario.Expiracao) * time.Second)}, nil
}

// cobRequest is an immediate charge as PUT /v2/cob/{txid} takes it: its
// amount, validity (the BCB's default when none is asked), the account's
// key, the question to the payer and the payer when named.
func (c *connector) cobRequest(req providerclient.ChargeRequest) bcbpix.CobRequest {
	in := bcbpix.CobRequest{
		Calendario: bcbpix.Calendario{Expiracao: defaultExpiration},
		Valor:      bcbpix.Valor{Original: bcbpix.FormatAmount(req.Amount)},
		Chave:      c.cfg.PixKey, SolicitacaoPagador: truncate(req.PayerQuestion, 140),
	}
	if req.Expiration > 0 {
		in.Calendario.Expiracao = int(req.Expiration / time.Second)
	}
	if p := req.Payer; p.Name != "" && p.Document != "" {
		in.Devedor = &bcbpix.Devedor{Nome: truncate(p.Name, 200)}
		if len(p.Document) == 11 {
			in.Devedor.CPF = p.Document
		} else {
			in.Devedor.CNPJ = p.Document
		}
	}
	return in
}

// putCob creates the immediate charge in under txid (PUT /v2/cob/{txid}).
// The txid is PixGate's: a charge already under it is this one, created
// by an earlier try whose answer was lost, and is the answer when its
// amount is in's; one that cannot be read back is an unknown outcome,
// never a refusal.
func (c *connector) putCob(ctx context.Context, op, txid string, in bcbpix.CobRequest) (*bcbpix.Cob, error) {
	res, err := c.call(ctx, op, http.MethodPut, "/v2/cob/"+txid, in)
	if err != nil {
		return nil, err
	}
	var cob bcbpix.Cob
	if err := decode(op, res, &cob); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) {
			return nil, err
		}
		existing, err := providerclient.AfterRefusal(ctx, err, func(ctx context.Context) (*bcbpix.Cob, error) {
			return c.getCob(ctx, txid)
		})
		if err != nil {
			return nil, err
		}
		cob = *existing
	}
	if cob.Valor.Original != in.Valor.Original {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, StatusCode: res.Status,
			Message: "a charge of another amount already has this txid"}
	}
	return &cob, nil
}

func (c *connector) getCob(ctx context.Context, txid string) (*bcbpix.Cob, error) {
	res, err := c.call(ctx, providerclient.OpRead, http.MethodGet, "/v2/cob/"+txid, nil)
	if err != nil {
		return nil, err
	}
	var cob bcbpix.Cob
	if err := decode(providerclient.OpRead, res, &cob); err != nil {
		return nil, absentAs(err, res, problemCobAbsent)
	}
	return &cob, nil
}

func (c *connector) SendPix(ctx context.Context, req providerclient.PayoutRequest) (*providerclient.Payout, error) {
	op := providerclient.OpPayout
	idEnvio, err := contractID(op, req.ID, idPattern)
	if err != nil {
		return nil, providerclient.Absent(err) // no send can exist under an id Efí refuses
	}
	in := bcbpix.SendRequest{
		Valor:      bcbpix.FormatAmount(req.Amount),
		Pagador:    bcbpix.Pagador{Chave: c.cfg.PixKey, InfoPagador: truncate(req.Description, 140)},
		Favorecido: bcbpix.Favorecido{Chave: req.Recipient.Key},
	}
	// With the receiver's tax id, Efí refuses a key that belongs to
	// someone else.
	if doc := req.Recipient.TaxID; len(doc) == 11 {
		in.Favorecido.CPF = doc
	} else if len(doc) == 14 {
		in.Favorecido.CNPJ = doc
	}
	ans, err := c.putSend(ctx, idEnvio, in)
	if errors.Is(err, providerclient.ErrRejected) {
		// Refused: maybe because a send under this idEnvio exists (409
		// id_envio_duplicado, an earlier try whose answer was lost). Never
		// send twice, and never take a refusal for proof of nothing sent.
		sent, err := providerclient.AfterRefusal(ctx, err, func(ctx context.Context) (*providerclient.Transaction, error) {
			return c.readSent(ctx, idEnvio)
		})
		if err != nil {
			return nil, err
		}
		return &providerclient.Payout{ProviderID: sent.ProviderID, Status: sent.Status}, nil
	}
	if err != nil {
		return nil, err
	}
	return &providerclient.Payout{ProviderID: idEnvio, Status: sendStatus(ans.Status)}, nil
}

// putSend registers the webhook Efí sends from, then sends in under
// idEnvio.
func (c *connector) putSend(ctx context.Context, idEnvio string, in bcbpix.SendRequest) (*bcbpix.SendAnswer, error) {
	if err := c.ensureWebhook(ctx); err != nil {
		return nil, err
	}
	res, err := c.call(ctx, providerclient.OpPayout, http.MethodPut, "/v3/gn/pix/"+idEnvio, in)
	if err != nil {
		return nil, err
	}
	var ans bcbpix.SendAnswer
	if err := decode(providerclient.OpPayout, res, &ans); err != nil {
		return nil, err
	}
	return &ans, nil
}

func (c *connector) Refund(ctx context.Context, req providerclient.RefundRequest) (*providerclient.Refund, error) {
	op := providerclient.OpRefund
	id, err := contractID(op, req.ID, idPattern)
	if err != nil {
		return nil, providerclient.Absent(err)
	}
	e2e := req.Charge.EndToEndID
	if !e2ePattern.MatchString(e2e) {
		// Nothing can be refunded without it, now or by an earlier try.
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Absent: true,
			Message: "a refund names the charge by the end-to-end id of its payment, which is missing"}
	}
	in := bcbpix.DevolucaoRequest{Valor: bcbpix.FormatAmount(req.Amount), Natureza: "ORIGINAL", Descricao: truncate(req.Description, 140)}
	res, err := c.call(ctx, op, http.MethodPut, "/v2/pix/"+e2e+"/devolucao/"+id, in)
	if err != nil {
		return nil, err
	}
	var d bcbpix.Devolucao
	if err := decode(op, res, &d); err != nil {
		if !errors.Is(err, providerclient.ErrRejected) {
			return nil, err
		}
		// A refund already under this id is this one: never refund twice.
		t, err := providerclient.AfterRefusal(ctx, err, func(ctx context.Context) (*providerclient.Transaction, error) {
			return c.readDevolucao(ctx, e2e, id)
		})
		if err != nil {
			return nil, err
		}
		if t.Amount != req.Amount {
			return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
				Message: "the provider holds a refund under this id for another amount"}
		}
		return &providerclient.Refund{ProviderID: id, Status: t.Status}, nil
	}
	return &providerclient.Refund{ProviderID: id, Status: refundStatus(d.Status)}, nil
}

// Read reads a transaction by the provider's id, or, when the ref has
// none yet, by PixGate's (which, in the contract's form, is the provider's:
// see the package comment). Only the contract's own "no such" answer to
// such a read proves the transaction absent.
func (c *connector) Read(ctx context.Context, ref providerclient.Ref) (*providerclient.Transaction, error) {
	switch ref.Kind {
	case providerclient.KindCharge:
		if ref.Due {
			return c.readCobV(ctx, ref)
		}
		txid, err := refID(ref, txidPattern)
		if err != nil {
			return nil, err
		}
		cob, err := c.getCob(ctx, txid)
		if err != nil {
			return nil, err
		}
		t := cobTransaction(*cob)
		if t.Status == providerclient.StatusPaid {
			if err := c.paidBy(ctx, bcbpix.PathCobList, cob.Txid, cob.Calendario.Criacao, &t); err != nil {
				return nil, err
			}
		}
		return &t, nil
	case providerclient.KindPayout:
		idEnvio, err := refID(ref, idPattern)
		if err != nil {
			return nil, err
		}
		return c.readSent(ctx, idEnvio)
	case providerclient.KindRefund, providerclient.KindMedReturn:
		if ref.Charge == nil || !e2ePattern.MatchString(ref.Charge.EndToEndID) {
			return nil, &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrRejected,
				Message: "reading a refund needs its charge's end-to-end id"}
		}
		id := ref.ProviderID
		if id == "" && ref.Kind == providerclient.KindRefund {
			var err error
			if id, err = refID(ref, idPattern); err != nil {
				return nil, err
			}
		}
		if id == "" {
			return nil, &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrRejected,
				Message: "a MED return is read by the provider's id, which is missing"}
		}
		return c.readDevolucao(ctx, ref.Charge.EndToEndID, id)
	}
	return nil, &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrRejected, Message: "unknown kind " + string(ref.Kind)}
}

// refID is the contract's id of what ref names: the provider's id, or
// PixGate's in the contract's form. A ref with neither is refused: a read
// by no id proves nothing.
func refID(ref providerclient.Ref, pattern *regexp.Regexp) (string, error) {
	if ref.ProviderID != "" {
		return ref.ProviderID, nil
	}
	if ref.ID == "" {
		return "", &providerclient.Error{Op: providerclient.OpRead, Kind: providerclient.ErrRejected,
			Message: "neither the provider's id nor PixGate's names the " + string(ref.Kind)}
	}
	return contractID(providerclient.OpRead, ref.ID, pattern)
}

func (c *connector) readSent(ctx context.Context, idEnvio string) (*providerclient.Transaction, error) {
	res, err := c.call(ctx, providerclient.OpRead, http.MethodGet, "/v2/gn/pix/enviados/id-envio/"+idEnvio, nil)
	if err != nil {
		return nil, err
	}
	var s bcbpix.Sent
	if err := decode(providerclient.OpRead, res, &s); err != nil {
		return nil, absentAs(err, res, problemSentAbsent)
	}
	t := sentTransaction(s)
	if t.ProviderID == "" {
		t.ProviderID, t.ExternalID = idEnvio, idEnvio
	}
	return &t, nil
}

func (c *connector) readDevolucao(ctx context.Context, e2e, id string) (*providerclient.Transaction, error) {
	res, err := c.call(ctx, providerclient.OpRead, http.MethodGet, "/v2/pix/"+e2e+"/devolucao/"+id, nil)
	if err != nil {
		return nil, err
	}
	var d bcbpix.Devolucao
	if err := decode(providerclient.OpRead, res, &d); err != nil {
		return nil, absentAs(err, res, problemDevolucaoAbsent)
	}
	t := devolucaoTransaction(d)
	return &t, nil
}

func (c *connector) Balance(ctx context.Context) (*providerclient.Balance, error) {
	res, err := c.call(ctx, providerclient.OpBalance, http.MethodGet, bcbpix.PathBalance, nil)
	if err != nil {
		return nil, err
	}
	var s bcbpix.Saldo
	if err := decode(providerclient.OpBalance, res, &s); err != nil {
		return nil, err
	}
	m, err := bcbpix.ParseAmount(s.Saldo)
	if err != nil {
		return nil, &providerclient.Error{Op: providerclient.OpBalance, Kind: providerclient.ErrUnknownOutcome,
			StatusCode: res.Status, Message: "unreadable saldo"}
	}
	return &providerclient.Balance{Available: m}, nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}
