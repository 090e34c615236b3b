package payments

import (
	"context"
	"errors"
	"testing"

	"github.com/pixgate/pixgate/providerclient"
	"github.com/pixgate/pixgate/storage"
	"github.com/pixgate/pixgate/storage/ledger"
	"github.com/pixgate/pixgate/storage/money"
)

// tokens is a LookupBudget in memory: Take refuses when fewer tokens than
// asked are left; Owe takes them whatever is left.
type tokens struct {
	left, spent int
}

var errOverBudget = errors.New("over the lookup budget")

func (b *tokens) Take(_ context.Context, _ int64, n int) error {
	if b.left < n {
		return errOverBudget
	}
	b.left, b.spent = b.left-n, b.spent+n
	return nil
}

func (b *tokens) Owe(_ context.Context, _ int64, n int) { b.left, b.spent = b.left-n, b.spent+n }

// The same-holder check spends the account's lookup budget as a lookup
// does: a hit (the holder's key, a fraud-marked key) LookupCost, a miss
// (a key not found, another holder's key) LookupMissCost; what reads
// nothing spends nothing (no lookup offered, an integrator without the
// rule, a balance that does not cover the withdrawal, which is refused
// before the lookup). Over the budget nothing is looked up or written,
// whatever the key, and the budget's error is returned.
func TestRecipientCheckSpendsTheLookupBudget(t *testing.T) {
	holders := map[string]providerclient.KeyHolder{
		"ana@example.com":   {Document: "52998224725"},
		"fraud@example.com": {Document: "52998224725", FraudMarked: true},
		"other@example.com": {Document: "11144477735"},
		"52998224725":       {Document: "52998224725"},
	}
	tests := []struct {
		name         string
		lookup       bool
		plain, broke bool // an integrator without the rule; an empty wallet
		left         int
		keyType, key string
		want         error
		spent        int
	}{
		{name: "own key", lookup: true, left: 30, keyType: "EMAIL", key: "ana@example.com", spent: LookupCost},
		{name: "fraud-marked key", lookup: true, left: 30, keyType: "EMAIL", key: "fraud@example.com", want: ErrKeyFraudMarked, spent: LookupCost},
		{name: "another's key", lookup: true, left: 30, keyType: "EMAIL", key: "other@example.com", want: ErrNotSameHolder, spent: LookupMissCost},
		{name: "missing key", lookup: true, left: 30, keyType: "EMAIL", key: "nobody@example.com", want: ErrKeyNotFound, spent: LookupMissCost},
		{name: "a miss past what is left", lookup: true, left: 1, keyType: "EMAIL", key: "other@example.com", want: ErrNotSameHolder, spent: LookupMissCost},
		{name: "no lookup offered", left: 30, keyType: "EMAIL", key: "ana@example.com", want: ErrNotSameHolder},
		{name: "no same-holder rule", lookup: true, plain: true, left: 30, keyType: "EMAIL", key: "other@example.com"},
		{name: "empty wallet", lookup: true, broke: true, left: 30, keyType: "EMAIL", key: "other@example.com", want: ledger.ErrInsufficientFunds},
		{name: "over the budget", lookup: true, left: 0, keyType: "EMAIL", key: "other@example.com", want: errOverBudget},
		{name: "over the budget, own CPF key", lookup: true, left: 0, keyType: "CPF", key: "52998224725", want: errOverBudget},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := newFakeStore()
			if tt.broke {
				store.available = 0
			}
			p := &dirProvider{lookup: tt.lookup, holders: holders}
			budget := &tokens{left: tt.left}
			s := New(Config{LookupBudget: budget}, store, p, nil)
			in := integrator(money.Fixed(0), money.Fixed(50))
			in.SameHolder = !tt.plain
			_, _, err := s.CreateWithdrawal(context.Background(), in, WithdrawalRequest{Amount: 1000,
				CreditParty: storage.CreditParty{Name: "Ana", KeyType: tt.keyType, Key: tt.key, TaxID: "52998224725"}})
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if budget.spent != tt.spent {
				t.Fatalf("spent %d tokens, want %d", budget.spent, tt.spent)
			}
			if tt.spent == 0 && p.lookups != 0 {
				t.Fatalf("%d lookups, and nothing spent", p.lookups)
			}
			if errors.Is(err, errOverBudget) && !errors.Is(err, ErrOverLookupBudget) {
				t.Fatalf("the budget's refusal is not ErrOverLookupBudget: %v", err)
			}
			if wrote := len(store.withdrawals) > 0; wrote != (err == nil) {
				t.Fatalf("withdrawal written: %v, with err %v", wrote, err)
			}
		})
	}
}
