package sandbox

import (
	"errors"
	"net/http"
	"time"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// Journey 3 on the efi face (BCB API Pix 2.9.0, RecAtivacao): POST
// /v2/rec names in ativacao.dadosJornada.txid a cob the client created
// before (PUT /v2/cob/{txid}); the core makes it the recurrence's first
// payment (recurrenceSpec.firstPayment), gives both the composite BR Code,
// and pays it when the payer approves. GET /v2/rec/{idRec}?txid= of that
// cob answers the composite code in dadosQR (jornada JORNADA_3).

// dadosJornadaTxid is the property a refusal of journey 3's cob names.
const dadosJornadaTxid = "rec.ativacao.dadosJornada.txid"

// checkFirstPayment reads journey 3's cob: a txid of the BCB's form naming
// an immediate charge (not a cobv) still ATIVA, whose amount is the
// recurrence's valorRec when it is fixed, on the recurrence's location (the
// composite code carries it). Whether another recurrence has the cob
// already is the core's to say, atomically with the create
// (composeFirstPayment).
func (f efiFace) checkFirstPayment(req recRequest, amount recurrence.Amount, now time.Time) []bcbpix.Violacao {
	txid := req.Ativacao.DadosJornada.Txid
	refuse := func(why string) []bcbpix.Violacao {
		return []bcbpix.Violacao{{Propriedade: dadosJornadaTxid, Razao: why, Valor: txid}}
	}
	if !txidPattern.MatchString(txid) {
		return refuse("must be 26 to 35 letters and digits")
	}
	f.s.mu.Lock()
	c := f.s.records[txid]
	var status string
	if c != nil && c.kind == contract.TypeReceivePix && c.due == nil {
		status = cobStatusOf(c, now)
	}
	f.s.mu.Unlock()
	switch {
	case status == "":
		return refuse("no cob has this txid")
	case status != bcbpix.CobAtiva:
		return refuse("the cob is " + status + ", not ATIVA")
	case amount.Fixed > 0 && c.amount != amount.Fixed:
		return refuse("the cob's valor.original is not the recurrence's valorRec")
	case req.Loc == 0:
		return []bcbpix.Violacao{{Propriedade: "rec.loc", Razao: "journey 3's composite BR Code needs the recurrence's location"}}
	}
	return nil
}

// firstPaymentRefused answers a create the core refused for its first
// payment (an unknown charge, or one no longer PENDING or already another
// recurrence's), as the BCB's RecOperacaoInvalida, and reports whether it
// was that.
func firstPaymentRefused(w http.ResponseWriter, err error, txid string) bool {
	if txid == "" || (!errors.Is(err, ErrNotFound) && !errors.Is(err, ErrConflict)) {
		return false
	}
	writeProblemType(w, http.StatusBadRequest, "RecOperacaoInvalida", "the recurrence is not valid",
		bcbpix.Violacao{Propriedade: dadosJornadaTxid, Razao: err.Error(), Valor: txid})
	return true
}

// compositeRefusal is why GET /v2/rec/{idRec}?txid= of r cannot answer
// the composite code of r and txid (RecConsultaInvalida), or nil: a cobv's
// txid is not a charge of journey 3 (the sandbox serves no journey 4), and
// any other txid than r's first payment names "uma cobrança imediata
// diferente da informada no campo ativacao.dadosJornada.txid". Callers
// hold s.mu.
func (f efiFace) compositeRefusal(r *record, txid string) *bcbpix.Violacao {
	if c := f.s.records[txid]; c != nil && c.kind == contract.TypeReceivePix && c.due != nil {
		return &bcbpix.Violacao{Propriedade: bcbpix.RecTxidParam, Razao: "a cobv is no charge of journey 3", Valor: txid}
	}
	if r.rec.FirstPayment != txid {
		return &bcbpix.Violacao{Propriedade: bcbpix.RecTxidParam, Valor: txid,
			Razao: "is not the cob of the recurrence's ativacao.dadosJornada.txid"}
	}
	return nil
}

// dadosQROf is r's dadosQR read with txid ("" without): journey 3's
// composite code with its cob's txid, a QR journey's own code without one;
// none otherwise (a journey 3 recurrence is consented by its composite
// code only). Callers hold s.mu.
func dadosQROf(r *record, txid string) *bcbpix.DadosQR {
	switch {
	case r.qrcode == "":
		return nil
	case r.rec.FirstPayment != "" && txid == r.rec.FirstPayment:
		return &bcbpix.DadosQR{Jornada: recurrence.JourneyQRWithPayment.BCB(), PixCopiaECola: r.qrcode}
	case r.rec.FirstPayment == "" && txid == "":
		return &bcbpix.DadosQR{Jornada: recurrence.JourneyQR.BCB(), PixCopiaECola: r.qrcode}
	}
	return nil
}
