package mnemo

import (
	"encoding/json"
	"net/http"
	"testing"
)

// FuzzDecodeAnswer feeds the client's decoding of answers with arbitrary
// statuses, headers and bodies (seed corpus: testdata/fuzz/FuzzDecodeAnswer,
// real answers of the daemon). Decoding never panics; an error answer is
// always an *Error with a code, a message and details; a 2xx answer that
// decodes encodes again into JSON that decodes the same way.
func FuzzDecodeAnswer(f *testing.F) {
	f.Fuzz(func(t *testing.T, status int, retryAfterHeader string, body []byte) {
		status = 100 + abs(status)%500
		header := http.Header{"Retry-After": {retryAfterHeader}}
		if status/100 != 2 {
			e := decodeError(status, header, body)
			if e.Code == "" || e.Message == "" || e.Details == nil || e.Error() == "" {
				t.Fatalf("error answer %d %q decoded to %#v", status, body, e)
			}
			e.CurrentVersion()
			return
		}
		roundTrip(t, status, body, &SessionWithEvents{})
		roundTrip(t, status, body, &AppendResult{})
		roundTrip(t, status, body, &SearchResult{})
		roundTrip(t, status, body, &RecallResult{})
		roundTrip(t, status, body, &LaneSession{})
	})
}

func roundTrip[T any](t *testing.T, status int, body []byte, out *T) {
	if decodeAnswer(status, body, out) != nil {
		return
	}
	again, err := json.Marshal(out)
	if err != nil {
		t.Fatalf("%T decoded from %q does not encode: %v", out, body, err)
	}
	var second T
	if err := decodeAnswer(status, again, &second); err != nil {
		t.Fatalf("%T re-encoded as %s does not decode: %v", out, again, err)
	}
}

func abs(n int) int {
	if n < 0 {
		return -(n + 1)
	}
	return n
}
