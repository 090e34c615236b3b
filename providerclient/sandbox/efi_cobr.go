package sandbox

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"strings"

	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/money/due"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// The efi face's cycle charges (BCB API Pix 2.9.0, tags CobR and
// WebhookCobR): created by PUT /v2/cobr/{txid} through the core's
// createCycle (the txid is the record's id and its external id), read by
// GET, cancelled by PATCH with status CANCELADA, retried by POST
// /v2/cobr/{txid}/retentativa/{data}, each change notified in the BCB's
// shape ({"cobsr": [...]}) to {webhookUrl}/cobr of PUT /v2/webhookcobr.
// The payer's bank's side (accept, pay, reject, expire) is the controls'
// (cycle_control.go). Refusals are the BCB's CobROperacaoInvalida, each
// violation naming its property as the BCB's list does
// ("cobr.calendario.dataDeVencimento").

// The sandbox account's branch and number on the efi face: the recebedor
// every cycle charge must name ("Os campos cobr.recebedor.conta e
// cobr.recebedor.agencia correspondem a uma conta que não pertence a este
// usuário recebedor" is refused); its type is CORRENTE.
const (
	DefaultAccountBranch = "0001"
	DefaultAccountNumber = "1234567"
)

// The codes of a cycle charge's cancelamento (CobRAtualizacao): SLCR, the
// integrator's, as the BCB's example cobRResponse4 has it; the schema
// describes none of its codes, so the payer's side's is OTHR.
const (
	cobrCancelIntegrator = "SLCR"
	cobrCancelOther      = "OTHR"
)

// cobrOf renders cycle r as GET /v2/cobr/{txid} answers it (CobRCompleta):
// its terms, the sandbox's account, its status and history, why it ended,
// its attempts and, paid, the PIX that paid it. Callers hold s.mu.
func (f efiFace) cobrOf(r *record) bcbpix.CobR {
	d := r.cyc
	policy, _ := f.s.policyOf(d)
	c := bcbpix.CobR{IDRec: d.Recurrence, Txid: r.id, InfoAdicional: r.description,
		Calendario: bcbpix.CobRCalendario{Criacao: due.Today(r.created).String(), DataDeVencimento: d.DueDate.String()},
		Valor:      bcbpix.CobRValor{Original: bcbpix.FormatAmount(r.amount)}, AjusteDiaUtil: true,
		Recebedor: bcbpix.CobRRecebedor{CNPJ: sandboxCNPJ, Nome: f.s.cfg.MerchantName, Agencia: DefaultAccountBranch,
			Conta: DefaultAccountNumber, TipoConta: bcbpix.ContaCorrente},
		Status: recurrence.CycleStatus(r.status).BCB(), PoliticaRetentativa: policy.BCB(),
		Atualizacao: cobrHistory(r), Encerramento: cobrEncerramento(r)}
	if r.debtor.Email != "" {
		c.Devedor = &bcbpix.CobRDevedor{Email: r.debtor.Email}
	}
	for i, a := range d.Attempts {
		c.Tentativas = append(c.Tentativas, tentativaOf(r, i, a))
	}
	if r.status == string(recurrence.CyclePaid) {
		c.Pix = []bcbpix.PixAutomatico{{EndToEndID: r.endToEndID, Txid: r.id, Valor: bcbpix.FormatAmount(r.amount),
			Horario: bcbpix.FormatTime(r.approved)}}
	}
	return c
}

// cobrHistory is r's atualizacao: created, then where it stands, when its
// last attempt (or its payment) got there. The sandbox keeps no more of
// the way (an ACTIVE that became PAID is not listed).
func cobrHistory(r *record) []bcbpix.RecAtualizacao {
	out := []bcbpix.RecAtualizacao{{Status: recurrence.CycleCreated.BCB(), Data: bcbpix.FormatTime(r.created)}}
	st := recurrence.CycleStatus(r.status)
	if st == recurrence.CycleCreated {
		return out
	}
	at := r.approved
	if st != recurrence.CyclePaid {
		at = r.cyc.Attempts[len(r.cyc.Attempts)-1].At
	}
	return append(out, bcbpix.RecAtualizacao{Status: st.BCB(), Data: bcbpix.FormatTime(at)})
}

// cobrEncerramento is why r ended, if it was rejected or cancelled.
func cobrEncerramento(r *record) *bcbpix.RecEncerramento {
	d := r.cyc
	switch recurrence.CycleStatus(r.status) {
	case recurrence.CycleRejected:
		return &bcbpix.RecEncerramento{Rejeicao: &bcbpix.RecMotivo{Codigo: d.RejectionCode,
			Descricao: "Rejeitada pelo participante pagador (" + d.RejectionCode + ")"}}
	case recurrence.CycleCancelled:
		code := cobrCancelOther
		if d.CancelledBy == recurrence.PartyIntegrator {
			code = cobrCancelIntegrator
		}
		return &bcbpix.RecEncerramento{Cancelamento: &bcbpix.RecCancelamento{Solicitante: d.CancelledBy.BCB(),
			RecMotivo: bcbpix.RecMotivo{Codigo: code, Descricao: "Cancelada a pedido de " + d.CancelledBy.BCB()}}}
	}
	return nil
}

// tentativaOf renders r's attempt i. The BCB requires each attempt's
// endToEndId, the id of its payment order, before it settles: one not
// settled has an id made from the cycle's and its number, the same at
// every read.
func tentativaOf(r *record, i int, a CycleAttempt) bcbpix.CobRTentativa {
	e2e := a.EndToEndID
	if e2e == "" {
		e2e = fmt.Sprintf("E%s%s0000%011d", sandboxISPB, strings.ReplaceAll(a.SettleOn.String(), "-", ""),
			crc32.ChecksumIEEE([]byte(fmt.Sprint(r.id, i))))
	}
	t := bcbpix.CobRTentativa{DataLiquidacao: a.SettleOn.String(), Tipo: string(a.Kind), Status: a.Status.BCB(),
		EndToEndID: e2e, Atualizacao: []bcbpix.RecAtualizacao{{Status: recurrence.AttemptRequested.BCB(), Data: bcbpix.FormatTime(a.At)}}}
	if a.Status != recurrence.AttemptRequested {
		t.Atualizacao = append(t.Atualizacao, bcbpix.RecAtualizacao{Status: a.Status.BCB(), Data: bcbpix.FormatTime(a.At)})
	}
	if a.RejectionCode != "" {
		t.Rejeicao = &bcbpix.RecMotivo{Codigo: a.RejectionCode, Descricao: "Rejeitada pelo participante pagador (" + a.RejectionCode + ")"}
	}
	return t
}

// cobrNotification is what the efi face sends when cycle r changes: a
// batch of one at {webhookUrl}/cobr, to the webhook registered now (PUT
// /v2/webhookcobr) or, when none is, the one registered when r was
// created; stale is r as it was created, for the out-of-order fault.
// Callers hold s.mu.
func (f efiFace) cobrNotification(r *record) (string, []byte, []byte) {
	hook := f.s.webhooks[bcbpix.PathWebhookCobR]
	if hook == "" {
		hook = r.postbackURL
	}
	if hook == "" {
		return "", nil, nil
	}
	c := f.cobrOf(r)
	body, _ := json.Marshal(bcbpix.CobRNotifications{CobsR: []bcbpix.CobRNotification{c.Notification()}})
	created := bcbpix.CobRNotification{IDRec: c.IDRec, Txid: c.Txid, Status: recurrence.CycleCreated.BCB(),
		Atualizacao: c.Atualizacao[:1], Tentativas: c.Tentativas[:1]}
	created.Tentativas[0].Status, created.Tentativas[0].Rejeicao = recurrence.AttemptRequested.BCB(), nil
	created.Tentativas[0].Atualizacao = created.Tentativas[0].Atualizacao[:1]
	stale, _ := json.Marshal(bcbpix.CobRNotifications{CobsR: []bcbpix.CobRNotification{created}})
	return strings.TrimRight(hook, "/") + bcbpix.CobRWebhookSuffix, body, stale
}
