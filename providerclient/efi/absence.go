package efi

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/providerclient/bcbpix"
)

// The problem types by which the contract says it holds no such thing (BCB
// API Pix 2.9.0, "Tag Cob" and "Tag Pix"; Efí's documentation of
// GET /v2/gn/pix/enviados/id-envio/:idEnvio for a send). Only these prove
// that Efí holds nothing under one of PixGate's ids: a 404 of another type,
// or without a body of the contract's (a proxy's, a wrong path's), proves
// nothing.
const (
	problemCobAbsent        = "CobNaoEncontrado"
	problemSentAbsent       = "PixEnviadoNaoEncontrado"
	problemDevolucaoAbsent  = "PixDevolucaoNaoEncontrada"
	problemTypePrefixBCBPix = "https://pix.bcb.gov.br/api/v2/error/"
)

// absentAs marks err, the failure of a read by one of PixGate's ids, as
// proof that Efí holds nothing under that id when the answer is a 404 of
// the problem type that says so.
func absentAs(err error, res *providerclient.Answer, problem string) error {
	if res == nil || res.Status != http.StatusNotFound {
		return err
	}
	var p bcbpix.Problem
	if json.Unmarshal(res.Body, &p) != nil || strings.TrimPrefix(p.Type, problemTypePrefixBCBPix) != problem {
		return err
	}
	return providerclient.Absent(err)
}
