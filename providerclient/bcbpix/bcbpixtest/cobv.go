package bcbpixtest

import "github.com/getkin/kin-openapi/openapi3"

// correctCobV corrects, in memory, two defects of the document's due-date
// charges (see testdata/README.md):
//
//   - DadosRecebedor requires "logradouro", "cidade", "uf" and "cep" of the
//     charge itself, beside its recebedor, which already requires them of
//     itself: as published, no CobVGerada answer conforms unless the
//     charge repeats the receiver's address at its top level, which
//     neither the BCB's examples nor Efí's do. The top-level requirement
//     is dropped; the recebedor's own stays.
//   - CobVValor.desconto is oneOf a dated discount (descontoDataFixa) and
//     a discount per day (valorPerc), but the dated alternative requires
//     nothing, so a discount per day (modalidades 3 to 6) matches both
//     and fails the oneOf. The dated alternative is made to require its
//     descontoDataFixa, as the document's text does ("modalidade no
//     valor 1 ou 2, porém o array cobv.valor.desconto.descontoDataFixa
//     está vazio ou nulo" is a violation).
func correctCobV(doc *openapi3.T) {
	if s := doc.Components.Schemas["DadosRecebedor"]; s != nil && s.Value != nil {
		s.Value.Required = nil
	}
	s := doc.Components.Schemas["CobVValor"]
	if s == nil || s.Value == nil {
		return
	}
	d := s.Value.Properties["desconto"]
	if d == nil || d.Value == nil {
		return
	}
	for _, alt := range d.Value.OneOf {
		if alt.Value != nil && alt.Value.Properties["descontoDataFixa"] != nil {
			alt.Value.Required = []string{"descontoDataFixa"}
		}
	}
}
