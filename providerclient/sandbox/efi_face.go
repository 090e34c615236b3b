package sandbox

import (
	"encoding/json"
	"hash/crc32"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
)

// efiFace is the BCB API Pix (charges, due-date charges, received PIX,
// refunds, webhooks) as Efí serves it, with Efí's send, send-read and
// balance routes. Its API is meant to be served over mutual TLS (see
// APIHandler and NewTLSMaterial); its error bodies are the BCB's
// problem+json.
type efiFace struct {
	s    *Sandbox
	locs *efiLocs // the recurrences' locations not yet used (efi_rec.go)
}

func (f efiFace) routes() []route {
	s := f.s
	return []route{
		{"POST", bcbpix.PathToken, false, s.handleToken},
		{"PUT", bcbpix.PathCob, true, f.putCob},
		{"GET", bcbpix.PathCob, true, f.getCob},
		{"GET", bcbpix.PathCobList, true, f.listCob},
		{"PUT", bcbpix.PathCobV, true, f.putCobV},
		{"GET", bcbpix.PathCobV, true, f.getCobV},
		{"GET", bcbpix.PathCobVList, true, f.listCobV},
		{"GET", bcbpix.PathPix, true, f.getPix},
		{"GET", bcbpix.PathPixList, true, f.listPix},
		{"GET", bcbpix.PathSentList, true, f.listSent},
		{"PUT", bcbpix.PathDevolucao, true, f.putDevolucao},
		{"GET", bcbpix.PathDevolucao, true, f.getDevolucao},
		{"PUT", bcbpix.PathWebhook, true, f.putWebhook},
		{"PUT", bcbpix.PathSend, true, f.putSend},
		{"GET", bcbpix.PathSent, true, f.getSent},
		{"GET", bcbpix.PathBalance, true, f.getBalance},
		{"GET", bcbpix.PathInfracoes, true, f.listInfracoes},
		{"POST", bcbpix.PathDefesa, true, f.postDefesa},
		{"POST", bcbpix.PathLocRec, true, f.postLocRec},
		{"POST", bcbpix.PathRecList, true, f.postRec},
		{"GET", bcbpix.PathRecList, true, f.listRec},
		{"GET", bcbpix.PathRec, true, f.getRec},
		{"PATCH", bcbpix.PathRec, true, f.patchRec},
		{"POST", bcbpix.PathSolicRec, true, f.postSolicRec},
		{"PUT", bcbpix.PathWebhookRec, true, f.putWebhookRec},
		{"PUT", bcbpix.PathCobR, true, f.putCobR},
		{"GET", bcbpix.PathCobR, true, f.getCobR},
		{"PATCH", bcbpix.PathCobR, true, f.patchCobR},
		{"POST", bcbpix.PathCobRRetentativa, true, f.postRetentativa},
		{"PUT", bcbpix.PathWebhookCobR, true, f.putWebhookCobR},
	}
}

// problemTypes are the BCB's error types by status.
var problemTypes = map[int]string{
	400: "RequisicaoInvalida", 401: "NaoAutorizado", 403: "AcessoNegado", 404: "NaoEncontrado",
	409: "OperacaoInvalida", 413: "RequisicaoInvalida", 422: "OperacaoInvalida", 500: "ErroInternoDoServidor",
	503: "ServicoIndisponivel",
}

// writeError answers the faults' server errors 503, the one server-side
// failure the BCB API Pix documents (ServicoIndisponivel).
func (efiFace) writeError(w http.ResponseWriter, status int, msg string) {
	if status == http.StatusInternalServerError {
		status = http.StatusServiceUnavailable
	}
	writeProblem(w, status, msg)
}

func writeProblem(w http.ResponseWriter, status int, msg string, violations ...bcbpix.Violacao) {
	typ := problemTypes[status]
	if typ == "" {
		typ = "RequisicaoInvalida"
	}
	writeProblemType(w, status, typ, msg, violations...)
}

// writeProblemType answers a problem of the given BCB type, such as the
// 404 that says the contract holds no such thing (CobNaoEncontrado).
func writeProblemType(w http.ResponseWriter, status int, typ, msg string, violations ...bcbpix.Violacao) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(bcbpix.Problem{
		Type: "https://pix.bcb.gov.br/api/v2/error/" + typ, Title: http.StatusText(status), Status: status,
		Detail: msg, Violacoes: violations,
	})
}

// notification is what Efí's webhook sends when r reaches its state: a
// paid charge, a finished refund (inside its charge's pix, as the BCB's
// callback does) or a finished send (Efí's SOLICITACAO items), each in a
// batch of one at {webhookUrl}/pix; a recurrence's change at
// {webhookUrl}/rec (recNotification); a cycle charge's at {webhookUrl}/cobr
// (cobrNotification). A charge's expiry is not notified:
// the BCB webhook does not report it.
func (f efiFace) notification(r *record, now time.Time) (string, []byte, []byte) {
	if r.kind == contract.TypeRecurrence {
		return f.recNotification(r, now)
	}
	if r.kind == cycleKind {
		return f.cobrNotification(r)
	}
	if r.postbackURL == "" {
		return "", nil, nil
	}
	var item bcbpix.Pix
	switch {
	case r.kind == contract.TypeReceivePix && r.status == contract.StatusPaid:
		item = f.pixOf(r, nil)
	case returnsMoney(r.kind) && r.status != contract.StatusProcessing:
		charge := f.s.records[r.pixID]
		if charge == nil {
			return "", nil, nil
		}
		item = f.pixOf(charge, r)
	case r.kind == contract.TypePayment && r.status != contract.StatusProcessing:
		sent := f.sentOf(r)
		item = bcbpix.Pix{EndToEndID: r.endToEndID, Valor: sent.Valor, Chave: r.creditParty.Key,
			Horario: bcbpix.FormatTime(r.created), Tipo: bcbpix.TipoSolicitacao, Status: sent.Status,
			GnExtras: &bcbpix.GnExtras{IDEnvio: r.id}}
	default:
		return "", nil, nil
	}
	body, _ := json.Marshal(bcbpix.Notification{Pix: []bcbpix.Pix{item}})
	return strings.TrimRight(r.postbackURL, "/") + "/pix", body, nil
}

// cobStatusOf is a charge's (cob or cobv) status at now.
func cobStatusOf(r *record, now time.Time) string {
	switch r.statusAt(now) {
	case contract.StatusPaid:
		return bcbpix.CobConcluida
	case contract.StatusExpired:
		return bcbpix.CobRemovidaPSP
	}
	return bcbpix.CobAtiva
}

// locOf is a charge's payload location, of tipoCob typ.
func locOf(r *record, location, typ string) *bcbpix.Loc {
	return &bcbpix.Loc{ID: int64(crc32.ChecksumIEEE([]byte(r.id))), Txid: r.id, Location: location, TipoCob: typ, Criacao: bcbpix.FormatTime(r.created)}
}

// devedorOf is the payer a charge names, if it names one with a name and a
// tax id.
func devedorOf(d contract.Party) *bcbpix.Devedor {
	if d.Name == "" || d.TaxID == "" {
		return nil
	}
	out := &bcbpix.Devedor{Nome: d.Name}
	if len(d.TaxID) == 11 {
		out.CPF = d.TaxID
	} else {
		out.CNPJ = d.TaxID
	}
	return out
}

// cobOf renders a charge as GET /v2/cob answers it. Callers hold s.mu.
func (f efiFace) cobOf(r *record, now time.Time) bcbpix.Cob {
	loc := f.s.location(r.id)
	c := bcbpix.Cob{
		Calendario: bcbpix.Calendario{Criacao: bcbpix.FormatTime(r.created), Expiracao: int(r.expires.Sub(r.created) / time.Second)},
		Txid:       r.id, Location: loc, Status: cobStatusOf(r, now), Valor: bcbpix.Valor{Original: bcbpix.FormatAmount(r.amount)},
		Chave: f.s.cfg.PixKey, SolicitacaoPagador: r.description, PixCopiaECola: r.qrcode,
		Loc: locOf(r, loc, "cob"), Devedor: devedorOf(r.debtor),
	}
	if r.status == contract.StatusPaid {
		c.Pix = []bcbpix.Pix{f.pixOf(r, nil)}
	}
	return c
}

// pixOf renders the PIX that paid charge r with its refunds, or only
// refund when one is given. Callers hold s.mu.
func (f efiFace) pixOf(r *record, refund *record) bcbpix.Pix {
	p := bcbpix.Pix{EndToEndID: r.endToEndID, Txid: r.id, Valor: bcbpix.FormatAmount(r.amount),
		Chave: f.s.cfg.PixKey, Horario: bcbpix.FormatTime(r.approved)}
	if refund != nil {
		p.Devolucoes = []bcbpix.Devolucao{devolucaoOf(refund)}
		return p
	}
	for _, o := range f.s.order {
		if returnsMoney(o.kind) && o.pixID == r.id {
			p.Devolucoes = append(p.Devolucoes, devolucaoOf(o))
		}
	}
	return p
}

func devolucaoOf(r *record) bcbpix.Devolucao {
	natureza := bcbpix.NaturezaOriginal
	if r.kind == contract.TypeMedReturn {
		natureza = bcbpix.NaturezaMedFraude // the sandbox's infractions are all of fraud
	}
	d := bcbpix.Devolucao{ID: r.id, RtrID: r.endToEndID, Valor: bcbpix.FormatAmount(r.amount), Natureza: natureza,
		Descricao: r.description, Horario: bcbpix.Horario{Solicitacao: bcbpix.FormatTime(r.created)}, Status: bcbpix.EmProcessamento}
	switch r.status {
	case contract.StatusCompleted:
		d.Status, d.Horario.Liquidacao = bcbpix.Devolvido, bcbpix.FormatTime(r.approved)
	case contract.StatusFailed:
		d.Status, d.Motivo = bcbpix.NaoRealizado, truncate(r.failure, 140)
	}
	return d
}

// sentOf renders a send as Efí's send-read answers it.
func (f efiFace) sentOf(r *record) bcbpix.Sent {
	s := bcbpix.Sent{EndToEndID: r.endToEndID, IDEnvio: r.id, Valor: bcbpix.FormatAmount(r.amount), Chave: f.s.cfg.PixKey,
		Status: bcbpix.EmProcessamento, InfoPagador: r.description, Horario: bcbpix.Horario{Solicitacao: bcbpix.FormatTime(r.created)},
		Favorecido: bcbpix.SentFavorecido{Chave: r.creditParty.Key}}
	if cp := r.creditParty; cp.Name != "" {
		s.Favorecido.Identificacao = &bcbpix.Identificacao{Nome: cp.Name}
		if len(cp.TaxID) == 11 {
			s.Favorecido.Identificacao.CPF = cp.TaxID
		} else {
			s.Favorecido.Identificacao.CNPJ = cp.TaxID
		}
	}
	switch r.status {
	case contract.StatusCompleted:
		s.Status, s.Horario.Liquidacao = bcbpix.Realizado, bcbpix.FormatTime(r.approved)
	case contract.StatusFailed:
		s.Status = bcbpix.NaoRealizado
	}
	return s
}
