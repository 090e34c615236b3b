package efi

import (
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The BCB's limits of a recurrence's texts (RecBase.vinculo,
// PessoaFisicaRecorrencia).
const (
	maxObjeto    = 35
	maxRecPessoa = 140
)

// recRequest is req as POST /v2/rec takes it, or the reason it cannot be
// sent (then nothing is). vinculo.contrato, the "identificador, ou código
// que representa o objeto da autorização", required, is PixGate's id
// without its hyphens (32 letters and digits, within its 35): the
// recurrence's own identifier, by which findRec finds it again. The payer
// recognises the recurrence by vinculo.objeto: the description, or the
// integrator's contract when there is no description (docs/provider.md,
// "Recurrences (efi)", says what this trades).
func recRequest(op string, req providerclient.RecurrenceRequest) (bcbpix.RecRequest, error) {
	if err := offered(op, req.Journey); err != nil {
		return bcbpix.RecRequest{}, err
	}
	contrato, err := contractID(op, req.ID, idPattern)
	if err != nil {
		return bcbpix.RecRequest{}, err
	}
	devedor, err := recPessoa(op, req.Payer)
	if err != nil {
		return bcbpix.RecRequest{}, err
	}
	cal := req.Calendar
	switch {
	case !cal.Periodicity.Valid() || cal.Start.IsZero():
		return bcbpix.RecRequest{}, rejected(op, "calendar: a periodicity and a start are required")
	case req.Journey == recurrence.JourneyPush && req.PayerAccount == nil:
		return bcbpix.RecRequest{}, rejected(op, "payer_account: the PUSH journey sends the request to the payer's account, which is missing")
	}
	objeto := req.Description
	if objeto == "" {
		objeto = req.Contract
	}
	in := bcbpix.RecRequest{
		Vinculo:             bcbpix.RecVinculo{Objeto: truncate(objeto, maxObjeto), Devedor: devedor, Contrato: contrato},
		Calendario:          bcbpix.RecCalendario{DataInicial: cal.Start.String(), Periodicidade: cal.Periodicity.BCB()},
		PoliticaRetentativa: req.RetryPolicy.BCB(),
	}
	if last, ok := cal.LastDue(); ok {
		in.Calendario.DataFinal = last.String()
	}
	if req.Journey == recurrence.JourneyQRWithPayment {
		txid, err := firstPaymentTxid(op, req)
		if err != nil {
			return bcbpix.RecRequest{}, err
		}
		in.Ativacao = &bcbpix.RecAtivacaoSolicitada{DadosJornada: bcbpix.RecDadosJornada{Txid: txid}}
	}
	switch {
	case req.Amount.Fixed > 0:
		in.Valor = &bcbpix.RecValor{ValorRec: bcbpix.FormatAmount(req.Amount.Fixed)}
	case req.Amount.Floor > 0:
		in.Valor = &bcbpix.RecValor{ValorMinimoRecebedor: bcbpix.FormatAmount(req.Amount.Floor)}
	}
	return in, nil
}

// recPessoa is the payer as a recurrence names them: a name and an
// 11-digit CPF or a 14-character CNPJ.
func recPessoa(op string, p providerclient.Party) (bcbpix.RecPessoa, error) {
	out := bcbpix.RecPessoa{Nome: truncate(p.Name, maxRecPessoa)}
	switch {
	case p.Name == "":
		return out, rejected(op, "payer.name is required")
	case len(p.Document) == 11:
		out.CPF = p.Document
	case len(p.Document) == 14:
		out.CNPJ = p.Document
	default:
		return out, rejected(op, "payer.document must be a CPF (11 digits) or a CNPJ (14 characters)")
	}
	return out, nil
}

// recurrenceOf is a recurrence read back in PixGate's terms: its status,
// the BR Code of a QR journey, journey 3's cob (ativacao.dadosJornada.txid,
// read as any charge), when the payer consented (the APROVADA of
// its history), and who ended it and why. The BCB carries no maximum the
// payer set: PayerMax stays unknown.
func recurrenceOf(op string, rec bcbpix.Rec) (*providerclient.Recurrence, error) {
	st, ok := recurrence.RecurrenceStatusFromBCB(rec.Status)
	if !ok {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
			Message: "unknown recurrence status " + rec.Status}
	}
	out := &providerclient.Recurrence{ProviderID: rec.IDRec, ExternalID: pixgateID(rec.Vinculo.Contrato), Status: st}
	if rec.DadosQR != nil {
		out.QRCode = rec.DadosQR.PixCopiaECola
	}
	if a := rec.Ativacao; a != nil && a.DadosJornada != nil {
		out.FirstPaymentID = a.DadosJornada.Txid
	}
	for _, a := range rec.Atualizacao {
		if a.Status == recurrence.RecurrenceApproved.BCB() {
			out.ApprovedAt = bcbpix.ParseTime(a.Data)
		}
	}
	if e := rec.Encerramento; e != nil {
		if r := e.Rejeicao; r != nil {
			out.EndCode, out.EndReason = r.Codigo, r.Descricao
		}
		if cn := e.Cancelamento; cn != nil {
			out.EndCode, out.EndReason = cn.Codigo, cn.Descricao
			out.CancelledBy, _ = recurrence.PartyFromBCB(cn.Solicitante)
		}
	}
	return out, nil
}

// pixgateID is PixGate's id in a vinculo.contrato the connector wrote, ""
// in any other.
func pixgateID(contrato string) string {
	if len(contrato) != 32 {
		return ""
	}
	id, err := uuid.Parse(contrato)
	if err != nil {
		return ""
	}
	return id.String()
}

func rejected(op, msg string) error {
	return &providerclient.Error{Op: op, Kind: providerclient.ErrRejected, Message: msg}
}
