package api

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/pixgate/pixgate/storage"
)

// List paging limits.
const (
	defaultPerPage = 15
	maxPerPage     = 100
)

// listBody is the envelope of every v1 list: newest first, keyset-paged.
type listBody[T any] struct {
	Data []T      `json:"data"`
	Meta listMeta `json:"meta"`
}

type listMeta struct {
	PerPage    int     `json:"per_page"`
	NextCursor *string `json:"next_cursor"`
}

// listQueryParams are the parameters every v1 list reads.
var listQueryParams = []string{"per_page", "cursor", "status"}

// listParams reads per_page, status and cursor for the integrator's list,
// reporting every bad parameter at once. Any other parameter is refused,
// naming the ones there are: a client that pages with ?page=2 must learn
// that it keeps getting the first page. The cursor is opaque to clients:
// the base64url of the last id of the previous page, so paging stays stable
// while new records arrive.
func listParams(c *fiber.Ctx, statuses []string) (storage.ListParams, error) {
	var unknown []string
	c.Context().QueryArgs().VisitAll(func(key, _ []byte) {
		if k := string(key); !slices.Contains(listQueryParams, k) && !slices.Contains(unknown, k) {
			unknown = append(unknown, k)
		}
	})
	p, err := parseListQuery(c.Query("per_page"), c.Query("status"), c.Query("cursor"), statuses, unknown...)
	p.IntegratorID = integratorIDOf(c)
	return p, err
}

// queryParamField names an unknown query parameter in the answer when its
// name looks like one (page, limit, sort) and cannot be a credential pasted
// in the wrong place; anything else is reported as "query", unechoed.
func queryParamField(name string) string {
	plausible := len(name) <= 32 && name != "" && name[0] >= 'a' && name[0] <= 'z' &&
		strings.IndexFunc(name, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') }) < 0
	for _, prefix := range []string{"sk_", "pk_", "whsec_", "pgat_"} {
		if strings.HasPrefix(name, prefix) {
			plausible = false
		}
	}
	if !plausible {
		return "query"
	}
	return name
}

// parseListQuery is listParams without the request: the query's values
// and the names of the parameters no list reads.
func parseListQuery(perPage, status, cursor string, statuses []string, unknown ...string) (storage.ListParams, error) {
	p := storage.ListParams{Limit: defaultPerPage}
	errs := newFieldErrors()
	if perPage != "" {
		n, err := strconv.Atoi(perPage)
		if err != nil || n < 1 || n > maxPerPage {
			errs.add("per_page", "must be an integer from 1 to %d", maxPerPage)
		}
		p.Limit = n
	}
	if status != "" {
		p.Status = strings.ToUpper(status)
		if !slices.Contains(statuses, p.Status) {
			errs.add("status", "must be one of %s", strings.Join(statuses, ", "))
		}
	}
	if cursor != "" {
		id, ok := decodeCursor(cursor)
		if !ok {
			errs.add("cursor", "is not a cursor this API returned (use meta.next_cursor of the previous page)")
		}
		p.After = &id
	}
	for _, k := range unknown {
		errs.add(queryParamField(k), "is not a parameter of this list; it reads %s", strings.Join(listQueryParams, ", "))
	}
	return p, errs.err()
}

func encodeCursor(id uuid.UUID) *string {
	s := base64.RawURLEncoding.EncodeToString(id[:])
	return &s
}

func decodeCursor(s string) (uuid.UUID, bool) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 16 {
		return uuid.UUID{}, false
	}
	id, err := uuid.FromBytes(b)
	return id, err == nil
}

// pathRef reads a record reference (UUID or external_id) from the path.
// Routing sees the path still percent-encoded, so external ids containing
// reserved characters work when the client encodes them. A reference no
// record can have (bad escapes, invalid UTF-8, NUL, too long) is 404 at
// once: Postgres would refuse some of them as text.
func pathRef(c *fiber.Ctx, name string) (string, error) {
	return parseRef(c.Params(name))
}

// parseRef is pathRef without the request: the raw path segment.
func parseRef(raw string) (string, error) {
	ref, err := url.PathUnescape(raw)
	if err != nil || ref == "" || len(ref) > 4*maxExternalIDLen || !utf8.ValidString(ref) || strings.ContainsRune(ref, 0) {
		return "", newError(http.StatusNotFound, codeNotFound, "No such record for this account.")
	}
	return strings.Clone(ref), nil
}

// page renders one page of a list.
func page[R, V any](items []R, more bool, limit int, view func(R) V, idOf func(R) uuid.UUID) listBody[V] {
	out := listBody[V]{Data: make([]V, 0, len(items)), Meta: listMeta{PerPage: limit}}
	for _, it := range items {
		out.Data = append(out.Data, view(it))
	}
	if more && len(items) > 0 {
		out.Meta.NextCursor = encodeCursor(idOf(items[len(items)-1]))
	}
	return out
}
