// Package explorer discovers a ResourceSync Source and crawls its whole
// hierarchy the way a Destination would (ANSI/NISO Z39.99-2017 §6),
// validating every document with validator.Validate and checking what no
// single document shows: that the documents point to each other
// correctly, agree with each other, and can be fetched.
//
// # Fetching
//
// The explorer reaches the network only through a Fetcher, a one-method
// interface whose contract is written on the type, like
// http.RoundTripper's: safe for concurrent use, no redirects followed, a
// nil error exactly when there is a response (a 404 is a response), the
// caller closes the body, and ctx is honoured while waiting and while
// reading. HTTPFetcher implements it on net/http natively; in the browser
// the page provides one (fetch, the bookmarklet's relay, the proxy), so the
// same crawl runs in both places and the WebAssembly module carries no
// HTTP client of its own.
//
// Behaviour is composed by wrapping Fetchers: Politely (requests in flight,
// delay per host), FollowRedirects (at most 10, http and https only),
// LimitBytes, Timeout (per request, body included) and Memoize (a URL is
// fetched once per crawl). NewFetcher composes them as Explore does.
// Content codings are left to the transport and gzip files (.xml.gz) to
// validator.Validate, which detects them, so that nothing is decompressed
// twice.
//
// # Discovery
//
// Explore starts from any URL. When it is a ResourceSync document, it is
// validated and its up links are followed to the Source Description.
// Otherwise, and in every case to compare, the explorer tries the
// well-known URI /.well-known/resourcesync (§6.3.2), the Sitemap
// directives of /robots.txt (§6.3.4), <link rel="resourcesync"> in an HTML
// page and rel="resourcesync" in HTTP Link headers (§6.3.3; see
// ParseLinkHeader). Result.Discovery says what each method found and which
// Source Description it leads to; methods that disagree are findings.
//
// # Crawl
//
// From the Source Description the crawl goes down: Capability Lists,
// capability documents, indexes and their parts, dumps and their packages
// (checked by package dump, without writing anything to disk), the
// Manifests that contents links point to, and notification channels, whose
// topic URIs are checked but never subscribed to. Documents are validated
// as they stream in; a validator.Observer collects, in the same pass, the
// facts the cross-document checks need. Resources are kept as 64-bit keys
// with a few facts (ResourceCost bytes each), only to find a resource
// listed twice across the parts of an index and to compare a Resource
// Dump with the Resource List beside it; the packages of a Capability List
// are read after its Resource List, so that nothing of them is kept.
//
// The crawl runs Options.Concurrency tasks at a time and stops promptly
// when ctx is cancelled. Limits on documents, bytes, depth, wall time,
// document and package size end it cleanly: Result.Stopped says which, and
// the links not followed are findings. With Options.Audit the explorer
// also fetches resources (an even sample or all) and compares them with
// their metadata.
//
// # Rules
//
// Every finding of the explorer belongs to a rule of its catalogue, Rules,
// in the same form as the validator's (a *validator.Rule with a nil Run),
// and is merged into the report of the document it concerns, at the line
// of the <loc> or href that points to the problem:
//
//	RX101–RX122  cross-document: navigation links, capabilities, index
//	             parts and their times, Change List Index order, resources
//	             across parts and dumps, discovery, notification topics
//	RF101–RF106  fetching: status, content type, redirects, unreachable
//	             or too large documents, links not followed at a limit
//	RD101–RD114  dump packages (package dump): Manifest, bitstreams, ZIP
//	             safety, and the dump entry that points to the package
//	RA101–RA106  content audit: status, length, digest, type, Last-Modified
//
// The Result lists the documents in crawl order, parents before children,
// with their reports; Result.Report converts it for the views of package
// validator/report.
package explorer
