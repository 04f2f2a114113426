//go:build !js

package explorer

// defaultFetcher is the Fetcher of an Options without one: net/http.
func defaultFetcher(userAgent string) Fetcher { return &HTTPFetcher{UserAgent: userAgent} }
