package bcbpix

import (
	"strings"

	"github.com/pixgate/pixgate/storage/money"
	"github.com/pixgate/pixgate/storage/money/due"
)

// The properties a due-date charge's violations name (BCB API Pix 2.9.0,
// CobVOperacaoInvalida: "O objeto cobv.valor.multa não respeita o
// _schema_", and the same for the others).
const (
	PropCobVDevedor    = "cobv.devedor"
	PropCobVChave      = "cobv.chave"
	PropCobVVencimento = "cobv.calendario.dataDeVencimento"
	PropCobVValidade   = "cobv.calendario.validadeAposVencimento"
	PropCobVOriginal   = "cobv.valor.original"
	PropCobVMulta      = "cobv.valor.multa"
	PropCobVJuros      = "cobv.valor.juros"
	PropCobVAbatimento = "cobv.valor.abatimento"
	PropCobVDesconto   = "cobv.valor.desconto"
)

// termsReader reads a due-date charge's calendario and valor, keeping
// every problem as a Violacao.
type termsReader struct{ bad []Violacao }

func (r *termsReader) add(prop, razao, valor string) {
	r.bad = append(r.bad, Violacao{Propriedade: prop, Razao: razao, Valor: valor})
}

// amount reads an amount or a valorPerc: two decimals, above zero.
func (r *termsReader) amount(prop, s string) money.Money {
	m, err := ParseAmount(s)
	if !valorPattern.MatchString(s) || err != nil || m <= 0 {
		r.add(prop, "must be above zero with two decimals", s)
		return 0
	}
	return m
}

func (r *termsReader) value(prop, s string) due.Value {
	return due.Value(r.amount(prop+".valorPerc", s))
}

func (r *termsReader) date(prop, s string) due.Date {
	d, err := due.ParseDate(s)
	if err != nil {
		r.add(prop, "must be a date, YYYY-MM-DD", s)
	}
	return d
}

// mode is the mode of modalidade n in table ("" and a violation when it
// has none).
func (r *termsReader) mode(prop string, table []string, n int) string {
	if n <= 0 || n >= len(table) || table[n] == "" {
		r.add(prop+".modalidade", "is not a modalidade of the BCB's", "")
		return ""
	}
	return table[n]
}

// DueTerms reads a due-date charge's calendario and valor as PixGate's
// terms; every problem is a Violacao naming the property as the BCB does.
// What the BCB leaves to the PSP (the due date against the creation day,
// the amounts against each other) is for the caller and due.Terms.Validate.
func DueTerms(c CalendarioV, v ValorV) (due.Terms, []Violacao) {
	var r termsReader
	t := due.Terms{Date: r.date(PropCobVVencimento, c.DataDeVencimento), DaysAfter: due.DefaultDaysAfter,
		Original: r.amount(PropCobVOriginal, v.Original)}
	if n := c.ValidadeAposVencimento; n != nil {
		// PixGate's terms hold at least a day after the due date (their
		// 0 is the default, 30).
		if *n < 1 {
			r.add(PropCobVValidade, "must be 1 or more", "")
		}
		t.DaysAfter = *n
	}
	if m := v.Multa; m != nil {
		t.Fine = &due.Fine{Mode: r.mode(PropCobVMulta, multaModes, m.Modalidade), Value: r.value(PropCobVMulta, m.ValorPerc)}
	}
	if j := v.Juros; j != nil {
		n, days := j.Modalidade, due.CalendarDays
		if n > 4 && n <= 8 {
			n, days = n-4, due.BusinessDays
		}
		t.Interest = &due.Interest{Mode: r.mode(PropCobVJuros, jurosModes, n), Value: r.value(PropCobVJuros, j.ValorPerc), Days: days}
	}
	if a := v.Abatimento; a != nil {
		t.Rebate = &due.Rebate{Mode: r.mode(PropCobVAbatimento, abatimentoModes, a.Modalidade), Value: r.value(PropCobVAbatimento, a.ValorPerc)}
	}
	if d := v.Desconto; d != nil {
		t.Discount = r.desconto(*d, t.Date)
	}
	return t, r.bad
}

// desconto reads a discount: modalidades 1 and 2 with one to three dates,
// none after the due date, and no valorPerc; 3 to 6 with a valorPerc and
// no dates (CobVOperacaoInvalida's violations of desconto).
func (r *termsReader) desconto(d Desconto, dueDate due.Date) *due.Discount {
	out := &due.Discount{Mode: r.mode(PropCobVDesconto, descontoModes, d.Modalidade)}
	switch d.Modalidade {
	case 1, 2:
		if d.ValorPerc != "" || len(d.DescontoDataFixa) == 0 || len(d.DescontoDataFixa) > due.MaxDiscountDates {
			r.add(PropCobVDesconto, "modalidades 1 and 2 take one to three descontoDataFixa and no valorPerc", "")
		}
		for _, dd := range d.DescontoDataFixa {
			until := r.date(PropCobVDesconto+".descontoDataFixa.data", dd.Data)
			if until.After(dueDate) {
				r.add(PropCobVDesconto+".descontoDataFixa.data", "must not be after dataDeVencimento", dd.Data)
			}
			out.Dates = append(out.Dates, due.DatedDiscount{Until: until, Value: r.value(PropCobVDesconto+".descontoDataFixa", dd.ValorPerc)})
		}
	case 3, 4, 5, 6:
		if len(d.DescontoDataFixa) > 0 {
			r.add(PropCobVDesconto, "modalidades 3 to 6 take a valorPerc and no descontoDataFixa", "")
		}
		v := r.value(PropCobVDesconto, d.ValorPerc)
		out.Value, out.Days = &v, due.CalendarDays
		if d.Modalidade == 4 || d.Modalidade == 6 {
			out.Days = due.BusinessDays
		}
	}
	return out
}

// DueProperty is the property a due.FieldError of terms read by DueTerms
// names, in the BCB's words ("rebate.value" is cobv.valor.abatimento).
func DueProperty(field string) string {
	head := field
	if i := strings.IndexAny(field, ".["); i >= 0 {
		head = field[:i]
	}
	switch head {
	case "date":
		return PropCobVVencimento
	case "days_after":
		return PropCobVValidade
	case "fine":
		return PropCobVMulta
	case "interest":
		return PropCobVJuros
	case "rebate":
		return PropCobVAbatimento
	case "discount":
		return PropCobVDesconto
	}
	return PropCobVOriginal
}
