//go:build js

package explorer

import (
	"context"
	"errors"
)

// DefaultFetcher returns the Fetcher of an Options without one. In the
// browser the caller brings its own (the page's fetch, the bookmarklet's
// relay or the proxy): a net/http default would add megabytes to the
// WebAssembly module for nothing. This one fails every request, saying so.
func DefaultFetcher(string) Fetcher { return noFetcher{} }

type noFetcher struct{}

func (noFetcher) Fetch(context.Context, *Request) (*Response, error) {
	return nil, errors.New("explorer: no Fetcher: in a browser, Options.Fetcher must be set")
}
