package bcbpixtest

import (
	"github.com/getkin/kin-openapi/openapi3"
)

// correctCobR corrects, in memory, the published defects of Pix
// Automático's cycle charges (see testdata/README.md), each of which makes
// the document refuse every answer of its kind:
//
//   - PixAutomatico.valor, the amount of a PIX that paid a cobr, is a
//     string of the amount's pattern and also anyOf the objects of a
//     PIX's componentesValor (PixValorOriginal …, each of type object), so
//     no value is both: the anyOf is dropped, the string and its pattern
//     kept. Every CobRCompleta carrying a pix, and every notification of a
//     paid cobr, would fail.
//   - CobRAtualizacao.encerramento is oneOf a cancellation (cancelamento)
//     and a rejection (rejeicao), neither of which requires its own, so
//     every encerramento matches both and fails the oneOf, as
//     RecEncerramento's does (rec.go): each alternative requires its own.
func correctCobR(doc *openapi3.T) {
	s := doc.Components.Schemas
	if p := s["PixAutomatico"]; p != nil && p.Value != nil && p.Value.Properties["valor"] != nil {
		p.Value.Properties["valor"].Value.AnyOf = nil
	}
	if a := s["CobRAtualizacao"]; a != nil && a.Value != nil && a.Value.Properties["encerramento"] != nil {
		requireOwn(a.Value.Properties["encerramento"].Value.OneOf)
	}
}

// requireOwn makes each alternative of a oneOf that declares a single
// property require it.
func requireOwn(alts openapi3.SchemaRefs) {
	for _, alt := range alts {
		if alt.Value != nil && len(alt.Value.Properties) == 1 {
			for name := range alt.Value.Properties {
				alt.Value.Required = []string{name}
			}
		}
	}
}
