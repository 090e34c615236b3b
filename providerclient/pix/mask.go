package pix

import "strings"

// MaskDocument renders a normalized CPF as PIX apps show a person's
// document: the six middle digits, the rest hidden ("***.982.247-**"). A
// CNPJ is a public registry number (the Receita Federal publishes it) and
// is shown whole, punctuated ("11.222.333/0001-81"). Anything else is
// hidden entirely.
func MaskDocument(doc string) string {
	switch {
	case len(doc) == 11 && allDigits(doc):
		return "***." + doc[3:6] + "." + doc[6:9] + "-**"
	case len(doc) == 14:
		return doc[:2] + "." + doc[2:5] + "." + doc[5:8] + "/" + doc[8:12] + "-" + doc[12:]
	}
	return strings.Repeat("*", len(doc))
}

// SameDocument reports whether doc (normalized) is the document a
// provider gave, which may hide some characters with '*' (and keep or drop
// punctuation): every character it shows must be doc's.
func SameDocument(doc, given string) bool {
	shown := stripPunctuation(strings.ToUpper(given))
	if len(shown) != len(doc) || shown == "" {
		return false
	}
	for i := range len(doc) {
		if shown[i] != '*' && shown[i] != doc[i] {
			return false
		}
	}
	return strings.Trim(shown, "*") != ""
}
