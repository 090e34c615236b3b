package api

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/pixgate/pixgate/api/payments"
)

// csvColumns are the columns a CSV batch's header row may name, and the
// withdrawal request member each fills; description and postback_url are
// optional columns, an empty cell meaning none.
var csvColumns = []struct{ name, member string }{
	{"amount", "amount"}, {"key_type", "creditParty.keyType"}, {"key", "creditParty.key"}, {"name", "creditParty.name"},
	{"tax_id", "creditParty.taxId"}, {"external_id", "external_id"}, {"description", "description"}, {"postback_url", "postbackUrl"},
}

// requiredCSVColumns must each be in the header row.
var requiredCSVColumns = []string{"amount", "key_type", "key", "name", "tax_id", "external_id"}

// parseBatchCSV reads a CSV batch: the batch's external_id and
// postbackUrl from the query, a header row naming the columns (any
// order), then one withdrawal a line. Every problem is named by its line
// and column ("line 19: key"), the header being line 1.
func (s *Server) parseBatchCSV(c *fiber.Ctx) (payments.BatchRequest, error) {
	q := map[string]json.RawMessage{}
	for _, name := range []string{"external_id", "postbackUrl"} {
		if v := c.Query(name); v != "" {
			q[name], _ = json.Marshal(v)
		}
	}
	top := object{ctx: c.UserContext(), m: q, errs: newFieldErrors()}
	var r payments.BatchRequest
	if ext, _ := top.externalID(); ext != nil {
		r.ExternalID = *ext
	} else if !top.errs.has("external_id") {
		top.errs.add("external_id", "is required (a query parameter with a CSV body)")
	}
	r.PostbackURL = top.postbackURL(s.cfg.AllowHTTPPostbacks, s.cfg.PostbackURLPolicy)
	if !utf8.Valid(c.Body()) {
		bad := bytes.IndexFunc(c.Body(), func(r rune) bool { return r == utf8.RuneError })
		top.errs.add(fmt.Sprintf("line %d", 1+bytes.Count(c.Body()[:max(bad, 0)], []byte("\n"))), "is not UTF-8 text: send the CSV in UTF-8")
		return r, top.errs.err()
	}
	rd := csv.NewReader(bytes.NewReader(c.Body()))
	rd.FieldsPerRecord, rd.ReuseRecord = 0, false
	header, err := rd.Read()
	if err != nil {
		top.errs.add("line 1", "must be a header row naming the columns (%s)", strings.Join(requiredCSVColumns, ", "))
		return r, top.errs.err()
	}
	members := make([]string, len(header))
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))
		j := slices.IndexFunc(csvColumns, func(col struct{ name, member string }) bool { return col.name == h })
		switch {
		case j < 0:
			top.errs.add("line 1", "names an unknown column, its column %d (known: amount, key_type, key, name, tax_id, external_id, description, postback_url)", i+1)
		case slices.Contains(members, csvColumns[j].member):
			top.errs.add("line 1", "names the column %s twice", h)
		default:
			members[i] = csvColumns[j].member
		}
		header[i] = h
	}
	for _, need := range requiredCSVColumns {
		if !slices.Contains(header, need) {
			top.errs.add("line 1", "lacks the column %s", need)
		}
	}
	if !top.errs.empty() {
		return r, top.errs.err()
	}
	seen := map[string]int{}
	for line := 2; ; line++ {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			top.errs.add(fmt.Sprintf("line %d", pe.Line), "is not valid CSV (%s)", pe.Err)
			return r, top.errs.err()
		}
		if len(r.Items) == maxWithdrawalBatch {
			top.errs.add(batchItemsMember, "must be 1 to %d lines after the header", maxWithdrawalBatch)
			return r, top.errs.err()
		}
		item, _ := s.parseCSVLine(top, line, members, rec)
		r.Items = append(r.Items, item)
		if item.ExternalID != nil {
			if first, dup := seen[*item.ExternalID]; dup {
				top.errs.add(fmt.Sprintf("line %d: external_id", line), "repeats the external_id of line %d", first)
			} else {
				seen[*item.ExternalID] = line
			}
		}
	}
	if len(r.Items) == 0 {
		top.errs.add(batchItemsMember, "must be 1 to %d lines after the header", maxWithdrawalBatch)
	}
	if err := top.errs.err(); err != nil {
		return payments.BatchRequest{}, err
	}
	return r, nil
}

// parseCSVLine reads one line as a withdrawal request, its problems added
// to top's as "line N: column".
func (s *Server) parseCSVLine(top object, line int, members, rec []string) (payments.WithdrawalRequest, error) {
	m := map[string]json.RawMessage{}
	party := map[string]string{}
	for i, v := range rec {
		if i >= len(members) || members[i] == "" {
			continue
		}
		member := members[i]
		switch {
		case strings.HasPrefix(member, "creditParty."):
			party[strings.TrimPrefix(member, "creditParty.")] = v
		case member == "amount":
			m[member] = json.RawMessage(strings.TrimSpace(v))
			if strings.TrimSpace(v) == "" {
				delete(m, member)
			}
		case v != "" || member == "external_id":
			m[member], _ = json.Marshal(v)
		}
	}
	if len(party) > 0 {
		m["creditParty"], _ = json.Marshal(party)
	}
	o := object{ctx: top.ctx, m: m, errs: newFieldErrors()}
	if _, ok := o.raw("external_id"); !ok {
		o.errs.add("external_id", "is required")
	}
	r, err := s.parseWithdrawalRequest(o)
	for _, field := range o.errs.order {
		col := field
		for _, c := range csvColumns {
			if c.member == field {
				col = c.name
			}
		}
		for _, msg := range o.errs.byField[field] {
			top.errs.add(fmt.Sprintf("line %d: %s", line, col), "%s", msg)
		}
	}
	return r, err
}
