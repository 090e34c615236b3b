package efi

import (
	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

// cobStatus maps a charge's status (BCB API Pix 2.9.0, CobCompleta.status).
func cobStatus(s string) providerclient.Status {
	switch s {
	case bcbpix.CobConcluida:
		return providerclient.StatusPaid
	case bcbpix.CobRemovidaPSP, bcbpix.CobRemovidaUsuario:
		return providerclient.StatusExpired
	case bcbpix.CobAtiva:
		return providerclient.StatusPending
	}
	return providerclient.Status(s)
}

// sendStatus maps a send's status (dev.efipay.com.br/docs/api-pix/status).
func sendStatus(s string) providerclient.Status {
	switch s {
	case bcbpix.EmProcessamento:
		return providerclient.StatusProcessing
	case bcbpix.Realizado:
		return providerclient.StatusCompleted
	case bcbpix.NaoRealizado:
		return providerclient.StatusFailed
	}
	return providerclient.Status(s)
}

// refundStatus maps a devolucao's status (BCB API Pix 2.9.0,
// Devolucao.status).
func refundStatus(s string) providerclient.Status {
	switch s {
	case bcbpix.EmProcessamento:
		return providerclient.StatusProcessing
	case bcbpix.Devolvido:
		return providerclient.StatusCompleted
	case bcbpix.NaoRealizado:
		return providerclient.StatusFailed
	}
	return providerclient.Status(s)
}

// cobTransaction is a charge read back; once paid, its amount, end-to-end
// id and time are those of the PIX that paid it.
func cobTransaction(c bcbpix.Cob) providerclient.Transaction {
	t := providerclient.Transaction{Kind: providerclient.KindCharge, ProviderID: c.Txid, ExternalID: c.Txid,
		Status: cobStatus(c.Status), Description: c.SolicitacaoPagador}
	t.Amount, _ = bcbpix.ParseAmount(c.Valor.Original)
	// devedor is who the charge expected, not who paid: the BCB API Pix
	// names no payer of a received PIX (its pagador was removed), and
	// neither does Efí's charge read; who paid is read from Efí's list of
	// charges (paidBy).
	if t.Status == providerclient.StatusPaid && len(c.Pix) > 0 {
		p := c.Pix[0]
		t.Amount, _ = bcbpix.ParseAmount(p.Valor)
		t.EndToEndID, t.SettledAt = p.EndToEndID, bcbpix.ParseTime(p.Horario)
	}
	return t
}

func sentTransaction(s bcbpix.Sent) providerclient.Transaction {
	t := providerclient.Transaction{Kind: providerclient.KindPayout, ProviderID: s.IDEnvio, ExternalID: s.IDEnvio,
		Status: sendStatus(s.Status), EndToEndID: s.EndToEndID, SettledAt: bcbpix.ParseTime(s.Horario.Liquidacao),
		Description: s.InfoPagador}
	t.Amount, _ = bcbpix.ParseAmount(s.Valor)
	if t.Status == providerclient.StatusFailed {
		t.FailureReason = "the PIX was not sent (" + bcbpix.NaoRealizado + ")"
	}
	return t
}

// devolucaoTransaction is a refund read back; one of a MED natureza is a
// MED return, which Efí made itself.
func devolucaoTransaction(d bcbpix.Devolucao) providerclient.Transaction {
	kind := providerclient.KindRefund
	if medNature(d.Natureza) {
		kind = providerclient.KindMedReturn
	}
	t := providerclient.Transaction{Kind: kind, ProviderID: d.ID, ExternalID: d.ID,
		Status: refundStatus(d.Status), EndToEndID: d.RtrID, SettledAt: bcbpix.ParseTime(d.Horario.Liquidacao),
		Description: d.Descricao}
	t.Amount, _ = bcbpix.ParseAmount(d.Valor)
	if t.Status == providerclient.StatusFailed {
		t.FailureReason = d.Motivo
		if t.FailureReason == "" {
			t.FailureReason = "the refund was not made (" + bcbpix.NaoRealizado + ")"
		}
	}
	return t
}
