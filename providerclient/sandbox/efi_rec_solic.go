package sandbox

import (
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// postSolicRec is POST /v2/solicrec: the push journey's consent request,
// sent at once to the payer's account; the recurrence's consent then waits
// until the request's deadline. The BCB refuses a deadline before now
// (and the sandbox, as the payer's bank, one more than 30 days on), an
// account that does not respect the schema and a second request while
// one is open; the sandbox refuses one for a recurrence with a location
// too (its consent is asked by QR Code: Efí's journey 1 sends none) and
// one for a recurrence no longer CRIADA.
func (f efiFace) postSolicRec(w http.ResponseWriter, r *http.Request) {
	var req bcbpix.SolicRecRequest
	if !efiDecode(w, r, &req) {
		return
	}
	now := time.Now()
	var bad []bcbpix.Violacao
	deadline, err := time.Parse(time.RFC3339, req.Calendario.DataExpiracaoSolicitacao)
	if err == nil {
		_, err = recurrence.ConsentDeadline(now, deadline)
	}
	if err != nil {
		bad = append(bad, bcbpix.Violacao{Propriedade: "solicrec.calendario.dataExpiracaoSolicitacao",
			Razao: "must be an RFC 3339 date-time after now and at most 30 days on", Valor: req.Calendario.DataExpiracaoSolicitacao})
	}
	bank, ok := solicDestinatario(req.Destinatario)
	if !ok {
		bad = append(bad, bcbpix.Violacao{Propriedade: "solicrec.destinatario",
			Razao: "needs the participant's ISPB, an account of 1 to 20 characters, a branch of at most 4 and one valid cpf or cnpj"})
	}
	f.s.mu.Lock()
	defer f.s.mu.Unlock()
	rec := f.recAt(req.IDRec)
	if rec == nil {
		recNotFound(w)
		return
	}
	switch {
	case rec.rec.Loc != nil:
		bad = append(bad, bcbpix.Violacao{Propriedade: "solicrec.idRec", Razao: "the recurrence has a location: its consent is asked by QR Code"})
	case rec.rec.Solicitation != nil && recStatusAt(rec, now) == recurrence.RecurrenceCreated.BCB():
		bad = append(bad, bcbpix.Violacao{Propriedade: "solicrec.idRec", Razao: "Existe uma solicitação ativa referente ao mesmo solicrec.idRec."})
	case recStatusAt(rec, now) != recurrence.RecurrenceCreated.BCB():
		bad = append(bad, bcbpix.Violacao{Propriedade: "solicrec.idRec", Razao: "the recurrence is " + recStatusAt(rec, now)})
	}
	if len(bad) > 0 {
		writeProblemType(w, http.StatusBadRequest, "SolicRecOperacaoInvalida", "the solicitation is not valid", bad...)
		return
	}
	d := *rec.rec
	d.Solicitation = &RecurrenceSolicitation{ID: newSolicRecID(now), Created: now}
	d.Payer.Bank = &bank
	if err := f.s.commit(rec, func() { rec.rec, rec.expires = &d, deadline }); err != nil {
		writeProblem(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	out := f.solicRecOf(rec, now)
	payload := f.recOf(rec, now)
	payload.Solicitacao, payload.Ativacao = nil, nil
	payload.Recebedor.ISPBParticipante = sandboxISPB
	out.RecPayload = &payload
	writeJSON(w, http.StatusCreated, out)
}
