package efi

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

// The problem types by which the contract says it holds no such thing (BCB
// API Pix 2.9.0, "Tag Cob", "Tag CobV" and "Tag Pix"; Efí's documentation of
// GET /v2/gn/pix/enviados/id-envio/:idEnvio for a send). Only these prove
// that Efí holds nothing under one of PixGate's ids: a 404 of another type,
// or without a body of the contract's (a proxy's, a wrong path's), proves
// nothing.
const (
	problemCobAbsent  = "CobNaoEncontrado"
	problemCobVAbsent = "CobVNaoEncontrada"
	// problemAbsent is Efí's own answer to GET /v2/cobv/{txid} of a txid it
	// does not hold ("Entidade não encontrada" [Efí-cobv]).
	problemAbsent           = "NaoEncontrado"
	problemSentAbsent       = "PixEnviadoNaoEncontrado"
	problemDevolucaoAbsent  = "PixDevolucaoNaoEncontrada"
	problemTypePrefixBCBPix = "https://pix.bcb.gov.br/api/v2/error/"
)

// absentAs marks err, the failure of a read by one of PixGate's ids, as
// proof that Efí holds nothing under that id when the answer is a 404 of
// a problem type that says so for that read.
func absentAs(err error, res *providerclient.Answer, problems ...string) error {
	if res == nil || res.Status != http.StatusNotFound {
		return err
	}
	var p bcbpix.Problem
	if json.Unmarshal(res.Body, &p) != nil || !slices.Contains(problems, strings.TrimPrefix(p.Type, problemTypePrefixBCBPix)) {
		return err
	}
	return providerclient.Absent(err)
}
