// Package split is the money policy of a split charge: how much of a paid
// charge goes to each of its recipients (sub-accounts of the charge's
// integrator), how much stays with the integrator, and how much a refund or
// a MED return takes back from each. Pure functions of integer centavos:
// the parts always sum exactly to the whole.
package split

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/pixgate/pixgate/storage/money"
)

// Base is what percent shares are computed on.
type Base string

const (
	// Net shares the charge's net, amount − the cash-in fee: every party
	// bears the fee in proportion to what it gets. The default.
	Net Base = "net"
	// Gross shares the charge's amount; the fee is borne by the integrator,
	// or by the recipients marked fee_bearer, pro rata to their shares.
	Gross Base = "gross"
)

// MaxRecipients bounds a split's recipients.
const MaxRecipients = 20

// Share is one recipient's share: a percentage (PPM, millionths of the
// base, 12.5% = 125000) or a fixed Amount, never both.
type Share struct {
	SubAccount int64
	PPM        int64
	Amount     money.Money
	FeeBearer  bool
}

// Split is a charge's validated split.
type Split struct {
	Base       Base
	Recipients []Share
}

// Part is what a paid charge credits one recipient: its Share of the base
// less the Fee it bears.
type Part struct {
	SubAccount int64
	Share      money.Money
	Fee        money.Money
	Credited   money.Money
}

// stored is the canonical JSON form kept on the charge and shown back.
type stored struct {
	Base       Base          `json:"base"`
	Recipients []storedShare `json:"recipients"`
}

type storedShare struct {
	SubAccount string       `json:"sub_account"`
	Percent    *json.Number `json:"percent,omitempty"`
	Amount     *json.Number `json:"amount,omitempty"`
	FeeBearer  bool         `json:"fee_bearer"`
}

// Encode renders s in its canonical JSON form: percent as a decimal string
// ("12.5"), amount as a number with two decimals.
func (s Split) Encode() json.RawMessage {
	out := stored{Base: s.Base, Recipients: make([]storedShare, len(s.Recipients))}
	for i, r := range s.Recipients {
		sh := storedShare{SubAccount: strconv.FormatInt(r.SubAccount, 10), FeeBearer: r.FeeBearer}
		if r.Amount > 0 {
			n := json.Number(r.Amount.String())
			sh.Amount = &n
		} else {
			n := json.Number(money.Percent(r.PPM).Value())
			sh.Percent = &n
		}
		out.Recipients[i] = sh
	}
	b, _ := json.Marshal(out) // plain values always marshal
	return b
}

// ErrNotASplit: a stored split object that is not in the canonical form
// (a charge created before splits were executed kept any object).
var ErrNotASplit = errors.New("split: not an executable split")

// Decode reads a split stored by Encode. Anything else is ErrNotASplit:
// such an object is kept and shown, never executed.
func Decode(raw json.RawMessage) (Split, error) {
	var st stored
	if len(raw) == 0 || json.Unmarshal(raw, &st) != nil || (st.Base != Net && st.Base != Gross) || len(st.Recipients) == 0 {
		return Split{}, ErrNotASplit
	}
	s := Split{Base: st.Base}
	for _, r := range st.Recipients {
		id, err := strconv.ParseInt(r.SubAccount, 10, 64)
		if err != nil || id <= 0 || (r.Percent == nil) == (r.Amount == nil) {
			return Split{}, ErrNotASplit
		}
		sh := Share{SubAccount: id, FeeBearer: r.FeeBearer}
		if r.Percent != nil {
			rule, err := money.ParseFeeRule("percent:" + string(*r.Percent))
			if err != nil || rule.PPM <= 0 {
				return Split{}, ErrNotASplit
			}
			sh.PPM = rule.PPM
		} else if sh.Amount, err = money.Parse(string(*r.Amount)); err != nil || sh.Amount <= 0 {
			return Split{}, ErrNotASplit
		}
		s.Recipients = append(s.Recipients, sh)
	}
	return s, nil
}

// Parts divides a paid charge of amount, whose cash-in fee is fee, among
// the recipients, in their order, and returns what stays with the
// integrator: amount − fee − Σ credited, never below zero.
//
//   - A percent share is the base × the percentage, rounded down to the
//     centavo; what rounding leaves stays with the integrator
//     ("remainder to the integrator"). A fixed share is its amount.
//   - Under the gross base with fee bearers, each bearer bears the fee ×
//     its share / the bearers' shares together, rounded down (and at most
//     its share); the integrator bears the rest of the fee. Otherwise the
//     integrator bears the fee (under the net base it is already out of
//     the base everyone shares).
//   - Recipients are credited in order as far as the charge's net goes:
//     a due-date charge paid for less than its shares (a discount) pays
//     the last ones less. A split accepted at creation always fits.
func (s Split) Parts(amount, fee money.Money) (parts []Part, integrator money.Money) {
	base := amount
	if s.Base != Gross {
		base = amount - fee
	}
	parts = make([]Part, len(s.Recipients))
	var bearers money.Money
	for i, r := range s.Recipients {
		share := r.Amount
		if r.Amount == 0 {
			share = mulDiv(base, r.PPM, 1_000_000)
		}
		parts[i] = Part{SubAccount: r.SubAccount, Share: max(share, 0)}
		if s.Base == Gross && r.FeeBearer {
			bearers += parts[i].Share
		}
	}
	left := max(amount-fee, 0)
	for i, r := range s.Recipients {
		p := &parts[i]
		if s.Base == Gross && r.FeeBearer && bearers > 0 {
			p.Fee = min(mulDiv(fee, int64(p.Share), int64(bearers)), p.Share)
		}
		p.Credited = min(p.Share-p.Fee, left)
		left -= p.Credited
	}
	return parts, left
}

// Check says whether s fits a charge of amount with fee: the percentages
// together at most 100%, and the recipients' parts together at most the
// charge's net. index is the first recipient that does not fit, -1 when
// all do; field names its member ("percent" or "amount").
func (s Split) Check(amount, fee money.Money) (index int, field, problem string) {
	var ppm int64
	for i, r := range s.Recipients {
		if ppm += r.PPM; ppm > 1_000_000 {
			return i, "percent", "makes the percentages sum over 100"
		}
	}
	net := amount - fee
	base := amount
	if s.Base != Gross {
		base = net
	}
	var total money.Money
	var bearers money.Money
	shares := make([]money.Money, len(s.Recipients))
	for i, r := range s.Recipients {
		shares[i] = r.Amount
		if r.Amount == 0 {
			shares[i] = mulDiv(base, r.PPM, 1_000_000)
		}
		if s.Base == Gross && r.FeeBearer {
			bearers += shares[i]
		}
	}
	for i, r := range s.Recipients {
		credited := shares[i]
		if s.Base == Gross && r.FeeBearer && bearers > 0 {
			credited -= min(mulDiv(fee, int64(shares[i]), int64(bearers)), shares[i])
		}
		if total += credited; total > net {
			f := "amount"
			if r.Amount == 0 {
				f = "percent"
			}
			return i, f, fmt.Sprintf("makes the recipients' parts sum over the charge's net of R$ %s (amount less the cash-in fee of R$ %s)", net, fee)
		}
	}
	return -1, "", ""
}

// Reversal is what a refund or MED return takes back from a recipient
// credited credited by a charge of amount, of which reversed was already
// taken back, once the payer has been given back returned in all (this
// return included): the recipient's share of returned, credited ×
// returned / amount rounded down, less what was already taken, never
// below zero nor above what is left of credited. What rounding leaves is
// the integrator's; the last return of a charge given back whole takes
// back exactly what is left.
func Reversal(credited, reversed, amount, returned money.Money) money.Money {
	if amount <= 0 || credited <= 0 {
		return 0
	}
	target := mulDiv(credited, int64(min(returned, amount)), int64(amount))
	return min(max(target-reversed, 0), credited-reversed)
}

// mulDiv is m × num / den rounded down, without overflow.
func mulDiv(m money.Money, num, den int64) money.Money {
	if den == 0 || m <= 0 || num <= 0 {
		return 0
	}
	r := new(big.Int).Mul(big.NewInt(int64(m)), big.NewInt(num))
	return money.Money(r.Quo(r, big.NewInt(den)).Int64())
}
