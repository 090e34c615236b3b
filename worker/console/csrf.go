package console

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
)

// Forms are guarded by a double-submitted token: a random value in a
// cookie only this site's pages can read (SameSite=Strict, HttpOnly),
// repeated in each form. The login is HTTP Basic, which a browser sends
// to any request for the site, another site's forms included; those
// cannot know the cookie's value. Stateless, so it holds across workers
// behind one address.

const csrfCookie = "pixgate_console_csrf"

// csrfToken is the request's token, a new one (set in the cookie) when it
// carries none.
func csrfToken(rw http.ResponseWriter, r *http.Request) string {
	if ck, err := r.Cookie(csrfCookie); err == nil && len(ck.Value) == 64 {
		return ck.Value
	}
	var b [32]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	http.SetCookie(rw, &http.Cookie{Name: csrfCookie, Value: token, Path: "/console/", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	return token
}

// csrfValid says whether a form's token is its cookie's, and that the
// browser does not say the request comes from another site.
func csrfValid(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
		return false
	}
	ck, err := r.Cookie(csrfCookie)
	if err != nil || len(ck.Value) != 64 {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(ck.Value), []byte(r.PostFormValue("csrf"))) == 1
}
