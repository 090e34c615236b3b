package wooviapitest

import "github.com/getkin/kin-openapi/openapi3"

// correctSubscriptions corrects, in memory, two defects of the vendored
// document's subscriptions that Woovi's own later pages correct (see
// testdata/README.md):
//
//   - SubscriptionPayload.frequency lacks QUARTERLY, which Woovi's page on
//     creating a Pix Automático lists among the frequencies it takes, and
//     the later document (woovibr/woovi-developers, src/swaggers/woovi.yml)
//     has. It is added.
//   - Subscription.status lacks INACTIVE, the status of a cancelled
//     subscription in Woovi's state-machine page and of the one in its
//     PIX_AUTOMATIC_REJECTED example. It is added.
func correctSubscriptions(doc *openapi3.T) {
	addEnum(doc, "SubscriptionPayload", "frequency", "QUARTERLY")
	addEnum(doc, "Subscription", "status", "INACTIVE")
}

// addEnum adds value to the enum of the schema's property.
func addEnum(doc *openapi3.T, schema, property, value string) {
	s := doc.Components.Schemas[schema]
	if s == nil || s.Value == nil {
		return
	}
	if p := s.Value.Properties[property]; p != nil && p.Value != nil {
		p.Value.Enum = append(p.Value.Enum, value)
	}
}
