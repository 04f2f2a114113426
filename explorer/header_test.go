package explorer

import (
	"net/textproto"
	"testing"
	"time"
)

// TestCanonicalHeaderKey: the same canonical names as net/textproto.
func TestCanonicalHeaderKey(t *testing.T) {
	for _, k := range []string{"content-type", "CONTENT-LENGTH", "x-hub-signature", "Link", "etag",
		"WWW-Authenticate", "a-b-c", "-x", "x-", "", "bad key", "ümlaut", "Sec-Fetch-Site", "content_type"} {
		if got, want := CanonicalHeaderKey(k), textproto.CanonicalMIMEHeaderKey(k); got != want {
			t.Errorf("%q: got %q, want %q", k, got, want)
		}
	}
	h := Header{}
	h.Add("link", "<a>")
	h.Add("LINK", "<b>")
	if v := h.Values("Link"); len(v) != 2 || h.Get("lInK") != "<a>" {
		t.Errorf("Values %v, Get %q", v, h.Get("lInK"))
	}
}

// TestParseHTTPDate: the three forms of HTTP-date.
func TestParseHTTPDate(t *testing.T) {
	want := time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)
	for _, s := range []string{"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"} {
		if got, err := parseHTTPDate(s); err != nil || !got.Equal(want) {
			t.Errorf("%q: %v, %v", s, got, err)
		}
	}
	if _, err := parseHTTPDate("2013-01-02T13:00:00Z"); err == nil {
		t.Error("a W3C Datetime parsed as an HTTP-date")
	}
}
