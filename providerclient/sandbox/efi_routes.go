package sandbox

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage/money"
)

// Identifier patterns of the BCB API Pix 2.9.0 (TxId, DevolucaoId) and of
// Efí's idEnvio.
var (
	txidPattern  = regexp.MustCompile(`^[a-zA-Z0-9]{26,35}$`)
	shortID      = regexp.MustCompile(`^[a-zA-Z0-9]{1,35}$`)
	valorPattern = regexp.MustCompile(`^\d{1,10}\.\d{2}$`)
)

// efiDecode reads a JSON body; a bad one is answered 400 and false.
func efiDecode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		writeProblem(w, http.StatusRequestEntityTooLarge, "request body too large")
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		writeProblem(w, http.StatusBadRequest, "malformed JSON body")
		return false
	}
	return true
}

// efiAmount checks a valor: the pattern and more than zero.
func efiAmount(field, s string, bad *[]bcbpix.Violacao) money.Money {
	m, err := bcbpix.ParseAmount(s)
	if !valorPattern.MatchString(s) || err != nil || m <= 0 {
		*bad = append(*bad, bcbpix.Violacao{Propriedade: field, Razao: "must be an amount above zero with two decimals", Valor: s})
		return 0
	}
	return m
}

func (f efiFace) putCob(w http.ResponseWriter, r *http.Request) {
	txid := r.PathValue("txid")
	var req bcbpix.CobRequest
	if !efiDecode(w, r, &req) {
		return
	}
	var bad []bcbpix.Violacao
	if !txidPattern.MatchString(txid) {
		bad = append(bad, bcbpix.Violacao{Propriedade: "txid", Razao: "must be 26 to 35 letters and digits", Valor: txid})
	}
	amount := efiAmount("valor.original", req.Valor.Original, &bad)
	if req.Chave != f.s.cfg.PixKey {
		bad = append(bad, bcbpix.Violacao{Propriedade: "chave", Razao: "is not a key of this account", Valor: req.Chave})
	}
	if req.Calendario.Expiracao < 0 {
		bad = append(bad, bcbpix.Violacao{Propriedade: "calendario.expiracao", Razao: "must not be negative"})
	}
	if len([]rune(req.SolicitacaoPagador)) > 140 {
		bad = append(bad, bcbpix.Violacao{Propriedade: "solicitacaoPagador", Razao: "must be at most 140 characters"})
	}
	var debtor contract.Party
	if d := req.Devedor; d != nil {
		debtor.Name = strings.TrimSpace(d.Nome)
		doc, err := pix.NormalizeDocument(d.CPF + d.CNPJ)
		if err != nil || debtor.Name == "" || (d.CPF != "" && d.CNPJ != "") {
			bad = append(bad, bcbpix.Violacao{Propriedade: "devedor", Razao: "needs a name and one valid cpf or cnpj"})
		}
		debtor.TaxID = doc
	}
	if len(bad) > 0 {
		writeProblem(w, http.StatusBadRequest, "the charge is not valid", bad...)
		return
	}
	f.s.mu.Lock()
	hook := f.s.webhooks[req.Chave]
	f.s.mu.Unlock()
	rec, created, err := f.s.createCharge(chargeSpec{id: txid, externalID: txid, amount: amount, debtor: debtor,
		description: req.SolicitacaoPagador, postbackURL: hook, expiration: time.Duration(req.Calendario.Expiracao) * time.Second}, time.Now())
	if err != nil {
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	f.s.mu.Lock()
	isDue, c := rec.due != nil, f.cobOf(rec, time.Now())
	f.s.mu.Unlock()
	if !created && isDue {
		writeProblem(w, http.StatusBadRequest, "the txid "+txid+" is a due-date charge's",
			bcbpix.Violacao{Propriedade: "txid", Razao: "already names a cobv", Valor: txid})
		return
	}
	if !created && c.Status != bcbpix.CobAtiva {
		// BCB API Pix 2.9.0, CobOperacaoInvalida: a charge that exists and
		// is no longer ATIVA is not changed by a PUT. One still ATIVA is
		// answered as it stands (the sandbox does not revise charges).
		writeProblem(w, http.StatusBadRequest, "the charge "+txid+" exists and is "+c.Status,
			bcbpix.Violacao{Propriedade: "txid", Razao: "the charge is no longer ATIVA", Valor: txid})
		return
	}
	writeJSON(w, http.StatusCreated, c)
}

func (f efiFace) getCob(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.s.records[r.PathValue("txid")]
	if rec == nil || rec.kind != contract.TypeReceivePix || rec.due != nil { // a cobv is read at /v2/cobv
		writeProblemType(w, http.StatusNotFound, "CobNaoEncontrado", "no charge has this txid")
		return
	}
	writeJSON(w, http.StatusOK, f.cobOf(rec, time.Now()))
}

// paidCharge is the charge paid by the PIX of end-to-end id e2eid. Callers
// hold s.mu.
func (f efiFace) paidCharge(e2eid string) *record {
	for _, r := range f.s.order {
		if r.kind == contract.TypeReceivePix && r.endToEndID == e2eid && r.status == contract.StatusPaid {
			return r
		}
	}
	return nil
}

func (f efiFace) getPix(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	charge := f.paidCharge(r.PathValue("e2eid"))
	if charge == nil {
		writeProblem(w, http.StatusNotFound, "no PIX received has this end-to-end id")
		return
	}
	writeJSON(w, http.StatusOK, f.pixOf(charge, nil))
}

func (f efiFace) putDevolucao(w http.ResponseWriter, r *http.Request) {
	e2eid, id := r.PathValue("e2eid"), r.PathValue("id")
	var req bcbpix.DevolucaoRequest
	if !efiDecode(w, r, &req) {
		return
	}
	var bad []bcbpix.Violacao
	if !shortID.MatchString(id) {
		bad = append(bad, bcbpix.Violacao{Propriedade: "id", Razao: "must be 1 to 35 letters and digits", Valor: id})
	}
	amount := efiAmount("valor", req.Valor, &bad)
	if len([]rune(req.Descricao)) > 140 {
		bad = append(bad, bcbpix.Violacao{Propriedade: "descricao", Razao: "must be at most 140 characters"})
	}
	if len(bad) > 0 {
		writeProblem(w, http.StatusBadRequest, "the refund is not valid", bad...)
		return
	}
	f.s.mu.Lock()
	charge := f.paidCharge(e2eid)
	f.s.mu.Unlock()
	if charge == nil {
		writeProblem(w, http.StatusNotFound, "no PIX received has this end-to-end id")
		return
	}
	rec, created, err := f.s.createRefund(refundSpec{id: id, externalID: id, chargeID: charge.id, amount: amount,
		description: req.Descricao, postbackURL: charge.postbackURL, endToEndID: newEndToEndID('D', time.Now())}, time.Now())
	var no refusal
	switch {
	case errors.As(err, &no), errors.Is(err, errInsufficient):
		writeProblem(w, http.StatusBadRequest, err.Error(), bcbpix.Violacao{Propriedade: "valor", Razao: err.Error(), Valor: req.Valor})
	case err != nil:
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
	case !created:
		// BCB API Pix 2.9.0, DevolucaoOperacaoInvalida: an {id} already used
		// for this {e2eid} is refused.
		writeProblem(w, http.StatusBadRequest, "refund id "+id+" is already in use", bcbpix.Violacao{Propriedade: "id", Razao: "already in use", Valor: id})
	default:
		f.s.mu.Lock()
		d := devolucaoOf(rec)
		f.s.mu.Unlock()
		writeJSON(w, http.StatusCreated, d)
	}
}

func (f efiFace) getDevolucao(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	charge := f.paidCharge(r.PathValue("e2eid"))
	rec := f.s.records[r.PathValue("id")]
	if charge == nil || rec == nil || !returnsMoney(rec.kind) || rec.pixID != charge.id {
		typ := "PixDevolucaoNaoEncontrada"
		if charge == nil {
			typ = "PixNaoEncontrado"
		}
		writeProblemType(w, http.StatusNotFound, typ, "no refund has this id for this PIX")
		return
	}
	writeJSON(w, http.StatusOK, devolucaoOf(rec))
}

func (f efiFace) putWebhook(w http.ResponseWriter, r *http.Request) {
	var req bcbpix.WebhookRequest
	if !efiDecode(w, r, &req) {
		return
	}
	key := r.PathValue("chave")
	u, err := url.Parse(req.WebhookURL)
	switch {
	case key != f.s.cfg.PixKey:
		writeProblem(w, http.StatusBadRequest, "the key is not this account's", bcbpix.Violacao{Propriedade: "chave", Razao: "unknown key", Valor: key})
		return
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		writeProblem(w, http.StatusBadRequest, "webhookUrl must be an https URL", bcbpix.Violacao{Propriedade: "webhookUrl", Razao: "must be a URL"})
		return
	}
	f.s.mu.Lock()
	f.s.webhooks[key] = req.WebhookURL
	f.s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

func (f efiFace) putSend(w http.ResponseWriter, r *http.Request) {
	idEnvio := r.PathValue("idEnvio")
	var req bcbpix.SendRequest
	if !efiDecode(w, r, &req) {
		return
	}
	var bad []bcbpix.Violacao
	if !shortID.MatchString(idEnvio) {
		bad = append(bad, bcbpix.Violacao{Propriedade: "idEnvio", Razao: "must be 1 to 35 letters and digits", Valor: idEnvio})
	}
	amount := efiAmount("valor", req.Valor, &bad)
	party, err := efiRecipient(req.Favorecido)
	if err != nil {
		bad = append(bad, bcbpix.Violacao{Propriedade: "favorecido.chave", Razao: err.Error()})
	}
	if len(bad) > 0 {
		writeProblem(w, http.StatusBadRequest, "the send is not valid", bad...)
		return
	}
	f.s.mu.Lock()
	hook := f.s.webhooks[req.Pagador.Chave]
	f.s.mu.Unlock()
	if req.Pagador.Chave != f.s.cfg.PixKey || hook == "" {
		// Efí sends only from a key of the account with a webhook.
		writeJSON(w, http.StatusBadRequest, bcbpix.EfiError{Nome: "chave_sem_webhook", Mensagem: "the payer's key must be this account's and have a webhook"})
		return
	}
	rec, created, err := f.s.createPayout(payoutSpec{id: idEnvio, externalID: idEnvio, amount: amount, description: req.Pagador.InfoPagador,
		postbackURL: hook, creditParty: party, endToEndID: newEndToEndID('E', time.Now())}, time.Now())
	var no refusal
	switch {
	case errors.Is(err, errInsufficient):
		writeJSON(w, http.StatusBadRequest, bcbpix.EfiError{Nome: "saldo_insuficiente", Mensagem: "insufficient balance"})
	case errors.As(err, &no):
		writeJSON(w, http.StatusBadRequest, bcbpix.EfiError{Nome: "chave_invalida", Mensagem: no.Error()})
	case err != nil:
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
	case !created:
		writeJSON(w, http.StatusConflict, bcbpix.EfiError{Nome: "id_envio_duplicado", Mensagem: "idEnvio " + idEnvio + " was already used"})
	default:
		f.s.mu.Lock()
		a := bcbpix.SendAnswer{IDEnvio: rec.id, E2eID: rec.endToEndID, Valor: bcbpix.FormatAmount(rec.amount),
			Horario: bcbpix.Horario{Solicitacao: bcbpix.FormatTime(rec.created)}, Status: bcbpix.EmProcessamento}
		f.s.mu.Unlock()
		writeJSON(w, http.StatusCreated, a)
	}
}

// efiRecipient reads a send's receiver: its key, typed by its shape.
func efiRecipient(fav bcbpix.Favorecido) (contract.Party, error) {
	key := strings.TrimSpace(fav.Chave)
	var kt pix.KeyType
	switch {
	case key == "":
		return contract.Party{}, errors.New("is required")
	case strings.Contains(key, "@"):
		kt = pix.KeyEmail
	case strings.HasPrefix(key, "+"):
		kt = pix.KeyPhone
	case len(key) == 36:
		kt = pix.KeyEVP
	case len(key) == 11:
		kt = pix.KeyCPF
	default:
		kt = pix.KeyCNPJ
	}
	norm, err := pix.NormalizeKey(kt, key)
	if err != nil {
		return contract.Party{}, err
	}
	return contract.Party{KeyType: string(kt), Key: norm, TaxID: fav.CPF + fav.CNPJ}, nil
}

func (f efiFace) getSent(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.s.records[r.PathValue("idEnvio")]
	if rec == nil || rec.kind != contract.TypePayment {
		// Efí's documented answer (GET /v2/gn/pix/enviados/id-envio/:idEnvio).
		writeProblemType(w, http.StatusNotFound, "PixEnviadoNaoEncontrado", "Pix enviado não encontrado para o idEnvio informado.")
		return
	}
	writeJSON(w, http.StatusOK, f.sentOf(rec))
}

func (f efiFace) getBalance(w http.ResponseWriter, _ *http.Request) {
	b := f.s.Balance()
	writeJSON(w, http.StatusOK, bcbpix.Saldo{Saldo: bcbpix.FormatAmount(b.Available)})
}
