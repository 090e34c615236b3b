package efi

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

// ParseNotification reads a webhook batch ({"pix": [...]}, BCB API Pix
// 2.9.0, callback of PUT /webhook/{chave}): a received PIX of a charge is a
// claim that the charge (its txid) is PAID; each of its devolucoes in a
// final status, a claim about that refund (or MED return, by its
// natureza); an item Efí marks as a PIX sent
// (tipo SOLICITACAO, gnExtras.idEnvio), a claim about that send. The BCB's
// webhooks are not signed: PixGate reads every one back before believing
// it.
func (c *connector) ParseNotification(_ http.Header, body []byte) ([]providerclient.Event, error) {
	var batch struct {
		Pix []json.RawMessage `json:"pix"`
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return nil, &providerclient.NotificationError{Problem: "must be a JSON object"}
	}
	if err := json.Unmarshal(body, &batch); err != nil {
		return nil, &providerclient.NotificationError{Field: "pix", Problem: "must be an array of PIX"}
	}
	var out []providerclient.Event
	for _, raw := range batch.Pix {
		var p bcbpix.Pix
		if json.Unmarshal(raw, &p) != nil {
			continue
		}
		out = append(out, claims(p, raw)...)
	}
	if len(out) == 0 {
		return nil, &providerclient.NotificationError{Field: "pix", Problem: "names no transaction"}
	}
	return out, nil
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
