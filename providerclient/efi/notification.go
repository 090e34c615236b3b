package efi

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
	"github.com/pixgate/pixgate/storage/recurrence"
)

// ParseNotification reads a webhook batch (BCB API Pix 2.9.0): the PIX of
// {webhookUrl}/pix ({"pix": [...]}, callback of PUT /webhook/{chave}) or
// the recurrences of {webhookUrl}/rec ({"recs": [...]}, callback of PUT
// /webhookrec) or the cycle charges of {webhookUrl}/cobr ({"cobsr":
// [...]}, callback of PUT /webhookcobr). A received PIX of a charge is a claim that the charge (its
// txid) is PAID; each of its devolucoes in a final status, a claim about
// that refund (or MED return, by its natureza); an item Efí marks as a PIX
// sent (tipo SOLICITACAO, gnExtras.idEnvio), a claim about that send; a
// recurrence, a claim that it (its idRec) reached its status; a cycle
// charge, that it (its txid) reached its status. The BCB's
// webhooks are not signed: PixGate reads every one back before believing
// it.
func (c *connector) ParseNotification(_ http.Header, body []byte) ([]providerclient.Event, error) {
	var batch struct {
		Pix   []json.RawMessage `json:"pix"`
		Recs  []json.RawMessage `json:"recs"`
		CobsR []json.RawMessage `json:"cobsr"`
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, &providerclient.NotificationError{Problem: "must be a JSON object"}
	}
	if err := json.Unmarshal(body, &batch); err != nil {
		return nil, &providerclient.NotificationError{Field: "pix", Problem: "must be an array of PIX (recs, of recurrences; cobsr, of cycle charges)"}
	}
	var out []providerclient.Event
	for _, raw := range batch.Pix {
		var p bcbpix.Pix
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		out = append(out, claims(p, raw)...)
	}
	for _, raw := range batch.Recs {
		var n bcbpix.RecNotification
		if json.Unmarshal(raw, &n) == nil && idRecPattern.MatchString(n.IDRec) {
			out = append(out, recClaim(n, raw))
		}
	}
	for _, raw := range batch.CobsR {
		var n bcbpix.CobRNotification
		if json.Unmarshal(raw, &n) == nil && txidPattern.MatchString(n.Txid) {
			out = append(out, cycleClaim(n, raw))
		}
	}
	if len(out) == 0 {
		return nil, &providerclient.NotificationError{Field: "pix", Problem: "names no transaction"}
	}
	return out, nil
}

// recClaim is a recurrence's notification: a claim that its idRec reached
// the status, in PixGate's name (the BCB's when PixGate has none). The
// notification carries no vinculo, so no PixGate id.
func recClaim(n bcbpix.RecNotification, raw []byte) providerclient.Event {
	st := n.Status
	if s, ok := recurrence.RecurrenceStatusFromBCB(n.Status); ok {
		st = string(s)
	}
	return providerclient.Event{Kind: providerclient.KindRecurrence, ProviderID: n.IDRec, Status: providerclient.Status(st), Payload: raw}
}

// cycleClaim is a cycle charge's notification: a claim that its txid
// reached the status, in PixGate's name (the BCB's when PixGate has none).
// A txid the connector wrote is PixGate's cycle id without its hyphens,
// which the claim names; another names none.
func cycleClaim(n bcbpix.CobRNotification, raw []byte) providerclient.Event {
	st := n.Status
	if s, ok := recurrence.CycleStatusFromBCB(n.Status); ok {
		st = string(s)
	}
	return providerclient.Event{Kind: providerclient.KindRecurrenceCycle, ProviderID: n.Txid, ID: pixgateID(n.Txid),
		Status: providerclient.Status(st), Payload: raw}
}

func claims(p bcbpix.Pix, raw []byte) []providerclient.Event {
	switch {
	case p.Tipo == bcbpix.TipoSolicitacao || (p.GnExtras != nil && p.GnExtras.IDEnvio != ""):
		if p.GnExtras == nil || !idPattern.MatchString(p.GnExtras.IDEnvio) {
			return nil
		}
		return []providerclient.Event{{Kind: providerclient.KindPayout, ProviderID: p.GnExtras.IDEnvio, ID: p.GnExtras.IDEnvio,
			Status: sendStatus(p.Status), Payload: raw}}
	case len(p.Devolucoes) > 0:
		var out []providerclient.Event
		for _, d := range p.Devolucoes {
			if idPattern.MatchString(d.ID) {
				kind := providerclient.KindRefund
				if medNature(d.Natureza) { // a MED return Efí made itself
					kind = providerclient.KindMedReturn
				}
				out = append(out, providerclient.Event{Kind: kind, ProviderID: d.ID, ID: d.ID,
					Status: refundStatus(d.Status), Payload: raw})
			}
		}
		return out
	case txidPattern.MatchString(p.Txid):
		return []providerclient.Event{{Kind: providerclient.KindCharge, ProviderID: p.Txid, ID: p.Txid,
			Status: providerclient.StatusPaid, Payload: raw}}
	}
	return nil
}
