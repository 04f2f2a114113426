package monitor

import (
	"net/url"
	"strings"

	"github.com/rscheck/rscheck/explorer"
)

// sameURL compares two URLs as the explorer does.
func sameURL(a, b string) bool { return explorer.NormalizeURL(a) == explorer.NormalizeURL(b) }

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
