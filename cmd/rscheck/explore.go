package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync"
	"time"

	"github.com/rscheck/rscheck/explorer"
)

func exploreUsage(w io.Writer) {
	fmt.Fprint(w, `Usage: rscheck explore [flags] URL

Explore discovers the ResourceSync Source that URL belongs to and crawls
its whole hierarchy the way a Destination would: the Source Description,
Capability Lists, lists and their indexes, dumps and their ZIP packages,
notification channels. Every document is validated, and what holds
between documents is checked (up and index links, capabilities, index
and part times, packages against their manifests, duplicates across
parts, a Resource Dump against the Resource List).

URL may be the site's root, a ResourceSync document (its up links are
climbed), an HTML page with <link rel="resourcesync">, a robots.txt, or
any resource with a Link header. Discovery also tries
/.well-known/resourcesync and robots.txt, and says whether the methods
agree.

The report has one document per fetched document or package, the
hierarchy as a tree, and the discovery summary.

Flags:

`)
	printFlags(w, exploreFlags(new(exploreConfig)))
	fmt.Fprint(w, `
Examples:

	rscheck explore https://example.org/
	rscheck explore --audit 1000 --format html -o report.html https://example.org/.well-known/resourcesync
	rscheck explore --delay 500ms --concurrency 2 https://example.org/dataset1/resourcelist.xml

Exit status: 0 when no document has an error finding, 1 when one has,
2 for usage problems or when the exploration was interrupted.
`)
}

// exploreConfig holds the flags of the explore command.
type exploreConfig struct {
	reportConfig
	audit           int
	timeout         time.Duration
	concurrency     int
	delay           time.Duration
	maxDocuments    int
	maxBytes        int64
	maxDepth        int
	maxDuration     time.Duration
	progress, quiet bool
}

func exploreFlags(c *exploreConfig) *flag.FlagSet {
	fs := newFlagSet("explore")
	c.reportConfig.register(fs)
	fs.Func("audit", "fetch `N` resources (sampled evenly), or all, and compare them with their metadata (status, length, hash, type, Last-Modified)", func(s string) error {
		if s == "all" {
			c.audit = -1
			return nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("want a number of resources or \"all\"")
		}
		c.audit = n
		return nil
	})
	fs.DurationVar(&c.timeout, "timeout", explorer.DefaultTimeout, "give up on a request after `duration` without data")
	fs.IntVar(&c.concurrency, "concurrency", explorer.DefaultConcurrency, "at most `n` requests in flight")
	fs.DurationVar(&c.delay, "delay", 0, "wait `duration` between requests to the same host")
	fs.IntVar(&c.maxDocuments, "max-documents", explorer.DefaultMaxDocuments, "stop after `n` documents and packages")
	fs.Int64Var(&c.maxBytes, "max-bytes", explorer.DefaultMaxBytes, "stop after reading `n` bytes in all")
	fs.IntVar(&c.maxDepth, "max-depth", explorer.DefaultMaxDepth, "do not go deeper than `n` levels below the Source Description")
	fs.DurationVar(&c.maxDuration, "max-duration", explorer.DefaultMaxDuration, "stop after `duration`")
	fs.BoolVar(&c.progress, "progress", false, "show progress on standard error even when it is not a terminal")
	fs.BoolVar(&c.quiet, "quiet", false, "never show progress")
	return fs
}

func runExplore(e *env, args []string) int {
	var c exploreConfig
	fs := exploreFlags(&c)
	if status, ok := parse(e, fs, args, exploreUsage); !ok {
		return status
	}
	usageErr := func(format string, args ...any) int {
		e.errorf("explore", format+"\nRun 'rscheck help explore' for usage.", args...)
		return exitTrouble
	}
	switch {
	case fs.NArg() != 1:
		return usageErr("give one URL to explore")
	case !isURL(fs.Arg(0)):
		return usageErr("%q is not an http or https URL", fs.Arg(0))
	case c.problem() != "":
		return usageErr("%s", c.problem())
	case c.timeout <= 0 || c.concurrency <= 0 || c.maxDocuments <= 0 || c.maxBytes <= 0 || c.maxDepth <= 0 || c.maxDuration <= 0:
		return usageErr("--timeout, --concurrency and the --max- limits must be positive")
	}
	vo, status := c.validatorOptions(e, "explore")
	if vo == nil {
		return status
	}
	opts := &explorer.Options{
		Fetcher:      &explorer.HTTPFetcher{UserAgent: "rscheck/" + toolVersion()},
		Validator:    vo,
		Concurrency:  c.concurrency,
		Delay:        c.delay,
		Timeout:      c.timeout,
		MaxDocuments: c.maxDocuments,
		MaxBytes:     c.maxBytes,
		MaxDepth:     c.maxDepth,
		MaxDuration:  c.maxDuration,
		Audit:        c.audit,
		UserAgent:    "rscheck/" + toolVersion(),
	}
	var prog *progressLine
	if !c.quiet && (c.progress || isTerminal(e.stderr)) {
		prog = &progressLine{w: e.stderr}
		opts.Progress = prog.update
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	res, err := explorer.Explore(ctx, fs.Arg(0), opts)
	prog.done()
	if res == nil {
		e.errorf("explore", "%v", err)
		return exitTrouble
	}
	out := res.Report()
	out.Version = toolVersion()
	if err := writeReport(e, c.output, c.format, out, c.reportOptions(e)); err != nil {
		e.errorf("explore", "%v", err)
		return exitTrouble
	}
	switch {
	case err != nil:
		e.errorf("explore", "interrupted: %v (the report covers what was done)", err)
		return exitTrouble
	case res.Stopped != "":
		fmt.Fprintf(e.stderr, "rscheck explore: stopped early: %s (the report covers what was done)\n", res.Stopped)
	}
	if out.Summary.Errors > 0 {
		return exitFindings
	}
	return exitOK
}

// progressLine shows an exploration's progress on one terminal line,
// redrawn at most ten times a second.
type progressLine struct {
	w    io.Writer
	mu   sync.Mutex
	last time.Time
	used bool
}

func (p *progressLine) update(pr explorer.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) < 100*time.Millisecond && pr.Phase != "done" {
		return
	}
	p.last, p.used = time.Now(), true
	line := fmt.Sprintf("%s: %d/%d documents, %s, %d resources", pr.Phase, pr.Validated, pr.Discovered, humanBytes(pr.Bytes), pr.Resources)
	if pr.Audited > 0 {
		line += fmt.Sprintf(", %d audited", pr.Audited)
	}
	if u := pr.URL; u != "" && len(line)+len(u) < 150 {
		line += "  " + u
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
}

func (p *progressLine) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.used {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
