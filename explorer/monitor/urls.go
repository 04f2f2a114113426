package monitor

import (
	"net/url"
	"strings"
)

// normalizeURL puts a URL in the form the monitor compares URLs in, as
// the explorer does: lower-case scheme and host, no default port, "/"
// for an empty path, no fragment.
func normalizeURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return raw
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	if (u.Scheme == "http" && strings.HasSuffix(u.Host, ":80")) || (u.Scheme == "https" && strings.HasSuffix(u.Host, ":443")) {
		u.Host = u.Host[:strings.LastIndexByte(u.Host, ':')]
	}
	if u.Path == "" && u.Opaque == "" {
		u.Path = "/"
	}
	u.Fragment, u.RawFragment = "", ""
	return u.String()
}

// sameURL compares two URLs as normalizeURL does.
func sameURL(a, b string) bool { return normalizeURL(a) == normalizeURL(b) }

// resolve resolves ref against base; it returns ref as written when
// either does not parse.
func resolve(base, ref string) string {
	ref = strings.TrimSpace(ref)
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	u, err := b.Parse(ref)
	if err != nil {
		return ref
	}
	return u.String()
}

// mediaType returns the media type of a Content-Type value, lower case,
// without parameters.
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// parseURL parses s, or returns nil.
func parseURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		return nil
	}
	return u
}
