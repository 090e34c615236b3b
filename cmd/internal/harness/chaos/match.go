package chaos

import (
	"fmt"
	"sort"
	"strings"
)

// unmatched reports PixGate records the load never asked for, provider
// transactions that moved money for no PixGate record, and events
// delivered under more than one id or about no record.
func unmatched(f facts, matched map[string]bool) []string {
	var out []string
	ids := map[string]*pgRecord{}
	plain := map[string]bool{} // the ids as the providers' contracts carry them
	for key, pg := range f.pg {
		ids[eventType[pg.kind]+":"+pg.id] = pg
		plain[eventType[pg.kind]+":"+plainID(pg.id)] = true
		if !matched[key] {
			out = append(out, fmt.Sprintf("PixGate has %s %s (%s), which the load never asked for", pg.kind, pg.externalID, pg.status))
		}
	}
	for _, t := range f.provider {
		if t.status == moneyStatus[t.typ] && !plain[t.typ+":"+plainID(t.externalID)] {
			out = append(out, fmt.Sprintf("provider %s has %s %s %s of R$ %s for no PixGate record", t.provider, t.typ, t.externalID, t.status, reais(t.amount)))
		}
	}
	for ev, d := range f.events {
		if len(d.IDs) > 1 {
			out = append(out, fmt.Sprintf("postback %s %s %s delivered under %d ids", ev.Type, ev.ID, ev.Status, len(d.IDs)))
		}
		switch pg := ids[ev.Type+":"+ev.ID]; {
		case pg == nil:
			out = append(out, fmt.Sprintf("postback %s %s %s about no PixGate record", ev.Type, ev.ID, ev.Status))
		case !reachable(pg, ev.Status):
			out = append(out, fmt.Sprintf("postback %s %s %s, but the record is %s", ev.Type, ev.ID, ev.Status, pg.status))
		}
	}
	sort.Strings(out)
	return out
}

// reachable tells whether a record now in its final status went through
// status on its way: a charge is PAID before REFUNDED and may be EXPIRED
// before it is paid late; a transfer has one final status.
func reachable(pg *pgRecord, status string) bool {
	if pg.status == status {
		return true
	}
	if pg.kind != chargeKind {
		return false
	}
	paid := pg.status == "PAID" || pg.status == "REFUNDED"
	return paid && (status == "PAID" || status == "EXPIRED")
}

// plainID is an id without its hyphens: the efi contract carries
// PixGate's ids so (a txid, an idEnvio), the family contract as they are.
func plainID(id string) string { return strings.ReplaceAll(id, "-", "") }

// moved are the transactions of txns, one record's at every provider,
// that moved its money.
func moved(txns []providerTxn, typ string) []providerTxn {
	var out []providerTxn
	for _, t := range txns {
		if t.status == moneyStatus[typ] {
			out = append(out, t)
		}
	}
	return out
}

// elsewhere names the providers other than the one PixGate records at
// which one record's money moved ("" on either side: not known, not
// judged).
func elsewhere(txns []providerTxn, typ, recorded string) []string {
	var out []string
	for _, t := range moved(txns, typ) {
		if t.provider != "" && recorded != "" && t.provider != recorded {
			out = append(out, t.provider)
		}
	}
	return out
}
