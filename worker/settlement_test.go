package worker

import (
	"strings"
	"testing"

	"github.com/pixgate/pixgate/providerclient/contract"
	"github.com/pixgate/pixgate/providerclient/family"
	"github.com/pixgate/pixgate/storage"
)

// A payment's settlement keeps the account it came from as the provider
// reported it (debitParty), but only text fit to show integrators.
func TestSettlementKeepsThePayersAccount(t *testing.T) {
	for _, tt := range []struct {
		name  string
		debit *contract.Party
		want  storage.PayerAccount
	}{
		{"none", nil, storage.PayerAccount{}},
		{"empty", &contract.Party{}, storage.PayerAccount{}},
		{"bank and tax id", &contract.Party{Bank: " Banco Exemplo ", TaxID: "11222333000181"},
			storage.PayerAccount{Bank: "Banco Exemplo", TaxID: "11222333000181"}},
		{"holder too", &contract.Party{Name: "Fulana", TaxID: "52998224725", Bank: "00000000"},
			storage.PayerAccount{Name: "Fulana", TaxID: "52998224725", Bank: "00000000"}},
		{"a control character", &contract.Party{Name: "Ful\x00ana", Bank: "Banco\nX", TaxID: "1\u202e2"}, storage.PayerAccount{}},
		{"too long", &contract.Party{Name: strings.Repeat("a", 101), Bank: strings.Repeat("b", 100)},
			storage.PayerAccount{Bank: strings.Repeat("b", 100)}},
		{"not UTF-8", &contract.Party{Bank: "Banco \xff"}, storage.PayerAccount{}},
	} {
		txn := family.Neutral(contract.Transaction{TransactionType: contract.TypeReceivePix, TransactionID: "tx", EndToEndID: "E1",
			DateApproval: "2026-03-10 15:04:05", DebitParty: tt.debit})
		s := settlement(&txn)
		if s.PayerAccount != tt.want || s.PixID != "tx" || s.EndToEndID != "E1" || s.At.IsZero() {
			t.Errorf("%s: %+v, want the account %+v", tt.name, s, tt.want)
		}
	}
}
