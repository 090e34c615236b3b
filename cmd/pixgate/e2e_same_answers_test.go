package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pixgate/pixgate/storage/storagetest"
)

// The same integrator flow, on v1 and v2, run through each connector (the
// family's, efi's and woovi's, each against the sandbox's face of its
// contract), gets the same answers, member by member: the same members, of
// the same JSON types, strings empty or not alike, ids of the same length,
// and a charge's validity an hour when none is asked. An integrator never
// learns from an answer which provider is behind PixGate, and a new
// connector cannot answer differently.
func TestSameAnswersWhateverTheProvider(t *testing.T) {
	kinds := []string{"family", "efi", "woovi"}
	var mu sync.Mutex
	answers := map[string]map[string]map[string]string{} // kind → answer → member → shape
	// The group returns once its parallel flows have all run.
	t.Run("flows", func(t *testing.T) {
		for _, kind := range kinds {
			t.Run(kind, func(t *testing.T) {
				storagetest.Parallel(t, devStackConns)
				got := sameFlow(newDevStack(t, contractEnv(t, kind)...), kind)
				mu.Lock()
				answers[kind] = got
				mu.Unlock()
			})
		}
	})
	if t.Failed() || len(answers) < len(kinds) {
		return
	}
	sameShapes(t, answers)
}

// sameShapes compares each answer of every connector with the family's,
// member by member (shapeOf).
func sameShapes(t *testing.T, answers map[string]map[string]map[string]string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(answers["family"])) {
		for kind := range answers {
			if kind == "family" {
				continue
			}
			want, got := answers["family"][name], answers[kind][name]
			members := slices.Collect(maps.Keys(want))
			for m := range maps.Keys(got) {
				if _, ok := want[m]; !ok {
					members = append(members, m)
				}
			}
			slices.Sort(members)
			for _, member := range members {
				if optionalMember[member] && (want[member] == "" || got[member] == "") {
					continue
				}
				if want[member] != got[member] {
					t.Errorf("%s, %s: %s is %s through %s, %s through the family", name, member, member, orAbsent(got[member]), kind, orAbsent(want[member]))
				}
			}
		}
	}
}

// contractEnv is the environment of a pixgate dev whose sandbox speaks
// the contract of kind (family, efi or woovi), and PixGate its connector.
func contractEnv(t *testing.T, kind string) []string {
	env := []string{"PIXGATE_PROVIDER_KIND", kind, "PIXGATE_SANDBOX_TLS_DIR", t.TempDir()}
	if kind == "efi" { // over mutual TLS
		env = append(env, "PIXGATE_SANDBOX_TLS_ADDR", freePorts(t, 1)[0])
	}
	return env
}

// optionalMember are the members documented as present only when the
// provider reported them (docs/api-v2.md: a paid charge's debitParty has
// name, taxId and bank "each only when it did"): one provider's answer may
// lack one another's has, but never carries it empty. taxId is not among
// them: every connector reports who paid.
var optionalMember = map[string]bool{"debitParty.name": true, "debitParty.bank": true}

// sameFlow runs the flow through kind's connector and returns each
// answer's shape: a charge created on v1 and on v2 without a validity, paid
// at the sandbox, its postback, read on v1 and consulted on v2 (who paid
// it and the PIX named alike in all three); a withdrawal and a refund
// completed, read on both; due-date charges paid on time, late and early
// (dueFlow).
func sameFlow(s *devStack, kind string) map[string]map[string]string {
	t := s.t
	out := map[string]map[string]string{}
	v2 := s.v2Token(s.token)
	code, created := s.call(http.MethodPost, "/api/v1/charges", map[string]any{"amount": 25.00, "payer": payer, "postbackUrl": s.receiver.URL + "/pix"})
	if code != http.StatusCreated {
		t.Fatalf("create charge: %d %v", code, created)
	}
	out["v1 charge created"] = shapeOf(created)
	id, pixID := created["id"].(string), created["pix_id"].(string)
	code, v2Charge := s.v2("/v2/pix/qrcode", v2, map[string]any{"amount": 12.00, "payer": payer})
	if code != http.StatusOK {
		t.Fatalf("v2 qrcode: %d %v", code, v2Charge)
	}
	out["v2 charge created"] = shapeOf(v2Charge)
	if c, v := s.control(http.MethodPost, "/sandbox/charges/"+pixID+"/pay",
		map[string]any{"payer": map[string]any{"name": "Beltrano da Silva", "document": "123.456.789-09"}}); c != http.StatusOK {
		t.Fatalf("pay: %d %v", c, v)
	}
	s.eventually("charge PAID", 10*time.Second, func() bool { return s.status("charges", id) == "PAID" })
	_, paid := s.call(http.MethodGet, "/api/v1/charges/"+id, nil)
	out["v1 charge paid"] = shapeOf(paid)
	consulted := s.consult(v2, pixID)
	out["v2 consult of the paid charge"] = shapeOf(consulted)
	s.eventually("the charge's postback", 10*time.Second, func() bool { return len(s.receiver.deliveries()) > 0 })
	postback := s.receiver.verified(t, s.webhookSecret)[0]
	out["postback of the paid charge"] = shapeOf(postback)
	// Who paid, as the provider said: efi and woovi name the payer given at
	// the sandbox (its own account stands there on the family's), and the
	// postback names the PIX the consult does.
	for what, rb := range map[string]map[string]any{"consult": consulted, "postback": postback} {
		debit, _ := rb["debitParty"].(map[string]any)
		if kind != "family" && (debit["taxId"] != "12345678909" || debit["name"] != "Beltrano da Silva") {
			t.Errorf("%s of the paid charge: debitParty %v, want who paid", what, rb["debitParty"])
		}
		if rb["endToEndId"] != consulted["endToEndId"] || paid["end_to_end_id"] != consulted["endToEndId"] {
			t.Errorf("%s names the PIX %v, consult %v, v1 %v", what, rb["endToEndId"], consulted["endToEndId"], paid["end_to_end_id"])
		}
	}

	s.credit("100.00")
	code, w := s.call(http.MethodPost, "/api/v1/withdrawals", map[string]any{"amount": 7.00, "creditParty": creditParty("beltrano@example.com")})
	if code != http.StatusCreated {
		t.Fatalf("create withdrawal: %d %v", code, w)
	}
	wid := w["id"].(string)
	s.eventually("withdrawal COMPLETED", 10*time.Second, func() bool { return s.status("withdrawals", wid) == "COMPLETED" })
	_, w = s.call(http.MethodGet, "/api/v1/withdrawals/"+wid, nil)
	out["v1 withdrawal completed"] = shapeOf(w)
	out["v2 consult of the withdrawal"] = shapeOf(s.consult(v2, w["pix_id"].(string)))

	code, r := s.call(http.MethodPost, "/api/v1/charges/"+id+"/refunds", map[string]any{"amount": 5.00})
	if code != http.StatusCreated {
		t.Fatalf("refund: %d %v", code, r)
	}
	refundID := r["id"]
	s.eventually("refund COMPLETED", 10*time.Second, func() bool {
		_, list := s.call(http.MethodGet, "/api/v1/charges/"+id+"/refunds", nil)
		items, _ := list["data"].([]any)
		for _, it := range items {
			if m, _ := it.(map[string]any); m["id"] == refundID {
				r = m
			}
		}
		return r["status"] == "COMPLETED"
	})
	out["v1 refund completed"] = shapeOf(r)
	out["v2 consult of the refund"] = shapeOf(s.consult(v2, r["pix_id"].(string)))
	dueFlow(s, out)
	s.auditClean()
	return out
}

// shapeOf flattens a JSON answer into member paths ("debitParty.name")
// and what an integrator's code would see of each: its JSON type, whether
// a string is empty, an id's length, and for a charge the validity asked
// (expires_at - created_at, or calendar.expiration).
func shapeOf(v map[string]any) map[string]string {
	out := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			out[path] = "an object"
			for k, e := range x {
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
		case []any:
			out[path] = fmt.Sprintf("a list of %d", len(x))
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case string:
			switch {
			case x == "":
				out[path] = "an empty string"
			case isID(path):
				out[path] = fmt.Sprintf("a string of %d characters", len(x))
			default:
				out[path] = "a string"
			}
		case nil:
			out[path] = "null"
		case json.Number, float64:
			out[path] = "a number"
			if path == "calendar.expiration" { // the validity, on v2
				out[path] = fmt.Sprintf("%v s", x)
			}
		default:
			out[path] = fmt.Sprintf("a %T", x)
		}
	}
	walk("", v)
	delete(out, "")
	created, errC := time.Parse(time.RFC3339, fmt.Sprint(v["created_at"]))
	expires, errE := time.Parse(time.RFC3339, fmt.Sprint(v["expires_at"]))
	if errC == nil && errE == nil {
		out["validity"] = validity(created, expires, v["due"] != nil)
	}
	return out
}

// validity is what an integrator sees of how long a charge can be paid: a
// span from its creation, or for a due-date charge the time of day it ends
// on and how many days after the day it was created. A due-date charge's
// span depends on the second the flow ran, and two flows run side by side
// cross a minute apart now and then.
func validity(created, expires time.Time, hasDue bool) string {
	if !hasDue {
		return expires.Sub(created).Round(time.Minute).String()
	}
	day := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
	days := day(expires).Sub(day(created.In(expires.Location()))) / (24 * time.Hour)
	return fmt.Sprintf("until %s, %d days after the day it was created", expires.Format("15:04:05Z07:00"), days)
}

// isID: members that carry an identifier, whose length integrators store.
func isID(path string) bool {
	last := path[strings.LastIndex(path, ".")+1:]
	switch last {
	case "id", "pix_id", "transactionId", "end_to_end_id", "endToEndId", "e2eId":
		return true
	}
	return false
}

func orAbsent(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}
