package api

import (
	"net/http"
	"strings"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

// Text that is not exactly what it looks like is refused with a 422 naming
// the field, and nothing is stored: invalid UTF-8 and lone surrogates
// (which JSON decoding would silently turn into U+FFFD, so that two
// different external_ids became one record), invisible and bidirectional
// characters in names (a name reaches the provider as the recipient's),
// invisible characters in free text other than those that join emoji
// (zero-width and tag characters hide text nobody sees), numbers jsonb
// cannot hold, and members sent twice.
func TestTextThatIsNotWhatItSeemsIsRefused(t *testing.T) {
	e := newEnv(t)
	in, token := e.integrator("Loja Texto", money.Percent(0), money.Fixed(0))
	e.fund(in.ID, money.FromReais(100, 0))
	payer := func(name string) string { return `{"name":"` + name + `","document":"52998224725"}` }
	credit := func(name string) string {
		return `{"name":"` + name + `","keyType":"CPF","key":"52998224725","taxId":"52998224725"}`
	}
	cases := []struct {
		name, path, body, field string
	}{
		{"Latin-1 name", "/api/v1/charges", validCharge(map[string]string{"payer": payer("Jos\xe9")}), "payer.name"},
		{"lone surrogate", "/api/v1/charges", validCharge(map[string]string{"payerQuestion": `"a\ud800b"`}), "payerQuestion"},
		{"low surrogate first", "/api/v1/charges", validCharge(map[string]string{"payerQuestion": `"\udc00\ud800"`}), "payerQuestion"},
		{"invalid external_id", "/api/v1/charges", validCharge(map[string]string{"external_id": "\"\xff\xfe\""}), "external_id"},
		{"other invalid external_id", "/api/v1/charges", validCharge(map[string]string{"external_id": "\"\xfe\xff\""}), "external_id"},
		{"RTL override", "/api/v1/charges", validCharge(map[string]string{"payer": payer("Ana \u202Eairam")}), "payer.name"},
		{"zero width", "/api/v1/withdrawals", validWithdrawal(map[string]string{"creditParty": credit("Bel\u200Btrano")}), "creditParty.name"},
		{"BOM", "/api/v1/withdrawals", validWithdrawal(map[string]string{"creditParty": credit("\uFEFFBeltrano")}), "creditParty.name"},
		{"line separator", "/api/v1/withdrawals", validWithdrawal(map[string]string{"creditParty": credit("Bel\u2028trano")}), "creditParty.name"},
		{"tag characters", "/api/v1/withdrawals", validWithdrawal(map[string]string{"creditParty": credit("Beltrano\U000E0041")}), "creditParty.name"},
		{"Latin-1 description", "/api/v1/withdrawals", validWithdrawal(map[string]string{"description": "\"Repasse \xe0 vista\""}), "description"},
		{"zero width in a description", "/api/v1/withdrawals", validWithdrawal(map[string]string{"description": "\"Re\u200Bpasse\""}), "description"},
		{"tags in a description", "/api/v1/withdrawals", validWithdrawal(map[string]string{"description": "\"Repasse\U000E0069\U000E0067\U000E006E\""}), "description"},
		{"word joiner in a question", "/api/v1/charges", validCharge(map[string]string{"payerQuestion": "\"Pedido\u2060 1\""}), "payerQuestion"},
		{"BOM in a question", "/api/v1/charges", validCharge(map[string]string{"payerQuestion": "\"\uFEFFPedido\""}), "payerQuestion"},
		{"soft hyphen in a question", "/api/v1/charges", validCharge(map[string]string{"payerQuestion": "\"Pe\u00ADdido\""}), "payerQuestion"},
		{"a joiner joining no emoji", "/api/v1/charges", validCharge(map[string]string{"payerQuestion": "\"Pe\u200Ddido\""}), "payerQuestion"},
		{"stray tags after a flag", "/api/v1/charges", validCharge(map[string]string{"payerQuestion": "\"\U0001F3F4\U000E0067\U000E0062\""}), "payerQuestion"},
		{"tiny number in split", "/api/v1/charges", validCharge(map[string]string{"split": `{"recipients":[{"sub_account":"1","percent":1e-100000}]}`}), "split.recipients[0].percent"},
		{"long number in split", "/api/v1/charges", validCharge(map[string]string{"split": `{"recipients":[{"sub_account":"1","amount":1.` + strings.Repeat("0", 20000) + `1}]}`}), "split.recipients[0].amount"},
		{"invalid UTF-8 in split", "/api/v1/charges", validCharge(map[string]string{"split": "{\"recipients\":[{\"sub_account\":\"\xff\",\"percent\":1}]}"}), "split.recipients[0].sub_account"},
		{"amount twice", "/api/v1/charges", `{"amount": 1, "amount": 500, "payer": ` + payer("Ana") + `}`, "amount"},
		{"nested member twice", "/api/v1/withdrawals", validWithdrawal(map[string]string{"creditParty": `{"name":"A","name":"B","keyType":"CPF","key":"52998224725","taxId":"52998224725"}`}), "creditParty.name"},
	}
	for _, c := range cases {
		r := e.call(http.MethodPost, c.path, token, c.body).expectError(t, http.StatusUnprocessableEntity, codeValidation)
		if _, ok := r.fieldErrors()[c.field]; !ok {
			t.Errorf("%s: errors %v do not name %s", c.name, r.fieldErrors(), c.field)
		}
	}
	if n := e.count(`SELECT (SELECT count(*) FROM charges) + (SELECT count(*) FROM withdrawals)`); n != 0 {
		t.Fatalf("refused requests stored %d records", n)
	}
	// What is allowed stays allowed: accents, emoji joined by ZWJ (after a
	// skin tone too), a subdivision flag's tags, escapes of a proper
	// surrogate pair.
	e.call(http.MethodPost, "/api/v1/charges", token, validCharge(map[string]string{
		"payer": payer("José Conceição"), "payerQuestion": `"Pedido \ud83d\ude00 👨\u200d👩 👩🏽\u200d💻 ` + "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F" + `"`})).expect(t, http.StatusCreated)
}
