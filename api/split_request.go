package api

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/split"
)

// split reads the optional split object (docs/api-v1.md#split):
// {"base": "net"|"gross", "recipients": [{"sub_account": "<id>",
// "percent": 12.5 | "amount": 10.00, "fee_bearer": bool}]}, strictly:
// every problem names its member (split.recipients[1].percent). Whether
// the sub-accounts are the integrator's, and whether the shares fit the
// charge's net, are the payment rules' (payments.CreateCharge). It returns
// the split's canonical form (split.Split.Encode), which is what is stored,
// shown and covered by the request's fingerprint.
func (o object) split() json.RawMessage {
	r, ok := o.raw("split")
	if !ok {
		return nil
	}
	m, repeated, err := readMembers(r)
	if err != nil {
		o.errs.add(o.path("split"), "must be an object: {\"base\": \"net\", \"recipients\": [{\"sub_account\": \"<id>\", \"percent\": 10}]}")
		return nil
	}
	so := object{ctx: o.ctx, prefix: o.path("split") + ".", m: m, errs: o.errs}
	so.refuseRepeated(repeated)
	so.refuseUnknown("base", "recipients")
	s := split.Split{Base: split.Net}
	if b, ok := so.str("base"); ok {
		switch split.Base(b) {
		case split.Net, split.Gross:
			s.Base = split.Base(b)
		default:
			so.errs.add(so.path("base"), "must be \"net\" or \"gross\"")
		}
	}
	list, ok := so.recipients()
	if !ok {
		return nil
	}
	for _, ro := range list {
		sh, _ := ro.share(s.Base, s.Recipients)
		s.Recipients = append(s.Recipients, sh)
	}
	if !o.errs.empty() {
		return nil
	}
	return s.Encode()
}

// recipients reads split.recipients: an array of 1 to split.MaxRecipients
// objects.
func (o object) recipients() ([]object, bool) {
	r, ok := o.raw("recipients")
	if !ok {
		o.errs.add(o.path("recipients"), "is required: a list of the sub-accounts that receive a share")
		return nil, false
	}
	var items []json.RawMessage
	if r[0] != '[' || json.Unmarshal(r, &items) != nil {
		o.errs.add(o.path("recipients"), "must be an array of objects")
		return nil, false
	}
	if len(items) == 0 || len(items) > split.MaxRecipients {
		o.errs.add(o.path("recipients"), "must hold 1 to %d recipients", split.MaxRecipients)
		return nil, false
	}
	out := make([]object, 0, len(items))
	for i, item := range items {
		path := fmt.Sprintf("%s[%d]", o.path("recipients"), i)
		m, repeated, err := readMembers(item)
		if err != nil {
			o.errs.add(path, "must be an object")
			continue
		}
		ro := object{ctx: o.ctx, prefix: path + ".", m: m, errs: o.errs}
		ro.refuseRepeated(repeated)
		ro.refuseUnknown("sub_account", "percent", "amount", "fee_bearer")
		out = append(out, ro)
	}
	return out, true
}

// share reads one recipient; before are the recipients read so far (a
// sub-account named twice is refused).
func (o object) share(base split.Base, before []split.Share) (split.Share, bool) {
	var sh split.Share
	ok := true
	if id, present := o.requiredStr("sub_account"); present {
		n, err := strconv.ParseInt(id, 10, 64)
		switch {
		case err != nil || n <= 0 || strconv.FormatInt(n, 10) != id:
			o.errs.add(o.path("sub_account"), "must be a sub-account's id (GET /api/v1/sub-accounts)")
			ok = false
		case slices.ContainsFunc(before, func(b split.Share) bool { return b.SubAccount == n }):
			o.errs.add(o.path("sub_account"), "names a sub-account already in the split: give each one share")
			ok = false
		}
		sh.SubAccount = n
	} else {
		ok = false
	}
	_, hasPercent := o.raw("percent")
	_, hasAmount := o.raw("amount")
	switch {
	case hasPercent && hasAmount:
		o.errs.add(o.path("amount"), "must not be given with percent: a share is one or the other")
		ok = false
	case hasPercent:
		sh.PPM, ok = o.percent("percent"), ok && !o.errs.has(o.path("percent"))
	case hasAmount:
		var good bool
		sh.Amount, good = o.amount("amount", money.Money(1<<62))
		ok = ok && good
	default:
		o.errs.add(o.path("percent"), "or amount is required")
		ok = false
	}
	if r, present := o.raw("fee_bearer"); present {
		var b bool
		switch {
		case json.Unmarshal(r, &b) != nil:
			o.errs.add(o.path("fee_bearer"), "must be true or false")
			ok = false
		case b && base != split.Gross:
			o.errs.add(o.path("fee_bearer"), "is only taken with base \"gross\": under \"net\" every share is already net of the fee")
			ok = false
		}
		sh.FeeBearer = b
	}
	return sh, ok
}

// percent reads a percentage above 0 and at most 100, with at most four
// decimal places, exactly (a JSON number, or a decimal string), as parts
// per million.
func (o object) percent(name string) int64 {
	r, _ := o.raw(name)
	text := string(r)
	if r[0] == '"' {
		if json.Unmarshal(r, &text) != nil {
			text = "x"
		}
	}
	rule, err := money.ParseFeeRule("percent:" + text)
	if err != nil || rule.PPM <= 0 {
		o.errs.add(o.path(name), "must be a number above 0 and at most 100, with at most 4 decimal places (12.5)")
		return 0
	}
	return rule.PPM
}

// refuseUnknown refuses members other than known: a split is PixGate's own
// structure, where a misspelt member would silently change who gets what.
func (o object) refuseUnknown(known ...string) {
	names := make([]string, 0, len(o.m))
	for k := range o.m {
		if !slices.Contains(known, k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	for _, k := range names {
		o.errs.add(o.path(k), "is not a member of a split (known: %v)", known)
	}
}
