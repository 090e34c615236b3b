package bcbpix

import (
	"regexp"

	"github.com/pixgate/pixgate/storage/money/due"
)

// The modalidades of CobVValor (BCB API Pix 2.9.0; the same tables in
// [Efí-SDK] pixCreateDueCharge), indexed by number; 0 is no modalidade.
var (
	multaModes      = []string{1: due.FineFixed, 2: due.FinePercent}
	abatimentoModes = []string{1: due.RebateFixed, 2: due.RebatePercent}
	// juros 1–4 count calendar days, 5–8 business days.
	jurosModes = []string{1: due.InterestFixedPerDay, 2: due.InterestPercentPerDay,
		3: due.InterestPercentPerMonth, 4: due.InterestPercentPerYear}
	// desconto 1–2 are dated, 3–6 per day early: 3 and 5 calendar days,
	// 4 and 6 business days.
	descontoModes = []string{1: due.DiscountFixedUntil, 2: due.DiscountPercentUntil,
		3: due.DiscountFixedPerDay, 4: due.DiscountFixedPerDay, 5: due.DiscountPercentPerDay, 6: due.DiscountPercentPerDay}
)

// valorPattern is every amount's and valorPerc's format.
var valorPattern = regexp.MustCompile(`^\d{1,10}\.\d{2}$`)

func modalidade(table []string, mode string) int {
	for n, m := range table {
		if m != "" && m == mode {
			return n
		}
	}
	return 0
}

func businessDays(days string) bool { return days == due.BusinessDays }

// DueCalendario is terms' calendario: the due date and the days after it.
func DueCalendario(t due.Terms) CalendarioV {
	days := t.DaysAfter
	return CalendarioV{DataDeVencimento: t.Date.String(), ValidadeAposVencimento: &days}
}

// DueValor is terms' valor. A mode the BCB has no modalidade for is a
// *due.FieldError naming it ("fine.mode").
func DueValor(t due.Terms) (ValorV, error) {
	v := ValorV{Original: FormatAmount(t.Original)}
	if f := t.Fine; f != nil {
		n := modalidade(multaModes, f.Mode)
		if n == 0 {
			return v, unknownMode("fine.mode")
		}
		v.Multa = &ValorPerc{Modalidade: n, ValorPerc: formatValue(f.Value)}
	}
	if i := t.Interest; i != nil {
		n := modalidade(jurosModes, i.Mode)
		if n == 0 {
			return v, unknownMode("interest.mode")
		}
		if businessDays(i.Days) {
			n += 4
		}
		v.Juros = &ValorPerc{Modalidade: n, ValorPerc: formatValue(i.Value)}
	}
	if r := t.Rebate; r != nil {
		n := modalidade(abatimentoModes, r.Mode)
		if n == 0 {
			return v, unknownMode("rebate.mode")
		}
		v.Abatimento = &ValorPerc{Modalidade: n, ValorPerc: formatValue(r.Value)}
	}
	if d := t.Discount; d != nil {
		out, err := desconto(*d)
		if err != nil {
			return v, err
		}
		v.Desconto = out
	}
	return v, nil
}

// desconto renders a discount: dated for the "until" modes, a value per
// day early for the others.
func desconto(d due.Discount) (*Desconto, error) {
	switch d.Mode {
	case due.DiscountFixedUntil, due.DiscountPercentUntil:
		out := &Desconto{Modalidade: modalidade(descontoModes, d.Mode)}
		for _, dd := range d.Dates {
			out.DescontoDataFixa = append(out.DescontoDataFixa, DescontoDataFixa{Data: dd.Until.String(), ValorPerc: formatValue(dd.Value)})
		}
		return out, nil
	case due.DiscountFixedPerDay, due.DiscountPercentPerDay:
		n := 3
		if d.Mode == due.DiscountPercentPerDay {
			n = 5
		}
		if businessDays(d.Days) {
			n++
		}
		out := &Desconto{Modalidade: n}
		if d.Value != nil {
			out.ValorPerc = formatValue(*d.Value)
		}
		return out, nil
	}
	return nil, unknownMode("discount.mode")
}

func unknownMode(field string) error {
	return &due.FieldError{Field: field, Message: "has no modalidade in the BCB's due-date charges"}
}

func formatValue(v due.Value) string { return FormatAmount(v.Money()) }
