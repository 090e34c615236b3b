package split

import (
	"encoding/json"
	"testing"

	"github.com/pixgate/pixgate/storage/money"
)

func pct(id int64, ppm int64) Share       { return Share{SubAccount: id, PPM: ppm} }
func fixed(id int64, m money.Money) Share { return Share{SubAccount: id, Amount: m} }
func bearer(s Share) Share                { s.FeeBearer = true; return s }
func credited(parts []Part) (out []money.Money) {
	for _, p := range parts {
		out = append(out, p.Credited)
	}
	return out
}

// Parts: every case's parts and the integrator's remainder sum exactly to
// the charge's net, no part is negative, and each is what the rules say.
func TestPartsSumToTheNet(t *testing.T) {
	tests := []struct {
		name        string
		s           Split
		amount, fee money.Money
		want        []money.Money
		integrator  money.Money
	}{
		{"percent of net", Split{Net, []Share{pct(2, 125000)}}, 10000, 200, []money.Money{1225}, 8575},
		{"percent of gross, integrator bears the fee", Split{Gross, []Share{pct(2, 125000)}}, 10000, 200, []money.Money{1250}, 8550},
		{"fixed", Split{Net, []Share{fixed(2, 1000), fixed(3, 2050)}}, 10000, 200, []money.Money{1000, 2050}, 6750},
		{"mixed", Split{Net, []Share{pct(2, 500000), fixed(3, 1000)}}, 10000, 200, []money.Money{4900, 1000}, 3900},
		{"3 x 33.33% remainder to the integrator", Split{Net, []Share{pct(2, 333300), pct(3, 333300), pct(4, 333300)}}, 10001, 0,
			[]money.Money{3333, 3333, 3333}, 2},
		{"3 x 33.3333% of 1.00", Split{Gross, []Share{pct(2, 333333), pct(3, 333333), pct(4, 333333)}}, 100, 0,
			[]money.Money{33, 33, 33}, 1},
		{"one centavo", Split{Gross, []Share{pct(2, 500000), pct(3, 500000)}}, 1, 0, []money.Money{0, 0}, 1},
		{"100% of net", Split{Net, []Share{pct(2, 1000000)}}, 10000, 150, []money.Money{9850}, 0},
		{"fee bearers pro rata", Split{Gross, []Share{bearer(pct(2, 300000)), bearer(pct(3, 100000)), pct(4, 100000)}}, 10000, 200,
			[]money.Money{3000 - 150, 1000 - 50, 1000}, 10000 - 200 - 2850 - 950 - 1000},
		{"fee bearers, rounding to the integrator", Split{Gross, []Share{bearer(fixed(2, 100)), bearer(fixed(3, 200))}}, 1000, 10,
			[]money.Money{100 - 3, 200 - 6}, 1000 - 10 - 97 - 194},
		{"fee bearer's fee capped at its share", Split{Gross, []Share{bearer(fixed(2, 1))}}, 1000, 10, []money.Money{0}, 990},
		{"paid for less than the shares: in order", Split{Net, []Share{fixed(2, 600), fixed(3, 600)}}, 1000, 0, []money.Money{600, 400}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parts, integrator := tt.s.Parts(tt.amount, tt.fee)
			if got := credited(parts); len(got) != len(tt.want) || integrator != tt.integrator {
				t.Fatalf("parts %v, integrator %v; want %v, %v", got, integrator, tt.want, tt.integrator)
			}
			sum := integrator
			for i, p := range parts {
				if p.Credited != tt.want[i] || p.Credited < 0 || p.Credited > p.Share-p.Fee {
					t.Errorf("part %d = %+v, want credited %v", i, p, tt.want[i])
				}
				sum += p.Credited
			}
			if sum != tt.amount-tt.fee {
				t.Errorf("parts sum to %v, the net is %v", sum, tt.amount-tt.fee)
			}
		})
	}
}

func TestCheckNamesTheRecipientThatDoesNotFit(t *testing.T) {
	tests := []struct {
		name        string
		s           Split
		amount, fee money.Money
		index       int
		field       string
	}{
		{"fits", Split{Net, []Share{pct(2, 500000), fixed(3, 4000)}}, 10000, 100, -1, ""},
		{"percentages over 100", Split{Net, []Share{pct(2, 600000), pct(3, 400001)}}, 10000, 0, 1, "percent"},
		{"fixed over the net", Split{Net, []Share{fixed(2, 5000), fixed(3, 4901)}}, 10000, 100, 1, "amount"},
		{"gross percent over the net", Split{Gross, []Share{pct(2, 1000000)}}, 10000, 100, 0, "percent"},
		{"gross percent with a fee bearer fits", Split{Gross, []Share{bearer(pct(2, 1000000))}}, 10000, 100, -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i, f, _ := tt.s.Check(tt.amount, tt.fee)
			if i != tt.index || f != tt.field {
				t.Fatalf("Check = %d %q, want %d %q", i, f, tt.index, tt.field)
			}
		})
	}
}

// Reversal: cumulative and exact: returns adding up to the whole amount
// take back exactly what was credited, never more.
func TestReversalIsProRataAndExact(t *testing.T) {
	credited, amount := money.Money(3333), money.Money(10001)
	var reversed money.Money
	returned := money.Money(0)
	for _, x := range []money.Money{1, 2999, 3000, 4000, 1} {
		returned += x
		r := Reversal(credited, reversed, amount, returned)
		if r < 0 {
			t.Fatalf("negative reversal %v", r)
		}
		reversed += r
	}
	if reversed != credited {
		t.Fatalf("reversed %v in all, credited %v", reversed, credited)
	}
	if r := Reversal(credited, credited, amount, amount); r != 0 {
		t.Fatalf("reversal beyond what was credited: %v", r)
	}
	if r := Reversal(1000, 0, 10000, 2500); r != 250 {
		t.Fatalf("a quarter returned takes back %v, want 2.50", r)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	s := Split{Gross, []Share{pct(12, 125000), bearer(fixed(13, 1050))}}
	raw := s.Encode()
	want := `{"base":"gross","recipients":[{"sub_account":"12","percent":12.5,"fee_bearer":false},{"sub_account":"13","amount":10.50,"fee_bearer":true}]}`
	if string(raw) != want {
		t.Fatalf("Encode = %s\nwant     %s", raw, want)
	}
	back, err := Decode(raw)
	if err != nil || len(back.Recipients) != 2 || back.Recipients[0] != s.Recipients[0] || back.Recipients[1] != s.Recipients[1] || back.Base != Gross {
		t.Fatalf("Decode = %+v, %v", back, err)
	}
	for _, opaque := range []string{`{"anything":1}`, `{"base":"net","recipients":[]}`, `{"base":"net","recipients":[{"sub_account":"x","amount":1}]}`, ``} {
		if _, err := Decode(json.RawMessage(opaque)); err != ErrNotASplit {
			t.Errorf("Decode(%s) = %v, want ErrNotASplit", opaque, err)
		}
	}
}
