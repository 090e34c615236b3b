package sandbox

import (
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// cobrInvalid is the BCB's refusal of a cycle charge's request.
const cobrInvalid = "CobROperacaoInvalida"

// cobrNotFound answers the BCB's 404 of a txid it holds no cycle charge
// under.
func cobrNotFound(w http.ResponseWriter) {
	writeProblemType(w, http.StatusNotFound, "CobRNaoEncontrado", "Cobrança não encontrada para o txid informado.")
}

// putCobR is PUT /v2/cobr/{txid}: a cycle charge of an APPROVED
// recurrence, through the core (its window, one live charge per cycle).
// The same PUT again answers the charge registered; the txid in use by
// another charge, or by this one with other terms, is refused.
func (f efiFace) putCobR(w http.ResponseWriter, r *http.Request) {
	txid := r.PathValue("txid")
	var req bcbpix.CobRRequest
	if !efiDecode(w, r, &req) {
		return
	}
	sp, bad := f.checkCobR(txid, req)
	if len(bad) > 0 {
		writeProblemType(w, http.StatusBadRequest, cobrInvalid, "the cycle charge is not valid", bad...)
		return
	}
	rec, created, err := f.s.createCycle(sp, time.Now())
	switch {
	case errors.Is(err, ErrStore):
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
		return
	case errors.Is(err, ErrNotFound):
		writeProblemType(w, http.StatusBadRequest, cobrInvalid, "the recurrence is not known",
			bcbpix.Violacao{Propriedade: "cobr.idRec", Razao: "no recurrence has this idRec", Valor: req.IDRec})
		return
	case err != nil:
		writeProblemType(w, http.StatusBadRequest, cobrInvalid, err.Error(),
			bcbpix.Violacao{Propriedade: "cobr.calendario.dataDeVencimento", Razao: err.Error(), Valor: req.Calendario.DataDeVencimento})
		return
	}
	f.s.mu.Lock()
	out := f.cobrOf(rec)
	f.s.mu.Unlock()
	if !created && (out.IDRec != sp.recurrence || out.Calendario.DataDeVencimento != sp.dueDate.String() ||
		out.Valor.Original != bcbpix.FormatAmount(sp.amount)) {
		writeProblemType(w, http.StatusBadRequest, cobrInvalid, "O campo cobr.txid encontra-se em uso.",
			bcbpix.Violacao{Propriedade: "cobr.txid", Razao: "a cycle charge of other terms has this txid", Valor: txid})
		return
	}
	writeJSON(w, http.StatusCreated, out)
}

// checkCobR validates a PUT /v2/cobr/{txid} under the BCB's property
// names and returns the cycle to create. The sandbox keeps no calendar of
// business days: ajusteDiaUtil false is refused rather than ignored.
func (f efiFace) checkCobR(txid string, req bcbpix.CobRRequest) (cycleSpec, []bcbpix.Violacao) {
	var bad []bcbpix.Violacao
	add := func(prop, why, value string) {
		bad = append(bad, bcbpix.Violacao{Propriedade: prop, Razao: why, Valor: value})
	}
	if !txidPattern.MatchString(txid) {
		add("cobr.txid", "must be 26 to 35 letters and digits", txid)
	}
	f.s.mu.Lock()
	if o := f.s.records[txid]; o != nil && o.kind != cycleKind {
		add("cobr.txid", "O campo cobr.txid encontra-se em uso.", txid)
	}
	hook := f.s.webhooks[bcbpix.PathWebhookCobR]
	f.s.mu.Unlock()
	day, err := due.ParseDate(req.Calendario.DataDeVencimento)
	if err != nil {
		add("cobr.calendario", "dataDeVencimento must be a day (YYYY-MM-DD)", req.Calendario.DataDeVencimento)
	}
	amount := efiAmount("cobr.valor.original", req.Valor.Original, &bad)
	switch rc := req.Recebedor; {
	case rc.Conta != DefaultAccountNumber || (rc.Agencia != "" && rc.Agencia != DefaultAccountBranch):
		add("cobr.recebedor", "Os campos cobr.recebedor.conta e cobr.recebedor.agencia correspondem a uma conta que não pertence a este usuário recebedor.", rc.Conta)
	case rc.TipoConta != bcbpix.ContaCorrente:
		add("cobr.recebedor", "the sandbox account's tipoConta is "+bcbpix.ContaCorrente, rc.TipoConta)
	}
	if !req.AjusteDiaUtil {
		add("cobr.ajusteDiaUtil", "the sandbox keeps no business days: only true is served", "false")
	}
	if len([]rune(req.InfoAdicional)) > 140 {
		add("cobr.infoAdicional", "at most 140 characters", "")
	}
	return cycleSpec{id: txid, externalID: txid, recurrence: req.IDRec, dueDate: day, amount: amount,
		description: req.InfoAdicional, postbackURL: hook}, bad
}

// getCobR is GET /v2/cobr/{txid}.
func (f efiFace) getCobR(w http.ResponseWriter, r *http.Request) {
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	c := f.s.cycleByID(r.PathValue("txid"))
	if c == nil {
		cobrNotFound(w)
		return
	}
	writeJSON(w, http.StatusOK, f.cobrOf(c))
}

// patchCobR is PATCH /v2/cobr/{txid} with status CANCELADA: the
// integrator cancels, through the core, before the day of the first
// attempt (the BCB refuses it from that day on). One already cancelled is
// answered as it is.
func (f efiFace) patchCobR(w http.ResponseWriter, r *http.Request) {
	var req bcbpix.CobRRevisada
	if !efiDecode(w, r, &req) {
		return
	}
	if req.Status != recurrence.CycleCancelled.BCB() {
		writeProblemType(w, http.StatusBadRequest, cobrInvalid, "the status is not valid",
			bcbpix.Violacao{Propriedade: "cobr.status", Razao: "must be CANCELADA", Valor: req.Status})
		return
	}
	txid := r.PathValue("txid")
	f.s.mu.Lock()
	c := f.s.cycleByID(txid)
	late := c != nil && c.status != string(recurrence.CycleCancelled) && !f.s.todayLocked(time.Now()).Before(c.cyc.DueDate)
	f.s.mu.Unlock()
	switch {
	case c == nil:
		cobrNotFound(w)
		return
	case late:
		writeProblemType(w, http.StatusBadRequest, cobrInvalid,
			"Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.",
			bcbpix.Violacao{Propriedade: "cobr.status", Razao: "the first attempt's day has come", Valor: req.Status})
		return
	}
	c, err := f.s.cancelCycle(c.id, recurrence.PartyIntegrator)
	f.writeCycleMove(w, http.StatusOK, c, err, "cobr.status")
}

// postRetentativa is POST /v2/cobr/{txid}/retentativa/{data}: the
// receiver asks a retry to settle on data, as the core's policy allows.
func (f efiFace) postRetentativa(w http.ResponseWriter, r *http.Request) {
	day, err := due.ParseDate(r.PathValue("data"))
	if err != nil {
		writeProblemType(w, http.StatusBadRequest, cobrInvalid, "data is not a day",
			bcbpix.Violacao{Propriedade: "data", Razao: "must be a day (YYYY-MM-DD)", Valor: r.PathValue("data")})
		return
	}
	c, err := f.s.retryCycle(r.PathValue("txid"), day)
	f.writeCycleMove(w, http.StatusCreated, c, err, "data")
}

// writeCycleMove answers a cancel or a retry: the charge as it now is, or
// the core's refusal (a retry refused is the BCB's 400
// CobROperacaoInvalida, naming property).
func (f efiFace) writeCycleMove(w http.ResponseWriter, status int, c *record, err error, property string) {
	switch {
	case errors.Is(err, ErrNotFound):
		cobrNotFound(w)
		return
	case errors.Is(err, ErrConflict):
		writeProblemType(w, http.StatusBadRequest, cobrInvalid, err.Error(),
			bcbpix.Violacao{Propriedade: property, Razao: err.Error()})
		return
	case err != nil:
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	f.s.mu.Lock()
	out := f.cobrOf(c)
	f.s.mu.Unlock()
	writeJSON(w, status, out)
}

// putWebhookCobR is PUT /v2/webhookcobr: where the cycle charges' changes
// are notified ({webhookUrl}/cobr).
func (f efiFace) putWebhookCobR(w http.ResponseWriter, r *http.Request) {
	var req bcbpix.WebhookRequest
	if !efiDecode(w, r, &req) {
		return
	}
	if u, err := url.Parse(req.WebhookURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		writeProblemType(w, http.StatusBadRequest, "WebhookCobROperacaoInvalida", "webhookUrl must be an https URL",
			bcbpix.Violacao{Propriedade: "webhookUrl", Razao: "must be a URL"})
		return
	}
	f.s.mu.Lock()
	f.s.webhooks[bcbpix.PathWebhookCobR] = req.WebhookURL
	f.s.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}
