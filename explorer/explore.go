package explorer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rscheck/rscheck/validator"
)

// Defaults of Options.
const (
	DefaultConcurrency      = 4
	DefaultTimeout          = 30 * time.Second
	DefaultMaxDocuments     = 10_000
	DefaultMaxBytes         = 4 << 30
	DefaultMaxDepth         = 10
	DefaultMaxDuration      = 30 * time.Minute
	DefaultMaxDocumentBytes = 64 << 20 // above the 50 MB Sitemap limit, so that SM102 can say so
	DefaultMaxPackageBytes  = 1 << 30
	DefaultMaxRedirects     = 10
)

// Options configure Explore. The zero value explores with net/http, four
// requests at a time, and the default limits.
type Options struct {
	// Fetcher performs the requests; nil means an HTTPFetcher (natively;
	// in a browser it must be set). Explore
	// wraps it (see NewFetcher): it need not be polite, cap sizes, time
	// out, follow redirects or remember responses.
	Fetcher Fetcher
	// Validator is the template of the options every document is
	// validated with (schema version, extra schemas, finding caps); nil
	// means the defaults. Its Observer, if any, is called too.
	Validator *validator.Options
	// Concurrency is the number of requests under way at once; zero
	// means DefaultConcurrency.
	Concurrency int
	// Delay, if positive, separates the starts of requests to the same host.
	Delay time.Duration
	// Timeout bounds each wait on the network: for a response, and for
	// each read of its body (see Timeout); zero means DefaultTimeout.
	Timeout time.Duration
	// MaxDocuments bounds the documents and packages fetched; zero means
	// DefaultMaxDocuments.
	MaxDocuments int
	// MaxBytes bounds the bytes read, all responses together; zero means
	// DefaultMaxBytes.
	MaxBytes int64
	// MaxDepth bounds the depth of the hierarchy below its roots (the
	// Source Description is at depth 0); zero means DefaultMaxDepth.
	MaxDepth int
	// MaxDuration bounds the whole exploration; zero means DefaultMaxDuration.
	MaxDuration time.Duration
	// MaxDocumentBytes bounds the (decompressed) size of one document;
	// zero means DefaultMaxDocumentBytes.
	MaxDocumentBytes int64
	// MaxPackageBytes bounds the size of one dump package; zero means
	// DefaultMaxPackageBytes.
	MaxPackageBytes int64
	// MaxPackageFiles and MaxPackageUncompressed bound what is read of one
	// package (see dump.Options); zero means the dump package's defaults.
	MaxPackageFiles        int
	MaxPackageUncompressed int64
	// Audit, when non-zero, fetches resources listed in Resource Lists and
	// Change Lists and compares them with their metadata: a positive value
	// audits that many resources, sampled evenly; a negative value audits
	// them all (the sample is then kept in memory, about 200 bytes per
	// resource).
	Audit int
	// UserAgent is sent with every request by the default Fetcher.
	UserAgent string
	// Progress, if set, is called at every step: a document discovered,
	// fetched or validated, a resource seen or audited. Calls are made one
	// at a time from the crawl's goroutines; Progress must return quickly.
	Progress func(Progress)
}

// Progress tells how far an exploration has gone.
type Progress struct {
	Phase      string // "discovery", "crawl", "audit" or "done"
	URL        string // the document or resource just worked on
	Discovered int    // documents and packages known
	Fetched    int    // documents and packages fetched
	Validated  int    // documents and packages validated
	Bytes      int64  // bytes read
	Resources  int64  // resource entries seen in lists
	Audited    int    // resources audited
}

func (o *Options) norm() Options {
	var n Options
	if o != nil {
		n = *o
	}
	if n.Fetcher == nil {
		n.Fetcher = DefaultFetcher(n.UserAgent)
	}
	if n.Concurrency <= 0 {
		n.Concurrency = DefaultConcurrency
	}
	if n.Timeout == 0 {
		n.Timeout = DefaultTimeout
	}
	if n.MaxDocuments <= 0 {
		n.MaxDocuments = DefaultMaxDocuments
	}
	if n.MaxBytes <= 0 {
		n.MaxBytes = DefaultMaxBytes
	}
	if n.MaxDepth <= 0 {
		n.MaxDepth = DefaultMaxDepth
	}
	if n.MaxDuration <= 0 {
		n.MaxDuration = DefaultMaxDuration
	}
	if n.MaxDocumentBytes <= 0 {
		n.MaxDocumentBytes = DefaultMaxDocumentBytes
	}
	if n.MaxPackageBytes <= 0 {
		n.MaxPackageBytes = DefaultMaxPackageBytes
	}
	return n
}

// NewFetcher composes the Fetcher an exploration uses from a base one:
// politeness (Concurrency requests under way, Delay between requests to a
// host), redirects (at most 10, http and https only), a size cap (the
// larger of MaxDocumentBytes and MaxPackageBytes), the Timeout of every
// wait on the network
// and a memo, so that a URL is fetched once. Explore calls it; it is
// exported for tools that fetch the way the explorer does.
func NewFetcher(base Fetcher, o *Options) Fetcher {
	n := o.norm()
	if base == nil {
		base = n.Fetcher
	}
	f := Politely(base, n.Concurrency, n.Delay)
	f = FollowRedirects(f, DefaultMaxRedirects)
	f = LimitBytes(f, max(n.MaxDocumentBytes, n.MaxPackageBytes))
	f = Timeout(f, n.Timeout)
	return Memoize(f, 1<<20)
}

// Explore discovers the Source that start belongs to and crawls its whole
// hierarchy the way a Destination would, validating every document and
// package and checking what holds between them. start may be a ResourceSync
// document, the site's root, an HTML page, a robots.txt or any resource
// with a Link header (see the package documentation).
//
// Problems of the Source are findings in the result; the error is non-nil
// only for an invalid start URL or when ctx is done before the end, and
// then the partial result is returned too. Limits (Options) end the crawl
// with a result whose Stopped says which.
func Explore(ctx context.Context, start string, opts *Options) (*Result, error) {
	if err := checkScheme(start); err != nil {
		return nil, err
	}
	o := opts.norm()
	c := newCrawler(o)
	ctx, cancelTime := context.WithTimeoutCause(ctx, o.MaxDuration, errTimeLimit)
	defer cancelTime()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.ctx, c.cancel = ctx, cancel
	c.pool = newPool(ctx, o.Concurrency+1)
	defer c.pool.close()

	c.discover(start)
	c.crawl()
	if o.Audit != 0 {
		c.audit()
	}
	res := c.finish(start)
	if err := context.Cause(ctx); err != nil {
		switch {
		case errors.Is(err, errTimeLimit):
			res.Stopped = fmt.Sprintf("the time limit (%v) was reached", o.MaxDuration)
		case errors.Is(err, errByteLimit):
			res.Stopped = fmt.Sprintf("the limit of %d bytes read was reached", o.MaxBytes)
		default:
			return res, err
		}
	}
	return res, nil
}

var (
	errTimeLimit = errors.New("exploration time limit reached")
	errByteLimit = errors.New("exploration byte limit reached")
)
