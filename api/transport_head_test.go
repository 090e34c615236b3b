package api

import "testing"

// headProblem runs on every request's head: it judges it in place. It
// used to copy the head, split it into lines and lower-case every header
// name, several allocations per request.
func TestHeadCheckJudgesInPlace(t *testing.T) {
	cases := map[string]*apiError{
		"Host: x\r\nContent-Length: 2\r\n\r\n":                                 nil,
		"Host: x\r\nContent-Length: 2\r\ncontent-length:  2 \r\n\r\n":          nil,
		"Host: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n":            errConflictingLength,
		"Host: x\r\nCONTENT-LENGTH: 2\r\nTransfer-Encoding: chunked\r\n\r\n":   errConflictingLength,
		"Host: x\r\ntransfer-encoding: chunked\r\n Content-Length : 2\r\n\r\n": errConflictingLength,
		"Host: x\r\nTransfer-Encoding: chunked\r\n\r\n":                        nil,
		"Host: x\r\nX-A: a\rb\r\n\r\n":                                         errControlInHeader,
		"Host: x\r\nX-A: a\x00b\r\n\r\n":                                       errControlInHeader,
		"Host: x\r\nX-A: a\r":                                                  errControlInHeader,
		"Host: x\r\r\n\r\n":                                                    errControlInHeader,
		"Host: x\nX-A: b\n\n":                                                  errBareLF,
		"Host: x\r\nX-A: b\n\r\n":                                              errBareLF,
		"Host: x\r\nX-A: a\r\n b\r\n\r\n":                                      errObsFold,
		"Host: x\r\nX-A: a\r\n\tb\r\n\r\n":                                     errObsFold,
		" Host: x\r\n\r\n":                                                     errObsFold,
		"Host: x\r\nX-A: a b\t\r\n\r\n":                                        nil,
		"Host: x\r\nX-Content-Length: 2\r\nContent-Length: 3\r\n\r\n":          nil,
	}
	for head, want := range cases {
		if got := headProblem([]byte(head)); got != want {
			t.Errorf("headProblem(%q) = %v, want %v", head, got, want)
		}
	}
	head := []byte("POST /api/v1/withdrawals HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer pk.sk\r\nContent-Type: application/json\r\nContent-Length: 13\r\nUser-Agent: t\r\n\r\n")
	if n := testing.AllocsPerRun(100, func() { _ = headProblem(head) }); n != 0 {
		t.Fatalf("headProblem allocates %v times per head, want 0", n)
	}
}
