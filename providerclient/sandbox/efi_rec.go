package sandbox

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The efi face's recurrences (BCB API Pix 2.9.0, tags Rec, SolicRec,
// PayloadLocationRec and WebhookRec): a location issued by POST
// /v2/locrec, a recurrence created by POST /v2/rec through the core's
// createRecurrence (so the payer's-bank controls drive it as every face's),
// a consent request pushed by POST /v2/solicrec, the integrator's cancel by
// PATCH /v2/rec/{idRec}, reads by GET /v2/rec and /v2/rec/{idRec}, and
// each change notified in the BCB's shape ({"recs": [...]}) to
// {webhookUrl}/rec of PUT /v2/webhookrec. Refusals are the BCB's
// RecOperacaoInvalida and SolicRecOperacaoInvalida, each violation naming
// its property as the BCB's list does ("rec.calendario.dataInicial").

// RecurrenceLoc is a QR journey's payload location on the efi face (POST
// /v2/locrec), kept in the RecurrenceData of the recurrence it serves.
type RecurrenceLoc struct {
	ID       int64     `json:"id"`
	Location string    `json:"location"`
	Created  time.Time `json:"created"`
}

// RecurrenceSolicitation is the consent request the efi face pushed to
// the payer's account (POST /v2/solicrec), kept in the RecurrenceData of
// its recurrence; its deadline is the recurrence's, its account the
// payer's bank, its status follows the recurrence's.
type RecurrenceSolicitation struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
}

// efiLocs are the locations issued and not yet used by a recurrence, by
// id. They live in memory: one a restart forgets is refused as inexistent
// and the client creates another. Guarded by Sandbox.mu.
type efiLocs struct {
	free map[int64]RecurrenceLoc
}

// newEfiFace is the efi face with its own state.
func newEfiFace(s *Sandbox) efiFace {
	return efiFace{s: s, locs: &efiLocs{free: make(map[int64]RecurrenceLoc)}}
}

// newRecID is an idRec (RecId): "R", "R" when the policy permits retries
// or "N", the ISPB of the agent, the creation day (Brasília) and 11
// letters or digits.
func newRecID(p recurrence.RetryPolicy, now time.Time) string {
	kind := "N"
	if p == recurrence.RetryThreeInSeven {
		kind = "R"
	}
	return "R" + kind + sandboxISPB + compactDay(now) + randomAlnum(11)
}

// newSolicRecID is an idSolicRec: "SC", the ISPB, the day and 11 letters
// or digits.
func newSolicRecID(now time.Time) string {
	return "SC" + sandboxISPB + compactDay(now) + randomAlnum(11)
}

func compactDay(now time.Time) string { return strings.ReplaceAll(due.Today(now).String(), "-", "") }

// recStatusAt is r's status at now in the BCB's name.
func recStatusAt(r *record, now time.Time) string {
	return recurrence.RecurrenceStatus(r.statusAt(now)).BCB()
}

// recHistory is r's atualizacao at now: created, approved, ended, each
// when it happened (a consent left to lapse ends at its deadline).
func recHistory(r *record, now time.Time) []bcbpix.RecAtualizacao {
	out := []bcbpix.RecAtualizacao{{Status: recurrence.RecurrenceCreated.BCB(), Data: bcbpix.FormatTime(r.created)}}
	if !r.approved.IsZero() {
		out = append(out, bcbpix.RecAtualizacao{Status: recurrence.RecurrenceApproved.BCB(), Data: bcbpix.FormatTime(r.approved)})
	}
	st := recurrence.RecurrenceStatus(r.statusAt(now))
	if st.Final() {
		ended := r.rec.EndedAt
		if ended.IsZero() {
			ended = r.expires
		}
		out = append(out, bcbpix.RecAtualizacao{Status: st.BCB(), Data: bcbpix.FormatTime(ended)})
	}
	return out
}

// recEncerramento is why r ended, if it did.
func recEncerramento(r *record, now time.Time) *bcbpix.RecEncerramento {
	d := r.rec
	switch recurrence.RecurrenceStatus(r.statusAt(now)) {
	case recurrence.RecurrenceRejected:
		return &bcbpix.RecEncerramento{Rejeicao: &bcbpix.RecMotivo{Codigo: d.EndCode, Descricao: truncate(d.EndReason, 400)}}
	case recurrence.RecurrenceCancelled:
		return &bcbpix.RecEncerramento{Cancelamento: &bcbpix.RecCancelamento{Solicitante: d.CancelledBy.BCB(),
			RecMotivo: bcbpix.RecMotivo{Codigo: d.EndCode, Descricao: truncate(d.EndReason, 400)}}}
	}
	return nil
}

// recAtivacao is how r's payer consented: its journey once they did, and
// journey 3's cob (dadosJornada.txid) throughout, as the BCB's example
// answers of POST /v2/rec give it.
func recAtivacao(r *record) *bcbpix.RecAtivacao {
	out := &bcbpix.RecAtivacao{TipoJornada: bcbpix.JornadaAguardando}
	if !r.approved.IsZero() {
		out.TipoJornada = r.rec.Journey.BCB()
	}
	if r.rec.FirstPayment != "" {
		out.DadosJornada = &bcbpix.RecDadosJornada{Txid: r.rec.FirstPayment}
	}
	return out
}

// recOf renders r as POST, PATCH and the list answer it (the BCB's
// RecGerada, RecCompletaPesquisada): its terms, status, location, history,
// end, journey, the payer once they consented, and its solicitations.
// Callers hold s.mu.
func (f efiFace) recOf(r *record, now time.Time) bcbpix.Rec {
	d := r.rec
	out := bcbpix.Rec{
		IDRec: r.id, Vinculo: bcbpix.RecVinculo{Objeto: r.description, Devedor: recPessoaOf(d.Payer), Contrato: d.Contract},
		Calendario:          bcbpix.RecCalendario{DataInicial: d.Calendar.Start.String(), Periodicidade: d.Calendar.Periodicity.BCB()},
		PoliticaRetentativa: d.RetryPolicy.BCB(), Recebedor: bcbpix.RecRecebedor{CNPJ: sandboxCNPJ, Nome: f.s.cfg.MerchantName},
		Status: recStatusAt(r, now), Atualizacao: recHistory(r, now), Encerramento: recEncerramento(r, now), Ativacao: recAtivacao(r),
	}
	if last, ok := d.Calendar.LastDue(); ok {
		out.Calendario.DataFinal = last.String()
	}
	switch {
	case d.Amount.Fixed > 0:
		out.Valor = &bcbpix.RecValor{ValorRec: bcbpix.FormatAmount(d.Amount.Fixed)}
	case d.Amount.Floor > 0:
		out.Valor = &bcbpix.RecValor{ValorMinimoRecebedor: bcbpix.FormatAmount(d.Amount.Floor)}
	}
	if l := d.Loc; l != nil {
		out.Loc = &bcbpix.LocRec{ID: l.ID, Location: l.Location, Criacao: bcbpix.FormatTime(l.Created), IDRec: r.id}
	}
	if !r.approved.IsZero() {
		out.Pagador = &bcbpix.RecPagador{ISPBParticipante: payerISPB(d)}
		out.Pagador.CPF, out.Pagador.CNPJ = splitDocument(d.Payer.Document)
	}
	if d.Solicitation != nil {
		out.Solicitacao = []bcbpix.SolicRec{f.solicRecOf(r, now)}
	}
	return out
}

// recReadOf is r as GET /v2/rec/{idRec} reads it (RecCompleta), with
// ?txid= when txid is not "": with the BR Code of a QR journey in dadosQR
// (dadosQROf). Callers hold s.mu.
func (f efiFace) recReadOf(r *record, now time.Time, txid string) bcbpix.Rec {
	out := f.recOf(r, now)
	out.DadosQR = dadosQROf(r, txid)
	return out
}

// solicRecOf renders r's solicitation: its status follows the
// recurrence's (sent at once; accepted, refused or lapsed with it;
// cancelled when the recurrence was before the payer answered). Callers
// hold s.mu.
func (f efiFace) solicRecOf(r *record, now time.Time) bcbpix.SolicRec {
	d := r.rec
	status := bcbpix.SolicEnviada
	switch recurrence.RecurrenceStatus(r.statusAt(now)) {
	case recurrence.RecurrenceApproved:
		status = bcbpix.SolicAceita
	case recurrence.RecurrenceRejected:
		status = bcbpix.SolicRejeitada
	case recurrence.RecurrenceExpired:
		status = bcbpix.SolicExpirada
	case recurrence.RecurrenceCancelled:
		status = bcbpix.SolicCancelada
		if !r.approved.IsZero() {
			status = bcbpix.SolicAceita
		}
	}
	at := bcbpix.FormatTime(d.Solicitation.Created)
	s := bcbpix.SolicRec{IDSolicRec: d.Solicitation.ID, IDRec: r.id, Status: status,
		Calendario:  bcbpix.SolicRecPrazo{DataExpiracaoSolicitacao: bcbpix.FormatTime(r.expires)},
		Atualizacao: []bcbpix.RecAtualizacao{{Status: bcbpix.SolicCriada, Data: at}, {Status: bcbpix.SolicEnviada, Data: at}}}
	switch hist := recHistory(r, now); {
	case !r.approved.IsZero():
		s.Atualizacao = append(s.Atualizacao, bcbpix.RecAtualizacao{Status: bcbpix.SolicAceita, Data: bcbpix.FormatTime(r.approved)})
	case status != bcbpix.SolicEnviada:
		s.Atualizacao = append(s.Atualizacao, bcbpix.RecAtualizacao{Status: status, Data: hist[len(hist)-1].Data})
	}
	if b := d.Payer.Bank; b != nil {
		s.Destinatario = bcbpix.SolicRecConta{Agencia: b.Branch, Conta: b.Account, ISPBParticipante: b.ISPB}
		s.Destinatario.CPF, s.Destinatario.CNPJ = splitDocument(d.Payer.Document)
	}
	return s
}

// payerISPB is the participant of the payer who consented: the one the
// request was pushed to, or the sandbox's, playing their bank.
func payerISPB(d *RecurrenceData) string {
	if d.Payer.Bank != nil {
		return d.Payer.Bank.ISPB
	}
	return sandboxISPB
}

// recPessoaOf is the payer as the rec's devedor.
func recPessoaOf(p contract.RecurrencePayer) bcbpix.RecPessoa {
	out := bcbpix.RecPessoa{Nome: p.Name}
	out.CPF, out.CNPJ = splitDocument(p.Document)
	return out
}

// splitDocument is a CPF (11 digits) or a CNPJ.
func splitDocument(doc string) (cpf, cnpj string) {
	if len(doc) == 11 {
		return doc, ""
	}
	return "", doc
}

// recNotification is what the efi face sends when r changes: a batch of
// one at {webhookUrl}/rec, to the webhook registered now (PUT
// /v2/webhookrec) or, when none is, the one registered when r was
// created; stale is r as it was created, for the out-of-order fault.
// Callers hold s.mu.
func (f efiFace) recNotification(r *record, now time.Time) (string, []byte, []byte) {
	hook := f.s.webhooks[bcbpix.PathWebhookRec]
	if hook == "" {
		hook = r.postbackURL
	}
	if hook == "" {
		return "", nil, nil
	}
	n := bcbpix.RecNotification{IDRec: r.id, Status: recStatusAt(r, now), Atualizacao: recHistory(r, now),
		Encerramento: recEncerramento(r, now), Ativacao: recAtivacao(r)}
	body, _ := json.Marshal(bcbpix.RecNotifications{Recs: []bcbpix.RecNotification{n}})
	created := bcbpix.RecNotification{IDRec: r.id, Status: recurrence.RecurrenceCreated.BCB(), Atualizacao: n.Atualizacao[:1],
		Ativacao: &bcbpix.RecAtivacao{TipoJornada: bcbpix.JornadaAguardando}}
	stale, _ := json.Marshal(bcbpix.RecNotifications{Recs: []bcbpix.RecNotification{created}})
	return strings.TrimRight(hook, "/") + bcbpix.RecWebhookSuffix, body, stale
}
