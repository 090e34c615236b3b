package efi

import (
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// cycleOf is a cycle charge read back in PixGate's terms: its status, due
// date and amount, its attempts oldest first, why it ended (rejected: the
// code; cancelled: who asked) and, paid, the PIX that paid it. The cobr
// names no payer (the recurrence does): Payer stays empty.
func cycleOf(op string, c bcbpix.CobR) (*providerclient.Cycle, error) {
	st, ok := recurrence.CycleStatusFromBCB(c.Status)
	if !ok {
		return nil, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
			Message: "unknown cycle charge status " + c.Status}
	}
	out := &providerclient.Cycle{ProviderID: c.Txid, ExternalID: pixgateID(c.Txid), Status: st}
	out.DueDate, _ = due.ParseDate(c.Calendario.DataDeVencimento)
	out.Amount, _ = bcbpix.ParseAmount(c.Valor.Original)
	for _, t := range c.Tentativas {
		a, err := attemptOf(op, t)
		if err != nil {
			return nil, err
		}
		out.Attempts = append(out.Attempts, a)
	}
	if e := c.Encerramento; e != nil {
		if r := e.Rejeicao; r != nil {
			out.RejectionCode = r.Codigo
		}
		if cn := e.Cancelamento; cn != nil {
			out.CancelledBy, _ = recurrence.PartyFromBCB(cn.Solicitante)
		}
	}
	if st == recurrence.CyclePaid && len(c.Pix) > 0 {
		p := c.Pix[0]
		out.EndToEndID, out.PaidAt = p.EndToEndID, bcbpix.ParseTime(p.Horario)
		if paid, err := bcbpix.ParseAmount(p.Valor); err == nil {
			out.Amount = paid
		}
	}
	return out, nil
}

// attemptOf is one tentativa in PixGate's terms; a status the BCB does not
// list is an answer PixGate cannot act on.
func attemptOf(op string, t bcbpix.CobRTentativa) (providerclient.Attempt, error) {
	st, ok := recurrence.AttemptStatusFromBCB(t.Status)
	if !ok {
		return providerclient.Attempt{}, &providerclient.Error{Op: op, Kind: providerclient.ErrUnknownOutcome,
			Message: "unknown attempt status " + t.Status}
	}
	a := providerclient.Attempt{Kind: recurrence.AttemptKind(t.Tipo), Status: st, EndToEndID: t.EndToEndID}
	a.SettleOn, _ = due.ParseDate(t.DataLiquidacao)
	if t.Rejeicao != nil {
		a.RejectionCode = t.Rejeicao.Codigo
	}
	return a, nil
}
