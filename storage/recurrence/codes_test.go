package recurrence

import "testing"

// The codes that end a cycle are those CobRTentativas names ("causam a
// rejeição da cobrança recorrente correspondente"); the others leave it to
// the retry policy; one the schema does not list ends it too.
func TestRejectionCodes(t *testing.T) {
	ends := []RejectionCode{"AC05", "AM09", "DENC", "DS27", "DTED", "MIDI", "MSUC", "NITX", "RC09"}
	retried := []RejectionCode{"AB10", "AC06", "AM02", "DTNT", "FBRD", "IRNT", "NIEC", "NIPA", "QUNT", "UDEI"}
	for _, c := range ends {
		if !c.Known() || !c.EndsCycle() {
			t.Errorf("%s: known %v, ends the cycle %v", c, c.Known(), c.EndsCycle())
		}
	}
	for _, c := range retried {
		if !c.Known() || c.EndsCycle() {
			t.Errorf("%s: known %v, ends the cycle %v", c, c.Known(), c.EndsCycle())
		}
	}
	if len(ends)+len(retried) != len(rejections) {
		t.Errorf("the table has %d codes, the test %d", len(rejections), len(ends)+len(retried))
	}
	if c := RejectionCode("ZZ99"); c.Known() || !c.EndsCycle() {
		t.Error("an unlisted code is known or retried")
	}
}
