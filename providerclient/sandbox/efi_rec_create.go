package sandbox

import (
	"encoding/json"
	"errors"
	mrand "math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/pix"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// postLocRec is POST /v2/locrec (no body): a location for a QR journey's
// recurrence.
func (f efiFace) postLocRec(w http.ResponseWriter, _ *http.Request) {
	now := time.Now()
	// Positive and below 2^53, so that every JSON reader reads it exactly.
	loc := RecurrenceLoc{ID: mrand.Int64N(1<<53-1) + 1, Location: f.s.location("rec/" + randomAlnum(32)), Created: now}
	f.s.mu.Lock()
	f.locs.free[loc.ID] = loc
	f.s.mu.Unlock()
	writeJSON(w, http.StatusCreated, bcbpix.LocRec{ID: loc.ID, Location: loc.Location, Criacao: bcbpix.FormatTime(now)})
}

// recRequest is a POST /v2/rec body, with what the sandbox refuses read
// raw: a recebedor's convenio.
type recRequest struct {
	bcbpix.RecRequest
	Recebedor json.RawMessage `json:"recebedor"`
}

// postRec is POST /v2/rec: a CRIADA recurrence through the core, on its
// location (a QR journey, with its first payment for journey 3) or
// awaiting a solicitation (the push journey).
func (f efiFace) postRec(w http.ResponseWriter, r *http.Request) {
	var req recRequest
	if !efiDecode(w, r, &req) {
		return
	}
	now := time.Now()
	sp, bad := f.checkRec(req, now)
	if len(bad) > 0 {
		writeProblemType(w, http.StatusBadRequest, "RecOperacaoInvalida", "the recurrence is not valid", bad...)
		return
	}
	f.s.mu.Lock()
	loc, free := f.locs.free[req.Loc]
	delete(f.locs.free, req.Loc)
	f.s.mu.Unlock()
	if req.Loc != 0 && !free {
		writeProblemType(w, http.StatusBadRequest, "RecOperacaoInvalida", "the location is not free",
			bcbpix.Violacao{Propriedade: "rec.loc", Razao: "no location has this id, or a recurrence uses it already"})
		return
	}
	if free {
		sp.location, sp.data.Loc = loc.Location, &loc
		if sp.data.Journey == recurrence.JourneyPush {
			sp.data.Journey = recurrence.JourneyQR
		}
	}
	rec, _, err := f.s.createRecurrence(sp, now)
	if err != nil {
		if free {
			f.s.mu.Lock()
			f.locs.free[loc.ID] = loc
			f.s.mu.Unlock()
		}
		if !firstPaymentRefused(w, err, sp.firstPayment) {
			writeProblem(w, http.StatusServiceUnavailable, err.Error())
		}
		return
	}
	f.s.mu.Lock()
	out := f.recOf(rec, now)
	f.s.mu.Unlock()
	writeJSON(w, http.StatusCreated, out)
}

// checkRec validates a POST /v2/rec on the day of now with the core's
// rules, under the BCB's property names, and returns what to create: a
// push journey's recurrence (a QR one once its location is taken), or
// journey 3's with its cob.
func (f efiFace) checkRec(req recRequest, now time.Time) (recurrenceSpec, []bcbpix.Violacao) {
	var bad []bcbpix.Violacao
	add := func(prop, why string) { bad = append(bad, bcbpix.Violacao{Propriedade: prop, Razao: why}) }
	v := req.Vinculo
	payer, err := recPayer(v.Devedor)
	switch {
	case v.Contrato == "" || len([]rune(v.Contrato)) > 35 || len([]rune(v.Objeto)) > 35:
		add("rec.vinculo", "needs a contrato of 1 to 35 characters and an objeto of at most 35")
	case err != nil:
		add("rec.vinculo", "the devedor "+err.Error())
	}
	d := RecurrenceData{Journey: recurrence.JourneyPush, Payer: payer, Contract: v.Contrato}
	d.Calendar, bad = recCalendar(req.Calendario, now, bad)
	d.Amount, bad = recAmount(req.Valor, bad)
	var ok bool
	if d.RetryPolicy, ok = recurrence.RetryPolicyFromBCB(req.PoliticaRetentativa); !ok {
		add("rec.politicaRetentativa", "must be NAO_PERMITE or PERMITE_3R_7D")
	}
	var first string
	if req.Ativacao != nil {
		d.Journey, first = recurrence.JourneyQRWithPayment, req.Ativacao.DadosJornada.Txid
		bad = append(bad, f.checkFirstPayment(req, d.Amount, now)...)
	}
	if present(req.Recebedor) {
		add("rec.recebedor", "the sandbox accepts no convenio")
	}
	deadline, _ := recurrence.ConsentDeadline(now, time.Time{})
	f.s.mu.Lock()
	hook := f.s.webhooks[bcbpix.PathWebhookRec]
	f.s.mu.Unlock()
	return recurrenceSpec{id: newRecID(d.RetryPolicy, now), description: v.Objeto, postbackURL: hook, deadline: deadline, data: d,
		firstPayment: first}, bad
}

// recPayer reads the devedor: a name (≤ 140) and one valid cpf or cnpj.
func recPayer(p bcbpix.RecPessoa) (contract.RecurrencePayer, error) {
	out := contract.RecurrencePayer{Name: strings.TrimSpace(p.Nome)}
	doc, err := pix.NormalizeDocument(p.CPF + p.CNPJ)
	if err != nil || out.Name == "" || len([]rune(out.Name)) > 140 || (p.CPF != "" && p.CNPJ != "") {
		return out, errors.New("needs a name and one valid cpf or cnpj")
	}
	out.Document = doc
	return out, nil
}

// calendarProps are the core's calendar fields under the BCB's names.
var calendarProps = map[string]string{"calendar.periodicity": "rec.calendario.periodicidade",
	"calendar.start": "rec.calendario.dataInicial", "calendar.end": "rec.calendario.dataFinal"}

// recCalendar reads the calendario and checks it with the core's rules
// (dataInicial not before today, dataFinal not before it).
func recCalendar(c bcbpix.RecCalendario, now time.Time, bad []bcbpix.Violacao) (recurrence.Calendar, []bcbpix.Violacao) {
	var cal recurrence.Calendar
	var ok bool
	cal.Periodicity, ok = recurrence.PeriodicityFromBCB(c.Periodicidade)
	start, err := due.ParseDate(c.DataInicial)
	switch {
	case !ok:
		return cal, append(bad, bcbpix.Violacao{Propriedade: "rec.calendario.periodicidade", Razao: "must be SEMANAL, MENSAL, TRIMESTRAL, SEMESTRAL or ANUAL", Valor: c.Periodicidade})
	case err != nil:
		return cal, append(bad, bcbpix.Violacao{Propriedade: "rec.calendario.dataInicial", Razao: "must be a date, YYYY-MM-DD", Valor: c.DataInicial})
	}
	cal.Start = start
	if c.DataFinal != "" {
		if cal.End, err = due.ParseDate(c.DataFinal); err != nil {
			return cal, append(bad, bcbpix.Violacao{Propriedade: "rec.calendario.dataFinal", Razao: "must be a date, YYYY-MM-DD", Valor: c.DataFinal})
		}
	}
	var fe *recurrence.FieldError
	if err := cal.Validate(due.Today(now)); errors.As(err, &fe) {
		bad = append(bad, bcbpix.Violacao{Propriedade: calendarProps[fe.Field], Razao: fe.Message})
	}
	return cal, bad
}

// recAmount reads the valor: a fixed amount or a floor, never both.
func recAmount(v *bcbpix.RecValor, bad []bcbpix.Violacao) (recurrence.Amount, []bcbpix.Violacao) {
	var a recurrence.Amount
	if v == nil {
		return a, bad
	}
	if v.ValorRec != "" {
		a.Fixed = efiAmount("rec.valor.valorRec", v.ValorRec, &bad)
	}
	if v.ValorMinimoRecebedor != "" {
		a.Floor = efiAmount("rec.valor.valorMinimoRecebedor", v.ValorMinimoRecebedor, &bad)
	}
	if a.Validate() != nil {
		bad = append(bad, bcbpix.Violacao{Propriedade: "rec.valor",
			Razao: "takes valorRec or valorMinimoRecebedor, not both"})
	}
	return a, bad
}
