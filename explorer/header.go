package explorer

import (
	"strings"
	"time"
)

// Header holds HTTP header fields, keyed by canonical name
// ("Content-Type"). It has the shape and methods of net/http's Header, so
// that converting between the two is free, without making the explorer
// depend on net/http: in WebAssembly that package would add megabytes and
// a slow start-up for a client the browser provides anyway.
type Header map[string][]string

// Get returns the first value of the field, or "".
func (h Header) Get(key string) string {
	if vs := h[CanonicalHeaderKey(key)]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// Values returns all the values of the field.
func (h Header) Values(key string) []string { return h[CanonicalHeaderKey(key)] }

// Set replaces the values of the field.
func (h Header) Set(key, value string) { h[CanonicalHeaderKey(key)] = []string{value} }

// Add adds a value to the field.
func (h Header) Add(key, value string) {
	k := CanonicalHeaderKey(key)
	h[k] = append(h[k], value)
}

// Del removes the field.
func (h Header) Del(key string) { delete(h, CanonicalHeaderKey(key)) }

// Clone returns a copy of h.
func (h Header) Clone() Header {
	if h == nil {
		return nil
	}
	c := make(Header, len(h))
	for k, vs := range h {
		c[k] = append([]string(nil), vs...)
	}
	return c
}

// CanonicalHeaderKey returns the canonical form of a header field name,
// as net/textproto does: the first letter and every letter after a hyphen
// in upper case, the rest in lower case. A name with a character that is
// not a token character is returned unchanged.
func CanonicalHeaderKey(s string) string {
	upper := true
	canonical := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isTokenChar(c) {
			return s
		}
		if upper && 'a' <= c && c <= 'z' || !upper && 'A' <= c && c <= 'Z' {
			canonical = false
		}
		upper = c == '-'
	}
	if canonical {
		return s
	}
	b := []byte(s)
	upper = true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		upper = c == '-'
	}
	return string(b)
}

func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// The request methods a crawl uses.
const (
	methodGet  = "GET"
	methodHead = "HEAD"
)

// parseHTTPDate parses an HTTP-date (RFC 9110 §5.6.7): the IMF-fixdate
// form, and the obsolete RFC 850 and asctime forms.
func parseHTTPDate(s string) (time.Time, error) {
	var t time.Time
	var err error
	for _, layout := range []string{"Mon, 02 Jan 2006 15:04:05 GMT", "Monday, 02-Jan-06 15:04:05 GMT", "Mon Jan _2 15:04:05 2006"} {
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return t, err
}

// statusTexts are the reason phrases of the statuses findings mention.
var statusTexts = map[int]string{
	200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
	206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
	304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
	401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
	406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
	410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
	414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
	418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Content", 425: "Too Early",
	426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
	431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons", 500: "Internal Server Error",
	501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout",
	505: "HTTP Version Not Supported",
}
