package bcbpixtest

import (
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
)

// correctRec corrects, in memory, the published defects of Pix
// Automático's recurrences (see testdata/README.md), each of which makes
// the document refuse its own examples:
//
//   - RecBase requires "idRec" and "retentativa": every request to create
//     a recurrence (RecSolicitada, which is RecBase and more) would need an
//     idRec, which the receiver's bank assigns, and a "retentativa" no
//     schema declares (the retry policy is RecConfiguracao's
//     politicaRetentativa, required there). RecBase requires "calendario"
//     and "vinculo"; the answers that carry a recurrence (RecGerada,
//     RecCompleta, RecCompletaPesquisada) require its "idRec".
//   - RecNotification requires `atualizacao"` (a quote out of place in
//     the YAML): it requires "atualizacao".
//   - DadosPagadorRec requires "ispbParticipante" of the recurrence itself,
//     beside its pagador, which declares it: the requirement moves to the
//     pagador, as the examples write it.
//   - PayloadLocationRecGerada requires a "tipo" it does not declare (it is
//     the request's, PayloadLocationRecSolicitada): dropped.
//   - SolicRecBase requires a "pagador" it does not declare, and
//     SolicRecCompleta a "rec" (its payload is "recPayload"): dropped.
//   - RecEncerramento.encerramento is oneOf a rejection (rejeicao) and a
//     cancellation (cancelamento), but neither alternative requires its
//     own, so every encerramento matches both and fails the oneOf (the
//     BCB's example recResponse5 does): each alternative requires its own.
func correctRec(doc *openapi3.T) {
	s := doc.Components.Schemas
	setRequired(s["RecBase"], "calendario", "vinculo")
	for _, name := range []string{"RecGerada", "RecCompleta", "RecCompletaPesquisada"} {
		addRequired(s[name], "idRec")
	}
	setRequired(s["RecNotification"], "idRec", "status", "atualizacao")
	if p := s["DadosPagadorRec"]; p != nil && p.Value != nil {
		p.Value.Required = nil
		if pagador := p.Value.Properties["pagador"]; pagador != nil && pagador.Value != nil {
			pagador.Value.Required = []string{"ispbParticipante"}
		}
	}
	dropRequired(s["PayloadLocationRecGerada"], "tipo")
	dropRequired(s["SolicRecBase"], "pagador")
	dropRequired(s["SolicRecCompleta"], "rec")
	if e := s["RecEncerramento"]; e != nil && e.Value != nil && e.Value.Properties["encerramento"] != nil {
		requireOwn(e.Value.Properties["encerramento"].Value.OneOf)
	}
}

func setRequired(s *openapi3.SchemaRef, names ...string) {
	if s != nil && s.Value != nil {
		s.Value.Required = names
	}
}

func addRequired(s *openapi3.SchemaRef, name string) {
	if s != nil && s.Value != nil && !slices.Contains(s.Value.Required, name) {
		s.Value.Required = append(s.Value.Required, name)
	}
}

func dropRequired(s *openapi3.SchemaRef, name string) {
	if s != nil && s.Value != nil {
		s.Value.Required = slices.DeleteFunc(s.Value.Required, func(r string) bool { return r == name })
	}
}
